"""Thirty students on one server: start the app, open many sessions at once, step, measure.

    .venv/bin/python benchmarks/load_sessions.py            # 30 students, 2 waves, 3 Chromium pages
    .venv/bin/python benchmarks/load_sessions.py --help     # every option

What it does, per wave (every wave is identical to the first):

* ``--students`` sessions (default 30) open at the same moment. Student *i* loads a preset
  (even *i*: ``textbook-low``, the textbook corpus; odd *i*: ``pg16457-book``, the whole book
  with 10,000 merges) and then steps ``--steps`` times (default 20), waiting ``--think`` seconds
  between steps (default 3 s, a student reading the merge before the next click, varied x0.5-1.5
  with a fixed seed; ``--think 1`` is a stress test, ``--think 0`` clicks as fast as the server
  answers).
  Book students start at different steps (spread over the 10,000 merges), so the sessions do
  not all ask for the same page.
* These sessions speak Streamlit's own websocket protocol (``/_stcore/stream``, the ``BackMsg``
  / ``ForwardMsg`` protobufs shipped in the streamlit package), as the browser does, without a
  browser: 30 real browsers on a 2-core machine would measure the browsers, not the server.
  Loading and stepping is a ``rerun_script`` BackMsg whose client state carries the query
  string ``preset=<id>&step=<K>`` (the app adopts a changed query string on any rerun).
* ``--browsers`` real Chromium pages (default 3, Playwright) run alongside: they open
  ``/?preset=...&step=...`` and click "Next" ``--steps`` times, to confirm that what the
  websocket clients measure is what a browser sees.
* Time per step: from sending the rerun BackMsg to receiving that session's
  ``script_finished`` ForwardMsg (Chromium: from the click to the step label showing the new
  step with the script finished). The first load of each session is reported apart (it includes training
  the book in the first wave; later waves find it in the shared cache).
* Errors: connection failures, timeouts, a run that does not finish successfully, an exception
  or an ``st.error`` box in the page, or a step the app did not adopt (the URL the app writes
  back, or the step label it draws, names another step).
* Server memory: the RSS of the ``streamlit run`` process (``VmRSS`` in ``/proc/PID/status``),
  sampled every 50 ms: before the wave, at its peak, and after every session closed and
  ``server.disconnectedSessionTTL`` (``.streamlit/config.toml``) expired. Streamlit frees a
  disconnected session lazily, at the next write to its session store, so "after" first waits
  for the TTL and then opens and closes two short probe sessions, the same after every wave.
  Python rarely returns freed memory to the operating system: the test of "no growth" compares
  the memory after the last wave with the memory after the first (limit ``--growth-limit``,
  10 %), never with the start.

Targets (the exit code is 1 when one is missed): 0 errors, p95 time per step <= 1 s
(``--p95-target``), and no growth between waves.

Everything is bounded: loopback only, a timeout on every receive, a deadline on every step,
the whole script stops by itself after ``--deadline`` seconds (default 1,200) and always stops
the server it started.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

import tomllib

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))  # the StreamlitServer and Chromium helpers of the tests

TEXTBOOK, BOOK = "textbook-low", "pg16457-book"
BOOK_MERGES = 10_000


# ------------------------------------------------------------------------------------- results
@dataclass
class SessionResult:
    """What one simulated student saw."""

    name: str
    kind: str  # "websocket" or "chromium"
    preset: str
    load_s: float | None = None
    step_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0..100) by linear interpolation; None for no values."""
    if not values:
        return None
    data = sorted(values)
    k = (len(data) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


# ------------------------------------------------------------------------------- server memory
def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` in bytes (``VmRSS`` of ``/proc/PID/status``), 0 if gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class MemorySampler:
    """Samples the RSS of a process every ``interval`` seconds in a thread; keeps the peak."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.pid, self.interval = pid, interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="rss-sampler", daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_bytes(self.pid))
            self._stop.wait(self.interval)

    def __enter__(self) -> MemorySampler:
        self.peak = rss_bytes(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.peak = max(self.peak, rss_bytes(self.pid))


# ---------------------------------------------------------------------------- websocket client
class StreamlitSession:
    """One browser tab's worth of Streamlit protocol over a websocket (no browser).

    ``rerun(query)`` sends a ``rerun_script`` BackMsg carrying ``query`` as the page's query
    string and reads ForwardMsgs until that run's ``script_finished``; it returns the elapsed
    seconds, what went wrong (exceptions, error boxes), the query string the app wrote back and
    the step its step label shows (``data-step`` of ``#bpe-step-label``).
    """

    def __init__(self, base_url: str, timeout: float):
        import websocket  # websocket-client (requirements-dev.txt)

        self.timeout = timeout
        ws_url = base_url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.ws = websocket.create_connection(ws_url, timeout=timeout, subprotocols=["streamlit"])

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass

    def rerun(self, query: str, deadline_s: float) -> tuple[float, list[str], str | None, int | None]:
        """Returns ``(seconds, problems, query string written back or None, step shown or None)``."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = ""
        problems: list[str] = []
        written: str | None = None
        label: int | None = None
        start = time.monotonic()
        self.ws.send_binary(msg.SerializeToString())
        while True:
            if time.monotonic() - start > deadline_s:
                problems.append(f"no script_finished within {deadline_s:.0f} s")
                return time.monotonic() - start, problems, written, label
            data = self.ws.recv()  # raises on timeout / closed connection
            if isinstance(data, str):
                problems.append("unexpected text frame")
                continue
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                etype = element.WhichOneof("type")
                if etype == "exception":
                    exc = element.exception
                    problems.append(f"exception in the page: {exc.type}: {exc.message[:200]}")
                elif etype == "alert" and element.alert.format == element.alert.ERROR:
                    problems.append(f"error box in the page: {element.alert.body[:200]}")
                elif etype == "html" and "bpe-step-label" in element.html.body:
                    m = _STEP_LABEL.search(element.html.body)
                    label = int(m.group(1) or m.group(2)) if m else label
            elif kind == "page_info_changed":
                written = fwd.page_info_changed.query_string
            elif kind == "script_finished":
                elapsed = time.monotonic() - start
                status = fwd.script_finished
                if status != ForwardMsg.FINISHED_SUCCESSFULLY:
                    name = ForwardMsg.ScriptFinishedStatus.Name(status)
                    problems.append(f"script finished with {name}")
                return elapsed, problems, written, label


_STEP_LABEL = re.compile(r'bpe-step-label[^>]*data-step="(\d+)"|data-step="(\d+)"[^>]*bpe-step-label')


def _step_of(query: str | None) -> int | None:
    if query is None:
        return None
    values = parse_qs(query).get("step")
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


def student_plan(index: int, steps: int) -> tuple[str, int]:
    """``(preset, first step)`` of student ``index``: even textbook, odd book (spread start)."""
    if index % 2 == 0:
        return TEXTBOOK, 0
    start = (index // 2 * 613) % (BOOK_MERGES - steps - 1)
    return BOOK, start


def run_websocket_student(index: int, base_url: str, args, go: threading.Event, result: SessionResult) -> None:
    """One simulated student: connect, load the preset, step ``args.steps`` times, disconnect."""
    preset, start = result.preset, student_plan(index, args.steps)[1]
    rng = random.Random(index)  # the same think times in every wave
    if not go.wait(timeout=60):
        result.errors.append("never started")
        return
    try:
        session = StreamlitSession(base_url, timeout=args.recv_timeout)
    except Exception as exc:
        result.errors.append(f"could not connect: {exc!r}"[:300])
        return
    try:
        elapsed, problems, _, label = session.rerun(f"preset={preset}&step={start}", args.load_deadline)
        result.load_s = elapsed
        result.errors += [f"load: {p}" for p in problems]
        if label != start:
            result.errors.append(f"load: the step label shows {label}, not {start}")
        shown = start
        for k in range(1, args.steps + 1):
            if args.think > 0:
                time.sleep(args.think * (0.5 + rng.random()))  # think time: 0.5x .. 1.5x
            want = start + k
            elapsed, problems, written, label = session.rerun(f"preset={preset}&step={want}", args.step_deadline)
            result.step_s.append(elapsed)
            result.errors += [f"step {want}: {p}" for p in problems]
            got = _step_of(written)
            if got is None:
                got = want  # the app kept the URL we sent: it shows that step
            if not (got == want or (got < want and got == shown)):  # adopted, or clamped at the end
                result.errors.append(f"step {want}: the app wrote step {got} into the URL")
            if label != got:
                result.errors.append(f"step {want}: the step label shows {label}, the URL says {got}")
            shown = got
    except Exception as exc:  # timeouts, a closed connection: one error, the student stops
        result.errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        session.close()


def probe(base_url: str, timeout: float = 60) -> None:
    """Open a session, run the default page once, close it (lets the server reap and collect)."""
    session = StreamlitSession(base_url, timeout=timeout)
    try:
        session.rerun(f"preset={TEXTBOOK}&step=0", timeout)
    finally:
        session.close()


# ------------------------------------------------------------------------------------ Chromium
def run_browsers(
    base_url: str, args, go: threading.Event, results: list[SessionResult], ready: threading.Event
) -> None:
    """``args.browsers`` Chromium pages in this thread (Playwright's sync API wants one thread):
    each opens its preset at its first step and clicks Next ``args.steps`` times, round-robin."""
    from browser import APP_SELECTOR, DEFAULT_TIMEOUT_MS, exception_texts, launch_chromium, wait_for_app
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw:
            chromium = launch_chromium(pw)
            try:
                ready.set()
                if not go.wait(timeout=60):
                    return
                pages = []
                for res in results:
                    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
                    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
                    page = ctx.new_page()
                    page.on("dialog", lambda d, r=res: (r.errors.append(f"dialog: {d.message}"), d.dismiss()))
                    pages.append((ctx, page, res))
                starts = {}
                for i, (_ctx, page, res) in enumerate(pages):
                    start = student_plan(2 * i + 1, args.steps)[1] + 7 if res.preset == BOOK else 0
                    starts[id(res)] = start
                    t0 = time.monotonic()
                    try:
                        page.goto(f"{base_url}/?preset={res.preset}&step={start}", wait_until="domcontentloaded")
                        wait_for_app(page)
                        res.load_s = time.monotonic() - t0
                        res.errors += [f"load: exception: {t[:200]}" for t in exception_texts(page)]
                    except Exception as exc:
                        res.errors.append(f"load: {type(exc).__name__}: {str(exc)[:200]}")
                shown = {id(res): starts[id(res)] for _, _, res in pages}
                for _k in range(args.steps):
                    for _ctx, page, res in pages:
                        if res.errors and any("load:" in e for e in res.errors):
                            continue
                        if args.think > 0:
                            page.wait_for_timeout(args.think * 1000 / max(1, len(pages)))
                        cur = shown[id(res)]
                        nxt = page.get_by_role("button", name=re.compile(r"^Next")).first
                        try:
                            if nxt.is_enabled():
                                want = cur + 1
                                t0 = time.monotonic()
                                nxt.click()
                            else:  # end of a short run: back to the start
                                want = 0
                                t0 = time.monotonic()
                                page.get_by_role("button", name=re.compile(r"First")).first.click()
                            page.wait_for_selector(f'#bpe-step-label[data-step="{want}"]')
                            wait_for_app(page)
                            res.step_s.append(time.monotonic() - t0)
                            if not re.search(rf"[?&]step={want}(&|$)", page.url):
                                res.errors.append(f"step {want}: the URL says {page.url}")
                            shown[id(res)] = want
                            res.errors += [f"step {want}: exception: {t[:200]}" for t in exception_texts(page)]
                            state = page.locator(APP_SELECTOR).first.get_attribute("data-test-connection-state")
                            if state != "CONNECTED":
                                res.errors.append(f"step {want}: connection {state}")
                        except Exception as exc:
                            res.errors.append(f"step {cur + 1}: {type(exc).__name__}: {str(exc)[:200]}")
                for ctx, _, _ in pages:
                    ctx.close()
            finally:
                chromium.close()
    except Exception as exc:
        for res in results:
            res.errors.append(f"Chromium: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        ready.set()


# ----------------------------------------------------------------------------------- one wave
@dataclass
class WaveResult:
    number: int
    sessions: list[SessionResult]
    before: int
    peak: int
    after: int
    seconds: float
    active_after: str


def active_sessions(base_url: str) -> str:
    """The server's ``active_sessions`` gauge (``/_stcore/metrics``), as text."""
    try:
        with urllib.request.urlopen(f"{base_url}/_stcore/metrics?families=active_sessions", timeout=10) as resp:
            text = resp.read().decode()
    except OSError as exc:
        return f"? ({exc})"
    m = re.search(r"^active_sessions\S*\s+(\d+)", text, re.MULTILINE)
    return m.group(1) if m else "?"


def run_wave(number: int, base_url: str, pid: int, args, ttl: int, deadline: float) -> WaveResult:
    sessions = [SessionResult(f"ws{i:02d}", "websocket", student_plan(i, args.steps)[0]) for i in range(args.students)]
    browsers = [
        SessionResult(f"chromium{i}", "chromium", BOOK if i % 2 == 0 else TEXTBOOK) for i in range(args.browsers)
    ]
    go = threading.Event()
    threads = [
        threading.Thread(target=run_websocket_student, args=(i, base_url, args, go, res), name=res.name, daemon=True)
        for i, res in enumerate(sessions)
    ]
    browser_ready = threading.Event()
    if browsers:
        threads.append(
            threading.Thread(target=run_browsers, args=(base_url, args, go, browsers, browser_ready), daemon=True)
        )
    else:
        browser_ready.set()
    for t in threads:
        t.start()
    browser_ready.wait(timeout=120)  # Chromium's own start-up is not part of the wave
    before = rss_bytes(pid)
    t0 = time.monotonic()
    with MemorySampler(pid) as sampler:
        go.set()
        for t in threads:
            t.join(timeout=max(1.0, deadline - time.monotonic()))
        stuck = [t.name for t in threads if t.is_alive()]
        seconds = time.monotonic() - t0
        for t in threads:
            if t.is_alive():
                res = next((r for r in sessions if r.name == t.name), None)
                for r in [res] if res else browsers:
                    r.errors.append("still running at the deadline")
        if stuck:
            print(f"wave {number}: {len(stuck)} clients still running at the deadline", file=sys.stderr)
        # Every tab is closed now. Wait for the disconnected-session TTL, then let the server
        # reap the expired sessions (on its next session-store write) and collect garbage.
        wait = ttl + args.settle
        print(f"wave {number}: done in {seconds:.1f} s; waiting {wait:.0f} s for the session TTL ...", file=sys.stderr)
        time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
    for _ in range(2):
        try:
            probe(base_url)
        except Exception as exc:
            print(f"wave {number}: probe session failed: {exc!r}", file=sys.stderr)
    time.sleep(2)
    after = rss_bytes(pid)
    return WaveResult(number, sessions + browsers, before, sampler.peak, after, seconds, active_sessions(base_url))


# ---------------------------------------------------------------------------------- reporting
def fmt_s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def mb(n: int) -> str:
    return f"{n / 1e6:,.0f}"


def print_report(waves: list[WaveResult], args, ttl: int, pid: int, start_rss: int) -> bool:
    import streamlit

    kinds = ("websocket", "chromium")
    print()
    print(
        f"BPE Explorer load benchmark: {args.students} websocket students "
        f"({(args.students + 1) // 2} {TEXTBOOK}, {args.students // 2} {BOOK}) + {args.browsers} Chromium pages, "
        f"{args.steps} steps each, think time {args.think:g} s (x0.5-1.5), {len(waves)} identical waves"
    )
    print(
        f"server: streamlit {streamlit.__version__}, pid {pid}, {os.cpu_count()} CPUs, "
        f"disconnectedSessionTTL {ttl} s, RSS at start {mb(start_rss)} MB"
    )
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine load average (1/5/15 min) at the end: {load} (other processes share these CPUs)")
    print()
    head = f"{'wave':>4}  {'client':<9}  {'sessions':>8}  {'steps':>5}  {'errors':>6}  {'load p50':>8}  {'load max':>8}  {'step p50':>8}  {'step p95':>8}  {'step max':>8}"
    print(head)
    print("-" * len(head))
    all_ok = True
    worst_p95 = 0.0
    total_errors = 0
    for w in waves:
        for kind in kinds:
            rs = [r for r in w.sessions if r.kind == kind]
            if not rs:
                continue
            steps = [s for r in rs for s in r.step_s]
            loads = [r.load_s for r in rs if r.load_s is not None]
            errors = sum(len(r.errors) for r in rs)
            total_errors += errors
            p95 = percentile(steps, 95)
            if kind == "websocket" and p95 is not None:
                worst_p95 = max(worst_p95, p95)
            print(
                f"{w.number:>4}  {kind:<9}  {len(rs):>8}  {len(steps):>5}  {errors:>6}  "
                f"{fmt_s(percentile(loads, 50)):>8}  {fmt_s(max(loads) if loads else None):>8}  "
                f"{fmt_s(percentile(steps, 50)):>8}  {fmt_s(p95):>8}  {fmt_s(max(steps) if steps else None):>8}"
            )
    print("(times in seconds; load = the first run of a session, step = one rerun to the next step)")
    print()
    head = (
        f"{'wave':>4}  {'RSS before':>10}  {'RSS peak':>10}  {'RSS after':>10}  {'sessions left':>13}  {'wave time':>9}"
    )
    print(head)
    print("-" * len(head))
    for w in waves:
        print(
            f"{w.number:>4}  {mb(w.before):>7} MB  {mb(w.peak):>7} MB  {mb(w.after):>7} MB  {w.active_after:>13}  {w.seconds:>7.1f} s"
        )
    print(
        f"(RSS of the server process; 'after' = every session closed + TTL {ttl} s + 2 probe sessions; "
        "'sessions left' = active sessions then)"
    )
    print()
    for w in waves:
        for r in w.sessions:
            for e in r.errors[:3]:
                print(f"error: wave {w.number} {r.name} ({r.preset}): {e}")
            if len(r.errors) > 3:
                print(f"error: wave {w.number} {r.name}: ... and {len(r.errors) - 3} more")
    checks = [("errors", total_errors == 0, f"{total_errors} (target 0)")]
    checks.append(
        ("step p95 (websocket)", worst_p95 <= args.p95_target, f"{worst_p95:.2f} s (target <= {args.p95_target:g} s)")
    )
    if len(waves) >= 2:
        first, last = waves[0].after, waves[-1].after
        growth = (last - first) / first * 100 if first else float("inf")
        checks.append(
            ("growth between waves", growth <= args.growth_limit,
             f"{growth:+.1f} % after wave {waves[-1].number} vs after wave 1 (limit {args.growth_limit:g} %)")
        )  # fmt: skip
    for name, ok, text in checks:
        all_ok &= ok
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {text}")
    return all_ok


# ------------------------------------------------------------------------------------- main
def config_ttl() -> int:
    """``server.disconnectedSessionTTL`` of ``.streamlit/config.toml`` (Streamlit's default 120)."""
    try:
        with open(REPO_ROOT / ".streamlit" / "config.toml", "rb") as f:
            return int(tomllib.load(f).get("server", {}).get("disconnectedSessionTTL", 120))
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        return 120


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="websocket sessions per wave (default 30)")
    parser.add_argument("--browsers", type=int, default=3, help="real Chromium pages per wave (default 3; 0 = none)")
    parser.add_argument("--steps", type=int, default=20, help="steps per session (default 20)")
    parser.add_argument("--waves", type=int, default=2, help="identical waves (default 2)")
    parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="mean seconds between two steps of a student (x0.5-1.5, seeded; default 3; 0 = none)",
    )
    parser.add_argument(
        "--ttl", type=int, default=None, help="override server.disconnectedSessionTTL (default: .streamlit/config.toml)"
    )
    parser.add_argument("--settle", type=float, default=5.0, help="seconds waited after the TTL (default 5)")
    parser.add_argument("--recv-timeout", type=float, default=60.0, help="timeout of one websocket receive (s)")
    parser.add_argument("--load-deadline", type=float, default=120.0, help="deadline of a first load (s)")
    parser.add_argument("--step-deadline", type=float, default=30.0, help="deadline of one step (s)")
    parser.add_argument("--deadline", type=float, default=1200.0, help="the whole benchmark stops after this (s)")
    parser.add_argument("--p95-target", type=float, default=1.0, help="target p95 seconds per step (default 1)")
    parser.add_argument(
        "--growth-limit", type=float, default=10.0, help="allowed growth between waves, %% (default 10)"
    )
    args = parser.parse_args(argv)
    if args.students < 0 or args.browsers < 0 or args.steps < 1 or args.waves < 1:
        parser.error("--students/--browsers must be >= 0, --steps and --waves >= 1")

    from browser import StreamlitServer

    ttl = config_ttl() if args.ttl is None else args.ttl
    deadline = time.monotonic() + args.deadline

    class BenchServer(StreamlitServer):
        def command(self, port: int) -> list[str]:
            cmd = super().command(port)
            if args.ttl is not None:
                cmd += ["--server.disconnectedSessionTTL", str(args.ttl)]
            return cmd

    server = BenchServer(log_path=REPO_ROOT / "test-artifacts" / "load-sessions-server.log")
    print(f"starting the app (log: {server.log_path.relative_to(REPO_ROOT)}) ...", file=sys.stderr)
    base_url = server.start(timeout=60)
    try:
        assert server.proc is not None
        pid = server.proc.pid
        start_rss = rss_bytes(pid)
        waves = []
        for n in range(1, args.waves + 1):
            if time.monotonic() > deadline:
                print(f"deadline reached before wave {n}", file=sys.stderr)
                break
            print(f"wave {n}: {args.students} websocket students + {args.browsers} Chromium pages ...", file=sys.stderr)
            waves.append(run_wave(n, base_url, pid, args, ttl, deadline))
        ok = print_report(waves, args, ttl, pid, start_rss)
    finally:
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
