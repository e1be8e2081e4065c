"""Starting what the real-browser tests drive: the app as users run it (``streamlit run serve.py``, in a
subprocess on a free port) and headless Chromium (Playwright).

The fixtures ``app_server`` and ``browser`` (``tests/conftest.py``) and the benchmarks build on these; tests
import them through ``browser`` (``from browser import StreamlitServer``), which re-exports them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
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


class BrowserTestSetupError(RuntimeError):
    """The app server or the browser could not be started."""


# --------------------------------------------------------------------------
# The real app in a subprocess
# --------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that no one listens on now (someone may take it before the caller binds it)."""
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

    def environment(self, port: int) -> dict[str, str]:
        """The server's environment: the tests' own (a subclass may give another, e.g. a systemd unit's)."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.setdefault("MALLOC_ARENA_MAX", "2")  # as `sh run.sh app` runs the server (see there why)
        return env

    def workdir(self) -> Path:
        """The folder the server runs in (the repository's root)."""
        return REPO_ROOT

    def command(self, port: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
            # A server for tests and benchmarks: nothing edits the code while it runs.
            "--server.fileWatcherType",
            "none",
        ]

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
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(
                    self.command(self.port),
                    cwd=self.workdir(),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=self.environment(self.port),
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


@contextlib.contextmanager
def app_on_store(store: Path):
    """A started app server, as users run it, whose store is the SQLite file ``store``: the path stays in the
    environment while the block runs, so a restart inside it keeps the store. Stopped on leaving."""
    import pytest

    server = StreamlitServer()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_STORE", str(store))
        server.start(timeout=60)
        try:
            yield server
        finally:
            server.stop()


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
