"""Running the command line as a real process, for the CLI tests: ``python -m bpe_core`` with the repository
on ``PYTHONPATH``, a time limit, and the checks of a clean exit."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
BPE_MAX = "BPE_EXPLORER_MAX_BYTES"


def cli(args, cwd: Path | None = None, stdin: bytes | None = None, env: dict | None = None, timeout: float = 60):
    """Run ``python -m bpe_core *args``; fail (not hang) after ``timeout`` seconds."""
    full_env = {k: v for k, v in os.environ.items() if k != BPE_MAX}
    full_env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env["PYTHONIOENCODING"] = "utf-8"
    full_env.update(env or {})
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bpe_core", *map(str, args)],
            cwd=cwd,
            input=stdin if stdin is not None else b"",
            capture_output=True,
            env=full_env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"python -m bpe_core {' '.join(map(str, args))} did not finish within {timeout:.0f} s", pytrace=False
        )
    proc.seconds = time.monotonic() - start
    proc.out = proc.stdout.decode("utf-8", "replace")
    proc.err = proc.stderr.decode("utf-8", "replace")
    return proc


def assert_clean_error(proc, *needles: str) -> str:
    """Exit status 2, one line on stderr starting ``bpe_core:``, no traceback; the needles in it."""
    lines = proc.err.splitlines()
    assert proc.returncode == 2, f"exit status {proc.returncode}\nstdout: {proc.out[-500:]}\nstderr: {proc.err[-2000:]}"
    assert "Traceback" not in proc.err, proc.err
    assert len(lines) == 1, f"{len(lines)} lines on stderr:\n{proc.err[-2000:]}"
    assert lines[0].startswith("bpe_core: "), lines[0]
    for needle in needles:
        assert needle.lower() in lines[0].lower(), (needle, lines[0])
    return lines[0]


def assert_trained(proc, reason: str) -> None:
    assert proc.returncode == 0, proc.err[-2000:]
    assert proc.err == "", proc.err
    last = proc.out.strip().splitlines()[-1]
    assert last.startswith("# stopped: " + reason), last


def write(path: Path, data) -> Path:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path
