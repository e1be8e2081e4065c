"""Every translation call site in the code has an entry in both catalogs, f-strings included.

Babel's extractor reads tokens: on Python 3.11 an f-string is one token, so ``f"{_('Hardest merges: {merges}')}"``
was never extracted, never translated, and ``tests/test_i18n.py`` (which checks what Babel extracts) could not see it.
This test walks the syntax tree instead (:mod:`ast` parses inside f-strings), finds every call of ``_``, ``gettext``,
``ngettext``, ``pgettext``, ``npgettext`` and ``N_`` (also as methods: ``tr.gettext``), and looks its literal message
up in both catalogs with its context. Words with two senses carry a context (``pgettext``): the quiz verdict *right*
is 正确 / 正確, the right side of a pair stays 右.
"""

from __future__ import annotations

import ast
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_python
from babel.messages.pofile import read_po

from bpe_core.i18n import catalog_path, translations

REPO = Path(__file__).resolve().parent.parent
#: What must be translated: the library, the front end, the pages and the entry point.
SOURCES = ("bpe_core", "ui", "app_pages", "app.py")
#: Translation functions: the positions of (context, singular) among the call's arguments (None: no context).
CALLS = {
    "_": (None, 0),
    "gettext": (None, 0),
    "N_": (None, 0),
    "ngettext": (None, 0),
    "pgettext": (0, 1),
    "npgettext": (0, 1),
}
CHINESE = ("zh-Hans", "zh-Hant")


@dataclass(frozen=True)
class Site:
    """One call of a translation function: where, its message (``None`` when not a literal) and context."""

    where: str
    message: str | None
    context: str | None
    in_fstring: bool
    fstring_argument: bool


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def sites_in(source: str, where: str) -> list[Site]:
    """The translation calls of one module's ``source`` (``where`` names it in messages)."""
    tree = ast.parse(source)
    inside_fstring = {id(n) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in CALLS or not node.args:
            continue
        ctx_at, msg_at = CALLS[name]
        if len(node.args) <= msg_at:
            continue
        arg = node.args[msg_at]
        found.append(
            Site(
                where=f"{where}:{node.lineno}",
                message=_literal(arg),
                context=None if ctx_at is None else _literal(node.args[ctx_at]),
                in_fstring=id(node) in inside_fstring,
                fstring_argument=isinstance(arg, ast.JoinedStr),
            )
        )
    return found


def all_sites() -> list[Site]:
    out = []
    for name in SOURCES:
        where = REPO / name
        for path in sorted(where.rglob("*.py")) if where.is_dir() else [where]:
            out += sites_in(path.read_text(encoding="utf-8"), path.relative_to(REPO).as_posix())
    return out


def load_po(lang: str):
    with open(catalog_path(lang, ".po"), "rb") as f:
        return read_po(f)


def test_the_walk_finds_calls_babel_misses_in_fstrings():
    """The case that went missing: ``_()`` inside an f-string. Babel's extractor does not see it; the walk does."""
    source = "x = f\"<div>{esc(_('Hardest merges: {merges}').format(merges=m))}</div>\"\ny = tr.pgettext('quiz verdict', 'right')\n"
    babel_found = [m for _l, _f, m, _c in extract_python(io.BytesIO(source.encode()), DEFAULT_KEYWORDS, [], {})]
    assert "Hardest merges: {merges}" not in babel_found
    sites = sites_in(source, "x.py")
    assert sorted((s.message, s.context, s.in_fstring) for s in sites) == [
        ("Hardest merges: {merges}", None, True),
        ("right", "quiz verdict", False),
    ]


def test_the_walk_sees_the_whole_code():
    sites = all_sites()
    assert len(sites) > 1000
    assert {s.where.split(":")[0].split("/")[0] for s in sites} >= {"bpe_core", "ui", "app_pages", "app.py"}
    assert any(s.context == "list separator" for s in sites)


def test_no_message_is_an_fstring():
    """``_(f"...")`` looks up a different message for every value: placeholders go through ``.format``."""
    bad = [s.where for s in all_sites() if s.fstring_argument]
    assert not bad, bad


@pytest.mark.parametrize("lang", CHINESE)
def test_every_call_site_has_an_entry(lang):
    catalog = load_po(lang)
    problems = []
    for site in all_sites():
        if site.message is None:
            continue  # a variable: its literal is marked with N_ where it is defined, and checked there
        entry = catalog.get(site.message, context=site.context)
        if entry is None or not (entry.string if isinstance(entry.string, str) else all(entry.string)):
            kind = " (inside an f-string: write _('...').format(...) instead)" if site.in_fstring else ""
            problems.append(f"{site.where}: {site.message!r} context {site.context!r}: no translation{kind}")
        elif entry.fuzzy:
            problems.append(f"{site.where}: {site.message!r}: fuzzy")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang, verdict", [("zh-Hans", "正确"), ("zh-Hant", "正確")])
def test_right_has_two_senses(lang, verdict):
    """The verdict *right* (the chart legend, the summary, the ranking) is correct; the right side of a pair is 右."""
    t = translations(lang)
    assert t.pgettext("quiz verdict", "right") == verdict
    assert t.gettext("Right") == t.gettext("right") == "右"  # CSV headers Left / Right, the notebook's table
    assert translations("en").pgettext("quiz verdict", "right") == "right"


def _histogram_script():
    from bpe_core import TrainConfig, train
    from bpe_core.teaching.class_results import Tally
    from bpe_core.teaching.quiz import question
    from bpe_server.live_class import option_grades
    from ui import class_round

    run = train({"low": 5, "lower": 2, "newest": 6, "widest": 3}, TrainConfig(variant="eow", num_merges=3))
    q = question(run, 1)
    grades = option_grades(q)
    class_round.histogram(run, q, Tally.of(1, "revealed", grades, dict.fromkeys(range(len(grades)), 1)), "utf8", True)


@pytest.mark.parametrize("lang, verdict", [("en", "right"), ("zh-Hans", "正确"), ("zh-Hant", "正確")])
def test_the_class_chart_names_the_verdict_in_its_sense(lang, verdict):
    """The live class's revealed histogram colours the bars by verdict: its legend reads 正確, not 右."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_histogram_script, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    legend = spec["encoding"]["color"]["scale"]["domain"]
    assert legend[0] == verdict and "右" not in legend, legend
