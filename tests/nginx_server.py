"""nginx in front of several app servers, for the tests and the benchmarks: the repository's own site file.

``deploy/nginx/bpe-explorer.conf`` is the configuration ``docs/DEPLOY.md`` gives; :func:`site_config` changes
only what the file says an admin changes: its ``listen`` line, the ``server`` lines of its upstream and the replica
lines of its ``$bpe_route`` map (the replicas' addresses), nothing else. Around it
:class:`NginxProxy` writes the small main file a distribution's ``nginx.conf`` plays in a deployment (``events``,
an ``http`` block that includes the site file), with everything nginx writes -- pid, logs, temporary files -- in a
folder under ``test-artifacts/`` (its prefix, ``-p``), so the distribution's own nginx service, running or not,
plays no part. nginx runs in the foreground (``daemon off``) as our child and is stopped at the end.

The access log names, for each request, the sticky key (the ``bpe_replica`` cookie, or the id the first response
gives as that cookie) and the replica that answered (``$upstream_addr``): :meth:`NginxProxy.replicas_of` reads it.
A missing nginx is an error naming the package to install, never a skip.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import NamedTuple

from browser import ARTIFACTS_DIR, REPO_ROOT, free_port

SITE_CONF = REPO_ROOT / "deploy" / "nginx" / "bpe-explorer.conf"
COOKIE = "bpe_replica"  # the cookie the site file sets and hashes on (a browser's id in the access log)
ROUTE_COOKIE = "bpe_route"  # the cookie naming the replica a browser's requests go to
INSTALL_HINT = (
    "nginx is needed by the tests of several app servers behind a proxy: install it (Debian/Ubuntu: apt-get install "
    "-y nginx; `sh run.sh test` does this as root) and re-run."
)

_LISTEN = re.compile(r"^(\s*)listen\s+[^;]+;", re.M)
_UPSTREAM = re.compile(r"upstream\s+bpe_explorer\s*\{(?P<body>[^}]*)\}")
_SERVER_LINE = re.compile(r"^[ \t]*server\s+[^;\s]+;[^\n]*\n", re.M)
_ROUTE_MAP = re.compile(r"map\s+\$cookie_bpe_route\s+\$bpe_route\s*\{(?P<body>[^}]*)\}")
_ROUTE_LINE = re.compile(r"^[ \t]*(?!default\b)(\S+)[ \t]+\1;[^\n]*\n", re.M)  # "a:1 a:1;": a replica


class NginxSetupError(RuntimeError):
    pass


def nginx_binary() -> str:
    """The ``nginx`` executable (PATH, else Debian's ``/usr/sbin/nginx``, off a normal user's PATH)."""
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if not found:
        raise NginxSetupError(f"no nginx found (looked on PATH and in /usr/sbin). {INSTALL_HINT}")
    return found


def site_config(listen: str, replicas: list[str], text: str | None = None) -> str:
    """The site file (``text``, default :data:`SITE_CONF`'s) listening on ``listen`` (``host:port``) with the
    upstream's ``server`` lines and the ``$bpe_route`` map's replica lines replaced by one per address in
    ``replicas`` (``host:port`` each). Raises :class:`NginxSetupError` when the file no longer has exactly one
    ``listen`` line, one upstream with server lines and one route map with replica lines (then this function and the
    guide need a look)."""
    text = SITE_CONF.read_text(encoding="utf-8") if text is None else text
    text, listens = _LISTEN.subn(lambda m: f"{m.group(1)}listen {listen};", text)
    if listens != 1:
        raise NginxSetupError(f"{SITE_CONF}: expected one `listen` line")
    text = _replace_lines(text, _UPSTREAM, _SERVER_LINE, [f"server {a};" for a in replicas], "upstream `server`")
    return _replace_lines(text, _ROUTE_MAP, _ROUTE_LINE, [f"{a} {a};" for a in replicas], "route map replica")


def _replace_lines(text: str, block: re.Pattern, line: re.Pattern, new: list[str], what: str) -> str:
    """``text`` with the lines matching ``line`` inside the one block matching ``block`` replaced by ``new`` (at the
    first one's place and indent)."""
    found = block.search(text)
    first = line.search(found["body"]) if found else None
    if first is None:
        raise NginxSetupError(f"{SITE_CONF}: expected a block with {what} lines")
    body = found["body"]
    indent = re.match(r"[ \t]*", first.group(0)).group(0)
    lines = "".join(f"{indent}{entry}\n" for entry in new)
    body = body[: first.start()] + lines + line.sub("", body[first.start() :])
    return text[: found.start("body")] + body + text[found.end("body") :]


class Request(NamedTuple):
    """One line of the access log: the sticky key, the replica that answered (``host:port``), status, request."""

    key: str
    replica: str
    status: int
    request: str

    @property
    def path(self) -> str:
        """The request's path and query (``GET /_stcore/health HTTP/1.1`` -> ``/_stcore/health``)."""
        parts = self.request.split(" ")
        return parts[1] if len(parts) > 1 else ""


class NginxProxy:
    """nginx with the site file in front of ``replicas`` (``host:port`` each) on a free port of 127.0.0.1.

    :meth:`start` starts it and waits until a replica answers through it; :meth:`stop` stops it. :attr:`url` is
    its address; :attr:`root` its folder (``conf/``, ``logs/``, ``temp/``)."""

    def __init__(self, replicas: list[str]):
        self.binary = nginx_binary()
        self.replicas = list(replicas)
        ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix="nginx-", dir=ARTIFACTS_DIR))
        self.root.chmod(0o755)
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def access_log(self) -> Path:
        return self.root / "logs" / "access.log"

    @property
    def error_log(self) -> Path:
        return self.root / "logs" / "error.log"

    def _main_config(self) -> str:
        """What the distribution's nginx.conf does in a deployment, with every path in :attr:`root`."""
        temp = self.root / "temp"
        # As root the workers would switch to `nobody`; the tests' folders belong to us, so keep the workers ours.
        user = "user root;\n" if os.geteuid() == 0 else ""
        return (
            f"daemon off;\nworker_processes 1;\n{user}pid {self.root}/nginx.pid;\n"
            f"error_log {self.error_log} notice;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"    client_body_temp_path {temp}/client_body;\n    proxy_temp_path {temp}/proxy;\n"
            f"    fastcgi_temp_path {temp}/fastcgi;\n    uwsgi_temp_path {temp}/uwsgi;\n    scgi_temp_path {temp}/scgi;\n"
            "    include bpe-explorer.conf;\n"
            "    log_format bpe_replicas '$bpe_replica_key|$status|$upstream_addr|$request';\n"
            f"    access_log {self.access_log} bpe_replicas;\n"
            "}\n"
        )

    def command(self, *extra: str) -> list[str]:
        """The nginx command line for this proxy's configuration (``extra``: e.g. ``-t`` to check it)."""
        conf = self.root / "conf" / "nginx.conf"
        return [self.binary, "-p", f"{self.root}/", "-c", str(conf), "-e", str(self.error_log), *extra]

    def write_config(self) -> Path:
        """Write ``conf/bpe-explorer.conf`` (the site file, listening on :attr:`port`, a free one if unset) and the
        main ``conf/nginx.conf`` around it; returns the main file's path."""
        for sub in ("conf", "logs", "temp"):
            (self.root / sub).mkdir(exist_ok=True)
        self.port = self.port or free_port()
        (self.root / "conf" / "bpe-explorer.conf").write_text(
            site_config(f"127.0.0.1:{self.port}", self.replicas), encoding="utf-8"
        )
        main = self.root / "conf" / "nginx.conf"
        main.write_text(self._main_config(), encoding="utf-8")
        return main

    def start(self, timeout: float = 30.0, attempts: int = 3) -> str:
        """Write the configuration, check it (``nginx -t``), start nginx and wait until a replica answers
        ``/_stcore/health`` through it. Returns :attr:`url`. Raises :class:`NginxSetupError`."""
        for attempt in range(1, attempts + 1):
            self.port = free_port()
            self.write_config()
            check = subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)
            if check.returncode != 0:
                raise NginxSetupError(f"nginx -t refused the configuration:\n{check.stderr}")
            self.proc = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
            try:
                self._wait_ready(timeout)
                return self.url
            except NginxSetupError:
                self.stop()
                if attempt < attempts and "in use" in self._error_text():
                    continue  # someone took the port between free_port() and the bind
                raise
        raise AssertionError("unreachable")

    def _error_text(self) -> str:
        try:
            return self.error_log.read_text(errors="replace")[-4000:]
        except OSError:
            return "(no error log)"

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer yet"
        while True:
            if self.proc.poll() is not None:
                raise NginxSetupError(f"nginx exited with code {self.proc.returncode}:\n{self._error_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        return
                    last = f"HTTP {resp.status}"
            except (urllib.error.URLError, OSError) as exc:
                last = repr(exc)
            if time.monotonic() > deadline:
                raise NginxSetupError(f"nginx did not pass a health check within {timeout:.0f} s ({last}):\n"
                                      f"{self._error_text()}")  # fmt: skip
            time.sleep(0.1)

    def requests(self) -> list[Request]:
        """Every request logged so far (a websocket is logged when it closes)."""
        try:
            lines = self.access_log.read_text(encoding="utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return []
        out = []
        for line in lines:
            key, status, replica, request = line.split("|", 3)  # replica: "a:1, b:2" when nginx tried two
            out.append(Request(key, replica, int(status), request))
        return out

    def requests_of(self, key: str, path: str = "", timeout: float = 10.0) -> list[Request]:
        """The logged requests of sticky key ``key`` (whose path starts with ``path``), once at least one is there:
        nginx writes a line when a request ends, so this waits up to ``timeout`` seconds, then returns what there
        is (maybe nothing)."""
        deadline = time.monotonic() + timeout
        while True:
            found = [r for r in self.requests() if r.key == key and r.path.startswith(path)]
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.1)

    def replicas_of(self, key: str, timeout: float = 10.0) -> set[str]:
        """The replicas (``host:port``) that answered the requests of sticky key ``key`` (see :meth:`requests_of`)."""
        return {r.replica for r in self.requests_of(key, timeout=timeout)}

    def stop(self) -> None:
        """Fast shutdown (SIGTERM: open websockets are cut), then SIGKILL if it does not exit in 10 s."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                proc.wait(timeout=10)
                return
            except subprocess.TimeoutExpired:
                continue


def sticky_key(context) -> str | None:
    """The ``bpe_replica`` cookie nginx gave a Playwright browser context (None before its first answer)."""
    return next((c["value"] for c in context.cookies() if c["name"] == COOKIE), None)
