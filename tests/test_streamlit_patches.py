"""ui/streamlit_patches.py: every patch of Streamlit's internals lives there, names the Streamlit versions it was
checked on, and refuses any other version loudly, with the way out (the guard is tested with version strings)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import streamlit

from ui import streamlit_patches

REPO = Path(__file__).resolve().parent.parent
#: Every patch's name (what the skip variable names; its install function is ``install_<name>``).
PATCHES = ("fragment_refs", "timer_presses")


def test_a_checked_version_passes():
    assert streamlit_patches.may_install("fragment_refs", ("1.65.0", "1.67.0"), "a bug", version="1.67.0", environ={})
    assert streamlit_patches.may_install("fragment_refs", ("1.65.0", "1.67.0"), "a bug", version="1.65.0", environ={})


def test_an_unchecked_version_raises_with_the_way_out():
    with pytest.raises(RuntimeError) as raised:
        streamlit_patches.may_install(
            "timer_presses", ("1.67.0",), "one press counts twice", version="1.68.0", environ={}
        )
    message = str(raised.value)
    assert "Streamlit 1.68.0 is installed" in message and "checked only on Streamlit 1.67.0" in message
    assert "ui/streamlit_patches.py" in message and "patch timer_presses" in message and "requirements.txt" in message
    assert f"{streamlit_patches.SKIP_VARIABLE}=timer_presses" in message and "one press counts twice" in message


def test_the_environment_can_skip_a_patch():
    environ = {streamlit_patches.SKIP_VARIABLE: "fragment_refs, timer_presses"}
    assert not streamlit_patches.may_install("timer_presses", ("1.67.0",), "a bug", version="1.68.0", environ=environ)
    assert not streamlit_patches.may_install("fragment_refs", ("1.67.0",), "a bug", version="1.67.0", environ=environ)
    # Only the patches it names: another still checks its version.
    with pytest.raises(RuntimeError):
        streamlit_patches.may_install("other", ("1.67.0",), "a bug", version="1.68.0", environ=environ)
    assert not streamlit_patches.skipped("fragment_refs", {streamlit_patches.SKIP_VARIABLE: "fragment_refs_old"})


def test_the_installed_streamlit_is_checked_by_every_patch():
    assert streamlit_patches.installed_version() == streamlit.__version__
    for patch in PATCHES:
        assert streamlit.__version__ in getattr(streamlit_patches, f"{patch.upper()}_CHECKED"), patch
        assert getattr(streamlit_patches, f"{patch.upper()}_MENDS"), patch
    streamlit_patches.install()  # no error on this Streamlit


def test_every_patch_is_guarded_and_installed_together():
    tree = ast.parse((REPO / "ui" / "streamlit_patches.py").read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    names = {name.removeprefix("install_") for name in functions if name.startswith("install_")}
    assert names == set(PATCHES)
    install = ast.unparse(functions["install"])
    for name in names:
        source = ast.unparse(functions[f"install_{name}"])
        assert f"may_install('{name}', {name.upper()}_CHECKED, {name.upper()}_MENDS)" in source, name
        assert f"install_{name}()" in install, name


def test_no_module_outside_the_patches_module_patches_streamlit():
    # A patch assigns to an attribute of something imported from Streamlit (``AppSession.request_rerun = ...``).
    found = []
    files = [REPO / "app.py", REPO / "serve.py", *(REPO / "ui").rglob("*.py"), *(REPO / "app_pages").glob("*.py")]
    for path in files:
        if path == REPO / "ui" / "streamlit_patches.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        from_streamlit = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit"):
                from_streamlit |= {a.asname or a.name for a in node.names}
            elif isinstance(node, ast.Import):
                from_streamlit |= {a.asname or a.name for a in node.names if a.name.startswith("streamlit")}
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                base, chain = target, []
                while isinstance(base, ast.Attribute):
                    chain.append(base.attr)
                    base = base.value
                # ``st.session_state.x = ...`` is the app's own state, not a patch.
                if chain and "session_state" not in chain and isinstance(base, ast.Name) and base.id in from_streamlit:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not found, f"patches of Streamlit outside ui/streamlit_patches.py: {found}"
