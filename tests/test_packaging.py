"""pyproject.toml: the pins agree with the requirements files, and ``pip install .`` gives the library alone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from textbook import TEXTBOOK_TEXT

from bpe_core.cli import COMMANDS

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def requirement_key(req: Requirement) -> tuple:
    """What makes two pins the same: the package, its version specifier, its environment marker."""
    return canonicalize_name(req.name), str(req.specifier), str(req.marker or "")


def requirements_file(name: str) -> tuple[list[Requirement], list[str]]:
    """The pins of a requirements file and its ``-r`` includes (comments and blank lines skipped)."""
    pins, includes = [], []
    for raw in (REPO / name).read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-r "):
            includes.append(line[3:].strip())
        else:
            pins.append(Requirement(line))
    return pins, includes


def test_requirements_txt_and_pyproject_pin_the_same_runtime_versions():
    project = PYPROJECT["project"]
    library = [Requirement(r) for r in project["dependencies"]]
    app = [Requirement(r) for r in project["optional-dependencies"]["app"]]
    runtime, includes = requirements_file("requirements.txt")
    assert includes == []
    assert sorted(map(requirement_key, runtime)) == sorted(map(requirement_key, library + app))
    assert all(str(r.specifier).startswith("==") for r in runtime), "every runtime requirement is pinned"
    # The library needs only regex and tqdm: nothing of the app's. tokenizers (a tokenizer.json's ids) is in the
    # app's extra; the CLI imports it only when a tokenizer.json is asked for.
    assert {canonicalize_name(r.name) for r in library} == {"regex", "tqdm"}
    # The same for the word segmenter (jieba) and the 繁體 to 简体 converter (opencc) of the jieba pre-tokenizer.
    assert {"tokenizers", "jieba", "opencc"} <= {canonicalize_name(r.name) for r in app}
    assert not {canonicalize_name(r.name) for r in app} & {"regex", "tqdm"}


def test_requirements_dev_txt_includes_the_runtime_pins_and_repins_none_of_them():
    dev, includes = requirements_file("requirements-dev.txt")
    assert includes == ["requirements.txt"]
    runtime = {canonicalize_name(r.name) for r in requirements_file("requirements.txt")[0]}
    assert not runtime & {canonicalize_name(r.name) for r in dev}


def test_console_script_and_package_data_are_declared():
    assert PYPROJECT["project"]["scripts"] == {"bpe-explorer": "bpe_core.cli:console_main"}
    # Every package folder of the library is declared, or a wheel would miss its modules.
    root = Path(__file__).resolve().parent.parent
    folders = sorted(".".join(p.parent.relative_to(root).parts) for p in (root / "bpe_core").rglob("__init__.py"))
    assert PYPROJECT["tool"]["setuptools"]["packages"] == folders
    assert {"bpe_core", "bpe_core.cli", "bpe_core.models", "bpe_core.algorithms"} <= set(folders)
    assert sorted(PYPROJECT["tool"]["setuptools"]["package-data"]["bpe_core"]) == [
        "data/magikarp/*.tsv",
        "data/magikarp/README.md",
        "data/udhr/*.xml",
        "data/udhr/README.md",
        "locales/*/LC_MESSAGES/*.mo",
        "locales/*/LC_MESSAGES/*.po",
    ]
    assert sorted(PYPROJECT["tool"]["setuptools"]["package-data"]["bpe_core.models"]) == [
        "*.LICENSE-*",
        "*.pairs",
        "*.tiktoken",
        "*.tokenizer.json.gz",
        "README.md",
    ]


def test_pip_install_in_a_fresh_venv_gives_the_library_and_the_cli_without_the_app(tmp_path):
    # What `pip install .` sees: the project files, copied so the build leaves nothing in the work tree,
    # plus a catalog and a model file to check that package data is installed.
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(REPO / "pyproject.toml", src)
    shutil.copy(REPO / "README.md", src)
    shutil.copytree(REPO / "bpe_core", src / "bpe_core", ignore=shutil.ignore_patterns("__pycache__"))
    messages = src / "bpe_core" / "locales" / "xx_Test" / "LC_MESSAGES"
    messages.mkdir(parents=True, exist_ok=True)
    (messages / "bpe_explorer_test.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    (src / "bpe_core" / "models").mkdir(exist_ok=True)
    (src / "bpe_core" / "models" / "package_data_test.tiktoken").write_text("x\n", encoding="utf-8")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")}
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(src)]
    done = subprocess.run(pip, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]

    def run(*args, **kw):
        return subprocess.run(list(args), capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env, **kw)

    probe = run(
        str(python),
        "-c",
        "import importlib.util as u, pathlib, bpe_core; "
        "print(pathlib.Path(bpe_core.__file__).parent); "
        "print([m for m in ('streamlit', 'pandas', 'altair', 'tol_colors') if u.find_spec(m)])",
    )
    assert probe.returncode == 0, probe.stderr
    package_dir, app_modules = probe.stdout.splitlines()
    assert app_modules == "[]"
    assert Path(package_dir).is_relative_to(venv)
    assert (Path(package_dir) / "locales" / "xx_Test" / "LC_MESSAGES" / "bpe_explorer_test.po").is_file()
    assert (Path(package_dir) / "models" / "package_data_test.tiktoken").is_file()
    # The Declaration in 20 languages (bpe_core.languages.declaration) with its provenance.
    assert len(list((Path(package_dir) / "data" / "udhr").glob("udhr_*.xml"))) == 20
    assert (Path(package_dir) / "data" / "udhr" / "README.md").is_file()
    # GPT-2's under-trained tokens of the Magikarp report (bpe_core.encoding.intermediate), with their provenance.
    assert (Path(package_dir) / "data" / "magikarp" / "gpt2_undertrained.tsv").is_file()
    assert (Path(package_dir) / "data" / "magikarp" / "README.md").is_file()

    corpus = tmp_path / "textbook.txt"
    corpus.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    train = run(str(python), "-m", "bpe_core", "train", str(corpus), "--variant", "eow", "--merges", "3")
    assert train.returncode == 0, train.stderr
    assert train.stdout.splitlines()[1:4] == [
        "1  e + s -> es  (9)",
        "2  es + t -> est  (9)",
        "3  est + </w> -> est</w>  (9)",
    ]

    script = bin_dir / "bpe-explorer"
    helped = run(str(script), "--help")
    assert helped.returncode == 0 and "{" + ",".join(("app", *COMMANDS)) + "}" in helped.stdout
    same = run(str(script), "train", str(corpus), "--variant", "eow", "--merges", "3")
    assert same.returncode == 0 and same.stdout == train.stdout
    app = run(str(script), "app")
    assert app.returncode == 2
    assert app.stderr.count("\n") == 1 and app.stderr.startswith("bpe-explorer: the app is not available")
    # Qwen3 ships with the library, but its ids come from tokenizers, which only the [app] extra installs.
    assert (Path(package_dir) / "models" / "qwen3.tokenizer.json.gz").is_file()
    assert (Path(package_dir) / "models" / "qwen3.LICENSE-Apache-2.0").is_file()
    qwen = run(str(script), "encode", "--model", "qwen3", str(corpus))
    assert qwen.returncode == 2 and qwen.stderr.count("\n") == 1
    assert "'tokenizers'" in qwen.stderr and "bpe-explorer[app]" in qwen.stderr
    # So is the word segmenter of the jieba pre-tokenizer (on running text: word counts are not pre-tokenized).
    chinese = tmp_path / "chinese.txt"
    chinese.write_text("我喜歡自然語言處理。我喜欢自然语言处理。\n", encoding="utf-8")
    seg = run(str(script), "train", str(chinese), "--pretokenizer", "jieba", "--merges", "3")
    assert seg.returncode == 2 and seg.stderr.count("\n") == 1
    assert "'jieba'" in seg.stderr and "bpe-explorer[app]" in seg.stderr
