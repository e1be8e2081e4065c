"""The one database interface under the corpus store and the live classes: SQLite (default) or PostgreSQL.

What is shared between app servers (corpora, links, class state) lives here; everything else stays per server.
``BPE_EXPLORER_DATABASE_URL`` (``postgresql://user@host/bpe``) switches every server to one PostgreSQL database;
without it each server keeps its own SQLite file, as before (nothing to set up).

Why psycopg 3 with ``psycopg_pool`` beside the standard library's ``sqlite3``, and not SQLAlchemy Core: the SQL
of the store and of the classes (:mod:`bpe_server.class_db`) is plain SQL that both engines run as written
(``ON CONFLICT ... DO UPDATE`` is spelt the same), and both drivers are DB-API drivers with the same
``execute`` / ``fetchone`` / ``rowcount`` shape. So the interface below is small: ``?`` placeholders become
psycopg's ``%s``, three column types are renamed in ``CREATE TABLE`` and SQLite's ``BEGIN IMMEDIATE`` becomes a
PostgreSQL transaction that takes one advisory lock (writers queue as they do on SQLite, so a read-then-write
such as "next student number" stays race-free). SQLAlchemy would put a dialect layer over that same SQL, and its
SQLite driver's own transaction handling fights the ``BEGIN IMMEDIATE`` the store relies on. ``psycopg_pool`` is
psycopg's own pool: a bounded wait for a connection, a health check of each connection handed out (a restarted
server's dead connections are dropped, not used), and new connections made in the background with back-off.

Time-outs, so that no call hangs: connecting :data:`CONNECT_TIMEOUT_S`, waiting for a pooled connection
:data:`POOL_TIMEOUT_S` (during which the pool keeps trying to connect: the bounded retry), each statement and
lock wait :data:`QUERY_TIMEOUT_S`. A server that cannot be reached raises :class:`StoreUnavailable`; the pages
say so in their own words (:func:`ui.links.unavailable_message`). SQLite connections are opened per call as before
(opening a file costs microseconds, and a ``sqlite3`` connection cannot move between threads); their lock wait is the
store's busy time-out.
"""

from __future__ import annotations

import re
import threading
import time

#: The environment variable that selects PostgreSQL.
DATABASE_URL_ENV = "BPE_EXPLORER_DATABASE_URL"
#: Seconds to open one connection to PostgreSQL.
CONNECT_TIMEOUT_S = 5.0
#: Seconds a call waits for a pooled connection (the pool retries connecting meanwhile) before giving up.
POOL_TIMEOUT_S = 4.0
#: Seconds any one statement (and any lock wait) may take on PostgreSQL.
QUERY_TIMEOUT_S = 15.0
#: Seconds after a failed wait during which calls fail at once (the pool keeps reconnecting behind): while the
#: database is down, a page run that needs it waits :data:`POOL_TIMEOUT_S` at most once in this interval.
FAIL_FAST_S = 10.0
#: Within :data:`FAIL_FAST_S`, one call in this many seconds still tries the database (waiting
#: :data:`PROBE_TIMEOUT_S` at most), so that the store is back for everyone within about a second of the database
#: (open class tabs resume on their own: ``ui/static/live_class.js``).
PROBE_S, PROBE_TIMEOUT_S = 1.0, 1.0
#: Most connections one app server keeps to PostgreSQL.
POOL_MAX = 8
#: The advisory lock every write transaction takes (any fixed 64-bit number; "BPE" in ASCII).
WRITE_LOCK = 0x425045

_PG_TYPES = ((re.compile(r"\bREAL\b"), "DOUBLE PRECISION"), (re.compile(r"\bBLOB\b"), "BYTEA"))


class StoreUnavailable(RuntimeError):
    """The shared store (PostgreSQL) cannot be reached now: connecting, or a statement, failed or timed out.
    Trying again later can succeed."""


def is_database_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://`` or ``postgres://``) rather than a file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def split_script(script: str) -> list[str]:
    """The statements of an SQL script (``--`` comments dropped; statements end with ``;``, none inside text)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def to_postgres(sql: str) -> str:
    """One SQLite statement of this project as PostgreSQL runs it: ``?`` placeholders become ``%s`` (a literal
    ``%`` is doubled first) and, in ``CREATE TABLE``, ``REAL`` becomes ``DOUBLE PRECISION`` (PostgreSQL's
    ``REAL`` is 4 bytes: Unix times would lose their seconds) and ``BLOB`` becomes ``BYTEA``."""
    sql = sql.replace("%", "%%").replace("?", "%s")
    if sql.lstrip().upper().startswith("CREATE TABLE"):
        for pattern, name in _PG_TYPES:
            sql = pattern.sub(name, sql)
    return sql


class Result:
    """The rows of one statement, read in full before its connection went back to the pool."""

    def __init__(self, rows: list[tuple], rowcount: int):
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> tuple | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[tuple]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows

    def __iter__(self):
        return iter(self.fetchall())


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database.

    Args:
        url: ``postgresql://user[:password]@host[:port]/dbname`` (libpq's URL; ``?sslmode=...`` etc. pass through).
        max_size: most connections kept open.

    The pool opens no connection up front (``min_size=0``), so creating it never fails or waits; the first call does.
    """

    def __init__(self, url: str, max_size: int = POOL_MAX):
        import psycopg
        from psycopg_pool import ConnectionPool

        self.url = url
        self._down_until = 0.0  # time.monotonic() before which checkout fails at once (FAIL_FAST_S)...
        self._probe_at = 0.0  # ...except one call at or after this time (PROBE_S)
        self._errors = (psycopg.OperationalError, psycopg.errors.QueryCanceled, *_pool_errors())
        options = f"-c statement_timeout={int(QUERY_TIMEOUT_S * 1000)} -c lock_timeout={int(QUERY_TIMEOUT_S * 1000)}"
        self.pool = ConnectionPool(
            url,
            min_size=0,
            max_size=max_size,
            timeout=POOL_TIMEOUT_S,
            max_idle=60.0,
            reconnect_timeout=POOL_TIMEOUT_S,
            check=ConnectionPool.check_connection,
            kwargs={"autocommit": True, "connect_timeout": max(1, int(CONNECT_TIMEOUT_S)), "options": options},
            open=False,
        )
        self.pool.open(wait=False)

    def connect(self) -> PostgresConnection:
        """A connection-like object (``execute``, ``executescript``, ``close``): cheap, holds no pooled
        connection except inside a ``BEGIN`` ... ``COMMIT``/``ROLLBACK``. Not to be shared between threads."""
        return PostgresConnection(self)

    def run(self, conn, sql: str, params=()) -> Result:
        """Run one (SQLite-spelt) statement on ``conn`` (a psycopg connection). Raises :class:`StoreUnavailable`."""
        try:
            cur = conn.execute(to_postgres(sql), tuple(params))  # a tuple, even empty: `%%` is then read as `%`
            rows = cur.fetchall() if cur.description is not None else []
            return Result(rows, cur.rowcount)
        except self._errors as err:
            raise StoreUnavailable(str(err).strip() or type(err).__name__) from err

    def _getconn(self, timeout: float | None):
        try:
            return self.pool.getconn(timeout=timeout)
        except self._errors:
            # psycopg_pool re-checks idle connections one per back-off delay (1 s, 2 s, 4 s, ...): after the database
            # restarted every idle connection is dead, and finding them one at a time outlasts the wait. Checking
            # them all at once drops them (a dead one fails at once); then one more wait opens a fresh connection.
            if not self.pool.get_stats().get("pool_available"):
                raise
            self.pool.check()
            return self.pool.getconn(timeout=timeout)

    def checkout(self):
        """A pooled connection, waiting up to :data:`POOL_TIMEOUT_S`. Raises :class:`StoreUnavailable` (at once
        within :data:`FAIL_FAST_S` of the last failed wait, but for one probe a :data:`PROBE_S`)."""
        now, timeout = time.monotonic(), None
        if now < self._down_until:
            if now < self._probe_at:
                raise StoreUnavailable("the database was unreachable moments ago")
            self._probe_at, timeout = now + PROBE_S, PROBE_TIMEOUT_S
        try:
            conn = self._getconn(timeout)
            self._down_until = 0.0
            return conn
        except self._errors as err:
            self._down_until = time.monotonic() + FAIL_FAST_S
            raise StoreUnavailable(str(err).strip() or type(err).__name__) from err

    def checkin(self, conn) -> None:
        self.pool.putconn(conn)  # a broken connection is closed by the pool, not handed out again

    def close(self) -> None:
        self.pool.close()


def _pool_errors():
    from psycopg_pool import PoolTimeout, TooManyRequests

    return (PoolTimeout, TooManyRequests)


class PostgresConnection:
    """SQLite's connection face over the pool, so :mod:`bpe_server.class_db` and the store run unchanged.

    Outside a transaction each ``execute`` borrows a pooled connection for that one statement (autocommit). ``BEGIN``
    (SQLite's ``BEGIN IMMEDIATE``) holds one until ``COMMIT`` or ``ROLLBACK`` and takes :data:`WRITE_LOCK`, so
    write transactions run one at a time as on SQLite. ``ROLLBACK`` never raises: the error that led to it is the
    one the caller sees.
    """

    def __init__(self, db: PostgresDatabase):
        self._db = db
        self._held = None

    def execute(self, sql: str, params=()) -> Result:
        word = sql.strip().split(None, 1)[0].upper() if sql.strip() else ""
        if word == "BEGIN":
            if self._held is not None:
                raise RuntimeError("a transaction is already open on this connection")
            conn = self._db.checkout()
            try:
                self._db.run(conn, "BEGIN")
                self._db.run(conn, "SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
            except BaseException:
                self._release(conn)
                raise
            self._held = conn
            return Result([], -1)
        if word in ("COMMIT", "ROLLBACK"):
            conn, self._held = self._held, None
            if conn is None:
                return Result([], -1)
            try:
                return self._db.run(conn, word)
            except StoreUnavailable:
                if word == "COMMIT":
                    raise
                return Result([], -1)
            finally:
                self._release(conn)
        if self._held is not None:
            return self._db.run(self._held, sql, params)
        conn = self._db.checkout()
        try:
            return self._db.run(conn, sql, params)
        finally:
            self._release(conn)

    def _release(self, conn) -> None:
        try:
            if not conn.closed and conn.info.transaction_status != 0:  # not idle: roll back what is left
                conn.rollback()
        except Exception:  # a dead connection: the pool drops it
            pass
        self._db.checkin(conn)

    def executescript(self, script: str) -> None:
        """Run each statement of ``script`` (:func:`split_script`) in order."""
        for statement in split_script(script):
            self.execute(statement)

    def close(self) -> None:
        """Give back a connection still held (its transaction rolled back)."""
        if self._held is not None:
            self.execute("ROLLBACK")


_pools: dict[str, PostgresDatabase] = {}
_pools_lock = threading.Lock()


def postgres(url: str) -> PostgresDatabase:
    """The one pool of this process for ``url`` (made on first use; making it does not connect)."""
    with _pools_lock:
        if url not in _pools:
            _pools[url] = PostgresDatabase(url)
        return _pools[url]
