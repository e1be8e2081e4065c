"""Shared helpers for the real-browser tests (Playwright sync API + Chromium).

The pytest fixtures built on these live in ``tests/conftest.py``:
``app_server`` (base URL of the real app), ``browser`` and ``page``.
Tests import the helpers directly (``pytest.ini`` puts ``tests/`` on the path)::

    from browser import open_app, wait_for_app, assert_no_exception, save_screenshot

What Streamlit 1.67 renders (checked in a real Chromium):
``[data-testid="stApp"]`` carries ``data-test-connection-state`` (``CONNECTED``
once the websocket is up) and ``data-test-script-state`` (``initial`` before the
first run, then ``running`` / ``rerunRequested`` / ``notRunning`` /
``compilationError``). Elements left over from a previous run are marked
``data-stale="true"`` until the rerun replaces them; ``stStatusWidget`` (the
"Running..." indicator) exists only while a run is in progress.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"

# Flags that work for Debian's chromium in containers and CI.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
]

DEFAULT_TIMEOUT_MS = 30_000

#: ``locator.evaluate(SET_TEXTAREA, text)``: put ``text`` into a text box at once, through the setter React
#: watches, as a paste would (typing a long text key by key takes minutes).
SET_TEXTAREA = """(e, value) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
  setter.call(e, value);
  e.dispatchEvent(new Event('input', {bubbles: true}));
}"""

APP_SELECTOR = '[data-testid="stApp"]'
EXCEPTION_SELECTOR = '[data-testid="stException"]'


class BrowserTestSetupError(RuntimeError):
    """The app server or the browser could not be started."""


# --------------------------------------------------------------------------
# The real app in a subprocess
# --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: What users run (``sh run.sh app``): the app with its HTTP routes (``serve.py``: the live class's poll).
ENTRY = "serve.py"


class StreamlitServer:
    """``streamlit run <script>`` (default :data:`ENTRY`, as users run it) on a free port, from the repo root.

    Output (stdout and stderr) goes to ``test-artifacts/streamlit-server.log``.
    """

    def __init__(self, script: str = ENTRY, log_path: Path | None = None):
        self.script = script
        self.log_path = log_path or ARTIFACTS_DIR / "streamlit-server.log"
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self, port: int) -> list[str]:
        return [
            sys.executable, "-m", "streamlit", "run", self.script,
            "--server.port", str(port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            # A server for tests and benchmarks: nothing edits the code while it runs.
            "--server.fileWatcherType", "none",
        ]  # fmt: skip

    def log_text(self, last_chars: int = 6000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return text[-last_chars:] if len(text) > last_chars else text

    def start(self, timeout: float = 60.0, attempts: int = 3, port: int | None = None) -> str:
        """Start the server (on ``port``, else a free one: a restart on the same port lets open pages
        reconnect by themselves) and wait until it is healthy; return its URL."""
        if not (REPO_ROOT / self.script).exists():
            raise BrowserTestSetupError(f"{REPO_ROOT / self.script} does not exist")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        for attempt in range(1, attempts + 1):
            self.port = port or free_port()
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            env.setdefault("MALLOC_ARENA_MAX", "2")  # as `sh run.sh app` runs the server (see there why)
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(
                    self.command(self.port),
                    cwd=REPO_ROOT,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,  # own process group: stop() kills all of it
                )
            try:
                self._wait_healthy(timeout)
                return self.url
            except BrowserTestSetupError:
                self.stop()
                # Someone grabbed the port between free_port() and the bind: retry.
                if attempt < attempts and "already in use" in self.log_text():
                    continue
                raise
        raise AssertionError("unreachable")

    def _wait_healthy(self, timeout: float) -> None:
        assert self.proc is not None
        health = f"{self.url}/_stcore/health"
        deadline = time.monotonic() + timeout
        last_error = "no answer yet"
        while True:
            rc = self.proc.poll()
            if rc is not None:
                raise BrowserTestSetupError(
                    f"Streamlit exited with code {rc} before becoming healthy.\n"
                    f"Command: {' '.join(self.command(self.port))}\n"
                    f"--- server output ({self.log_path}) ---\n{self.log_text()}"
                )
            try:
                with urllib.request.urlopen(health, timeout=2) as resp:
                    body = resp.read().decode(errors="replace").strip()
                    if resp.status == 200 and body == "ok":
                        return
                    last_error = f"HTTP {resp.status}: {body[:200]!r}"
            except (urllib.error.URLError, OSError) as exc:
                last_error = repr(exc)
            if time.monotonic() > deadline:
                raise BrowserTestSetupError(
                    f"Streamlit did not answer ok on {health} within {timeout:.0f} s "
                    f"(last: {last_error}).\n"
                    f"--- server output ({self.log_path}) ---\n{self.log_text()}"
                )
            time.sleep(0.2)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=10)


# --------------------------------------------------------------------------
# Chromium
# --------------------------------------------------------------------------


def find_chromium() -> str | None:
    """System Chromium to use: $BPE_CHROMIUM (set by run.sh), else `chromium` or
    `chromium-browser` from PATH. None means Playwright's own browser."""
    explicit = os.environ.get("BPE_CHROMIUM")
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def launch_chromium(playwright):
    """Launch headless Chromium; raise BrowserTestSetupError with a clear message."""
    executable = find_chromium()
    kwargs = {"headless": True, "args": list(CHROMIUM_ARGS)}
    if executable:
        kwargs["executable_path"] = executable
    try:
        return playwright.chromium.launch(**kwargs)
    except Exception as exc:  # playwright raises its own Error types
        which = executable or "Playwright's bundled Chromium (none on PATH)"
        raise BrowserTestSetupError(
            f"Could not launch Chromium ({which}): {exc}\n"
            "Run the tests with `sh run.sh test`, which installs a browser "
            "(Debian/Ubuntu as root: apt-get install chromium; otherwise "
            "`python -m playwright install chromium`)."
        ) from exc


# --------------------------------------------------------------------------
# Waiting for Streamlit
# --------------------------------------------------------------------------


#: What Streamlit's frontend writes to the console when it cannot use a message the server sent (a reference to a
#: cached message it no longer holds, say). It then drops its connection: the run's answer, a press, is lost.
WEBSOCKET_FAULT = "Failed to process a Websocket message"


class RunTracker:
    """The script runs one page has asked its server for, read off the page's websocket (Streamlit's own
    protobuf messages, ``streamlit.proto``): the frontend sends a ``rerun_script`` message for every action
    that runs the app (a click, an Enter, a fragment's timer), and the server answers each run with a
    ``new_session`` message when it starts and a ``script_finished`` one when it ends. A request is
    answered once a run that started after it was sent has ended (a run cut short by a newer request,
    ``FINISHED_EARLY_FOR_RERUN``, answers nothing). Requests of a fragment's timer are not counted.
    :func:`track_runs` attaches one to a page."""

    def __init__(self, page):
        self.page = page
        self.ws = None
        self.requests = 0  # rerun_script messages the page sent (not a timer's)
        self.answered = 0  # how many of them a finished run answered
        self._open: dict[str, int] = {}  # run id -> requests sent when it started
        self.faults: list[str] = []  # what the frontend said of messages it could not use (WEBSOCKET_FAULT)
        page.on("websocket", self._attach)
        page.on("console", self._console)

    def _console(self, msg) -> None:
        if WEBSOCKET_FAULT in msg.text:
            self.faults.append(msg.text)

    def _attach(self, ws) -> None:
        if "_stcore/stream" not in ws.url:
            return
        # A new connection: what the old one asked is asked again by the frontend once it reconnects.
        self.ws, self._open, self.answered = ws, {}, self.requests
        ws.on("framesent", self.sent)
        ws.on("framereceived", self.received)

    def sent(self, payload) -> None:
        """Count ``payload`` (a message the page sent) if it asks for a run."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if not isinstance(payload, bytes):
            return
        msg = BackMsg.FromString(payload)
        # A fragment's timer (run_every: a run still training) asks every second, whatever the test does, and on
        # a busy machine faster than the runs end: those are no action to wait for.
        if msg.WhichOneof("type") == "rerun_script" and not msg.rerun_script.is_auto_rerun:
            self.requests += 1

    def received(self, payload) -> None:
        """Note the start or the end of a run that ``payload`` (a message the server sent) says."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if not isinstance(payload, bytes):
            return
        msg = ForwardMsg.FromString(payload)
        kind, run = msg.WhichOneof("type"), msg.metadata.run.script_run_id
        if kind == "new_session":
            self._open[run] = self.requests
        elif kind == "script_finished":
            # Without a run id (an old server), it ends whatever was open.
            ended = [self._open.pop(run)] if run in self._open else list(self._open.values())
            if not run:
                self._open.clear()
            if ended and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                self.answered = max(self.answered, *ended)

    @property
    def settled(self) -> bool:
        """Every run asked for has been answered (whether a timer's run is going is for the page to say)."""
        return self.answered >= self.requests

    def wait(self, done, timeout: int, what: str, event: str = "framereceived") -> None:
        """Wait until ``done()`` is true (at most ``timeout`` ms), reading the page's messages as they come:
        ``event`` is the websocket event that can make it true (``framereceived``, ``framesent``)."""
        from playwright.sync_api import Error as PlaywrightError

        deadline = time.monotonic() + timeout / 1000
        while not done():
            left_ms = (deadline - time.monotonic()) * 1000
            if left_ms <= 0:
                raise AssertionError(
                    f"the page did not {what} within {timeout} ms at {self.page.url} "
                    f"({self.requests} runs asked for, {self.answered} answered, {len(self._open)} going; "
                    f"{describe_app_state(self.page)})"
                )
            # Any message in or out may be the one: wait for the next (a slice at a time, so a new
            # connection is picked up), then look again.
            ws = self.ws
            try:
                if ws is None or ws.is_closed():
                    self.page.wait_for_event("websocket", timeout=min(left_ms, 500))
                else:
                    ws.wait_for_event(event, timeout=min(left_ms, 500))
            except PlaywrightError:  # that slice's time-out, or the socket closed: look again
                pass


def track_runs(page) -> RunTracker:
    """The page's :class:`RunTracker`, attached on first call (before the page opens the app: ``open_app``
    and the ``page`` fixture call it)."""
    runs = getattr(page, "_bpe_runs", None)
    if runs is None:
        runs = RunTracker(page)
        page._bpe_runs = runs
    return runs


class ServerHold:
    """Holds back, while on, what the server sends one page over Streamlit's websocket (a server slow to answer, on
    demand), in order; what the page sends goes through. Attach it before the page opens the app. The page's
    :class:`RunTracker` still counts every message, when the page gets it. ``before_up`` (optional): called with
    each message the page sends, returns messages for the server to get first (as a page sending more would)."""

    def __init__(self, page, before_up=None):
        self.runs = track_runs(page)
        self.held: list = []
        self.on = False
        self._to_page: list = []
        self.before_up = before_up
        page.route_web_socket(re.compile(r"/_stcore/stream"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self._to_page.append(ws)

        def up(message) -> None:
            for first in self.before_up(message) if self.before_up else ():
                server.send(first)
            self.runs.sent(message)
            server.send(message)

        def down(message) -> None:
            if self.on:
                self.held.append(message)
            else:
                self.runs.received(message)
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def hold(self) -> None:
        self.on = True

    def release(self) -> None:
        """Give the page what was held, in order (what comes in meanwhile joins the queue), then stop holding."""
        while self.held:
            message = self.held.pop(0)
            self.runs.received(message)
            self._to_page[-1].send(message)
        self.on = False


def wait_for_app(page, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until Streamlit is connected, has answered every run the page asked for, and has drawn it.

    Call it after ``page.goto`` (``open_app`` does). After an action that runs the app again (a click,
    typing + Enter, a slider...), use ``with rerun(page): action`` instead: right after the action the
    page may not have sent its request yet, and the page still shows the run before as finished.
    Ends also on a compilation error (so tests can report the ``stException``), and raises
    AssertionError with the app's state on timeout.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    runs = getattr(page, "_bpe_runs", None)
    if runs is not None:
        runs.wait(lambda: runs.settled, timeout, "get an answer to every run it asked for")
    steps = [
        ("connect to the server", f'{APP_SELECTOR}[data-test-connection-state="CONNECTED"]', "attached"),
        (
            "finish running the script",
            f'{APP_SELECTOR}[data-test-script-state="notRunning"], '
            f'{APP_SELECTOR}[data-test-script-state="compilationError"]',
            "attached",
        ),
        ("hide the running indicator", '[data-testid="stStatusWidget"]', "detached"),
        ("replace stale elements", '[data-stale="true"]', "detached"),
    ]
    for what, selector, state in steps:
        try:
            page.wait_for_selector(selector, state=state, timeout=timeout)
        except PlaywrightTimeoutError:
            raise AssertionError(
                f"Streamlit did not {what} within {timeout} ms at {page.url} ({describe_app_state(page)})"
            ) from None
    # The last messages are in; the page draws them in its next tasks.
    wait_for_layout(page)


@contextmanager
def rerun(page, timeout: int = DEFAULT_TIMEOUT_MS):
    """``with rerun(page): page.click(...)``: the action in the block runs the app again; wait until the page
    has sent that request (a slider or a text box may send it a moment after the action) and the app has
    answered and drawn it (:func:`wait_for_app`). An action that asks for no run fails here."""
    runs = track_runs(page)
    before = runs.requests
    yield
    runs.wait(lambda: runs.requests > before, timeout, "send the server the action (no run was asked for)", "framesent")
    wait_for_app(page, timeout=timeout)


def wait_for_server_step(page, step: int, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the stepper shows ``step`` and the server has drawn it too: the page shows a step the
    moment it is pressed (``ui/step_ahead.py``), before the server's rerun (the URL, the corpus...).
    ``#bpe-ahead`` carries the step the server drew (pages without it: the label is the server's)."""
    try:
        page.wait_for_function(
            """(step) => { const l = document.getElementById('bpe-step-label');
                          const a = document.getElementById('bpe-ahead');
                          return l && l.dataset.step === step && (!a || a.dataset.step === step); }""",
            arg=str(step), timeout=timeout, polling=100,
        )  # fmt: skip
    except Exception as exc:  # say what the page shows instead: a step too far, or one the server never drew
        seen = page.evaluate(SHOWN_STEPS)
        raise AssertionError(
            f"step {step} not shown and drawn after {timeout} ms; the page shows {seen} ({describe_app_state(page)})"
        ) from exc
    wait_for_app(page, timeout=timeout)


#: What a stepper page shows, for a failure message (with :func:`describe_app_state`): the step labels, the step the
#: server drew (``#bpe-ahead``) and the address.
SHOWN_STEPS = """() => ({labels: [...document.querySelectorAll('#bpe-step-label')].map(e => e.dataset.step),
  drawn: (document.getElementById('bpe-ahead') || {dataset: {}}).dataset.step, url: location.search})"""


#: ``page.wait_for_function(NEXT_FRAMES)``: true once the browser has drawn two more frames, so a layout
#: change (a new viewport size, a scroll) is on screen: a condition, not a guess at how long that takes.
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def wait_for_layout(page) -> None:
    """Wait until the browser has laid out and drawn the page as it stands (two animation frames)."""
    page.wait_for_function(NEXT_FRAMES)


def assert_stays(page, getter: str, ms: int, what: str) -> None:
    """Assert that nothing changes: the value ``getter`` (a JavaScript function, ``"() => ..."``) returns
    stays what it is now for ``ms`` milliseconds. For "autoplay is off: no step comes" and "no press was
    counted twice", whose only end is a time; the wait ends at once, failing, on the first change."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    before = page.evaluate(getter)
    try:
        page.wait_for_function(f"(before) => ({getter})() !== before", arg=before, timeout=ms, polling=50)
    except PlaywrightTimeoutError:
        return
    raise AssertionError(f"{what}: it was {before!r}, then {page.evaluate(getter)!r} within {ms} ms")


def assert_no_dialog(page, ms: int = 1_000) -> None:
    """Assert that no dialog (alert, confirm, prompt) opens within ``ms`` milliseconds: an injected handler
    would open one as the page draws. Like :func:`assert_stays`, the wait ends at once, failing, on the first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        dialog = page.wait_for_event("dialog", timeout=ms)
    except PlaywrightTimeoutError:
        return
    raise AssertionError(f"a dialog opened: {dialog.message!r}")


def describe_app_state(page) -> str:
    try:
        app = page.locator(APP_SELECTOR).first
        if app.count() == 0:
            return "no stApp element"
        return (
            f"connection={app.get_attribute('data-test-connection-state')}, "
            f"script={app.get_attribute('data-test-script-state')}"
        )
    except Exception as exc:  # page may be closed or navigating
        return f"state unknown: {exc}"


#: Keeps in ``window.__bpeSteps`` every step the step label showed, in order, as ``[epoch ms, step]`` (a
#: MutationObserver sees each redraw, however short). ``page.evaluate(RECORD_STEPS)`` starts a new record (the
#: observer is set up once per document); ``page.add_init_script(f"({RECORD_STEPS})()")`` records from the start of
#: every document. :data:`STEPS_SHOWN` reads the steps alone.
RECORD_STEPS = """() => {
  const look = () => { const l = document.getElementById('bpe-step-label'), h = window.__bpeSteps;
                       const s = l && l.dataset.step; if (s && (!h.length || h[h.length - 1][1] !== s)) h.push([Date.now(), s]); };
  if (!window.__bpeSteps) new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
  window.__bpeSteps = []; look();
}"""
STEPS_SHOWN = "() => window.__bpeSteps.map(e => e[1])"


def url_query(page) -> dict[str, str]:
    """The parameters of the URL the page shows now, read in the page: ``page.url`` learns of the app's
    ``history.replaceState`` a moment later, so right after a run it can still hold the URL before."""
    pairs = page.evaluate("() => [...new URLSearchParams(location.search)]")
    return {k: v for k, v in pairs}


def wait_for_url_param(page, name: str, timeout: int = DEFAULT_TIMEOUT_MS) -> dict[str, str]:
    """Wait (at most ``timeout`` ms) until the page's URL has the parameter ``name``; return the URL's parameters.
    A failure says what the page shows (a store that could not keep a text says so in the page)."""
    try:
        page.wait_for_function("(n) => new URLSearchParams(location.search).has(n)", arg=name, timeout=timeout)
    except Exception as exc:
        body = page.locator("body").inner_text()[:1500]
        raise AssertionError(f"no {name}= in {url_query(page)} after {timeout} ms; the page shows:\n{body}") from exc
    return url_query(page)


def open_app(page, url: str, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Navigate to ``url`` (the app's base URL, or base URL + "/<page>") and wait."""
    track_runs(page)
    page.goto(url, wait_until="domcontentloaded", timeout=timeout)
    wait_for_app(page, timeout=timeout)


def exception_texts(page) -> list[str]:
    """Texts of the exceptions the app shows: ``stException`` boxes (uncaught
    exceptions in the script) and the dialog Streamlit opens for a script that
    does not compile (``data-test-script-state="compilationError"``, the
    traceback in ``stErrorCodeBlock``)."""
    texts = [t.strip() for t in page.locator(EXCEPTION_SELECTOR).all_inner_texts()]
    state = page.locator(APP_SELECTOR).first.get_attribute("data-test-script-state")
    if state == "compilationError":
        dialog = page.locator('[data-testid="stDialog"]').filter(has=page.locator('[data-testid="stErrorCodeBlock"]'))
        detail = "\n".join(t.strip() for t in dialog.all_inner_texts()) or "(no details shown)"
        texts.append(f"the script does not compile:\n{detail}")
    return texts


def assert_no_exception(page) -> None:
    """Fail with the exception text if the app shows a Streamlit exception
    (an ``stException`` box, or the compilation-error dialog), or if the page could not use a message of its
    server's (:data:`WEBSOCKET_FAULT`)."""
    texts = exception_texts(page)
    assert not texts, "the app shows a Streamlit exception:\n\n" + "\n\n---\n\n".join(texts)
    faults = track_runs(page).faults
    assert not faults, "the page could not use a message from its server:\n" + "\n".join(faults)


# --------------------------------------------------------------------------
# Screenshots
# --------------------------------------------------------------------------

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._/-]+")


def save_screenshot(page, name: str, full_page: bool = False) -> Path:
    """Write ``test-artifacts/<name>.png`` and return its path.

    Tests never write anywhere else (the README's picture, docs/screenshot.png, is refreshed by
    ``scripts/refresh_screenshot.py``). Subfolders are allowed ("failures/test_x"); other unsafe
    characters become "_".
    """
    safe = _SAFE_NAME.sub("_", name).strip("/").replace("..", "_") or "screenshot"
    path = ARTIFACTS_DIR / f"{safe}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(page.screenshot(full_page=full_page, animations="disabled"))
    return path


def paste_text(page, text: str, timeout: int = 60_000) -> None:
    """Paste ``text`` as the corpus through the sidebar's "Paste text" box (Ctrl+Enter applies it) and wait (at
    most ``timeout`` ms) for the app to draw it."""
    page.get_by_text("Paste text", exact=True).click()
    box = page.get_by_label("Text to train on")
    box.wait_for()  # drawn by the run the click asked for (or there already)
    wait_for_app(page)
    box.evaluate(SET_TEXTAREA, text)
    with rerun(page, timeout=timeout):
        box.press("Control+Enter")
