"""The repository's layout keeps what README.md and docs/ARCHITECTURE.md say about it."""

from __future__ import annotations

import ast
from pathlib import Path

from ui.navigation import PAGES

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"


def test_no_top_level_pages_folder():
    # Streamlit treats a top-level pages/ folder as the old multipage app: it shows a menu built from the
    # file names until st.navigation has run. The page scripts live in app_pages/ (README, ARCHITECTURE).
    assert not (REPO / "pages").exists(), "a top-level pages/ folder: move its scripts to app_pages/"


def test_every_page_of_the_menu_is_in_the_architecture_doc():
    doc = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [spec.script for spec in PAGES if f"`{spec.script}`" not in doc]
    assert not missing, f"docs/ARCHITECTURE.md does not list {missing}"
    assert all((REPO / spec.script).is_file() for spec in PAGES)


def test_no_test_module_imports_another():
    # Shared helpers live in modules not named test_*.py (tests/app_helpers.py, tests/html_doc.py...), so
    # collecting one test file never runs another's tests or fixtures.
    found = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0].startswith("test_")]
    assert not found, found
