"""A live class of 40 on one server: a teacher steps every 2 s, the students follow; questions; numbers printed.

    .venv/bin/python benchmarks/class_load.py                  # 40 students, 2 minutes, 5 questions
    .venv/bin/python benchmarks/class_load.py --students 10 --minutes 0.5 --questions 1   # a quick look

Every client speaks Streamlit's websocket protocol as a browser tab does (``benchmarks/load_sessions.py``'s
:class:`StreamlitSession`, extended here with fragment reruns and button presses):

* The **teacher** opens the default page, presses "Start a class" (a button of the step view: a fragment rerun
  with the button's trigger), then presses "Next ▶" every ``--every`` seconds; ``--questions`` times it presses
  "Ask the class", waits ``--answer-s`` seconds and presses "Reveal" instead of stepping.
* Each **student** opens ``/?class=CODE`` and then does what the page's script does in a browser: every 0.75 s it
  reruns the polling fragment (as ``run_every`` makes the browser do); when the version it shows differs from the
  one the step view was drawn at, it presses the hidden "sync" button (a rerun of the step view only). When a
  question shows, it presses one of the answer buttons, and one student in four changes their pick once.
* **Propagation**: from the moment the teacher's "Next" press is sent to the moment a student's step view has
  drawn that step: p50 / p95 / max over every student and step (target p95 <= 1.5 s).
* **Picks counted**: the class's tallies (read from the SQLite file) against the picks the students made.
* **Per-poll server cost**: the server process's CPU time (``/proc/PID/stat``) over a quiet stretch in which only
  the students poll, divided by the number of polls; and the wall time of a poll round trip.
* **Server CPU and memory**: CPU seconds used during the class (and as a share of one core), RSS once the class started
  (before anyone joined), peak, and 5 s after the sessions closed.

Wall-clock numbers on a shared machine are noisy: run it on a quiet one, and read the CPU model printed first.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
sys.path.insert(0, str(REPO_ROOT))

from load_sessions import MemorySampler, percentile, rss_bytes  # noqa: E402

_SIG = re.compile(r"id='bpe-class-(poll|view)' data-sig='([^']*)'")
_STEP = re.compile(r'id="bpe-step-label" data-step="(\d+)"')
_CODE = re.compile(r"id='bpe-class-code'>([A-Z0-9]{6})<")
_QUESTION = re.compile(r"id='bpe-class-question' data-merge='(\d+)' data-state='(\w+)'")


from machine import cpu_model  # noqa: E402  (tests/machine.py, shared with the other benchmarks)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its children so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Tab:
    """One browser tab over the websocket: runs, fragment reruns and button presses, remembering what it drew."""

    def __init__(self, base_url: str, timeout: float = 60):
        import websocket

        self.ws = websocket.create_connection(
            base_url.replace("http://", "ws://", 1) + "/_stcore/stream", timeout=timeout, subprotocols=["streamlit"]
        )
        self.query = ""
        self.buttons: dict[str, tuple[str, str]] = {}  # key suffix -> (widget id, fragment id)
        self.html: dict[str, str] = {}  # what the last runs drew, by marker
        self.fragments: dict[str, str] = {}  # "poll" / "view" -> fragment id
        self.step: int | None = None
        self.drawn_at = 0.0

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass

    def run(self, fragment: str = "", press: str | None = None, auto: bool = False) -> list[str]:
        """A rerun (of ``fragment``, with ``press`` a button key's trigger); returns the problems seen."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = ""
        if fragment:
            cs.fragment_id = fragment
            cs.is_auto_rerun = auto
        if press:
            w = cs.widget_states.widgets.add()
            w.id = self.buttons[press][0]
            w.trigger_value = True
        self.ws.send_binary(msg.SerializeToString())
        problems = []
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                etype = el.WhichOneof("type")
                if etype == "exception":
                    problems.append(f"exception: {el.exception.message[:200]}")
                elif etype == "button":
                    self.buttons[el.button.id] = (el.button.id, fwd.delta.fragment_id)
                elif etype == "html":
                    body = el.html.body
                    for m in _SIG.finditer(body):
                        self.html[m.group(1)] = m.group(2)
                        self.fragments[m.group(1)] = fwd.delta.fragment_id
                    if body.lstrip().startswith('<div class="bpe-step-label') and (m := _STEP.search(body)):
                        self.step = int(m.group(1))
                        self.drawn_at = time.monotonic()
                    if m := _CODE.search(body):
                        self.html["code"] = m.group(1)
                    if "bpe-class-question" in body and (m := _QUESTION.search(body)):
                        self.html["question"] = f"{m.group(1)}:{m.group(2)}"
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "script_finished":
                if fwd.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the page asked for another run (st.rerun): that one's end is this run's end
                if fwd.script_finished not in (
                    ForwardMsg.FINISHED_SUCCESSFULLY,
                    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
                ):
                    problems.append(f"script finished with {ForwardMsg.ScriptFinishedStatus.Name(fwd.script_finished)}")
                return problems

    def button(self, key: str) -> str:
        """The full widget id of the button whose user key is ``key``."""
        for wid in self.buttons:
            if wid.endswith("-" + key):
                return wid
        raise KeyError(key)

    def press(self, key: str) -> list[str]:
        wid = self.button(key)
        return self.run(fragment=self.buttons[wid][1], press=wid)


def student(i: int, url: str, code: str, stop: threading.Event, out: dict, lock: threading.Lock) -> None:
    rng = random.Random(i)
    seen_steps: dict[int, float] = {}
    errors: list[str] = []
    polls: list[float] = []
    picks: dict[int, int] = {}
    tab = None
    try:
        tab = Tab(url)
        tab.query = f"class={code}"
        errors += tab.run()
        while not stop.is_set():
            t0 = time.monotonic()
            errors += tab.run(fragment=tab.fragments.get("poll", ""), auto=True)
            polls.append(time.monotonic() - t0)
            if tab.html.get("poll") not in (None, "gone", tab.html.get("view")):
                before = tab.step
                errors += tab.press("class-sync")
                if tab.step != before and tab.step is not None:
                    seen_steps.setdefault(tab.step, time.monotonic())
            q = tab.html.get("question")
            if q and q.endswith(":open") and tab.html.get("view") == tab.html.get("poll"):
                merge = int(q.split(":")[0])
                if merge not in picks:
                    options = sorted({int(w.rsplit("-", 1)[1]) for w in tab.buttons if "-class-pick-" in w})
                    if options:
                        picks[merge] = rng.choice(options)
                        errors += tab.press(f"class-pick-{picks[merge]}")
                        if i % 4 == 0 and len(options) > 1:  # one in four changes their mind once
                            picks[merge] = (picks[merge] + 1) % len(options)
                            errors += tab.press(f"class-pick-{picks[merge]}")
            stop.wait(max(0.0, 0.75 - (time.monotonic() - t0)))
    except Exception as exc:  # noqa: BLE001 - reported
        errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        if tab:
            tab.close()
        with lock:
            out[i] = {"steps": seen_steps, "errors": errors, "polls": polls, "picks": picks}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--every", type=float, default=2.0, help="seconds between the teacher's steps")
    ap.add_argument("--questions", type=int, default=5)
    ap.add_argument("--answer-s", type=float, default=6.0, help="seconds a question stays open")
    ap.add_argument("--quiet-s", type=float, default=10.0, help="seconds of polls alone, for the per-poll cost")
    args = ap.parse_args()

    from browser import StreamlitServer

    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical CPUs); Python {platform.python_version()}")
    store = Path(tempfile.mkdtemp(prefix="class-load-")) / "corpora.sqlite3"
    os.environ["BPE_EXPLORER_STORE"] = str(store)
    server = StreamlitServer("app.py", log_path=Path(tempfile.gettempdir()) / "class-load-server.log")
    url = server.start(timeout=120)
    pid = server.proc.pid
    failures = []
    try:
        teacher = Tab(url)
        failures += teacher.run()
        failures += teacher.press("class-start")
        failures += teacher.run()  # the whole-page run that starts the polling fragment
        code = teacher.html.get("code")
        if not code:
            print("could not start a class:", failures)
            return 1
        rss0 = rss_bytes(pid)  # the class started, nobody joined yet: "after" is compared with this
        c0, p0 = cpu_seconds(pid), time.monotonic()
        time.sleep(args.quiet_s / 2)
        idle_cpu_per_s = (cpu_seconds(pid) - c0) / (time.monotonic() - p0)  # the server's own background
        print(f"class {code}; {args.students} students joining")
        stop, lock, out = threading.Event(), threading.Lock(), {}
        threads = [threading.Thread(target=student, args=(i, url, code, stop, out, lock), daemon=True)
                   for i in range(args.students)]  # fmt: skip
        for t in threads:
            t.start()
            time.sleep(0.05)
        time.sleep(5)  # everyone joined and drew the page

        # Per-poll cost: only polls for a while.
        c0, p0 = cpu_seconds(pid), time.monotonic()
        time.sleep(args.quiet_s)
        quiet_cpu, quiet_s = cpu_seconds(pid) - c0, time.monotonic() - p0

        # The class: a step every --every s; questions spread over it.
        pressed: dict[int, float] = {}
        total = int(args.minutes * 60 / args.every)
        asks = set(range(2, total, max(1, total // max(1, args.questions)))) if args.questions else set()
        asks = set(sorted(asks)[: args.questions])
        cpu0 = cpu_seconds(pid)
        with MemorySampler(pid) as mem:
            t_class = time.monotonic()
            for k in range(total):
                t0 = time.monotonic()
                if k in asks and teacher.step is not None:
                    failures += teacher.press("class-ask")
                    time.sleep(args.answer_s)
                    failures += teacher.press("class-reveal")
                    time.sleep(1.0)
                t_press = time.monotonic()  # from the press: the teacher's own run is part of the delay
                failures += teacher.press("stepper.next")
                if teacher.step is not None:
                    pressed.setdefault(teacher.step, t_press)
                time.sleep(max(0.0, args.every - (time.monotonic() - t0)))
            time.sleep(3)  # the last step reaches everyone
            class_s = time.monotonic() - t_class
            class_cpu = cpu_seconds(pid) - cpu0
            stop.set()
            for t in threads:
                t.join(timeout=60)
        teacher.close()

        delays, errors, npolls, poll_wall = [], [f"teacher: {f}" for f in failures], 0, []
        for r in out.values():
            errors += r["errors"]
            npolls += len(r["polls"])
            poll_wall += r["polls"]
            for step, at in r["steps"].items():
                if step in pressed:
                    delays.append(at - pressed[step])
        missed = sum(1 for r in out.values() for s in pressed if s not in r["steps"])
        with sqlite3.connect(store) as conn:
            counted = dict(conn.execute(
                "SELECT merge, COUNT(*) FROM class_picks WHERE code = ? GROUP BY merge", (code,)).fetchall())  # fmt: skip
            per_option = conn.execute(
                "SELECT merge, student, option FROM class_picks WHERE code = ?", (code,)
            ).fetchall()
        made = {}
        for r in out.values():
            for merge, option in r["picks"].items():
                made.setdefault(merge, []).append(option)
        time.sleep(5)  # the sessions closed; Streamlit frees them lazily (see load_sessions.py)
        rss_end = rss_bytes(pid)
        polls_in_quiet = args.students * args.quiet_s / 0.75

        def ms(v):
            return "n/a" if v is None else f"{1000 * v:.0f} ms"

        print(f"steps pressed: {len(pressed)}; questions: {len(asks)}; class lasted {class_s:.0f} s")
        print(f"step propagation over {len(delays)} (student, step) pairs: p50 {ms(percentile(delays, 50))}, "
              f"p95 {ms(percentile(delays, 95))}, max {ms(max(delays) if delays else None)} (target p95 <= 1500 ms); "
              f"steps a student never saw: {missed}")  # fmt: skip
        print(f"errors: {len(errors)}" + (f" (first: {errors[:3]})" if errors else ""))
        ok_picks = all(counted.get(m, 0) == len(v) for m, v in made.items())
        print(f"picks: made by students {sum(len(v) for v in made.values())} (last pick of each student per "
              f"question), counted by the class {sum(counted.values())}, per question equal: {ok_picks}; "
              f"rows {len(per_option)}")  # fmt: skip
        poll_cpu = max(0.0, quiet_cpu - idle_cpu_per_s * quiet_s)
        print(f"per-poll server cost: {1000 * poll_cpu / max(1, polls_in_quiet):.2f} ms CPU "
              f"({quiet_cpu:.2f} s CPU over {quiet_s:.0f} s of polls only, less the idle server's "
              f"{idle_cpu_per_s * quiet_s:.2f} s; ~{polls_in_quiet:.0f} polls); "
              f"poll round trip p50 {ms(percentile(poll_wall, 50))}, p95 {ms(percentile(poll_wall, 95))}")  # fmt: skip
        print(f"server CPU during the class: {class_cpu:.1f} s over {class_s:.0f} s ({100 * class_cpu / class_s:.0f}% "
              f"of one core); RSS start {rss0 / 1e6:.0f} MB, peak {mem.peak / 1e6:.0f} MB, after {rss_end / 1e6:.0f} MB")  # fmt: skip
        return 0 if not errors and ok_picks and delays and percentile(delays, 95) <= 1.5 else 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
