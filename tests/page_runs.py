"""The script runs a page asks its server for, read off the page's websocket (Streamlit's own messages): what
every wait of the real-browser tests waits on (:class:`RunTracker`, :func:`track_runs`), a server slow to answer
on demand (:class:`ServerHold`) and the state the app shows (:func:`describe_app_state`, for failure messages).

Tests import these through ``browser`` (``from browser import ServerHold``), which re-exports them.

What Streamlit 1.67 renders (checked in a real Chromium):
``[data-testid="stApp"]`` carries ``data-test-connection-state`` (``CONNECTED``
once the websocket is up) and ``data-test-script-state`` (``initial`` before the
first run, then ``running`` / ``rerunRequested`` / ``notRunning`` /
``compilationError``).
"""

from __future__ import annotations

import re
import time

APP_SELECTOR = '[data-testid="stApp"]'

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

    def release_one(self) -> bool:
        """Give the page the first message held, and go on holding the rest; False if none is held."""
        if not self.held:
            return False
        message = self.held.pop(0)
        self.runs.received(message)
        self._to_page[-1].send(message)
        return True

    def release(self) -> None:
        """Give the page what was held, in order (what comes in meanwhile joins the queue), then stop holding."""
        while self.release_one():
            pass
        self.on = False


def describe_app_state(page) -> str:
    """The app's connection and script state as the page shows them (``stApp``'s attributes), for a failure
    message; never raises (the page may be closed or navigating)."""
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
