"""Turning what a user hands us (bytes of a file, pasted text, a word-frequency list) into a corpus.

Every problem is an :class:`InputError` with a message meant for a person, never a traceback.
"""

from __future__ import annotations

import gettext
import json
import os
import re
from typing import NamedTuple

#: Largest input accepted, in bytes of UTF-8. Override with the ``BPE_EXPLORER_MAX_BYTES``
#: environment variable (the app and the CLI both read it; the README says so, the app's messages do not:
#: a student cannot set it).
DEFAULT_MAX_BYTES = 5_000_000
#: Largest count accepted on a line of a word-frequency list.
MAX_WORD_COUNT = 10**12

_WORD_COUNT_LINE = re.compile(r"^\s*(\S+)[ \t]+(-?\S+)\s*$")


_ENGLISH = gettext.NullTranslations()


class InputError(ValueError):
    """The input cannot be used; ``str(err)`` is a one-line message for the user."""


class SettingError(InputError):
    """Input or settings a training refuses, worded in the catalogs: ``str(err)`` is the English message,
    :meth:`message` translates it (a library raising it has no ``tr`` to hand: the caller translates).

    Args:
        msgid: the message id of the catalogs (marked with ``N_`` where it is raised), with ``{name}`` fields.
        fields: the values of its fields.
    """

    def __init__(self, msgid: str, **fields):
        self.msgid, self.fields = msgid, fields
        super().__init__(msgid.format(**fields))

    def __reduce__(self):  # picklable with its fields (keyword arguments are not in ``args``)
        return _setting_error, (type(self), self.msgid, self.fields)

    def message(self, tr=None) -> str:
        """The message through ``tr`` (a ``gettext.NullTranslations``; ``None``: English)."""
        return (tr or _ENGLISH).gettext(self.msgid).format(**self.fields)


def _setting_error(cls, msgid: str, fields: dict) -> SettingError:
    return cls(msgid, **fields)


#: What to install when a package of the app's extra (tokenizers, jieba, OpenCC) is missing.
EXTRA_HINT = "pip install 'bpe-explorer[app]'"


def env_positive_int(name: str, default: int) -> int:
    """The environment variable ``name`` as a positive integer; ``default`` when it is unset, not an integer,
    or not above 0 (a server's limit is never turned off by a typo). Every ``BPE_EXPLORER_*`` limit is read
    through this."""
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def max_input_bytes() -> int:
    """The configured input limit in bytes (``BPE_EXPLORER_MAX_BYTES`` or the default)."""
    return env_positive_int("BPE_EXPLORER_MAX_BYTES", DEFAULT_MAX_BYTES)


def format_size(n: int, tr=None) -> str:
    """A byte count for people: ``1 byte``, ``512 bytes``, ``12.3 kB``, ``4.5 MB`` (decimal units, as the
    limit is given).

    Args:
        n: a size in bytes.
        tr: a ``gettext.NullTranslations`` for the user's language (``None``: English).
    """
    tr = tr or _ENGLISH
    if n >= 1_000_000:
        return tr.gettext("{size} MB").format(size=f"{n / 1_000_000:.1f}")
    if n >= 1_000:
        return tr.gettext("{size} kB").format(size=f"{n / 1_000:.1f}")
    return tr.ngettext("{n} byte", "{n} bytes", n).format(n=n)


def size_message(n_bytes: int, limit: int, tr=None) -> str:
    """What a person reads when a text is over the limit: its size, what this server accepts, what to do.

    Args:
        n_bytes: the text's size in UTF-8 bytes; limit: the server's limit in bytes.
        tr: a ``gettext.NullTranslations`` for the user's language (``None``: English).
    """
    tr = tr or _ENGLISH
    return tr.gettext(
        "This text is {size}; this server accepts texts up to {limit}. Paste or upload a shorter text "
        "(a part of it is enough to watch BPE at work)."
    ).format(size=format_size(n_bytes, tr), limit=format_size(limit, tr))


def check_size(n_bytes: int, limit: int | None = None, tr=None) -> None:
    """Raise :class:`InputError` with :func:`size_message` when ``n_bytes`` exceeds the limit (bytes;
    default :func:`max_input_bytes`)."""
    limit = max_input_bytes() if limit is None else limit
    if n_bytes > limit:
        raise InputError(size_message(n_bytes, limit, tr))


def decode_bytes(data: bytes, limit: int | None = None, tr=None) -> str:
    """Decode a file's bytes as UTF-8 (a leading BOM is dropped). ``tr`` translates the size message.

    Raises:
        InputError: too large, binary (contains NUL bytes or a known binary signature),
            UTF-16 (BOM), or not valid UTF-8 (the message gives the byte offset).
    """
    check_size(len(data), limit, tr)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("The file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8.")
    if data.startswith((b"\x89PNG", b"PK\x03\x04", b"%PDF", b"\x7fELF", b"GIF8", b"\xff\xd8\xff")):
        raise InputError("This looks like a binary file (image, archive or program), not text.")
    if b"\x00" in data:
        raise InputError("This looks like a binary file: it contains NUL bytes. Only UTF-8 text is accepted.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(
            f"The file is not valid UTF-8 (byte {err.start} is 0x{data[err.start]:02x}); "
            "save it as UTF-8 (Latin-1 and other encodings are not read)."
        ) from None


def clean_text(text: str, limit: int | None = None, tr=None) -> str:
    """Check pasted text: size limit, NUL characters, lone surrogates; drop a leading BOM. ``tr`` translates
    the size message.

    Other control characters, CRLF and lone CR are kept as they are (they are part of the text).

    Raises:
        InputError: too large, contains NUL, or contains a lone surrogate (not encodable as UTF-8).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(
            f"The text contains a lone surrogate (U+{ord(text[err.start]):04X} at character {err.start}), "
            "which is not valid Unicode text."
        ) from None
    check_size(len(encoded), limit, tr)
    if "\x00" in text:
        raise InputError("The text contains NUL characters (U+0000); it looks like binary data.")
    return text


def looks_like_word_counts(text: str) -> bool:
    """True when the text reads as a textbook word-frequency list: every non-blank line has two fields
    (``word count``, or ``word: count`` as textbooks print dicts) and most second fields are numbers.

    A list with a few bad counts (``lower two``, ``newest -6``, ``low 2.5``) still counts as a list, so
    :func:`parse_word_counts` can name the bad line instead of the text being trained as prose.
    """
    # Line by line, stopping at the first line that is not two fields: prose stops at its first line,
    # where normalizing every line of a book first took longer than reading the file.
    lines = numeric = 0
    for raw in text.splitlines():
        if not raw.strip():
            continue
        m = _WORD_COUNT_LINE.match(_normalize_count_line(raw))
        if not m:
            return False
        lines += 1
        if re.fullmatch(r"[-+]?\d+(?:[.,]\d*)?", m.group(2)):
            numeric += 1
    return numeric * 2 > lines


def _normalize_count_line(raw: str) -> str:
    line = raw.strip().rstrip(",")
    line = re.sub(r"^['\"](.*)['\"]\s*:\s*", r"\1 ", line)
    return re.sub(r"^(\S+):\s+", r"\1 ", line)


def parse_word_counts(text: str) -> dict[str, int]:
    """Parse a textbook word-frequency list: one ``word count`` per line → ``{word: count}``.

    A word may also be written ``word: count`` or ``'word': count`` (with a trailing comma), as
    textbooks print dictionaries. Repeated words add up; order is first appearance.

    Raises:
        InputError: a bad line (not two fields, a count that is not a positive integer, or a
            count above :data:`MAX_WORD_COUNT`), naming the line number; or no words at all.
    """
    counts: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _normalize_count_line(raw)
        if not line:
            continue
        m = _WORD_COUNT_LINE.match(line)
        if not m:
            raise InputError(f"Line {lineno}: expected 'word count', got {raw.strip()[:60]!r}.")
        word, count_text = m.group(1), m.group(2)
        if not re.fullmatch(r"-?\d+", count_text):
            raise InputError(f"Line {lineno}: the count {count_text[:30]!r} is not a whole number.")
        if len(count_text.lstrip("-0")) > len(str(MAX_WORD_COUNT)):
            # checked before int(): Python refuses to convert strings of more than 4,300 digits
            raise InputError(f"Line {lineno}: the count of {word!r} is above the limit of {MAX_WORD_COUNT:,}.")
        count = int(count_text)
        if count <= 0:
            raise InputError(f"Line {lineno}: the count of {word!r} must be positive, got {count}.")
        if count > MAX_WORD_COUNT:
            raise InputError(f"Line {lineno}: the count of {word!r} is above the limit of {MAX_WORD_COUNT:,}.")
        counts[word] = counts.get(word, 0) + count
    if not counts:
        raise InputError("The word-frequency list is empty: write one 'word count' per line.")
    return counts


class LineEnds(NamedTuple):
    """Line ends of a text: ``crlf`` CR LF pairs, ``cr`` lone CRs, ``lf`` lone LFs (counts)."""

    crlf: int
    cr: int
    lf: int


def line_ends(text: str) -> LineEnds:
    """Count the line ends of ``text`` (a CR LF pair counts once, as ``crlf``, not as a CR and an LF).

    A text with many CR LF pairs (a file saved on Windows) trains CR + LF as one of its first merges, since the
    pair occurs once per line; the app says so and offers :func:`to_lf`.
    """
    crlf = text.count("\r\n")
    return LineEnds(crlf, text.count("\r") - crlf, text.count("\n") - crlf)


def to_lf(text: str) -> str:
    """``text`` with every CR LF pair and every lone CR written as LF (nothing else changes)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_json(path):
    """The JSON document of the file ``path`` (a ``pathlib.Path``; any JSON value). Raises :class:`InputError`
    (one line) for a file that cannot be read, is not UTF-8 or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"{path} cannot be read as JSON ({err}).") from None
