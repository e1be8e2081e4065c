"""The repository's layout keeps what README.md and docs/ARCHITECTURE.md say about it."""

from __future__ import annotations

import ast
from pathlib import Path

from ui.page import PAGES

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


HELPER_LINES = 550  # test helper modules (tests/*.py not named test_*.py, conftest.py too) stay under this many


def test_test_helper_modules_are_at_most_550_lines():
    # The helpers shared by tests, benchmarks and scripts are read like product code: one job each, split by
    # responsibility when they grow (tests/browser.py, once 601 lines: browser_setup, page_runs and browser).
    helpers = {p.name: p for p in TESTS.glob("*.py") if not p.name.startswith("test_")}
    assert {"conftest.py", "browser.py", "browser_setup.py", "page_runs.py"} <= set(helpers)
    long = {
        name: n
        for name, p in sorted(helpers.items())
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > HELPER_LINES
    }
    assert not long, f"test helper modules over {HELPER_LINES} lines: {long}"


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


# -------------------------------------------------------------------------------- imports of the front end and the server
FRONT_AND_SERVER = ("ui", "app_pages", "bpe_server", "app.py", "serve.py")
TRANSLATORS = {"_", "gettext", "ngettext", "pgettext", "N_"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    """``{dotted name: file}`` of every module of :data:`FRONT_AND_SERVER` (a package is its ``__init__.py``)."""
    files = []
    for name in FRONT_AND_SERVER:
        where = REPO / name
        files += sorted(where.rglob("*.py")) if where.is_dir() else [where]
    return {_module_name(p): p for p in files}


def _imported(path: Path, name: str) -> set[str]:
    """Every module ``path`` (module ``name``) imports, at module level or inside a function: dotted names, with the
    packages they sit in (importing ``ui.text`` runs ``ui/__init__.py`` first) and, for ``from m import x``, ``m.x``
    (``x`` may be a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            found |= {module} | {f"{module}.{a.name}" for a in node.names}
    return found | {m.rsplit(".", k)[0] for m in found for k in range(1, m.count(".") + 1)}


def _import_graph() -> dict[str, set[str]]:
    # A module's own packages are not edges: Python has begun importing them before the module itself, so
    # ``from . import helper`` inside a submodule ``pkg.part`` makes no circle with the package's ``__init__.py`` that
    # imports ``part``.
    modules = _project_modules()
    return {
        name: {m for m in _imported(path, name) if m in modules and m != name and not name.startswith(m + ".")}
        for name, path in modules.items()
    }


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (``[a, b, ..., a]``) per back edge a depth-first walk of ``graph`` meets."""
    found, state, path = [], {}, []

    def walk(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return found


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_the_front_end_and_the_server():
    # Two modules that import each other (even inside a function) are one module in two files: neither can be
    # read, tested or moved alone. ui.class_poll <-> ui.class_view was one; the poll now reads bpe_server only.
    graph = _import_graph()
    assert {"ui.class_view", "bpe_server.class_poll", "serve", "app"} <= set(graph)
    assert "bpe_server.class_poll" in graph["serve"]
    assert _circles(graph) == []


def _called_name(func: ast.expr) -> str | None:
    """``f`` of a call ``f(...)`` or ``x.f(...)``."""
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def test_bpe_server_imports_no_ui_translates_nothing_and_imports_streamlit_only_in_its_routes():
    # The server package runs without the front end: a store, a class or the migration command never needs ui or a
    # Streamlit session. Only the routes of Streamlit's own server read its config (the poll route, which mounts them
    # all) or ask its runtime (the readiness check).
    modules = _project_modules()
    wrong = []
    for name, path in modules.items():
        if name.split(".")[0] != "bpe_server":
            continue
        for m in sorted(_imported(path, name)):
            top = m.split(".")[0]
            if top == "ui" or (top == "streamlit" and name not in ("bpe_server.class_poll", "bpe_server.ready")):
                wrong.append(f"{name} imports {m}")
        # Its words are the front end's (the caller passes or writes the message): nothing here to translate.
        called = {
            _called_name(n.func)
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Call)
        }
        wrong += [f"{name} calls {f}()" for f in sorted(called & TRANSLATORS)]
    assert len([n for n in modules if n.startswith("bpe_server.")]) >= 6
    assert not wrong, wrong


# -------------------------------------------------------------------------------- bpe_core's layout
CORE = REPO / "bpe_core"


def _aliases() -> dict[str, Path]:
    """The top-level modules of bpe_core that only stand for a moved module (``sys.modules[__name__] = ...``)."""
    return {p.stem: p for p in CORE.glob("*.py") if "sys.modules[__name__] = " in p.read_text(encoding="utf-8")}


def test_bpe_core_top_level_holds_at_most_15_modules_besides_its_aliases():
    # The library is grouped by concern (algorithms/, encoding/, formats/, teaching/, languages/, checking/, cli/,
    # models/); its top level keeps what every concern uses (settings, inputs, pre-tokenizers, variants...).
    real = sorted(p.name for p in CORE.glob("*.py") if p.stem not in _aliases())
    assert len(real) <= 15, real


def test_each_alias_is_its_moved_module_and_nothing_else():
    import importlib

    aliases = _aliases()
    assert {"trainer", "encoder", "files", "check", "explain"} <= set(aliases)  # the paths docs/API.md names
    for name, path in aliases.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 10, f"{path.name} is an alias: it only imports the moved module and stands for it"
        moved = next(line.split()[1] for line in lines if line.startswith("from ."))
        assert importlib.import_module(f"bpe_core.{name}") is importlib.import_module(f"bpe_core{moved}.{name}")


def test_no_front_end_or_server_module_is_over_400_lines():
    """As ARCHITECTURE.md says: ui, bpe_server and the entry points too, not only the pages."""
    paths = [*(REPO / "ui").rglob("*.py"), *(REPO / "bpe_server").rglob("*.py"), REPO / "app.py", REPO / "serve.py"]
    long = {str(p.relative_to(REPO)): n for p in paths if (n := len(p.read_text().splitlines())) > PAGE_LINES}
    assert not long, long


def test_no_bpe_core_module_is_over_450_lines():
    long = {str(p.relative_to(REPO)): n for p in CORE.rglob("*.py") if (n := len(p.read_text().splitlines())) > 450}
    assert not long, long
