"""The cost of a link look-up (``CorpusStore.get``: one read and one write of the use counter) and of a class poll
(``Classes.poll``: one primary-key read) on each engine: SQLite (a file) and PostgreSQL (through the pool).

Usage::

    .venv/bin/python benchmarks/store_speed.py [--url postgresql://user@host/db] [--n 500]

Without ``--url`` a throwaway PostgreSQL cluster is started on this machine for the run (``tests/postgres_server.py``:
needs Debian's ``postgresql`` package) and removed after it. Times are wall-clock per call in milliseconds (median
and 95th percentile over ``--n`` calls, one thread); a busy shared machine inflates them. On one machine the
database's round trip is a loopback one: a database on another machine adds the network's. The CPU model is printed
with the results.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the app's modules; the helpers shared with the tests

from machine import cpu_model  # noqa: E402

from bpe_server.corpus_store import CorpusStore  # noqa: E402
from bpe_server.live_class import Classes  # noqa: E402


def timed(fn, n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def measure(target: str, n: int) -> dict[str, tuple[float, float]]:
    store = CorpusStore(target)
    cid = store.put("the lowest price is lower than the last one " * 200, "text")
    classes = Classes(store)
    code, _key = classes.start({"corpus": cid}, 0, cid)
    store.get(cid), classes.poll(code)  # warm: the pool's first connection
    return {"link look-up (get)": timed(lambda: store.get(cid), n), "class poll": timed(lambda: classes.poll(code), n)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a PostgreSQL database (default: a throwaway cluster started here)")
    ap.add_argument("--n", type=int, default=500)
    args = ap.parse_args()
    print(f"CPU: {cpu_model()}")
    cluster = None
    url = args.url
    if url is None:
        from postgres_server import PostgresCluster

        cluster = PostgresCluster()
        url = cluster.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            results = {"SQLite": measure(str(Path(tmp) / "s.sqlite3"), args.n), "PostgreSQL": measure(url, args.n)}
    finally:
        if cluster is not None:
            cluster.remove()
    for engine, rows in results.items():
        for what, (p50, p95) in rows.items():
            print(f"{engine:<11} {what:<20} median {p50:6.2f} ms   p95 {p95:6.2f} ms   ({args.n} calls)")


if __name__ == "__main__":
    main()
