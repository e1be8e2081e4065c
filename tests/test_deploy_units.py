"""The systemd units the deployment guide ships (``deploy/systemd/``): ``systemd-analyze verify`` accepts them (with
their paths in a checkout the test makes, ``tests/deploy_units.py``), they run the app as an unprivileged user that
restarts on failure and logs to the journal, one unit per port; a replica started with the unit's own command line
and environment file serves the app and its readiness check; and ``run.sh app`` logs the port it was given.
(The browser tests through nginx start their replicas this way too: ``tests/test_shared_store_browser.py``.)"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import urllib.request
from pathlib import Path

import pytest
from browser import ARTIFACTS_DIR, REPO_ROOT
from deploy_units import ENV_EXAMPLE, Checkout, UnitServer, read_env_file, service_settings

SECRET = "a-test-secret-of-the-shape-secrets-token-urlsafe-gives"


@pytest.fixture(scope="module")
def checkout(postgres_cluster):
    """The units' folders, with an environment file naming the session's PostgreSQL and a password file."""
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    made = Checkout({"STREAMLIT_SERVER_COOKIE_SECRET": SECRET, "BPE_EXPLORER_DATABASE_URL": postgres_cluster.url})
    pgpass = made.env_file.parent / "pgpass"  # the test cluster trusts local connections; libpq still reads it
    pgpass.touch(mode=0o600)
    pgpass.write_text(f"127.0.0.1:{postgres_cluster.port}:bpe:{postgres_cluster.role}:unused\n")
    made.env_file.write_text(made.env_file.read_text().replace("=/etc/bpe-explorer/pgpass", f"={pgpass}"))
    try:
        yield made
    finally:
        made.remove()


def test_systemd_analyze_verify_accepts_an_instance_of_the_unit(checkout):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed (Debian/Ubuntu: apt-get install systemd; `sh run.sh test` does this)"
    units = checkout.root / "units"
    units.mkdir()
    (units / "bpe-explorer@.service").write_text(checkout.unit_text(), encoding="utf-8")
    (units / "bpe-explorer@8501.service").symlink_to("bpe-explorer@.service")
    done = subprocess.run(
        [analyze, "verify", "--man=no", str(units / "bpe-explorer@8501.service")],
        capture_output=True, text=True, timeout=60, env=dict(os.environ, SYSTEMD_LOG_LEVEL="notice"),
    )  # fmt: skip
    # verify complains on stderr about what it finds wrong in the unit (unknown keys, missing ExecStart programs...)
    wrong = [line for line in done.stderr.splitlines() if "bpe-explorer" in line]
    assert done.returncode == 0 and not wrong, done.stderr
    # It does look: a unit whose program is missing is refused.
    (units / "bpe-explorer@.service").write_text(checkout.unit_text().replace(".venv/bin/python", ".venv/bin/nope"))
    refused = subprocess.run([analyze, "verify", "--man=no", str(units / "bpe-explorer@8501.service")],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert refused.returncode != 0 and "nope" in refused.stderr, refused.stderr


def test_the_unit_runs_unprivileged_per_port_restarts_on_failure_and_logs_to_the_journal(checkout):
    unit = service_settings(checkout.unit_text())
    assert unit["User"] == ["bpe-explorer"] and unit["Group"] == ["bpe-explorer"]
    assert unit["Restart"] == ["on-failure"] and unit["StandardOutput"] == unit["StandardError"] == ["journal"]
    (exec_start,) = unit["ExecStart"]
    assert "--server.port %i" in exec_start and "--server.address 127.0.0.1" in exec_start
    assert exec_start.split()[0] == str(checkout.root / "opt/bpe-explorer/.venv/bin/python")
    assert Path(exec_start.split()[0]).exists()  # in this checkout
    assert unit["EnvironmentFile"] == [str(checkout.env_file)]
    example = read_env_file(ENV_EXAMPLE)
    # No password in the file: the database URL names none, libpq reads it from PGPASSFILE.
    assert example["PGPASSFILE"] and "@" in example["BPE_EXPLORER_DATABASE_URL"]
    assert ":" not in example["BPE_EXPLORER_DATABASE_URL"].split("//", 1)[1].split("@", 1)[0]
    assert stat.S_IMODE(checkout.env_file.stat().st_mode) == 0o600
    assert read_env_file(checkout.env_file)["STREAMLIT_SERVER_COOKIE_SECRET"] == SECRET


def test_a_replica_started_as_the_unit_serves_the_app_and_says_it_is_ready(checkout, tmp_path, postgres_url):
    server = UnitServer(checkout, log_path=ARTIFACTS_DIR / "streamlit-server-unit.log")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_STORE", str(tmp_path / "not-the-units.sqlite3"))  # the unit's env holds none of ours
        server.start(timeout=60)
    try:
        env = server.environment(server.port)
        assert "BPE_EXPLORER_STORE" not in env and env["STREAMLIT_SERVER_COOKIE_SECRET"] == SECRET
        assert env["XDG_CACHE_HOME"] == str(checkout.root / f"var/cache/bpe-explorer/{server.port}")
        assert env["BPE_EXPLORER_DATABASE_URL"] == postgres_url and Path(env["PGPASSFILE"]).exists()
        with urllib.request.urlopen(f"{server.url}/bpe-api/ready", timeout=30) as resp:
            assert resp.status == 200 and resp.read() == b'{"ready":true}'  # its store, PostgreSQL, answers
        assert not (tmp_path / "not-the-units.sqlite3").exists()
    finally:
        server.stop()


def test_run_sh_app_logs_the_port_it_was_given(tmp_path):
    # A .venv whose python runs the real one, except `-m streamlit`, which only says what it was asked: run.sh's own
    # set-up steps (the venv check, the requirements stamp) run for real, nothing is installed, no server starts.
    app = tmp_path / "app"
    app.mkdir()
    for name in ("run.sh", "requirements.txt", "requirements-dev.txt"):
        shutil.copy(REPO_ROOT / name, app / name)
    (app / ".venv" / "bin").mkdir(parents=True)
    python = app / ".venv" / "bin" / "python"
    python.write_text(
        f'#!/bin/sh\nif [ "$1" = -m ] && [ "$2" = streamlit ]; then echo "streamlit: $*"; exit 0; fi\n'
        f'exec {Path(os.path.realpath(os.sys.executable))} "$@"\n'
    )
    python.chmod(0o755)
    stamp = subprocess.run([str(python), "-c", _HASH], cwd=app, capture_output=True, text=True, check=True).stdout
    (app / ".venv" / ".requirements.sha256").write_text(f"{stamp.strip()} app\n")
    for args, env, port in (([], {}, "8501"), (["--server.port", "8502"], {}, "8502"),
                            (["--server.port=8503"], {}, "8503"), ([], {"STREAMLIT_SERVER_PORT": "8504"}, "8504")):  # fmt: skip
        done = subprocess.run(["sh", str(app / "run.sh"), "app", *args], capture_output=True, text=True, timeout=120,
                              env={**os.environ, **env})  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"starting BPE Explorer on http://localhost:{port} " in done.stderr, done.stderr
        assert "installing" not in done.stderr


# run.sh's requirements_hash (the stamp that says .venv is up to date), the same code.
_HASH = (REPO_ROOT / "run.sh").read_text().split("requirements_hash() {\n    \"$PY\" - <<'EOF'\n", 1)[1].split("EOF")[0]
