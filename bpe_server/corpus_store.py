"""Corpus texts kept on the server so a link (``?corpus=<id>``) works in another session and after a restart.

* :class:`CorpusStore` -- a content-addressed store in one SQLite file (stdlib ``sqlite3``, WAL mode): ``put(text,
  kind) -> corpus_id``, ``get(corpus_id) -> (text, kind) | None``. The id is derived from the content, so the same
  text always gets the same id and a link never points at another text. Texts are stored zlib-compressed; the total
  of the stored (compressed) sizes is kept under a bound by evicting the least recently used texts (``get`` counts
  as a use). A text that something still lives on (a live class, :mod:`bpe_server.live_class`) is pinned
  (:meth:`CorpusStore.pin`) until a time: eviction never removes a pinned text.
* :func:`put` / :func:`get` -- the same on the store of this server: its file is ``BPE_EXPLORER_STORE`` (default
  ``corpora.sqlite3`` under the user's cache directory, ``$XDG_CACHE_HOME`` or ``~/.cache``, in ``bpe-explorer/``),
  its bound ``BPE_EXPLORER_STORE_MAX_BYTES`` (default 200 MB). With ``BPE_EXPLORER_DATABASE_URL`` set
  (``postgresql://...``) the store is that PostgreSQL database instead, shared by every app server
  (:mod:`bpe_server.store_db`: the one interface over both engines; it raises
  :class:`bpe_server.store_db.StoreUnavailable` when the database cannot be reached).
* :func:`pack_text` / :func:`unpack_text` -- a short text carried in the URL itself (zlib + URL-safe base64), so such
  a link works on any server.

The schema is made on first use and carries a version (table ``store_meta``, :data:`SCHEMA_VERSION`): a file
from an earlier release (version 1: ``corpora`` only, no ``store_meta``) gets the newer tables and keeps its texts.

Safe with many sessions and threads: every call opens its own connection (SQLite connections are not shared between
threads), writes run in ``BEGIN IMMEDIATE`` transactions and wait up to :data:`BUSY_TIMEOUT_S` for a lock.
No Streamlit here: the page code wires these functions in.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import sqlite3
import time
import zlib
from contextlib import closing
from functools import lru_cache
from pathlib import Path

from bpe_core.inputs import env_positive_int

from . import store_db

STORE_ENV = "BPE_EXPLORER_STORE"
MAX_BYTES_ENV = "BPE_EXPLORER_STORE_MAX_BYTES"
#: Default bound of the stored (compressed) texts, in bytes.
DEFAULT_MAX_BYTES = 200_000_000
#: How long a call waits for another writer's lock, in seconds.
BUSY_TIMEOUT_S = 30.0
#: Characters of a corpus id: base32 (lower case, ``a-z2-7``) of the sha256 of the content -- 80 bits.
ID_CHARS = 16
KINDS_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_ID = re.compile(rf"[a-z2-7]{{{ID_CHARS}}}")

#: Longest packed text (:func:`pack_text`) put into a URL, in characters of the packed form.
PACK_MAX_CHARS = 1_500
#: Largest text :func:`unpack_text` accepts, in UTF-8 bytes (a guard against a crafted link that inflates hugely).
UNPACK_MAX_BYTES = 1_000_000
_PACK_PREFIX = "z"  # format tag: zlib then URL-safe base64 without padding
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")

#: The store's schema version: 1 = ``corpora`` only (the first release); 2 = with ``corpus_pins`` and ``store_meta``.
SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS corpora (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    data BLOB NOT NULL,        -- zlib-compressed UTF-8
    size INTEGER NOT NULL,     -- len(data): what the bound counts
    created REAL NOT NULL,     -- Unix time
    used INTEGER NOT NULL      -- use sequence number: larger = more recently used
);
CREATE INDEX IF NOT EXISTS corpora_used ON corpora(used);
-- Texts that eviction must keep while something lives on them (a live class): one row per holder.
CREATE TABLE IF NOT EXISTS corpus_pins (
    holder TEXT PRIMARY KEY,   -- who needs it, e.g. "class:K7QX2M"
    corpus_id TEXT NOT NULL,
    until REAL NOT NULL        -- Unix time after which the pin no longer holds
);
-- What the store knows about itself: name 'schema_version' -> the version number as text.
CREATE TABLE IF NOT EXISTS store_meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(RuntimeError):
    """The store cannot keep a text (larger than the whole bound), or its schema is newer than this code."""


class PackedTextError(ValueError):
    """A ``corpus`` text carried in a URL is damaged, truncated or too large; ``str(err)`` says which (English:
    the page shows its own translated message)."""


def corpus_id(text: str, kind: str = "text") -> str:
    """The id of ``text`` of ``kind``: the first :data:`ID_CHARS` characters of the base32 (lower case) sha256 of
    ``kind``, a NUL and the UTF-8 text. The same text as a paste and as a word list gets two ids."""
    digest = hashlib.sha256(kind.encode("ascii") + b"\0" + text.encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_CHARS]


def is_corpus_id(value: str) -> bool:
    """True when ``value`` has the shape of a corpus id (it may still be unknown to the store)."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def default_path() -> Path:
    """``BPE_EXPLORER_STORE``, else ``<cache dir>/bpe-explorer/corpora.sqlite3`` (``$XDG_CACHE_HOME`` or
    ``~/.cache``)."""
    configured = os.environ.get(STORE_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "bpe-explorer" / "corpora.sqlite3"


def default_max_bytes() -> int:
    """``BPE_EXPLORER_STORE_MAX_BYTES`` when it is a positive integer, else :data:`DEFAULT_MAX_BYTES`."""
    return env_positive_int(MAX_BYTES_ENV, DEFAULT_MAX_BYTES)


class CorpusStore:
    """Texts by content id in one SQLite file or one PostgreSQL database, bounded in size with least-recently-used
    eviction.

    Args:
        path: the database file (created with its folder on first use), or a ``postgresql://`` URL
            (:func:`bpe_server.store_db.is_database_url`).
        max_bytes: bound on the total stored size (compressed bytes of every text).

    Raises:
        StoreError: the schema is newer than this code knows. bpe_server.store_db.StoreUnavailable: PostgreSQL cannot be
            reached (nothing is kept: a later call tries again).
    """

    def __init__(self, path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES):
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        self.max_bytes = int(max_bytes)
        if store_db.is_database_url(str(path)):
            self.url, self.path, self.engine = str(path), None, "postgresql"
            self._db = store_db.postgres(self.url)
        else:
            self.url, self.path, self.engine = None, Path(path), "sqlite"
            self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self.connect()) as conn:
            if self.engine == "sqlite":
                _use_wal(conn)
            # In a write transaction taken up front (which waits for the lock), so two first opens do not race.
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executescript(_SCHEMA) if self.engine == "postgresql" else _sqlite_script(conn, _SCHEMA)
                _stamp_version(conn)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def connect(self):
        """A new connection to the store (autocommit: callers open their own ``BEGIN IMMEDIATE``). SQLite: a
        ``sqlite3.Connection`` to the file, waiting up to :data:`BUSY_TIMEOUT_S` for a lock; PostgreSQL: a
        :class:`bpe_server.store_db.PostgresConnection` (the same ``execute`` / ``executescript`` / ``close``, the same
        SQL). Other tables kept in the same database (the live classes, :mod:`bpe_server.class_db`) use it too. Close it
        after use; never share it between threads."""
        if self.engine == "postgresql":
            return self._db.connect()
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        conn.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across a process crash
        return conn

    def put(self, text: str, kind: str = "text") -> str:
        """Store ``text`` (if not stored yet), mark it as just used, evict the least recently used others while
        the total is over the bound; return its id.

        Args:
            text: the corpus (characters; stored as UTF-8, compressed).
            kind: what it is, for the page that opens the link: a short lower-case word such as ``"text"``,
                ``"upload"`` or ``"words"``.

        Raises:
            ValueError: a bad ``kind``. StoreError: the compressed text alone is larger than the bound.
        """
        if not KINDS_PATTERN.fullmatch(kind):
            raise ValueError(f"a corpus kind is a short lower-case word, got {kind!r}")
        cid = corpus_id(text, kind)
        data = zlib.compress(text.encode("utf-8"), 6)
        if len(data) > self.max_bytes:
            raise StoreError(f"the text needs {len(data):,} bytes; the store holds {self.max_bytes:,}")
        with closing(self.connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                used = _next_use(conn)
                conn.execute(
                    "INSERT INTO corpora(id, kind, data, size, created, used) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET used = excluded.used",
                    (cid, kind, data, len(data), time.time(), used),
                )
                self._evict(conn, keep=cid)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return cid

    def _evict(self, conn: sqlite3.Connection, keep: str) -> None:
        total = conn.execute("SELECT COALESCE(SUM(size), 0) FROM corpora").fetchone()[0]
        if total <= self.max_bytes:
            return
        pinned = "SELECT corpus_id FROM corpus_pins WHERE until > ?"
        rows = conn.execute(
            f"SELECT id, size FROM corpora WHERE id != ? AND id NOT IN ({pinned}) ORDER BY used", (keep, time.time())
        ).fetchall()
        for cid, size in rows:
            conn.execute("DELETE FROM corpora WHERE id = ?", (cid,))
            total -= size
            if total <= self.max_bytes:
                break

    def get(self, corpus_id: str) -> tuple[str, str] | None:
        """``(text, kind)`` of ``corpus_id``, marked as just used; ``None`` when unknown (never stored, evicted,
        or not an id at all)."""
        if not is_corpus_id(corpus_id):
            return None
        with closing(self.connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT kind, data FROM corpora WHERE id = ?", (corpus_id,)).fetchone()
                if row is not None:
                    conn.execute("UPDATE corpora SET used = ? WHERE id = ?", (_next_use(conn), corpus_id))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        if row is None:
            return None
        kind, data = row
        return zlib.decompress(data).decode("utf-8"), kind

    def pin(self, holder: str, corpus_id: str, until: float) -> None:
        """Keep ``corpus_id`` from eviction until ``until`` (Unix time) on behalf of ``holder`` (a short name such as
        ``"class:K7QX2M"``; one pin per holder, a new call moves it)."""
        with closing(self.connect()) as conn:
            conn.execute(
                "INSERT INTO corpus_pins(holder, corpus_id, until) VALUES (?, ?, ?) "
                "ON CONFLICT(holder) DO UPDATE SET corpus_id = excluded.corpus_id, until = excluded.until",
                (holder, corpus_id, float(until)),
            )

    def unpin(self, holder: str) -> None:
        """Drop ``holder``'s pin (nothing happens when it has none)."""
        with closing(self.connect()) as conn:
            conn.execute("DELETE FROM corpus_pins WHERE holder = ?", (holder,))

    def __contains__(self, corpus_id: str) -> bool:
        """Whether ``corpus_id`` is stored (does not count as a use)."""
        with closing(self.connect()) as conn:
            return conn.execute("SELECT 1 FROM corpora WHERE id = ?", (corpus_id,)).fetchone() is not None

    def schema_version(self) -> int:
        """The schema version recorded in the store (:data:`SCHEMA_VERSION` once this code opened it)."""
        with closing(self.connect()) as conn:
            return int(conn.execute("SELECT value FROM store_meta WHERE name = 'schema_version'").fetchone()[0])

    def total_bytes(self) -> int:
        """Total stored size (compressed bytes)."""
        with closing(self.connect()) as conn:
            return conn.execute("SELECT COALESCE(SUM(size), 0) FROM corpora").fetchone()[0]

    def ids(self) -> list[str]:
        """Stored ids, least recently used first."""
        with closing(self.connect()) as conn:
            return [r[0] for r in conn.execute("SELECT id FROM corpora ORDER BY used")]


def _use_wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode (kept in the file: readers never wait for a writer).

    Turning a new file to WAL needs it alone for a moment, and SQLite does not call the busy handler for this
    pragma: when sessions open a new store at the same moment, all but one get "database is locked" at once
    (about one open in 200 with eight at a time). So it is retried, backing off, for up to :data:`BUSY_TIMEOUT_S`.

    Raises:
        sqlite3.OperationalError: still locked after :data:`BUSY_TIMEOUT_S`, or any other error.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(2 * delay, 0.05)


def _sqlite_script(conn: sqlite3.Connection, script: str) -> None:
    # executescript would COMMIT the open transaction first; these statements run inside it.
    for statement in store_db.split_script(script):
        conn.execute(statement)


def _stamp_version(conn) -> int:
    """Record :data:`SCHEMA_VERSION` in a store that has none or an older one; return the version found before
    (1 for a store from before versions were kept, or a new one). Raises :class:`StoreError` when it is newer."""
    row = conn.execute("SELECT value FROM store_meta WHERE name = 'schema_version'").fetchone()
    found = int(row[0]) if row else 1
    if found > SCHEMA_VERSION:
        raise StoreError(f"the store has schema version {found}; this release knows up to {SCHEMA_VERSION}")
    # Versions 1 -> 2 only added tables, made above with CREATE TABLE IF NOT EXISTS; a later step goes here.
    conn.execute(
        "INSERT INTO store_meta(name, value) VALUES ('schema_version', ?) "
        "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
        (str(SCHEMA_VERSION),),
    )
    return found


def _next_use(conn: sqlite3.Connection) -> int:
    # A counter rather than the clock: two uses in the same microsecond still have an order.
    return conn.execute("SELECT COALESCE(MAX(used), 0) + 1 FROM corpora").fetchone()[0]


@lru_cache(maxsize=4)
def _store(path: str, max_bytes: int) -> CorpusStore:
    return CorpusStore(path, max_bytes)


def default_target() -> str:
    """``BPE_EXPLORER_DATABASE_URL`` when set (PostgreSQL, shared by every app server), else :func:`default_path`."""
    url = os.environ.get(store_db.DATABASE_URL_ENV, "").strip()
    return url or str(default_path())


def default_store() -> CorpusStore:
    """This server's store (:func:`default_target`, :func:`default_max_bytes`), opened once per setting.

    Raises:
        bpe_server.store_db.StoreUnavailable: PostgreSQL cannot be reached (not remembered: the next call tries again).
    """
    return _store(default_target(), default_max_bytes())


def put(text: str, kind: str = "text") -> str:
    """:meth:`CorpusStore.put` on :func:`default_store`."""
    return default_store().put(text, kind)


def get(corpus_id: str) -> tuple[str, str] | None:
    """:meth:`CorpusStore.get` on :func:`default_store`."""
    return default_store().get(corpus_id)


# ------------------------------------------------------------------------------------ text in the URL
def pack_text(text: str) -> str | None:
    """``text`` as a URL-safe token (``z`` + base64url of zlib level 9, no padding), or ``None`` when the token
    would be longer than :data:`PACK_MAX_CHARS` characters (then store the text and link its id instead)."""
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")
    token = _PACK_PREFIX + packed
    return token if len(token) <= PACK_MAX_CHARS else None


def unpack_text(token: str) -> str:
    """The text of a :func:`pack_text` token.

    Raises:
        PackedTextError: not such a token (damaged or cut short, e.g. by a mail client), or a text larger than
            :data:`UNPACK_MAX_BYTES`.
    """
    if not isinstance(token, str) or not token.startswith(_PACK_PREFIX) or len(token) > 4 * PACK_MAX_CHARS:
        raise PackedTextError("the text in the link is not in a known format")
    body = token[len(_PACK_PREFIX) :]
    if not _BASE64URL.fullmatch(body):
        raise PackedTextError("the text in the link is damaged or incomplete")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, UNPACK_MAX_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise PackedTextError("the text in the link is damaged or incomplete") from None
    if len(data) > UNPACK_MAX_BYTES:
        raise PackedTextError("the text in the link is too large")
    if not inflater.eof:
        raise PackedTextError("the text in the link is damaged or incomplete")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PackedTextError("the text in the link is not valid UTF-8") from None
