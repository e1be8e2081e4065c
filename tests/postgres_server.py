"""A throwaway PostgreSQL cluster for the tests: ``initdb`` + ``pg_ctl`` from the installed server's own bin folder.

Debian keeps ``initdb`` and ``pg_ctl`` off PATH, in ``/usr/lib/postgresql/<version>/bin``; the newest version there
is used (else the ones on PATH). ``initdb`` refuses to run as root, so when the tests run as root the cluster is made
and run by the ``postgres`` user (``runuser``), in a folder under ``test-artifacts/`` handed to that user. The server
listens on 127.0.0.1 on a free port, without a Unix socket folder outside ours, trusting local connections (a test
cluster: nothing else can reach it). A missing server is an error naming the package to install, never a skip.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from browser import ARTIFACTS_DIR, free_port

INSTALL_HINT = (
    "PostgreSQL's server is needed by the shared-store tests: install it (Debian/Ubuntu: apt-get install -y "
    "postgresql; `sh run.sh test` does this as root) and re-run."
)


class PostgresSetupError(RuntimeError):
    pass


def bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``. Raises :class:`PostgresSetupError` when there is none."""
    versions = sorted(
        (p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1]
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    raise PostgresSetupError(f"no initdb/pg_ctl found (looked in /usr/lib/postgresql/*/bin and PATH). {INSTALL_HINT}")


class PostgresCluster:
    """One cluster: :meth:`start` makes it (first time) and starts it, :meth:`stop` stops it, :meth:`remove` deletes
    its folder. :attr:`url` is a ``postgresql://`` URL of database ``bpe`` (made at the first start)."""

    def __init__(self):
        self.bin = bin_dir()
        ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix="postgres-", dir=ARTIFACTS_DIR))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresSetupError(f"running as root and there is no 'postgres' user. {INSTALL_HINT}") from None
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self.role = self.user.pw_name if self.user else pwd.getpwuid(os.geteuid()).pw_name
        self.url = f"postgresql://{self.role}@127.0.0.1:{self.port}/bpe"
        self._made = False

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user.pw_name, "--", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if proc.returncode != 0:
            raise PostgresSetupError(f"{' '.join(args[:2])} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
        return proc

    def start(self) -> str:
        """Make the cluster (first call) and start it; wait until it accepts connections. Returns :attr:`url`."""
        if not self._made:
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.role, "-E", "UTF8", "--no-locale")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
        if not self._made:
            self._create_database()
            self._made = True
        return self.url

    def _create_database(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True, connect_timeout=5) as c:
                    c.execute("CREATE DATABASE bpe")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server (fast shutdown: open connections are cut, as in a crash or restart)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def is_running(self) -> bool:
        cmd = [str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user.pw_name, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, timeout=30).returncode == 0

    def remove(self) -> None:
        if self.is_running():
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
