"""A live class: a teacher steps, students follow on their own screens and answer "which pair merges next?".

No Streamlit here (the pages draw it); the SQL is in :mod:`bpe_server.class_db`, in the corpus store's SQLite file, so a
class survives a server restart like a link does.

Who may do what is decided here, on the server, at every call -- never by what a page shows:

* The **class code** (6 characters from :data:`ALPHABET`, which has no look-alikes such as 0/O and 1/I/l) lets a
  student join, pick and read. It is meant to be projected.
* The **teacher key** (:func:`secrets.token_urlsafe`, 144 bits; only its sha256 is stored) is needed by every teacher
  action: step, ask, close, reveal, display choices, end. A wrong key raises :class:`NotTeacher` and changes
  nothing. The key is compared in constant time (:func:`hmac.compare_digest`).
* A **student id** is a random token the student's browser keeps, so a reload keeps their picks. It is not a
  password: knowing another's id lets one pick for them, nothing more.

A **round** asks about merge ``step + 1``: the next merge, which no screen shows until it is revealed. While a round
is open or closed but not revealed, nobody's step may pass ``merge - 1`` (:attr:`Poll.limit`). A student's pick can
change until the round closes; one row per student and merge holds it, so a pick is counted exactly once.

A class **expires** :data:`DEFAULT_EXPIRY_S` (12 h, or ``BPE_EXPLORER_CLASS_EXPIRY_S``) after the last teacher
action; students' polls and picks do not keep it alive. Its corpus is pinned in the store (never evicted) until then.

Polls read :meth:`Classes.poll`: one primary-key row (two counters and the step), so a screen that finds nothing
new costs the server one small read.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import hmac
import io
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass

from bpe_core import quiz
from bpe_core.inputs import env_positive_int

from . import class_db, corpus_store
from .corpus_store import CorpusStore

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

RIGHT, TIED, WRONG = quiz.RIGHT, quiz.TIED, quiz.WRONG
GRADES = (RIGHT, TIED, WRONG)
OPEN, CLOSED, REVEALED = "open", "closed", "revealed"
_STUDENT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


class ClassError(Exception):
    """A class action that cannot be done; ``str(err)`` says why (English: pages show their own message)."""


class UnknownClass(ClassError):
    """No class with this code: never made, mistyped, expired or removed."""


class NotTeacher(ClassError):
    """A teacher action without the class's teacher key."""


class NotAllowed(ClassError):
    """An action the class's state does not allow now (a pick on a closed question, a second open question...)."""


def option_grades(q: quiz.Question) -> tuple[str, ...]:
    """The grade of each option of a quiz question, in the order shown: :data:`RIGHT` for the rule's pair,
    :data:`TIED` for another pair at the top count, :data:`WRONG` otherwise (:func:`bpe_core.quiz.grade`).

    The one place the class reads the quiz's grading: a class stores these grades when it opens a round, so its
    tallies never need the trained run."""
    return tuple(quiz.grade(q, i) for i in range(len(q.options)))


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


def _hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def expiry_seconds() -> int:
    """``BPE_EXPLORER_CLASS_EXPIRY_S`` when a positive integer, else :data:`DEFAULT_EXPIRY_S`."""
    return env_positive_int(EXPIRY_ENV, DEFAULT_EXPIRY_S)


@dataclass(frozen=True)
class Poll:
    """What a screen polls: ``version`` changes with anything every screen shows, ``activity`` with picks and joins;
    ``step`` is the teacher's; ``ended``: the teacher ended the class; ``asking``: a question is open or closed and
    not yet revealed (no screen may show the merge it asks about)."""

    version: int
    activity: int
    step: int
    ended: bool
    asking: bool = False


@dataclass(frozen=True)
class Tally:
    """The picks of one round: ``counts[i]`` students picked option ``i``; graded right / tied / wrong."""

    merge: int
    state: str
    grades: tuple[str, ...]
    counts: tuple[int, ...]

    @property
    def answered(self) -> int:
        return sum(self.counts)

    def graded(self, grade: str) -> int:
        """Picks graded ``grade``."""
        return sum(c for c, g in zip(self.counts, self.grades, strict=True) if g == grade)

    def share(self, grade: str) -> float:
        """The share (0..1) of the answers graded ``grade``; 0 when nobody answered."""
        return self.graded(grade) / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class ClassState:
    """A class as its screens draw it.

    Attributes:
        params: the page's URL parameters of the class (corpus and settings), as the teacher's page had them.
        open_round: the round not yet revealed (open or closed), with its tally, or ``None``.
        limit: the highest step a screen may show: ``open_round.merge - 1`` while one is unrevealed, else ``None``.
        students: how many joined.
        revealed: the merges of the revealed rounds (their tallies: :meth:`Classes.tally`).
        me: the asking student's ``(number, nickname)`` (:meth:`Classes.state` with ``student``), else ``None``.
    """

    code: str
    params: dict
    step: int
    version: int
    activity: int
    ended: bool
    show_counts: bool
    show_histogram: bool
    show_ranking: bool
    show_names: bool
    open_round: Tally | None
    students: int
    revealed: tuple[int, ...] = ()
    me: tuple[int, str] | None = None

    @property
    def limit(self) -> int | None:
        return None if self.open_round is None else self.open_round.merge - 1

    @property
    def shown_step(self) -> int:
        """The step a following screen shows: :attr:`step`, never past :attr:`limit`. The server keeps them apart
        (:meth:`Classes.set_step`), but a screen's reads can straddle a teacher's action (the teacher steps back and
        asks): the screen then waits at the limit, still following, rather than treating it as a step of its own."""
        return self.step if self.limit is None else min(self.step, self.limit)


@dataclass(frozen=True)
class StudentScore:
    number: int
    nickname: str
    right: int
    tied: int
    answered: int


@dataclass(frozen=True)
class Summary:
    """The end of a class: every revealed round's tally (by merge), the hardest merges (lowest share right, then highest
    share wrong; at most three, only rounds someone answered) and every student's score (by number)."""

    rounds: tuple[Tally, ...]
    hardest: tuple[Tally, ...]
    students: tuple[StudentScore, ...]


class Classes:
    """The live classes kept in ``store``'s SQLite file.

    Args:
        store: the corpus store (its file holds the classes; a class's stored corpus is pinned there).
        expiry_s: seconds without a teacher action after which a class is gone (default :func:`expiry_seconds`).
        clock: the time in Unix seconds (``time.time``; tests pass their own to cross an expiry without waiting).

    Every method opens its own connection, so one object serves all sessions and threads.
    """

    def __init__(self, store: CorpusStore, expiry_s: int | None = None, clock: Callable[[], float] = time.time):
        self.store = store
        self.expiry_s = int(expiry_s or expiry_seconds())
        self.clock = clock
        self._readers = threading.local()
        with closing(store.connect()) as conn:
            class_db.create_schema(conn)

    def _reader(self):
        """This thread's connection for polls, kept open: opening one costs more than the read itself. (WAL: each
        read sees every transaction committed before it; the connection is closed with its thread.)"""
        conn = getattr(self._readers, "conn", None)
        if conn is None:
            conn = self._readers.conn = self.store.connect()
        return conn

    @contextmanager
    def _tx(self):
        """A write transaction taken up front (``BEGIN IMMEDIATE``): two teachers' or students' writes never
        interleave, so a read-then-write inside it sees the latest state."""
        with closing(self.store.connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def _live_row(self, conn, code: str) -> dict:
        row = class_db.class_row(conn, code) if isinstance(code, str) else None
        if row is None or row["teacher_seen"] < self.clock() - self.expiry_s:
            raise UnknownClass(f"no class {code!r}")
        return row

    def _teacher_row(self, conn, code: str, key: str) -> dict:
        row = self._live_row(conn, code)
        if not isinstance(key, str) or not hmac.compare_digest(row["key_hash"], _hash_key(key)):
            raise NotTeacher("a teacher action needs the teacher key")
        if row["ended"]:
            raise NotAllowed("the class has ended")
        return row

    def _pin(self, code: str, corpus_id: str | None, now: float) -> None:
        if corpus_id:
            self.store.pin(f"class:{code}", corpus_id, now + self.expiry_s)

    # ------------------------------------------------------------------------------------------ teacher
    def start(self, params: dict, step: int = 0, corpus_id: str | None = None) -> tuple[str, str]:
        """Start a class on the page's URL parameters ``params`` (``{name: str}``, the corpus and settings) at
        ``step``; ``corpus_id``: the store's id of its corpus when it is kept there (pinned while the class lives).
        Returns ``(code, teacher_key)``. Expired classes are removed first."""
        now = self.clock()
        self.purge()
        key = secrets.token_urlsafe(18)
        blob = json.dumps({str(k): str(v) for k, v in params.items()}, sort_keys=True)
        for _ in range(20):  # a taken code (one in millions while few classes live) draws again
            code = new_code()
            with self._tx() as conn:
                if class_db.insert_class(conn, code, _hash_key(key), blob, corpus_id, max(0, int(step)), now):
                    break
        else:  # pragma: no cover - 20 collisions in a row mean a broken random source
            raise ClassError("no free class code")
        self._pin(code, corpus_id, now)
        return code, key

    def is_teacher(self, code: str, key: str) -> bool:
        """Whether ``key`` is the teacher key of live class ``code`` (reading only; not a teacher action)."""
        with closing(self.store.connect()) as conn:
            try:
                self._teacher_row(conn, code, key)
            except ClassError:
                return False
        return True

    def set_step(self, code: str, key: str, step: int) -> int:
        """Move the class to ``step`` (at least 0, at most the open question's merge - 1); return the step set.
        The page clamps to its run's merges. Raises :class:`UnknownClass`, :class:`NotTeacher`."""
        with self._tx() as conn:
            row = self._teacher_row(conn, code, key)
            step = max(0, int(step))
            pending = class_db.unrevealed_round(conn, code)
            if pending is not None:
                step = min(step, pending[0] - 1)
            class_db.set_step(conn, code, step)
            class_db.teacher_touch(conn, code, self.clock())
        self._pin(code, row["corpus_id"], self.clock())
        return step

    def ask(self, code: str, key: str, grades: Sequence[str]) -> int:
        """Open a question on the class's next merge (``step + 1``) whose options, in the order shown, have
        ``grades`` (:func:`option_grades`: exactly one :data:`RIGHT`). A closed, unrevealed question on that merge
        opens again with its picks. Returns the merge asked.

        Raises:
            UnknownClass, NotTeacher; NotAllowed: another question is open, or this merge was revealed already;
            ValueError: grades without exactly one right.
        """
        grades = tuple(grades)
        if any(g not in GRADES for g in grades) or grades.count(RIGHT) != 1:
            raise ValueError("a question's options need exactly one right grade")
        with self._tx() as conn:
            row = self._teacher_row(conn, code, key)
            merge = row["step"] + 1
            pending = class_db.unrevealed_round(conn, code)
            if pending is not None and pending[0] != merge:
                raise NotAllowed(f"the question on merge {pending[0]} is not revealed yet")
            done = class_db.round_row(conn, code, merge)
            if done is not None and done[1] == REVEALED:
                raise NotAllowed(f"merge {merge} was revealed already")
            if done is not None and done[2] != ",".join(grades):
                raise ValueError("the question on this merge was asked with other options")
            class_db.open_round(conn, code, merge, ",".join(grades), self.clock())
            class_db.teacher_touch(conn, code, self.clock())
        return merge

    def _move_round(self, code: str, key: str, frm: tuple[str, ...], to: str) -> int:
        with self._tx() as conn:
            self._teacher_row(conn, code, key)
            pending = class_db.unrevealed_round(conn, code)
            if pending is None or pending[1] not in frm:
                raise NotAllowed("no question in that state")
            class_db.set_round_state(conn, code, pending[0], to)
            class_db.teacher_touch(conn, code, self.clock())
        return pending[0]

    def close(self, code: str, key: str) -> int:
        """Close the open question (picks can no longer change); return its merge."""
        return self._move_round(code, key, (OPEN,), CLOSED)

    def reopen(self, code: str, key: str) -> int:
        """Open the closed, unrevealed question again; return its merge."""
        return self._move_round(code, key, (CLOSED,), OPEN)

    def reveal(self, code: str, key: str) -> int:
        """Reveal the open or closed question (closing it): its merge may now be shown. Return its merge."""
        return self._move_round(code, key, (OPEN, CLOSED), REVEALED)

    def set_display(self, code: str, key: str, **flags: bool) -> None:
        """Set display choices: ``show_counts`` (pair counts on the question), ``show_histogram`` (live picks on
        the projector), ``show_ranking`` (a public ranking in the summary), ``show_names`` (nicknames in it)."""
        with self._tx() as conn:
            self._teacher_row(conn, code, key)
            for flag, value in flags.items():
                class_db.set_flag(conn, code, flag, bool(value))
            class_db.teacher_touch(conn, code, self.clock())

    def end(self, code: str, key: str) -> None:
        """End the class: no more steps or picks; screens show the summary until it expires. Unpins its corpus."""
        with self._tx() as conn:
            self._teacher_row(conn, code, key)
            pending = class_db.unrevealed_round(conn, code)
            if pending is not None:
                class_db.set_round_state(conn, code, pending[0], REVEALED)
            class_db.end_class(conn, code)
            class_db.teacher_touch(conn, code, self.clock())
        self.store.unpin(f"class:{code}")

    # ------------------------------------------------------------------------------------------ students
    def join(self, code: str, student: str, nickname: str | None = None) -> tuple[int, str]:
        """Join ``student`` (an id from :func:`new_student_id`) to the class, or find them joined already (a reload):
        return ``(number, nickname)``. A new ``nickname`` (cleaned by :func:`clean_nickname`) replaces the old.

        Raises:
            UnknownClass; ValueError: not a student id.
        """
        if not is_student_id(student):
            raise ValueError("not a student id")
        nick = clean_nickname(nickname)
        with self._tx() as conn:
            self._live_row(conn, code)
            found = class_db.student_row(conn, code, student)
            if found is not None:
                if nick and nick != found[1]:
                    class_db.set_nickname(conn, code, student, nick)
                    return found[0], nick
                return found
            number = class_db.add_student(conn, code, student, nick, self.clock())
            class_db.bump_activity(conn, code)
        return number, nick

    def pick(self, code: str, student: str, merge: int, option: int) -> None:
        """Set ``student``'s pick on the open question of ``merge`` to ``option`` (0-based, in the order shown);
        a later pick replaces it. Raises :class:`UnknownClass`; :class:`NotAllowed` when that question is not open
        or the student has not joined; ``ValueError`` for an option outside the question."""
        with self._tx() as conn:
            self._live_row(conn, code)
            if class_db.student_row(conn, code, student) is None:
                raise NotAllowed("join the class first")
            found = class_db.round_row(conn, code, int(merge))
            if found is None or found[1] != OPEN:
                raise NotAllowed("this question is not open")
            if not 0 <= int(option) < len(found[2].split(",")):
                raise ValueError(f"option {option} is outside the question")
            class_db.upsert_pick(conn, code, int(merge), student, int(option), self.clock())
            class_db.bump_activity(conn, code)

    # ------------------------------------------------------------------------------------------ reading
    def poll(self, code: str) -> Poll | None:
        """The counters of class ``code``, or ``None`` when it is unknown or expired. One read, no write: a poll
        does not keep a class alive."""
        row = class_db.poll_row(self._reader(), code)
        if row is None or row[4] < self.clock() - self.expiry_s:
            return None
        return Poll(row[0], row[1], row[2], bool(row[3]), bool(row[5]))

    def state(self, code: str, student: str | None = None) -> ClassState:
        """The class as screens draw it; with ``student`` (an id), also who that student is (``me``). One connection
        for all of it: every student's screen reads this after each of the teacher's steps. Raises
        :class:`UnknownClass`."""
        with closing(self.store.connect()) as conn:
            row = self._live_row(conn, code)
            rounds = class_db.rounds(conn, code)
            pending = next((r for r in rounds if r[1] != REVEALED), None)  # at most one is not revealed
            tally = self._tally(conn, code, pending) if pending else None
            n = len(class_db.students(conn, code))
            me = class_db.student_row(conn, code, student) if student else None
        return ClassState(
            code, json.loads(row["params"]), row["step"], row["version"], row["activity"], bool(row["ended"]),
            bool(row["show_counts"]), bool(row["show_histogram"]), bool(row["show_ranking"]), bool(row["show_names"]),
            tally, n, tuple(r[0] for r in rounds if r[1] == REVEALED), None if me is None else (me[0], me[1]),
        )  # fmt: skip

    @staticmethod
    def _tally(conn, code: str, round_row: tuple[int, str, str]) -> Tally:
        merge, state, grades = round_row
        grades = tuple(grades.split(","))
        counts = class_db.pick_counts(conn, code, merge)
        return Tally(merge, state, grades, tuple(counts.get(i, 0) for i in range(len(grades))))

    def tally(self, code: str, merge: int) -> Tally | None:
        """The tally of the question on ``merge``, or ``None`` when none was asked. Raises :class:`UnknownClass`."""
        with closing(self.store.connect()) as conn:
            self._live_row(conn, code)
            found = class_db.round_row(conn, code, int(merge))
            return None if found is None else self._tally(conn, code, found)

    def student(self, code: str, student: str) -> tuple[int, str] | None:
        """``(number, nickname)`` of a joined student, else ``None``."""
        with closing(self.store.connect()) as conn:
            return class_db.student_row(conn, code, student)

    def my_picks(self, code: str, student: str) -> dict[int, int]:
        """``{merge: option}``: the student's own picks."""
        with closing(self.store.connect()) as conn:
            return class_db.student_picks(conn, code, student)

    def summary(self, code: str) -> Summary:
        """Every revealed round's tally, the hardest merges and every student's score. Raises :class:`UnknownClass`."""
        with closing(self.store.connect()) as conn:
            self._live_row(conn, code)
            revealed = [r for r in class_db.rounds(conn, code) if r[1] == REVEALED]
            tallies = tuple(self._tally(conn, code, r) for r in revealed)
            grades = {t.merge: t.grades for t in tallies}
            scores: dict[str, list[int]] = {}
            for merge, student, option in class_db.picks(conn, code):
                if merge in grades:
                    g = grades[merge][option]
                    s = scores.setdefault(student, [0, 0, 0])
                    s[0] += g == RIGHT
                    s[1] += g == TIED
                    s[2] += 1
            people = tuple(
                StudentScore(number, nick, *scores.get(sid, (0, 0, 0)))
                for sid, number, nick in class_db.students(conn, code)
            )
        answered = [t for t in tallies if t.answered]
        hardest = tuple(sorted(answered, key=lambda t: (t.share(RIGHT), -t.share(WRONG), t.merge))[:3])
        return Summary(tallies, hardest, people)

    def my_score(self, code: str, student: str) -> StudentScore | None:
        """The student's own score over revealed rounds, or ``None`` when not joined."""
        number = self.student(code, student)
        if number is None:
            return None
        return next((s for s in self.summary(code).students if s.number == number[0]), None)

    def csv_text(self, code: str) -> str:
        """The tallies as CSV (UTF-8 text, a header row, one row per revealed merge): merge, answered, right, tied,
        wrong, their shares (0..1, 3 decimals) and the picks of each option in the order shown (``;``-separated)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["merge", "answered", "right", "tied", "wrong", "right_share", "tied_share", "wrong_share",
                    "option_picks", "option_grades"])  # fmt: skip
        for t in self.summary(code).rounds:
            w.writerow([t.merge, t.answered, *(t.graded(g) for g in GRADES), *(f"{t.share(g):.3f}" for g in GRADES),
                        ";".join(map(str, t.counts)), ";".join(t.grades)])  # fmt: skip
        return out.getvalue()

    def purge(self) -> list[str]:
        """Remove the expired classes (and their pins); return their codes."""
        with self._tx() as conn:
            codes = class_db.expired_codes(conn, self.clock() - self.expiry_s)
            for code in codes:
                class_db.delete_class(conn, code)
        for code in codes:
            self.store.unpin(f"class:{code}")
        return codes


@functools.lru_cache(maxsize=4)
def _classes(path: str, max_bytes: int) -> Classes:
    return Classes(corpus_store.default_store())


def default_classes() -> Classes:
    """This server's classes, in the corpus store's file (:func:`bpe_server.corpus_store.default_store`): one object
    per store, shared by the pages and the poll endpoint.

    Raises:
        bpe_server.store_db.StoreUnavailable: PostgreSQL cannot be reached (not remembered: the next call tries again).
    """
    return _classes(str(corpus_store.default_path()), corpus_store.default_max_bytes())
