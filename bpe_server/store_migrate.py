"""Move the links of an existing SQLite store into the shared PostgreSQL store.

    python -m bpe_server.store_migrate SQLITE_FILE postgresql://user@host/bpe

Copies every stored corpus (its id, kind, compressed text, size, creation time and use order) from the SQLite file
of one app server (``BPE_EXPLORER_STORE``, by default ``~/.cache/bpe-explorer/corpora.sqlite3``) into the database,
so every link made on that server (``?corpus=<id>``) opens on all servers. Ids are derived from the content, so a
corpus already in the database is the same text: it is kept as it is (copied once, however often the command
runs). The file is only read; a file of any earlier release works (:class:`bpe_server.corpus_store.CorpusStore`
brings it to the current schema first). Live classes are not moved: they last hours, not weeks; start them again.

The database's size bound (``BPE_EXPLORER_STORE_MAX_BYTES``) is not applied while copying: the next link made
evicts the least recently used texts as usual. Prints one line: how many texts were copied and how many were there.
Exit status 0, or 2 with a message (no traceback) for a missing file or an unreachable database.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path

from .corpus_store import CorpusStore, StoreError
from .store_db import StoreUnavailable, is_database_url

BATCH = 200


def migrate(sqlite_file: str | Path, url: str) -> tuple[int, int]:
    """Copy the corpora of ``sqlite_file`` into the store at ``url``; return ``(copied, already_there)``.

    The copied texts keep their relative use order, placed after the database's own (as if just used).

    Raises:
        FileNotFoundError: no such file. ValueError: ``url`` is not a ``postgresql://`` URL.
        bpe_server.store_db.StoreUnavailable: the database cannot be reached. StoreError: a store of a newer release.
    """
    path = Path(sqlite_file)
    if not path.is_file():
        raise FileNotFoundError(f"no store file {path}")
    if not is_database_url(url):
        raise ValueError(f"not a PostgreSQL URL (postgresql://user@host/dbname): {url!r}")
    source, target = CorpusStore(path), CorpusStore(url)
    copied = present = 0
    with closing(source.connect()) as src:
        rows = src.execute("SELECT id, kind, data, size, created FROM corpora ORDER BY used").fetchall()
    for start in range(0, len(rows), BATCH):
        with closing(target.connect()) as dst:
            dst.execute("BEGIN IMMEDIATE")
            try:
                used = dst.execute("SELECT COALESCE(MAX(used), 0) FROM corpora").fetchone()[0]
                for cid, kind, data, size, created in rows[start : start + BATCH]:
                    used += 1
                    cur = dst.execute(
                        "INSERT INTO corpora(id, kind, data, size, created, used) VALUES (?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT(id) DO NOTHING",
                        (cid, kind, bytes(data), size, created, used),
                    )
                    copied += cur.rowcount == 1
                    present += cur.rowcount != 1
                dst.execute("COMMIT")
            except BaseException:
                dst.execute("ROLLBACK")
                raise
    return copied, present


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bpe_server.store_migrate",
        description="Move the links (stored corpora) of a SQLite store file into the shared PostgreSQL store.",
    )
    parser.add_argument("sqlite_file", help="the SQLite store file (BPE_EXPLORER_STORE of the old server)")
    parser.add_argument("url", help="the PostgreSQL database, e.g. postgresql://user@host/bpe")
    args = parser.parse_args(argv)
    try:
        copied, present = migrate(args.sqlite_file, args.url)
    except (FileNotFoundError, ValueError, StoreError, StoreUnavailable) as err:
        print(f"store_migrate: error: {err}", file=sys.stderr)
        return 2
    print(f"copied {copied} corpora; {present} were there already")
    return 0


if __name__ == "__main__":
    sys.exit(main())
