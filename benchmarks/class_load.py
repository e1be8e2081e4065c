"""A live class of 40: a teacher steps every 2 s for 2 minutes and asks 5 questions; 40 students follow. Numbers printed.

    .venv/bin/python benchmarks/class_load.py                    # starts `streamlit run serve.py` itself: 40 students
    .venv/bin/python benchmarks/class_load.py --students 10 --minutes 0.5 --questions 1 --ttl 10   # a quick look
    .venv/bin/python benchmarks/class_load.py --entry app.py     # the same class against the fallback fragment poll

Against servers that are already running (e.g. two replicas behind nginx):

    .venv/bin/python benchmarks/class_load.py --url http://127.0.0.1:8080 \\
        --pid 1234 --pid 1235 --store postgresql://bpe@127.0.0.1/bpe

* ``--url URL`` (repeatable): the app's address(es). The teacher uses the first; student *i* uses URL *i mod n*
  (one URL through a proxy: every client goes through it). Without ``--url``, the script starts its own server on
  a free port (``--entry``, default ``serve.py``, as ``sh run.sh app`` runs it) with a fresh SQLite store.
* ``--pid PID`` (repeatable): server processes whose CPU and memory to report (``/proc/PID``; their children
  counted). Optional with ``--url``: without it, CPU and memory are not printed.
* ``--store TARGET``: where the servers keep their classes (an SQLite file or a ``postgresql://`` URL, as
  ``BPE_EXPLORER_STORE`` / ``BPE_EXPLORER_DATABASE_URL``), read at the end to count the picks the servers
  recorded. Default with ``--url``: the environment's (``bpe_server.corpus_store.default_target``).

Every client speaks Streamlit's websocket protocol as a browser tab does (runs, fragment reruns, button presses;
the protobufs shipped with Streamlit), and polls as the page's script does (``ui/static/live_class.js``):

* The **teacher** opens the stepper on ``--preset`` (default ``pg16457-chapter``: 200 merges, enough for every
  step of the class), presses "Start a class", then "Next ▶" every ``--every`` seconds;
  ``--questions`` times it presses "Ask the class", waits ``--answer-s`` seconds and presses "Reveal" before
  stepping. At the end it presses "End the class".
* Each **student** opens ``/?class=CODE`` with a ``bpe_student`` cookie (the id a browser keeps), then every
  ``--poll-s`` (0.5 s) does an HTTP GET of the poll address the page names (``#bpe-class-poll``'s ``data-url``, on a
  kept-alive connection, without cookies) and, when the class is newer than its step view, presses the hidden
  "sync" button (a rerun of the step view only). A page without the endpoint (``--entry app.py``) is polled the
  old way: a rerun of the polling fragment every 0.75 s. When a question shows, the student presses an answer
  button; one student in four changes their pick once.
* A few **real browsers** (``--browsers``, default 3; Chromium through Playwright, the first at 390x844) join by
  the link once the students are in and follow the class with the page's own scripts; each stamps when its step
  label first showed each step (a MutationObserver). Their delays are printed apart, with the same target, and
  so are the tabs that stopped following and reloaded (``live_class.js``'s last resort), with what they said why.
* **Propagation**: from the moment the teacher's "Next" press is sent to the moment the step is on a student's
  screen: shown by the page's script from the steps the last step view sent ahead (``#bpe-ahead``), as
  ``live_class.js`` does for a following student when the poll names a step it has and no question is pending,
  or drawn by the sync rerun, whichever comes first: p50 / p95 / max over every (student, step) (target p95 <=
  1.5 s). Printed apart: when the sync rerun has redrawn the whole step view (corpus, vocabulary, charts).
* **Picks counted exactly once**: per question, the picks the server recorded (rows of ``class_picks``) against
  the picks the students sent and the server accepted (the last accepted pick of each student; a pick the page
  refused, a question closed meanwhile, is counted apart). Equal per question and per student: PASS.
* **Server CPU and memory**: CPU seconds during the class (and as a share of one core); RSS once the class started,
  then once the teacher alone has stepped through the class's steps and back to step 0 (before anyone joined: the
  run's per-step memo, which does not grow with the students, is then full), its peak, and after the class ended and
  every tab closed (after the disconnected-session TTL and two probe sessions, as ``load_sessions.py`` does): back
  within 10 % of the teacher-alone figure: PASS (the change from the class's start is printed too).

Wall-clock numbers on a shared machine are noisy: run it on a quiet one, and read the CPU model printed first.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from contextlib import closing, nullcontext
from pathlib import Path
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
sys.path.insert(0, str(REPO_ROOT))

from load_sessions import MemorySampler, config_ttl, percentile, probe, rss_bytes  # noqa: E402
from machine import machine_line  # noqa: E402  (tests/machine.py, shared with the other benchmarks)

_SIG = re.compile(r"id='bpe-class-(poll|view)' data-sig='([^']*)'")
_FOLLOW = re.compile(r"id='bpe-class-view' [^>]*data-follow='1'")
_AHEAD = re.compile(r'<div id="bpe-ahead" [^>]*><script type="application/json">(.*)</script></div>', re.S)
_POLL_URL = re.compile(r"id='bpe-class-poll' data-url='([^']*)'")
_STEP = re.compile(r'id="bpe-step-label" data-step="(\d+)"')
_CODE = re.compile(r"id='bpe-class-code'>([A-Z0-9]{6})<")
_QUESTION = re.compile(r"id='bpe-class-question' data-merge='(\d+)' data-state='(\w+)'")
#: After RECORD_STEPS: a tab's record of its steps outlives a reload of the page (live_class.js reloads a screen
#: that stopped following), so the steps shown before it still count.
_KEEP_STEPS_ACROSS_RELOADS = """(() => {
  window.__bpeSteps = JSON.parse(sessionStorage.getItem('bpe-steps') || '[]').concat(window.__bpeSteps);
  addEventListener('pagehide', () => sessionStorage.setItem('bpe-steps', JSON.stringify(window.__bpeSteps)));
})()"""
FRAGMENT_POLL_S = 0.75  # ui.class_view.POLL_S: the fallback fragment's run_every
DEFAULT_PRESET = "pg16457-chapter"  # 200 merges: enough for every step of a 2-minute class


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its waited-for children so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def newer(a: str | None, b: str | None) -> bool:
    """Whether signature ``a`` is newer than ``b``: ``live_class.js``'s rule (numbers compared part by part;
    anything else, e.g. "unreachable", is news when it differs)."""
    if a is None or a == "gone":
        return False
    x, y = str(a).split("."), str(b).split(".")
    try:
        xs = [int(v) for v in x] + [0] * (len(y) - len(x))
        ys = [int(v) for v in y] + [0] * (len(x) - len(y))
    except ValueError:
        return a != b
    return xs > ys


class Tab:
    """One browser tab over the websocket: runs, fragment reruns and button presses, remembering what it drew."""

    def __init__(self, base_url: str, timeout: float = 60, cookie: str | None = None):
        import websocket

        self.base_url = base_url
        self.ws = websocket.create_connection(
            base_url.replace("http://", "ws://", 1) + "/_stcore/stream", timeout=timeout, subprotocols=["streamlit"],
            cookie=cookie,
        )  # fmt: skip
        self.query = ""
        self.buttons: dict[str, tuple[str, str]] = {}  # widget id -> (widget id, fragment id)
        self.html: dict[str, str] = {}  # what the last runs drew, by marker
        self.fragments: dict[str, str] = {}  # "poll" / "view" -> fragment id
        self.step: int | None = None
        self.drawn_at = 0.0
        self.ahead: set[int] = set()  # the steps the last step view sent ahead (#bpe-ahead)
        self.follow = False  # the step view says this tab follows the teacher (data-follow)
        self.toasts: list[str] = []

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass

    def run(self, fragment: str = "", press: str | None = None, auto: bool = False) -> list[str]:
        """A rerun (of ``fragment``, with ``press`` a button's trigger); returns the problems seen."""
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
                elif etype == "alert" and el.alert.format == el.alert.ERROR:
                    problems.append(f"error box: {el.alert.body[:200]}")
                elif etype == "toast":
                    self.toasts.append(el.toast.body)
                elif etype == "button":
                    self.buttons[el.button.id] = (el.button.id, fwd.delta.fragment_id)
                elif etype == "html":
                    self._html(el.html.body, fwd.delta.fragment_id)
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

    def _html(self, body: str, fragment_id: str) -> None:
        for m in _SIG.finditer(body):
            self.html[m.group(1)] = m.group(2)
            self.fragments[m.group(1)] = fragment_id
            if m.group(1) == "view":
                self.follow, self.ahead = bool(_FOLLOW.search(body)), set()  # a new step view: its ahead follows
        if m := _AHEAD.search(body):
            self.ahead = {int(k) for k in json.loads(m.group(1))}
        if m := _POLL_URL.search(body):
            self.html["poll_url"] = html.unescape(m.group(1))
        if body.lstrip().startswith('<div class="bpe-step-label') and (m := _STEP.search(body)):
            self.step = int(m.group(1))
            self.drawn_at = time.monotonic()
        if m := _CODE.search(body):
            self.html["code"] = m.group(1)
        if "bpe-class-question" in body and (m := _QUESTION.search(body)):
            self.html["question"] = f"{m.group(1)}:{m.group(2)}"

    def button(self, key: str) -> str:
        """The full widget id of the button whose user key is ``key``."""
        for wid in self.buttons:
            if wid.endswith("-" + key):
                return wid
        raise KeyError(key)

    def press(self, key: str) -> list[str]:
        wid = self.button(key)
        return self.run(fragment=self.buttons[wid][1], press=wid)


class Poller:
    """What ``live_class.js`` does over HTTP: a GET of the poll address on one kept-alive connection, no cookies."""

    def __init__(self, base_url: str, timeout: float = 30):
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname, parts.port or 80, timeout
        self.conn: http.client.HTTPConnection | None = None

    def answer(self, path: str) -> dict:
        """The JSON the endpoint answers (``{}`` when it is not JSON; a network error is raised)."""
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile: one fresh try
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request("GET", path, headers={"Cache-Control": "no-store"})
                resp = self.conn.getresponse()
                body = resp.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        try:
            got = json.loads(body)
        except ValueError:
            return {}
        return got if isinstance(got, dict) else {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def student(i: int, url: str, code: str, sid: str, args, stop: threading.Event, out: dict, lock) -> None:
    rng = random.Random(i)
    seen_steps: dict[int, float] = {}  # step -> when the step view drew it
    shown: dict[int, float] = {}  # step -> when the page's script showed it from the steps sent ahead
    noticed: dict[int, float] = {}  # step -> when the poll that led to it answered
    errors: list[str] = []
    polls: list[float] = []
    accepted: dict[int, int] = {}  # merge -> the last pick the server took
    refused = sent = syncs = 0
    tab = poller = None
    try:
        tab = Tab(url, cookie=f"bpe_student={sid}")
        tab.query = f"class={code}"
        errors += tab.run()
        poller = Poller(url)
        while not stop.is_set():
            t0 = time.monotonic()
            path = tab.html.get("poll_url")
            body: dict = {}
            if path:  # as the browsers do now: one small GET
                body = poller.answer(path)
                want = body.get("sig")
                period = args.poll_s
            else:  # the fallback: a rerun of the polling fragment
                errors += tab.run(fragment=tab.fragments.get("poll", ""), auto=True)
                want = tab.html.get("poll")
                period = FRAGMENT_POLL_S
            answered = time.monotonic()
            polls.append(answered - t0)
            if newer(want, tab.html.get("view")):
                # live_class.js: a following tab shows the teacher's step at once if it was sent ahead, unless a
                # question is open or unrevealed or the class ended; then it presses "sync" for the rest.
                to = body.get("step")
                if tab.follow and isinstance(to, int) and not body.get("asking") and not body.get("ended"):
                    if to != tab.step and to in tab.ahead:
                        shown.setdefault(to, answered)
                before = tab.step
                errors += tab.press("class-sync")
                syncs += 1
                if tab.step is not None and tab.step != before:
                    seen_steps.setdefault(tab.step, tab.drawn_at)
                    noticed.setdefault(tab.step, answered)
            q = tab.html.get("question")
            if q and q.endswith(":open") and not newer(want, tab.html.get("view")):
                merge = int(q.split(":")[0])
                if merge not in accepted:
                    options = sorted({int(w.rsplit("-", 1)[1]) for w in tab.buttons if "-class-pick-" in w})
                    choices = [rng.choice(options)] if options else []
                    if options and i % 4 == 0 and len(options) > 1:  # one in four changes their mind once
                        choices.append((choices[0] + 1) % len(options))
                    for option in choices:
                        n = len(tab.toasts)
                        errors += tab.press(f"class-pick-{option}")
                        sent += 1
                        if len(tab.toasts) > n:  # "The class did not take this": the question closed meanwhile
                            refused += 1
                        else:
                            accepted[merge] = option
            stop.wait(max(0.0, period - (time.monotonic() - t0)))
    except Exception as exc:  # noqa: BLE001 - reported
        errors.append(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        for thing in (tab, poller):
            if thing:
                thing.close()
        with lock:
            out[i] = {"steps": seen_steps, "shown": shown, "noticed": noticed, "errors": errors, "polls": polls, "accepted": accepted, "sid": sid,
                      "refused": refused, "sent": sent, "syncs": syncs}  # fmt: skip


def browsers(n: int, url: str, code: str, stop: threading.Event, ready: threading.Event, out: dict) -> None:
    """``n`` real Chromium tabs (the first 390x844, a phone) that join class ``code`` by its link and follow it,
    running the page's own scripts; ``out["browsers"]``: each tab's ``[epoch ms, step]`` stamps of its step label.
    Playwright's sync API lives in this thread alone."""
    from browser import RECORD_STEPS, launch_chromium
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw:
            chromium = launch_chromium(pw)
            pages = []
            for i in range(n):
                size = {"width": 390, "height": 844} if i == 0 else {"width": 1280, "height": 900}
                page = chromium.new_context(viewport=size, locale="en-US").new_page()
                page.add_init_script(f"({RECORD_STEPS})()")  # every step the label shows, with its time
                page.add_init_script(_KEEP_STEPS_ACROSS_RELOADS)
                # A screen that stopped following reloads (live_class.js) and says why in its console.
                page.on("console", lambda m, i=i: m.type == "warning" and "BPE Explorer" in m.text
                        and out.setdefault("reloads", []).append(f"tab {i}: {m.text}"))  # fmt: skip
                # An error the page did not catch (Streamlit's "Bad delta path ..." left a tab blank) is an error.
                page.on("pageerror", lambda e, i=i: out.setdefault("page_errors", []).append(f"tab {i}: {e}"[:200]))
                page.goto(f"{url}/?class={code}", wait_until="domcontentloaded", timeout=120_000)
                page.locator("#bpe-class-view").first.wait_for(state="attached", timeout=120_000)
                pages.append(page)
            ready.set()
            while not stop.is_set():
                pages[0].wait_for_timeout(250)  # Playwright's own loop keeps running meanwhile
            out["browsers"] = [page.evaluate("window.__bpeSteps") for page in pages]
            chromium.close()
    except Exception as exc:  # noqa: BLE001 - reported
        out["browser_error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        ready.set()


def recorded_picks(target: str, code: str) -> dict[tuple[str, int], int]:
    """``{(student id, merge): option}``: the picks the servers recorded (every row of ``class_picks``)."""
    from bpe_server.corpus_store import CorpusStore

    store = CorpusStore(target)
    with closing(store.connect()) as conn:
        rows = conn.execute("SELECT student, merge, option FROM class_picks WHERE code = ?", (code,)).fetchall()
    return {(s, int(m)): int(o) for s, m, o in rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", action="append", default=[], help="a running server (repeatable); default: start one")
    ap.add_argument("--pid", action="append", type=int, default=[], help="a server process to measure (repeatable)")
    ap.add_argument("--store", help="the servers' store (SQLite file or postgresql:// URL), to count recorded picks")
    ap.add_argument("--entry", default="serve.py", help="the script of the server this starts (default serve.py)")
    ap.add_argument("--ttl", type=int, help="server.disconnectedSessionTTL of the server this starts (default: config)")
    ap.add_argument("--preset", default=DEFAULT_PRESET, help="the class's corpus (a preset with enough merges)")
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--browsers", type=int, default=3, help="real Chromium tabs that follow the class too (0: none)")
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--every", type=float, default=2.0, help="seconds between the teacher's steps")
    ap.add_argument("--questions", type=int, default=5)
    ap.add_argument("--answer-s", type=float, default=6.0, help="seconds a question stays open")
    ap.add_argument("--poll-s", type=float, default=0.5, help="seconds between two polls of a tab (live_class.js)")
    args = ap.parse_args()

    from browser import StreamlitServer

    print(machine_line())
    server = None
    urls, pids, target = list(args.url), list(args.pid), args.store
    ttl = args.ttl if args.ttl is not None else config_ttl()
    if not urls:
        store = Path(tempfile.mkdtemp(prefix="class-load-")) / "corpora.sqlite3"
        os.environ["BPE_EXPLORER_STORE"] = str(store)
        os.environ.pop("BPE_EXPLORER_DATABASE_URL", None)
        target = str(store)

        class Server(StreamlitServer):
            def command(self, port: int) -> list[str]:
                extra = ["--server.disconnectedSessionTTL", str(args.ttl)] if args.ttl is not None else []
                return [*super().command(port), *extra]

        server = Server(args.entry, log_path=Path(tempfile.gettempdir()) / "class-load-server.log")
        urls, pids = [server.start(timeout=120)], [server.proc.pid]
        print(f"server: streamlit run {args.entry} at {urls[0]} (pid {pids[0]}; store {store}; session TTL {ttl} s)")
    if target is None:
        from bpe_server.corpus_store import default_target

        target = default_target()
    failures: list[str] = []
    try:
        teacher = Tab(urls[0])
        teacher.query = f"preset={args.preset}"
        failures += teacher.run()
        failures += teacher.press("class-start")
        failures += teacher.run()  # the whole-page run that draws the class (and its poll address)
        code = teacher.html.get("code")
        if not code:
            print("could not start a class:", failures)
            return 1
        how = f"HTTP GET of {teacher.html['poll_url']}" if "poll_url" in teacher.html else "the fallback fragment"
        print(f"class {code}; {args.students} students joining; they poll with {how}")
        # The class's steps, once, by the teacher alone before anyone joins: what the run keeps per step (its memo of
        # chips, panels, the steps sent ahead; bounded, and the same for 1 student or 40) is then in memory, so the
        # memory after the class measures what the students left behind.
        total = max(1, int((args.minutes * 60 - args.questions * (args.answer_s + 1)) / args.every))
        rss_started = sum(rss_bytes(p) for p in pids)
        for _ in range(total):
            failures += teacher.press("stepper.next")
        failures += teacher.press("stepper.first")
        rss0 = sum(rss_bytes(p) for p in pids)  # nobody joined yet: "after" is compared with this
        stop, lock, out = threading.Event(), threading.Lock(), {}
        sids = [f"bench-{code}-{i:03d}-{random.Random(i).getrandbits(64):016x}" for i in range(args.students)]
        threads = [threading.Thread(target=student, args=(i, urls[i % len(urls)], code, sids[i], args, stop, out, lock),
                                    daemon=True) for i in range(args.students)]  # fmt: skip
        for t in threads:
            t.start()
            time.sleep(0.05)
        time.sleep(5)  # everyone joined and drew the page
        tabs: dict = {}
        browsers_ready = threading.Event()
        if args.browsers:
            threading.Thread(target=browsers, args=(args.browsers, urls[0], code, stop, browsers_ready, tabs),
                             daemon=True).start()  # fmt: skip
            browsers_ready.wait(timeout=300)

        pressed: dict[int, float] = {}
        pressed_wall: dict[int, float] = {}  # the same presses on the clock the browsers stamp with
        # The class lasts --minutes: its questions' time (open, then a second after the reveal) and its steps (total).
        asks = set(range(2, total, max(1, total // max(1, args.questions)))) if args.questions else set()
        asks = set(sorted(asks)[: args.questions])
        cpu0 = sum(cpu_seconds(p) for p in pids)
        with MemorySampler(pids[0]) if pids else nullcontext() as mem:
            t_class = time.monotonic()
            for k in range(total):
                if k in asks and teacher.step is not None:
                    failures += teacher.press("class-ask")
                    time.sleep(args.answer_s)
                    failures += teacher.press("class-reveal")
                    time.sleep(1.0)
                t_press = time.monotonic()  # from the press: the teacher's own run is part of the delay
                failures += teacher.press("stepper.next")
                if teacher.step is not None:
                    pressed.setdefault(teacher.step, t_press)
                    pressed_wall.setdefault(teacher.step, time.time() - (time.monotonic() - t_press))
                time.sleep(max(0.0, args.every - (time.monotonic() - t_press)))  # presses --every apart, at least
            time.sleep(3)  # the last step reaches everyone
            class_s = time.monotonic() - t_class
            class_cpu = sum(cpu_seconds(p) for p in pids) - cpu0
            failures += teacher.press("class-end")
            time.sleep(2)  # the students see the summary
            stop.set()
            for t in threads:
                t.join(timeout=60)
            if args.browsers:
                deadline = time.monotonic() + 60
                while "browsers" not in tabs and "browser_error" not in tabs and time.monotonic() < deadline:
                    time.sleep(0.2)
        teacher.close()

        delays, errors, npolls, poll_wall = [], [f"teacher: {f}" for f in failures], 0, []
        full = []  # press -> the whole step view drawn by the sync rerun
        to_notice, to_draw = [], []  # the two parts of that: press -> a poll answers the news -> the view drew
        for r in out.values():
            errors += r["errors"]
            npolls += len(r["polls"])
            poll_wall += r["polls"]
            for step in pressed:
                seen = [t for t in (r["shown"].get(step), r["steps"].get(step)) if t is not None]
                if seen:  # on screen: shown from the steps sent ahead, or drawn by the rerun, whichever came first
                    delays.append(min(seen) - pressed[step])
            for step, at in r["steps"].items():
                if step in pressed:
                    full.append(at - pressed[step])
                    to_notice.append(r["noticed"][step] - pressed[step])
                    to_draw.append(at - r["noticed"][step])
        ahead = sum(1 for r in out.values() for s in pressed if s in r["shown"])
        in_browsers, browser_missed = [], 0  # press -> the step on a real browser's screen
        for stamps in tabs.get("browsers", []):
            first: dict[int, float] = {}
            for at_ms, step in stamps:
                first.setdefault(int(step), at_ms / 1000)
            in_browsers += [first[s] - pressed_wall[s] for s in pressed_wall if s in first]
            browser_missed += sum(1 for s in pressed_wall if s not in first)
        if "browser_error" in tabs:
            errors.append(f"browsers: {tabs['browser_error']}")
        errors += [f"page error in {e}" for e in tabs.get("page_errors", [])]
        missed = sum(1 for r in out.values() for s in pressed if s not in r["steps"] and s not in r["shown"])
        recorded = recorded_picks(target, code)
        accepted = {(r["sid"], m): o for r in out.values() for m, o in r["accepted"].items()}
        merges = sorted({m for _, m in recorded} | {m for _, m in accepted})
        per_question = {
            m: (sum(1 for k in accepted if k[1] == m), sum(1 for k in recorded if k[1] == m)) for m in merges
        }
        ok_picks = recorded == accepted
        sent = sum(r["sent"] for r in out.values())
        refused = sum(r["refused"] for r in out.values())

        # Every tab is closed: wait for the disconnected-session TTL, then let the server reap (two probe sessions).
        wait = ttl + 5
        print(f"the class ended; waiting {wait} s (session TTL + 5) before reading the memory ...", file=sys.stderr)
        time.sleep(wait)
        for u in urls:
            for _ in range(2):
                try:
                    probe(u)
                except Exception as exc:  # noqa: BLE001
                    print(f"probe session failed: {exc!r}", file=sys.stderr)
        time.sleep(2)
        rss_end = sum(rss_bytes(p) for p in pids)

        def ms(v):
            return "n/a" if v is None else f"{1000 * v:.0f} ms"

        p95 = percentile(delays, 95)
        print(f"steps pressed: {len(pressed)}; questions: {len(asks)}; class lasted {class_s:.0f} s; "
              f"polls: {npolls} (round trip p50 {ms(percentile(poll_wall, 50))}, p95 {ms(percentile(poll_wall, 95))}); "
              f"sync reruns: {sum(r['syncs'] for r in out.values())}")  # fmt: skip
        print(f"{'PASS' if delays and p95 <= 1.5 else 'FAIL'}  step on every screen over {len(delays)} (student, step) "
              f"pairs: p50 {ms(percentile(delays, 50))}, p95 {ms(p95)}, max {ms(max(delays) if delays else None)} "
              f"(target p95 <= 1500 ms; {ahead} shown from the steps sent ahead, the rest drawn by the sync rerun); "
              f"steps a student never showed: {missed}")  # fmt: skip
        b95 = percentile(in_browsers, 95)
        browsers_ok = not args.browsers or (in_browsers and b95 <= 1.5 and not browser_missed)
        if args.browsers:
            print(f"{'PASS' if browsers_ok else 'FAIL'}  in {args.browsers} real Chromium tabs beside them (one 390x844): "
                  f"step on screen over {len(in_browsers)} (tab, step) pairs: p50 {ms(percentile(in_browsers, 50))}, "
                  f"p95 {ms(b95)}, max {ms(max(in_browsers) if in_browsers else None)}; steps a tab never showed: "
                  f"{browser_missed}")  # fmt: skip
            reloads = tabs.get("reloads", [])
            print(f"      tabs that stopped following and reloaded: {len(reloads)}")
            for line in reloads:
                print(f"        {line}")
        print(f"      the whole step view (corpus, vocabulary, charts) redrawn by the sync rerun: p50 "
              f"{ms(percentile(full, 50))}, p95 {ms(percentile(full, 95))}; of which press -> a poll answers the new "
              f"version p50 {ms(percentile(to_notice, 50))}, p95 {ms(percentile(to_notice, 95))} (the teacher's run, "
              f"then up to one poll period), the sync rerun -> step drawn p50 {ms(percentile(to_draw, 50))}, p95 "
              f"{ms(percentile(to_draw, 95))}")  # fmt: skip
        print(
            f"{'PASS' if not errors else 'FAIL'}  errors: {len(errors)}" + (f" (first: {errors[:3]})" if errors else "")
        )
        print(f"{'PASS' if ok_picks else 'FAIL'}  picks: sent {sent}, refused by the page {refused} (question closed), "
              f"accepted (last per student and question) {len(accepted)}, recorded by the server {len(recorded)}; "
              f"per question (accepted, recorded): {per_question}; every student's recorded pick = their last "
              f"accepted one: {recorded == accepted}")  # fmt: skip
        if pids:
            back = rss_end <= rss0 * 1.10
            syncs = sum(r["syncs"] for r in out.values())
            print(f"server CPU during the class: {class_cpu:.1f} s over {class_s:.0f} s "
                  f"({100 * class_cpu / class_s:.0f}% of one core; {len(pids)} process(es)); per sync rerun of a "
                  f"student's step view, polls and the teacher included: {1000 * class_cpu / max(1, syncs):.0f} ms "
                  f"(all {args.students} students' reruns after one step run one after another under the GIL: "
                  f"this times {args.students} bounds the propagation from below)")  # fmt: skip
            print(f"{'PASS' if back else 'FAIL'}  server RSS: class started {rss_started / 1e6:.0f} MB; after the "
                  f"teacher stepped through the {total} steps alone (the run's per-step memo filled) {rss0 / 1e6:.0f} MB; "
                  f"peak {mem.peak / 1e6:.0f} MB (first process); after the class {rss_end / 1e6:.0f} MB "
                  f"({100 * (rss_end / rss0 - 1):+.1f}% of the teacher's alone, limit +10%; "
                  f"{100 * (rss_end / rss_started - 1):+.1f}% of the class's start)")  # fmt: skip
        else:
            back = True
            print("server CPU and memory: not measured (no --pid)")
        return 0 if not errors and ok_picks and delays and p95 <= 1.5 and browsers_ok and back else 1
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
