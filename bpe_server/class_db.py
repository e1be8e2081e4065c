"""The live classes' tables and every SQL statement on them, in plain SQL (one place to port to another database).

The tables sit in the corpus store's SQLite file (:mod:`bpe_server.corpus_store`), so a class outlives a server
restart as links do. Each function takes an open connection (:meth:`bpe_server.corpus_store.CorpusStore.connect`) and
runs its statements; the caller (:mod:`bpe_server.live_class`) decides the transactions. Placeholders are ``?``
(sqlite3's ``qmark`` style); the upserts use ``ON CONFLICT ... DO UPDATE``, which PostgreSQL spells the same way.

Tables:

* ``classes`` -- one row per class: its code, the hash of the teacher key, the page's URL parameters (corpus and
  settings, JSON), the class's step, two counters that polls read (``version``: anything every screen shows
  changed; ``activity``: a pick or a join, which the teacher's screen counts), the time of the last teacher action
  (expiry counts from it), whether it ended, and the teacher's display choices.
* ``class_students`` -- who joined: the id their browser keeps, their number ("Student 7") and nickname.
* ``class_rounds`` -- one question per merge: its state (``open``, ``closed``, ``revealed``) and the grade of
  each option (``right`` / ``tied`` / ``wrong``, comma-separated, in the order the options are shown).
* ``class_picks`` -- one row per student and merge (the primary key): a changed pick overwrites the row, so a
  pick is counted exactly once however often it changes.
"""

from __future__ import annotations

import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    code TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL,         -- sha256 hex of the teacher key
    params TEXT NOT NULL,           -- JSON object: the page's URL parameters (corpus, settings)
    corpus_id TEXT,                 -- the corpus store's id when the corpus is stored there, else NULL
    step INTEGER NOT NULL,
    version INTEGER NOT NULL,       -- +1 on every change all screens show (step, question, end, display)
    activity INTEGER NOT NULL,      -- +1 on every pick and join (what the teacher's screen counts)
    created REAL NOT NULL,          -- Unix time
    teacher_seen REAL NOT NULL,     -- Unix time of the last teacher action: expiry counts from here
    ended INTEGER NOT NULL DEFAULT 0,
    show_counts INTEGER NOT NULL DEFAULT 0,   -- counts on an open question give its answer away
    show_histogram INTEGER NOT NULL DEFAULT 1,
    show_ranking INTEGER NOT NULL DEFAULT 0,
    show_names INTEGER NOT NULL DEFAULT 1,
    next_number INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS class_students (
    code TEXT NOT NULL,
    student TEXT NOT NULL,
    number INTEGER NOT NULL,
    nickname TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (code, student)
);
CREATE TABLE IF NOT EXISTS class_rounds (
    code TEXT NOT NULL,
    merge INTEGER NOT NULL,
    state TEXT NOT NULL,            -- 'open', 'closed' or 'revealed'
    grades TEXT NOT NULL,           -- e.g. 'wrong,right,tied': the grade of each option, in shown order
    opened REAL NOT NULL,
    PRIMARY KEY (code, merge)
);
CREATE TABLE IF NOT EXISTS class_picks (
    code TEXT NOT NULL,
    merge INTEGER NOT NULL,
    student TEXT NOT NULL,
    option INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, merge, student)
);
"""

CLASS_COLUMNS = (
    "code",
    "key_hash",
    "params",
    "corpus_id",
    "step",
    "version",
    "activity",
    "created",
    "teacher_seen",
    "ended",
    "show_counts",
    "show_histogram",
    "show_ranking",
    "show_names",
)
FLAGS = ("show_counts", "show_histogram", "show_ranking", "show_names")


def create_schema(conn: sqlite3.Connection) -> None:
    """Create the tables when missing (in a transaction of its own)."""
    conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} COMMIT;")


# ---------------------------------------------------------------------------------------------- classes
def insert_class(conn, code: str, key_hash: str, params: str, corpus_id: str | None, step: int, now: float) -> bool:
    """Add a class; ``False`` when the code is taken."""
    cur = conn.execute(
        # show_counts written out: a table made before its default became 0 still has DEFAULT 1.
        "INSERT INTO classes(code, key_hash, params, corpus_id, step, version, activity, created, teacher_seen, "
        "show_counts) VALUES (?, ?, ?, ?, ?, 1, 0, ?, ?, 0) ON CONFLICT(code) DO NOTHING",
        (code, key_hash, params, corpus_id, step, now, now),
    )
    return cur.rowcount == 1


def class_row(conn, code: str) -> dict | None:
    """The class's row as a dict of :data:`CLASS_COLUMNS`, or ``None``."""
    row = conn.execute(f"SELECT {', '.join(CLASS_COLUMNS)} FROM classes WHERE code = ?", (code,)).fetchone()
    return None if row is None else dict(zip(CLASS_COLUMNS, row, strict=True))


def poll_row(conn, code: str) -> tuple | None:
    """``(version, activity, step, ended, teacher_seen, asking)``: the one read a poll makes (the class's row by its
    primary key; ``asking``: a round not yet revealed, looked up on the rounds' primary key)."""
    return conn.execute(
        "SELECT version, activity, step, ended, teacher_seen, "
        "EXISTS (SELECT 1 FROM class_rounds r WHERE r.code = classes.code AND r.state != 'revealed') "
        "FROM classes WHERE code = ?",
        (code,),
    ).fetchone()


def teacher_touch(conn, code: str, now: float, bump: bool = True) -> None:
    """Record a teacher action at ``now`` (and, with ``bump``, a change every screen shows)."""
    conn.execute(
        "UPDATE classes SET teacher_seen = ?, version = version + ? WHERE code = ?", (now, 1 if bump else 0, code)
    )


def set_step(conn, code: str, step: int) -> None:
    conn.execute("UPDATE classes SET step = ? WHERE code = ?", (step, code))


def set_flag(conn, code: str, flag: str, value: bool) -> None:
    if flag not in FLAGS:  # a column name cannot be a placeholder: only these four are ever written
        raise ValueError(f"unknown display flag {flag!r}")
    conn.execute(f"UPDATE classes SET {flag} = ? WHERE code = ?", (1 if value else 0, code))


def end_class(conn, code: str) -> None:
    conn.execute("UPDATE classes SET ended = 1 WHERE code = ?", (code,))


def bump_activity(conn, code: str) -> None:
    conn.execute("UPDATE classes SET activity = activity + 1 WHERE code = ?", (code,))


def expired_codes(conn, before: float) -> list[str]:
    """Codes of the classes whose last teacher action is older than ``before`` (Unix time)."""
    return [r[0] for r in conn.execute("SELECT code FROM classes WHERE teacher_seen < ?", (before,))]


def delete_class(conn, code: str) -> None:
    """Remove a class with its students, rounds and picks."""
    for table in ("class_picks", "class_rounds", "class_students", "classes"):
        conn.execute(f"DELETE FROM {table} WHERE code = ?", (code,))


# --------------------------------------------------------------------------------------------- students
def student_row(conn, code: str, student: str) -> tuple[int, str] | None:
    """``(number, nickname)`` of a student of the class, or ``None``."""
    return conn.execute(
        "SELECT number, nickname FROM class_students WHERE code = ? AND student = ?", (code, student)
    ).fetchone()


def add_student(conn, code: str, student: str, nickname: str, now: float) -> int:
    """Add a student with the class's next number; return that number."""
    number = conn.execute("SELECT next_number FROM classes WHERE code = ?", (code,)).fetchone()[0]
    conn.execute("UPDATE classes SET next_number = next_number + 1 WHERE code = ?", (code,))
    conn.execute(
        "INSERT INTO class_students(code, student, number, nickname, joined) VALUES (?, ?, ?, ?, ?)",
        (code, student, number, nickname, now),
    )
    return number


def set_nickname(conn, code: str, student: str, nickname: str) -> None:
    conn.execute("UPDATE class_students SET nickname = ? WHERE code = ? AND student = ?", (nickname, code, student))


def students(conn, code: str) -> list[tuple[str, int, str]]:
    """``(student, number, nickname)`` of every student, by number."""
    return conn.execute(
        "SELECT student, number, nickname FROM class_students WHERE code = ? ORDER BY number", (code,)
    ).fetchall()


# ----------------------------------------------------------------------------------------------- rounds
def rounds(conn, code: str) -> list[tuple[int, str, str]]:
    """``(merge, state, grades)`` of every round, by merge."""
    return conn.execute(
        "SELECT merge, state, grades FROM class_rounds WHERE code = ? ORDER BY merge", (code,)
    ).fetchall()


def unrevealed_round(conn, code: str) -> tuple[int, str, str] | None:
    """The round open or closed but not revealed (at most one), or ``None``."""
    return conn.execute(
        "SELECT merge, state, grades FROM class_rounds WHERE code = ? AND state != 'revealed'", (code,)
    ).fetchone()


def round_row(conn, code: str, merge: int) -> tuple[int, str, str] | None:
    return conn.execute(
        "SELECT merge, state, grades FROM class_rounds WHERE code = ? AND merge = ?", (code, merge)
    ).fetchone()


def open_round(conn, code: str, merge: int, grades: str, now: float) -> None:
    """Open the round of ``merge`` (a new one, or a closed one again: its picks stay)."""
    conn.execute(
        "INSERT INTO class_rounds(code, merge, state, grades, opened) VALUES (?, ?, 'open', ?, ?) "
        "ON CONFLICT(code, merge) DO UPDATE SET state = 'open'",
        (code, merge, grades, now),
    )


def set_round_state(conn, code: str, merge: int, state: str) -> None:
    conn.execute("UPDATE class_rounds SET state = ? WHERE code = ? AND merge = ?", (state, code, merge))


# ------------------------------------------------------------------------------------------------ picks
def upsert_pick(conn, code: str, merge: int, student: str, option: int, now: float) -> None:
    """Set the student's pick for ``merge`` (the one row per student and merge is overwritten)."""
    conn.execute(
        "INSERT INTO class_picks(code, merge, student, option, at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(code, merge, student) DO UPDATE SET option = excluded.option, at = excluded.at",
        (code, merge, student, option, now),
    )


def pick_counts(conn, code: str, merge: int) -> dict[int, int]:
    """``{option: number of students who picked it}`` for ``merge``."""
    rows = conn.execute(
        "SELECT option, COUNT(*) FROM class_picks WHERE code = ? AND merge = ? GROUP BY option", (code, merge)
    )
    return dict(rows.fetchall())


def picks(conn, code: str) -> list[tuple[int, str, int]]:
    """``(merge, student, option)`` of every pick of the class."""
    return conn.execute("SELECT merge, student, option FROM class_picks WHERE code = ?", (code,)).fetchall()


def student_picks(conn, code: str, student: str) -> dict[int, int]:
    """``{merge: option}`` of one student."""
    rows = conn.execute("SELECT merge, option FROM class_picks WHERE code = ? AND student = ?", (code, student))
    return dict(rows.fetchall())
