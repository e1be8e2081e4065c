"""A live class as its screens read it: what a poll answers, the class's state, its tallies, scores and summary.

:class:`ClassReader` is the reading half of :class:`bpe_server.live_class.Classes` (which adds the teacher's and the
students' actions): its connections, the checks every call makes (a live class, the teacher key) and the reads. The
numbers of the results (shares, scores, the hardest merges, the CSV) are :mod:`bpe_core.teaching.class_results`'s.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from contextlib import closing, contextmanager
from dataclasses import dataclass

from bpe_core.teaching.class_results import StudentScore, Summary, Tally, summarize, tallies_csv

from . import class_db
from .class_codes import ClassError, NotAllowed, NotTeacher, UnknownClass, expiry_seconds, is_key_of
from .corpus_store import CorpusStore

#: The states of a round: open (picks change), closed (picks kept, nothing shown), revealed (the merge is shown).
OPEN, CLOSED, REVEALED = "open", "closed", "revealed"


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
class ClassState:
    """A class as its screens draw it.

    Attributes:
        params: the page's URL parameters of the class (corpus and settings), as the teacher's page had them.
        open_round: the round not yet revealed (open or closed), with its tally, or ``None``.
        limit: the highest step a screen may show: ``open_round.merge - 1`` while one is unrevealed, else ``None``.
        students: how many joined.
        revealed: the merges of the revealed rounds (their tallies: :meth:`ClassReader.tally`).
        me: the asking student's ``(number, nickname)`` (:meth:`ClassReader.state` with ``student``), else ``None``.
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
        (:meth:`bpe_server.live_class.Classes.set_step`), but a screen's reads can straddle a teacher's action (the
        teacher steps back and asks): the screen then waits at the limit, still following, rather than treating it
        as a step of its own."""
        return self.step if self.limit is None else min(self.step, self.limit)


class ClassReader:
    """The live classes kept in ``store``'s database, read.

    Args:
        store: the corpus store (its file holds the classes; a class's stored corpus is pinned there).
        expiry_s: seconds without a teacher action after which a class is gone (default
            :func:`bpe_server.class_codes.expiry_seconds`).
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
        if not is_key_of(key, row["key_hash"]):
            raise NotTeacher("a teacher action needs the teacher key")
        if row["ended"]:
            raise NotAllowed("the class has ended")
        return row

    @staticmethod
    def _tally(conn, code: str, round_row: tuple[int, str, str]) -> Tally:
        merge, state, grades = round_row
        return Tally.of(merge, state, grades.split(","), class_db.pick_counts(conn, code, merge))

    def is_teacher(self, code: str, key: str) -> bool:
        """Whether ``key`` is the teacher key of live class ``code`` (reading only; not a teacher action)."""
        with closing(self.store.connect()) as conn:
            try:
                self._teacher_row(conn, code, key)
            except ClassError:
                return False
        return True

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
        :class:`bpe_server.class_codes.UnknownClass`."""
        with closing(self.store.connect()) as conn:
            row = self._live_row(conn, code)
            rounds = class_db.rounds(conn, code)
            pending = next((r for r in rounds if r[1] != REVEALED), None)  # at most one is not revealed
            tally = self._tally(conn, code, pending) if pending else None
            n = len(class_db.students(conn, code))
            me = class_db.student_row(conn, code, student) if student else None
        return ClassState(
            code=code,
            params=json.loads(row["params"]),
            step=row["step"],
            version=row["version"],
            activity=row["activity"],
            ended=bool(row["ended"]),
            show_counts=bool(row["show_counts"]),
            show_histogram=bool(row["show_histogram"]),
            show_ranking=bool(row["show_ranking"]),
            show_names=bool(row["show_names"]),
            open_round=tally,
            students=n,
            revealed=tuple(r[0] for r in rounds if r[1] == REVEALED),
            me=None if me is None else (me[0], me[1]),
        )

    def tally(self, code: str, merge: int) -> Tally | None:
        """The tally of the question on ``merge``, or ``None`` when none was asked. Raises
        :class:`bpe_server.class_codes.UnknownClass`."""
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
        """Every revealed round's tally, the hardest merges and every student's score
        (:func:`bpe_core.teaching.class_results.summarize`). Raises :class:`bpe_server.class_codes.UnknownClass`."""
        with closing(self.store.connect()) as conn:
            self._live_row(conn, code)
            revealed = [r for r in class_db.rounds(conn, code) if r[1] == REVEALED]
            tallies = [self._tally(conn, code, r) for r in revealed]
            return summarize(tallies, class_db.picks(conn, code), class_db.students(conn, code))

    def my_score(self, code: str, student: str) -> StudentScore | None:
        """The student's own score over revealed rounds, or ``None`` when not joined."""
        number = self.student(code, student)
        if number is None:
            return None
        return next((s for s in self.summary(code).students if s.number == number[0]), None)

    def csv_text(self, code: str) -> str:
        """The revealed rounds' tallies as CSV (:func:`bpe_core.teaching.class_results.tallies_csv`)."""
        return tallies_csv(self.summary(code).rounds)
