"""Who is who in a live class: class codes, teacher keys, student ids and nicknames, the screens' signatures, the
expiry setting, and the errors of a class action.

* The **class code** (6 characters from :data:`ALPHABET`, which has no look-alikes such as 0/O and 1/I/l) lets a
  student join, pick and read. It is meant to be projected.
* The **teacher key** (:func:`new_teacher_key`: :func:`secrets.token_urlsafe`, 144 bits; only its sha256,
  :func:`hash_key`, is stored) is needed by every teacher action. It is compared in constant time
  (:func:`is_key_of`: :func:`hmac.compare_digest`).
* A **student id** is a random token the student's browser keeps, so a reload keeps their picks. It is not a
  password: knowing another's id lets one pick for them, nothing more.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from bpe_core.inputs import env_positive_int

#: Characters of a class code: upper-case letters and digits without 0/O, 1/I/L (and no lower case at all).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
EXPIRY_ENV = "BPE_EXPLORER_CLASS_EXPIRY_S"
#: Seconds without a teacher action after which a class is gone.
DEFAULT_EXPIRY_S = 12 * 3600
#: Longest nickname, in characters.
NICKNAME_MAX = 24
#: The URL parameter of a class code.
PARAM = "class"

_STUDENT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


class ClassError(Exception):
    """A class action that cannot be done; ``str(err)`` says why (English: pages show their own message)."""


class UnknownClass(ClassError):
    """No class with this code: never made, mistyped, expired or removed."""


class NotTeacher(ClassError):
    """A teacher action without the class's teacher key."""


class NotAllowed(ClassError):
    """An action the class's state does not allow now (a pick on a closed question, a second open question...)."""


def normalize_code(raw: str) -> str | None:
    """The class code in ``raw`` (spaces, dashes and case ignored), or ``None`` when it is not a code's shape."""
    if not isinstance(raw, str):
        return None
    code = re.sub(r"[\s-]+", "", raw).upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def new_code() -> str:
    """A random class code (:data:`CODE_LENGTH` characters of :data:`ALPHABET`: 31^6, about 887 million)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_teacher_key() -> str:
    """A random teacher key (24 URL-safe characters, 144 bits)."""
    return secrets.token_urlsafe(18)


def hash_key(key: str) -> str:
    """What a class stores of its teacher key: the sha256 of its UTF-8, in hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def is_key_of(key, key_hash: str) -> bool:
    """Whether ``key`` (anything a request sent) is the teacher key whose :func:`hash_key` is ``key_hash``; compared
    in constant time."""
    return isinstance(key, str) and hmac.compare_digest(key_hash, hash_key(key))


def new_student_id() -> str:
    """A random id for a student's browser to keep (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def is_student_id(value) -> bool:
    """Whether ``value`` has the shape of a student id (16-64 URL-safe characters)."""
    return isinstance(value, str) and _STUDENT_ID.fullmatch(value) is not None


def clean_nickname(raw: str | None) -> str:
    """A nickname as kept: whitespace runs made one space, control characters dropped, at most :data:`NICKNAME_MAX`
    characters; ``""`` for none (the page then says "Student 7"). Not escaped: escape it when drawing."""
    text = "".join(c for c in (raw or "") if c.isprintable() or c.isspace())
    return " ".join(text.split())[:NICKNAME_MAX]


def signature(version: int, activity: int, teacher: bool) -> str:
    """What a class screen was drawn at, and what its poll compares with: ``"7"`` (the version) for a student;
    ``"7.31"`` (the version, then the activity) for the teacher, whose screen also counts picks and joins."""
    return f"{version}.{activity}" if teacher else str(version)


def expiry_seconds() -> int:
    """``BPE_EXPLORER_CLASS_EXPIRY_S`` when a positive integer, else :data:`DEFAULT_EXPIRY_S`."""
    return env_positive_int(EXPIRY_ENV, DEFAULT_EXPIRY_S)
