"""A live class: a teacher steps, students follow on their own screens and answer "which pair merges next?".

No Streamlit here (the pages draw it); the SQL is in :mod:`bpe_server.class_db`, in the corpus store's database, so a
class survives a server restart like a link does. :class:`Classes` is the one interface: the reads are
:class:`bpe_server.class_state.ClassReader`'s, the actions below; codes, keys and ids are
:mod:`bpe_server.class_codes`'s.

Who may do what is decided here, on the server, at every call -- never by what a page shows: the **class code** lets
a student join, pick and read; the **teacher key** is needed by every teacher action (step, ask, close, reveal,
display choices, end): a wrong key raises :class:`NotTeacher` and changes nothing; a **student id** (kept by the
student's browser) holds their picks.

A **round** asks about merge ``step + 1``: the next merge, which no screen shows until it is revealed. While a round
is open or closed but not revealed, nobody's step may pass ``merge - 1`` (:attr:`ClassState.limit`). A student's pick
can change until the round closes; one row per student and merge holds it, so a pick is counted exactly once.

A class **expires** :data:`DEFAULT_EXPIRY_S` (12 h, or ``BPE_EXPLORER_CLASS_EXPIRY_S``) after the last teacher
action; students' polls and picks do not keep it alive. Its corpus is pinned in the store (never evicted) until then.

Polls read :meth:`Classes.poll`: one primary-key row (two counters and the step), so a screen that finds nothing
new costs the server one small read.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence

from bpe_core.teaching import quiz
from bpe_core.teaching.class_results import GRADES, RIGHT, TIED, WRONG, StudentScore, Summary, Tally

from . import class_db, corpus_store
from .class_codes import (
    ALPHABET,
    CODE_LENGTH,
    DEFAULT_EXPIRY_S,
    NICKNAME_MAX,
    PARAM,
    ClassError,
    NotAllowed,
    NotTeacher,
    UnknownClass,
    clean_nickname,
    expiry_seconds,
    hash_key,
    is_student_id,
    new_code,
    new_student_id,
    new_teacher_key,
    normalize_code,
    signature,
)
from .class_state import CLOSED, OPEN, REVEALED, ClassReader, ClassState, Poll

__all__ = [
    "ALPHABET",
    "CLOSED",
    "CODE_LENGTH",
    "DEFAULT_EXPIRY_S",
    "GRADES",
    "NICKNAME_MAX",
    "OPEN",
    "PARAM",
    "REVEALED",
    "RIGHT",
    "TIED",
    "WRONG",
    "ClassError",
    "ClassState",
    "Classes",
    "NotAllowed",
    "NotTeacher",
    "Poll",
    "StudentScore",
    "Summary",
    "Tally",
    "UnknownClass",
    "clean_nickname",
    "default_classes",
    "expiry_seconds",
    "is_student_id",
    "new_code",
    "new_student_id",
    "normalize_code",
    "option_grades",
    "signature",
]


def option_grades(q: quiz.Question) -> tuple[str, ...]:
    """The grade of each option of a quiz question, in the order shown: :data:`RIGHT` for the rule's pair,
    :data:`TIED` for another pair at the top count, :data:`WRONG` otherwise (:func:`bpe_core.teaching.quiz.grade`).

    The one place the class reads the quiz's grading: a class stores these grades when it opens a round, so its
    tallies never need the trained run."""
    return tuple(quiz.grade(q, i) for i in range(len(q.options)))


class Classes(ClassReader):
    """The live classes kept in ``store``'s database: the reads of :class:`bpe_server.class_state.ClassReader` (same
    arguments: ``store``, ``expiry_s``, ``clock``) and the teacher's and the students' actions.

    Every method opens its own connection, so one object serves all sessions and threads.
    """

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
        key = new_teacher_key()
        blob = json.dumps({str(k): str(v) for k, v in params.items()}, sort_keys=True)
        for _ in range(20):  # a taken code (one in millions while few classes live) draws again
            code = new_code()
            with self._tx() as conn:
                if class_db.insert_class(conn, code, hash_key(key), blob, corpus_id, max(0, int(step)), now):
                    break
        else:  # pragma: no cover - 20 collisions in a row mean a broken random source
            raise ClassError("no free class code")
        self._pin(code, corpus_id, now)
        return code, key

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
