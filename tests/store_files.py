"""Texts and store files shared by the corpus-store tests (``test_corpus_store.py``, ``test_shared_store.py``):
a Chinese and an English excerpt, and a store file exactly as the release at commit 227bbe0 made it."""

from __future__ import annotations

import sqlite3
import time
import zlib
from pathlib import Path

from corpus_excerpts import corpus_slice

from bpe_server.corpus_store import corpus_id

CHINESE = corpus_slice("hongloumeng.txt", 3_000, 2_000) + " 👨\u200d👩\u200d👧 🇨🇳"
ENGLISH = corpus_slice("pg16457.txt", 30_000, 20_000)


# ------------------------------------------------------------------------------------ schema versions
# The store file of the release at commit 227bbe0 (before schema versions were kept): its schema SQL and its put(),
# copied from that code, so the test builds exactly such a file.
SCHEMA_227BBE0 = """
CREATE TABLE IF NOT EXISTS corpora (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    data BLOB NOT NULL,        -- zlib-compressed UTF-8
    size INTEGER NOT NULL,     -- len(data): what the bound counts
    created REAL NOT NULL,     -- Unix time
    used INTEGER NOT NULL      -- use sequence number: larger = more recently used
);
CREATE INDEX IF NOT EXISTS corpora_used ON corpora(used);
"""


def old_store_file(path: Path, texts: list[tuple[str, str]]) -> list[str]:
    """A store file as the code at 227bbe0 made it (WAL mode, its schema, its rows); the ids of ``texts``."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA_227BBE0} COMMIT;")
    ids = []
    for text, kind in texts:
        data = zlib.compress(text.encode("utf-8"), 6)
        used = conn.execute("SELECT COALESCE(MAX(used), 0) + 1 FROM corpora").fetchone()[0]
        conn.execute(
            "INSERT INTO corpora(id, kind, data, size, created, used) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET used = excluded.used",
            (corpus_id(text, kind), kind, data, len(data), time.time(), used),
        )
        ids.append(corpus_id(text, kind))
    conn.close()
    return ids
