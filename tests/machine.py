"""What benchmarks print about the machine they ran on.

Helpers shared by the tests and the benchmarks live in ``tests/`` (this module, ``browser.py``,
``hf_reference.py``...): pytest puts ``tests/`` on the path (``pytest.ini``) and each benchmark puts it
there itself (``sys.path``), so there is one copy of each and no package to install. A module named
``test_*.py`` is a test module and is never imported by another.
"""

from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else ``platform.processor()``): timings move between
    machines, so every benchmark prints it next to its numbers."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    """One line for a benchmark's head: the CPU model, the logical CPUs, the Python version and the load average
    (1 / 5 / 15 min), since a busy machine moves every wall-clock figure."""
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"CPU: {cpu_model()} ({os.cpu_count()} logical CPUs); Python {platform.python_version()}; load average {load}"
    )
