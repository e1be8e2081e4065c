"""A plain step of the stepper page loads only the front-end modules it draws.

A live class, the quiz, a language mix, the downloads, the pattern preview, hints and the sidebar's own-text sources
load their modules only once they are used (each such import sits in the function that needs it, saying why). The
count is taken in a fresh Python process: the test process has imported every ``ui`` module already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: The most ``ui.<name>`` modules (submodules of subpackages too; the package ``ui`` itself not counted) that the
#: stepper page's first run and one press of Next may load: issue 38's bound (45 before the lazy imports, 25 before
#: modules that share one job were merged).
MOST_MODULES = 18

_MEASURE = """
import json, sys
sys.path.insert(0, sys.argv[2])
from app_helpers import shown_step  # the tests' helpers import no ui module
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=60)
at.run()
at.button(key="stepper.next").click()
at.run()
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m.startswith("ui.")),
    "exceptions": [str(e.value) for e in at.exception],
    "step": shown_step(at).step,
}))
"""


@pytest.fixture(scope="module")
def step_modules() -> list[str]:
    """The ``ui`` modules loaded by the stepper page's first run and one press of Next, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(REPO / "app.py"), str(REPO / "tests")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["exceptions"] == []
    assert found["step"] == 1, found["step"]  # the press was a step: the measure drew step 1
    return found["modules"]


def test_a_plain_step_of_the_stepper_page_loads_at_most_18_ui_modules(step_modules):
    print(f"{len(step_modules)} ui modules: {step_modules}")
    assert len(step_modules) <= MOST_MODULES, f"{len(step_modules)} ui modules: {step_modules}"
