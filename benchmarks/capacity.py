"""How many students one app server (replica) holds, what it costs idle and with a class, and what a department needs.

    .venv/bin/python benchmarks/capacity.py                          # classes of 20, 40, 80 and 120 students
    .venv/bin/python benchmarks/capacity.py --students 40 --students 80 --minutes 0.5   # a quicker look

One replica (``streamlit run serve.py`` with the flags of ``deploy/systemd/bpe-explorer@.service``, its own SQLite
store, a session TTL of 10 s so that closed tabs are reaped quickly) is started and measured:

* **idle**: its RSS and CPU share over ``--idle-s`` seconds after one tab opened the class's preset and closed (the
  preset trained and cached, as a replica is between classes);
* **with a class** of each ``--students`` size: ``benchmarks/class_load.py`` against it (a teacher stepping every
  2 s for ``--minutes``, one question, the students polling and following as the page's script does; no real
  browsers): the step propagation p95 (the target: <= 1.5 s), the replica's CPU share during the class and its
  peak RSS.

It prints a Markdown table and, from it: the students per replica (the largest class measured whose p95 met the
target), the replicas per core (a replica is one Python process: one core at most; a class of 40 used the share
measured), and what five classes of 40 at once need. The clients (40-120 websockets and their polls, in Python
threads) run on the same machine and take CPU from the replica: the figures are a floor for a machine that only
serves. Read the CPU line printed first.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
sys.path.insert(0, str(REPO_ROOT))

from class_load import DEFAULT_PRESET, cpu_seconds  # noqa: E402
from load_sessions import StreamlitSession, rss_bytes  # noqa: E402
from machine import machine_line  # noqa: E402

TTL_S = 10
_P95 = re.compile(r"step on every screen over \d+ \(student, step\) pairs: p50 (\d+) ms, p95 (\d+) ms")
_CPU = re.compile(r"server CPU during the class: [\d.]+ s over \d+ s \((\d+)% of one core")
_PEAK = re.compile(r"peak (\d+) MB")


def start_replica(log: Path):
    """One replica as the systemd unit runs it (its flags), on a free port, with a fresh SQLite store."""
    import os

    from browser import StreamlitServer

    class Replica(StreamlitServer):
        def command(self, port: int) -> list[str]:
            return [*super().command(port), "--server.disconnectedSessionTTL", str(TTL_S)]

    folder = Path(tempfile.mkdtemp(prefix="capacity-"))
    os.environ["BPE_EXPLORER_STORE"] = str(folder / "corpora.sqlite3")
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    os.environ.pop("BPE_EXPLORER_DATABASE_URL", None)
    server = Replica(log_path=log)
    server.start(timeout=120)
    return server, folder


def idle(url: str, pid: int, preset: str, seconds: float) -> tuple[float, float]:
    """``(RSS in MB, CPU share of one core in %)`` of an idle replica that has served ``preset`` once."""
    session = StreamlitSession(url, timeout=180)
    try:
        session.rerun(f"preset={preset}&step=0", 180)  # trains and caches the class's corpus
    finally:
        session.close()
    time.sleep(TTL_S + 5)  # the probe's session reaped
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return rss_bytes(pid) / 1e6, 100 * (cpu_seconds(pid) - c0) / (time.monotonic() - t0)


def with_class(url: str, pid: int, students: int, minutes: float, preset: str) -> dict:
    """One class of ``students`` against the replica (``class_load.py``); its p50 / p95 in ms, CPU % and peak MB."""
    cmd = [sys.executable, str(REPO_ROOT / "benchmarks" / "class_load.py"), "--url", url, "--pid", str(pid),
           "--students", str(students), "--browsers", "0", "--minutes", str(minutes), "--questions", "1",
           "--ttl", str(TTL_S), "--preset", preset]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
    out = done.stdout
    p95, cpu, peak = _P95.search(out), _CPU.search(out), _PEAK.search(out)
    if not (p95 and cpu and peak):
        raise RuntimeError(f"class_load.py said:\n{out}\n{done.stderr[-3000:]}")
    return {"p50": int(p95[1]), "p95": int(p95[2]), "cpu": int(cpu[1]), "peak": int(peak[1])}


def plan(rows: list[tuple[int, dict]], students: int = 5 * 40) -> list[str]:
    """What the measured ``rows`` (``(class size, with_class() figures)``) say: students per replica (the largest
    class whose p95 met 1.5 s), replicas per core, and the replicas, cores and memory ``students`` (five classes of
    40) need. nginx spreads browsers over the replicas by a hash, not by class, so what counts is students per
    replica; one replica more than needed, so that a replica's restart moves its students onto replicas with room."""
    fits = [(n, g) for n, g in rows if g["p95"] <= 1500]
    if not fits:
        return ["no class size measured met p95 <= 1.5 s"]
    per_replica, at = max(fits, key=lambda f: f[0])
    per_core = max(1, math.floor(100 / max(at["cpu"], 1)))  # one process: one core at most (the GIL)
    replicas = math.ceil(students / per_replica) + 1
    cores = math.ceil(replicas / per_core) + 1  # + one for PostgreSQL, nginx and the system
    memory = replicas * at["peak"] + 300  # + ~300 MB for PostgreSQL, nginx and the system's own
    return [
        f"students per replica at p95 <= 1.5 s: {per_replica} (the largest class measured that met it)",
        f"a replica with {per_replica} students used {at['cpu']} % of a core: {per_core} replica(s) per core",
        f"{students} students (five classes of 40): {replicas} replicas (one spare), {cores} cores "
        f"({replicas} replicas at {per_core} per core, + 1 for PostgreSQL, nginx and the system), about "
        f"{memory / 1000:.1f} GB of memory ({replicas} x {at['peak']} MB + 300 MB)",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, action="append", help="class sizes to measure (repeatable)")
    ap.add_argument("--minutes", type=float, default=1.0, help="length of each class")
    ap.add_argument("--idle-s", type=float, default=20.0)
    ap.add_argument("--preset", default=DEFAULT_PRESET)
    args = ap.parse_args()
    sizes = args.students or [20, 40, 80, 120]
    print(machine_line())
    server, _folder = start_replica(Path(tempfile.gettempdir()) / "capacity-server.log")
    try:
        pid = server.proc.pid
        idle_mb, idle_cpu = idle(server.url, pid, args.preset, args.idle_s)
        rows = []
        for n in sizes:
            got = with_class(server.url, pid, n, args.minutes, args.preset)
            rows.append((n, got))
            print(f"  {n} students: {got}", file=sys.stderr)
    finally:
        server.stop()
    print()
    print(
        "| students in one class | step p50 | step p95 (target <= 1.5 s) | replica CPU (% of a core) | replica RSS peak |"
    )
    print("|---|---|---|---|---|")
    print(f"| idle (no class) | | | {idle_cpu:.1f} % | {idle_mb:.0f} MB |")
    for n, g in rows:
        ok = "" if g["p95"] <= 1500 else " (over)"
        print(f"| {n} | {g['p50'] / 1000:.2f} s | {g['p95'] / 1000:.2f} s{ok} | {g['cpu']} % | {g['peak']} MB |")
    print()
    for line in plan(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
