"""A live class through nginx with two app servers on PostgreSQL, beside the same class on one server with SQLite.

    .venv/bin/python benchmarks/replicas_class.py                       # 40 students, 2 minutes, 5 questions, both
    .venv/bin/python benchmarks/replicas_class.py --students 10 --minutes 0.5 --questions 1 --ttl 10  # a quick look
    .venv/bin/python benchmarks/replicas_class.py --only replicas       # just the two replicas behind nginx

Every option this script does not know (``--students``, ``--minutes``, ``--every``, ``--questions``...) goes to
``benchmarks/class_load.py``, which runs the class and prints the numbers (step propagation p50 / p95 / max,
errors, picks counted, server CPU and memory); both set-ups run the same class:

* **one server, SQLite**: ``class_load.py`` as it is (it starts ``streamlit run serve.py`` with a fresh SQLite store).
* **two replicas, PostgreSQL, nginx**: a throwaway PostgreSQL cluster (``tests/postgres_server.py``), two app
  servers (``serve.py``, as ``sh run.sh app`` runs it; each with its own cache folder, the same database URL and the
  same ``server.cookieSecret``) and nginx with the repository's ``deploy/nginx/bpe-explorer.conf`` in front of them
  (``tests/nginx_server.py``); each replica first opens the class's preset itself (each trains for itself, so the
  one the teacher's cookie does not pick would otherwise train it for its first student in the middle of the class);
  then ``class_load.py --url <nginx> --pid <A> --pid <B> --store <database>``: every
  client (the teacher and each student's websocket and polls) goes through nginx. After the class, the access log
  says how nginx spread the students' websockets over the replicas.

This measures the overhead of the proxy and the shared database, not capacity: here the clients, both replicas,
PostgreSQL and nginx all share one machine's cores (and, on a shared development machine, other people's work:
``class_load.py`` prints the machine line, load average included, as each run starts). Needs Debian's
``postgresql`` and ``nginx`` packages.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the app's modules; the helpers shared with the tests

from browser import StreamlitServer  # noqa: E402
from class_load import DEFAULT_PRESET, Tab  # noqa: E402  (this folder: the class the two set-ups run)
from machine import machine_line  # noqa: E402  (tests/machine.py, shared with the other benchmarks)
from nginx_server import NginxProxy  # noqa: E402
from postgres_server import PostgresCluster  # noqa: E402

from bpe_server.store_db import DATABASE_URL_ENV  # noqa: E402

CLASS_LOAD = ROOT / "benchmarks" / "class_load.py"


def class_load(*args: str) -> int:
    """Run ``class_load.py`` with ``args``; its output goes straight to ours. Returns its exit code."""
    sys.stdout.flush()
    return subprocess.run([sys.executable, str(CLASS_LOAD), *args], cwd=ROOT).returncode


def round_trips(base_url: str, path: str, n: int) -> list[float]:
    """Wall times (ms) of ``n`` GETs of ``path`` on one kept-alive connection (as a class tab polls)."""
    host, port = base_url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    times = []
    try:
        for _ in range(n):
            t = time.perf_counter()
            conn.request("GET", path)
            conn.getresponse().read()
            times.append((time.perf_counter() - t) * 1000)
    finally:
        conn.close()
    return sorted(times)


def hop_cost(direct: str, proxied: str, n: int = 300) -> None:
    """What nginx adds to one small request: ``/_stcore/health`` directly and through nginx, alternating."""
    a, b = [], []
    for _ in range(n // 50):
        a += round_trips(direct, "/_stcore/health", 50)
        b += round_trips(proxied, "/_stcore/health", 50)
    for name, t in (("directly", sorted(a)), ("through nginx", sorted(b))):
        print(f"GET /_stcore/health {name:14} median {statistics.median(t):6.2f} ms   "
              f"p95 {t[int(0.95 * (len(t) - 1))]:6.2f} ms   ({len(t)} requests, one connection)")  # fmt: skip


def one_server(passed: list[str]) -> int:
    print("\n=== one server, SQLite", flush=True)
    return class_load(*passed)


class Replica(StreamlitServer):
    """An app server as the tests start it, with ``--server.disconnectedSessionTTL`` when ``ttl`` is set (then
    class_load.py, told the same ``--ttl``, waits that long before reading the memory)."""

    def __init__(self, ttl: int | None, log_path: Path):
        super().__init__(log_path=log_path)
        self.ttl = ttl

    def command(self, port: int) -> list[str]:
        extra = ["--server.disconnectedSessionTTL", str(self.ttl)] if self.ttl is not None else []
        return [*super().command(port), *extra]


def warm(url: str, preset: str) -> None:
    """Open the stepper on ``preset`` at one replica directly (its run trained and drawn), as a browser tab does."""

    tab = Tab(url)
    try:
        tab.query = f"preset={preset}"
        problems = tab.run()
        if problems:
            print(f"warming {url}: {problems[:2]}", flush=True)
    finally:
        tab.close()


def two_replicas(passed: list[str], ttl: int | None) -> int:
    print("\n=== two replicas behind nginx, PostgreSQL", flush=True)
    cluster = PostgresCluster()
    servers: list[StreamlitServer] = []
    proxy = None
    tmp = Path(tempfile.mkdtemp(prefix="replicas-class-"))
    try:
        url = cluster.start()
        saved = dict(os.environ)
        try:
            for name in ("a", "b"):
                os.environ.update({
                    DATABASE_URL_ENV: url,
                    "XDG_CACHE_HOME": str(tmp / f"cache-{name}"),
                    "STREAMLIT_SERVER_COOKIE_SECRET": "one-secret-for-every-replica-of-the-benchmark",
                })  # fmt: skip
                server = Replica(ttl, log_path=tmp / f"server-{name}.log")
                server.start(timeout=120)
                servers.append(server)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        proxy = NginxProxy([f"127.0.0.1:{s.port}" for s in servers])
        proxy.start()
        print(f"replicas {', '.join(s.url for s in servers)}; nginx {proxy.url}; PostgreSQL {url}", flush=True)
        hop_cost(servers[0].url, proxy.url)
        # Each replica trains for itself: the one the teacher's cookie does not pick would train the class's corpus
        # for its first student, in the middle of the class and of its memory figures. Both train it first.
        preset = passed[passed.index("--preset") + 1] if "--preset" in passed[:-1] else DEFAULT_PRESET
        for server in servers:
            warm(server.url, preset)
        pids = [arg for s in servers for arg in ("--pid", str(s.proc.pid))]
        rc = class_load("--url", proxy.url, *pids, "--store", url, *passed)
        streams = Counter(r.replica for r in proxy.requests() if r.path.startswith("/_stcore/stream"))
        names = {f"127.0.0.1:{s.port}": n for s, n in zip(servers, "AB", strict=True)}
        spread = ", ".join(f"{names.get(k, k)} {v}" for k, v in sorted(streams.items()))
        errors = Counter(r.status for r in proxy.requests() if r.status >= 500)
        print(f"nginx: websockets per replica {spread or 'none logged'}; 5xx answers {dict(errors) or 0}")
        return rc
    finally:
        if proxy:
            proxy.stop()
        for server in servers:
            server.stop()
        cluster.remove()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="Other options go to class_load.py.")
    ap.add_argument("--only", choices=["one", "replicas"], help="run one set-up only")
    ap.add_argument("--ttl", type=int, help="server.disconnectedSessionTTL of every server (default: the config's)")
    args, passed = ap.parse_known_args()
    if args.ttl is not None:
        passed += ["--ttl", str(args.ttl)]
    print(machine_line())
    rc = 0
    if args.only in (None, "one"):
        rc |= one_server(passed)
    if args.only in (None, "replicas"):
        rc |= two_replicas(passed, args.ttl)
    return rc


if __name__ == "__main__":
    sys.exit(main())
