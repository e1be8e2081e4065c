"""The systemd units the deployment guide ships (``deploy/systemd/``), run by the tests as systemd would run them.

This machine's PID 1 is not systemd, so the tests cannot ``systemctl start`` a unit. Instead :class:`Checkout` lays
out, in a folder under ``test-artifacts/``, what the units name: ``opt/bpe-explorer`` (the repository, its entries
linked, and ``.venv`` linked to the Python running the tests), ``etc/bpe-explorer/bpe-explorer.env`` (the example
environment file with the test's values, mode 600) and ``var/cache/bpe-explorer``; :meth:`Checkout.unit_text` is the
unit with ``/opt/bpe-explorer``, ``/etc/bpe-explorer`` and ``/var/cache/bpe-explorer`` moved there, which
``systemd-analyze verify`` checks (its ``ExecStart`` must exist). :class:`UnitServer` starts a replica with the
unit's own ``ExecStart`` (``%i`` = the port), ``WorkingDirectory``, ``Environment`` and ``EnvironmentFile`` (read as
systemd reads it), in an environment holding nothing else but what systemd gives a service (``PATH``, ``HOME``,
``LANG``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from browser import ARTIFACTS_DIR, REPO_ROOT, StreamlitServer

UNIT = REPO_ROOT / "deploy" / "systemd" / "bpe-explorer@.service"
ENV_EXAMPLE = REPO_ROOT / "deploy" / "systemd" / "bpe-explorer.env.example"
#: The unit's absolute paths, and where a :class:`Checkout` puts each (below its root).
PLACES = {"/opt/bpe-explorer": "opt/bpe-explorer", "/etc/bpe-explorer": "etc/bpe-explorer",
          "/var/cache/bpe-explorer": "var/cache/bpe-explorer"}  # fmt: skip


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines as systemd's ``EnvironmentFile=`` reads them (``#`` and ``;`` lines are comments, blank
    lines skipped, a value in double quotes unquoted)."""
    env = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        env[key.strip()] = value
    return env


def service_settings(text: str) -> dict[str, list[str]]:
    """The ``[Service]`` section of a unit file: each key's values in order (a key may repeat)."""
    settings: dict[str, list[str]] = {}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


class Checkout:
    """The folders the units name, laid out below a fresh folder (see the module doc). ``env`` values override or add
    to the example environment file's."""

    def __init__(self, env: dict[str, str]):
        ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix="deploy-", dir=ARTIFACTS_DIR))
        app = self.root / PLACES["/opt/bpe-explorer"]
        app.mkdir(parents=True)
        for entry in REPO_ROOT.iterdir():
            if entry.name not in (".venv", ".git", "test-artifacts"):
                (app / entry.name).symlink_to(entry)
        (app / ".venv").symlink_to(Path(sys.prefix))  # its bin/python: the unit's ExecStart
        etc = self.root / PLACES["/etc/bpe-explorer"]
        etc.mkdir(parents=True)
        (self.root / PLACES["/var/cache/bpe-explorer"]).mkdir(parents=True)
        self.env_file = etc / "bpe-explorer.env"
        self.env_file.touch(mode=0o600)
        lines, seen = [], set()
        for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
            key = line.partition("=")[0].lstrip("#")
            if key in env and "=" in line and " " not in key:  # the example's setting (or its commented-out one)
                line = f"{key}={env[key]}"
                seen.add(key)
            lines.append(line)
        lines += [f"{k}={v}" for k, v in env.items() if k not in seen]
        self.env_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def moved(self, text: str) -> str:
        """``text`` with the unit's absolute paths moved below :attr:`root`."""
        for place, below in PLACES.items():
            text = text.replace(place, str(self.root / below))
        return text

    def unit_text(self) -> str:
        """The template unit with its paths moved here."""
        return self.moved(UNIT.read_text(encoding="utf-8"))

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class UnitServer(StreamlitServer):
    """A replica started as ``bpe-explorer@<port>.service`` would be (see the module doc)."""

    def __init__(self, checkout: Checkout, log_path: Path | None = None):
        super().__init__(log_path=log_path)
        self.checkout = checkout
        self.settings = service_settings(checkout.unit_text())

    def _instance(self, value: str, port: int) -> str:
        return value.replace("%i", str(port))

    def command(self, port: int) -> list[str]:
        (exec_start,) = self.settings["ExecStart"]
        return shlex.split(self._instance(exec_start, port))

    def workdir(self) -> Path:
        (folder,) = self.settings["WorkingDirectory"]
        return Path(folder)

    def environment(self, port: int) -> dict[str, str]:
        home = self.checkout.root / "home"
        home.mkdir(exist_ok=True)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
        for line in self.settings.get("Environment", []):
            env.update(item.split("=", 1) for item in shlex.split(self._instance(line, port)))
        for path in self.settings.get("EnvironmentFile", []):
            env.update(read_env_file(Path(path.lstrip("-"))))
        cache = env.get("XDG_CACHE_HOME")
        if cache:  # what CacheDirectory= makes
            Path(cache).mkdir(parents=True, exist_ok=True)
        return env
