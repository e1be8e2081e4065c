"""bpe_core.teaching.notebook: ``_repr_html_`` of a run and of a merge step, escaped."""

from __future__ import annotations

import re

from html_doc import Doc, find, text
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig, train


def cells(html: str) -> list[str]:
    """The text of every table cell and caption, in document order."""
    return [text(n) for n in find(Doc(html).root) if n["tag"] in ("td", "th", "caption")]


def test_run_html_shows_settings_totals_and_the_first_merges():
    run = train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=5))
    html = run._repr_html_()
    got = cells(html)
    assert "BPE run" in got and "The first 5 merges" in got
    assert got[got.index("merges") + 1] == "5"
    assert got[got.index("vocabulary size") + 1] == str(run.vocab_size)
    assert got[got.index("tokens in the corpus") + 1] == f"{run.corpus_tokens(0)} → {run.corpus_tokens(5)}"
    assert got[got.index("stopped") + 1] == "num_merges"
    first = got.index("count", got.index("new token")) + 1
    assert got[first : first + 5] == ["1", "e", "s", "es", "9"]
    assert got[-5:] == ["5", "lo", "w", "low", "7"]
    assert got[got.index("variant") + 1] == "eow (separate </w>)"
    assert "</w>" not in re.sub(r"</(table|td|th|tr|tbody|thead|caption|div)>", "", html)  # escaped


def test_step_html_lists_the_fields():
    run = train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=3))
    snap = run.snapshot(3)
    got = cells(snap._repr_html_())
    assert got[0] == "Merge 3"
    assert got[got.index("merged pair (token ids)") + 1] == f"{snap.left} + {snap.right} → {snap.token}"
    assert got[got.index("count") + 1] == "9"
    assert got[got.index("new vocabulary entry") + 1] == "yes"
    assert got[got.index("stopped") + 1] == "num_merges"
    assert "stopped" not in cells(run.snapshot(1)._repr_html_())


def test_user_text_is_escaped():
    words = {"<b>x</b>": 3, "a&b": 2, "<script>": 2}
    run = train(words, TrainConfig(variant="char", num_merges=20, min_frequency=1))
    html = run._repr_html_()
    assert set(Doc(html).tags) <= {"div", "table", "caption", "thead", "tbody", "tr", "th", "td"}
    assert "<script>" not in html and "<b>" not in html and "&lt;" in html
    tokens = {run.token_text(s.token) for s in run.snapshots[:10]}
    assert tokens <= set(cells(html))
    marker = train({"ab": 2}, TrainConfig(variant="eow", eow_marker="<i>", num_merges=1))
    assert "<i>" not in marker._repr_html_() and "&lt;i&gt;" in marker._repr_html_()
