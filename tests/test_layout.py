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


PAGE_LINES = 400  # front-end modules stay under this many lines


def _module_statements_that_run(tree: ast.Module) -> list[str]:
    """What a page script does at import besides imports, definitions, constants and ``main()`` at the end."""
    body = list(tree.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    found = []
    for node in body[:-1]:
        if isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.ClassDef):
            continue
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        names = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        if names and all(isinstance(t, ast.Name) and t.id.isupper() for t in names):
            continue  # a constant (UPPER_CASE)
        found.append(f"line {node.lineno}: {ast.unparse(node).splitlines()[0]}")
    last = body[-1] if body else None
    is_main_call = (
        isinstance(last, ast.Expr)
        and isinstance(last.value, ast.Call)
        and isinstance(last.value.func, ast.Name)
        and last.value.func.id == "main"
        and not last.value.args
        and not last.value.keywords
    )
    if not is_main_call:
        found.append("the last statement is not main()")
    return found


def test_every_page_is_a_main_function_called_once():
    # Pages are functions, as Streamlit's own examples: inputs -> bpe_core -> render in a few named
    # functions, and nothing but main() runs when the script is run.
    problems = {}
    for path in sorted((REPO / "app_pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mains = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"]
        found = _module_statements_that_run(tree) + ([] if len(mains) == 1 else ["no module-level def main()"])
        if found:
            problems[path.name] = found
    assert not problems, problems


def test_page_files_are_numbered_in_menu_order():
    names = [Path(spec.script).name for spec in PAGES]
    assert [n.split("_", 1)[0] for n in names] == [str(i) for i in range(len(PAGES))], names
    assert sorted(p.name for p in (REPO / "app_pages").glob("*.py")) == sorted(names)


def test_pages_are_short_and_laid_out_by_the_formatter():
    too_long, skips = {}, {}
    for path in sorted((REPO / "app_pages").glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > PAGE_LINES:
            too_long[path.name] = len(lines)
        marked = [i for i, line in enumerate(lines, 1) if "# fmt: skip" in line or "# fmt: off" in line]
        if marked:
            skips[path.name] = marked
    assert not too_long, f"pages over {PAGE_LINES} lines: {too_long}"
    assert not skips, f"formatter markers in pages: {skips}"
