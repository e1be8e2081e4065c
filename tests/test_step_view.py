"""bpe_core.teaching.step_view: one step of a run as a plain value (no Streamlit), and the panels that draw it."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core import TrainConfig, train
from bpe_core.teaching.step_view import (
    CHOSEN,
    MARKED,
    MERGE,
    NONE,
    TIED,
    changed_words,
    merge_card,
    pair_rows,
    step_view,
    word_views,
)

ROOT = Path(__file__).resolve().parent.parent
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
# Many pairs tied at every count: the tie counting and the "more tied" rows are exercised.
TIED_WORDS = {
    "ab": 3,
    "cd": 3,
    "ef": 3,
    "gh": 3,
    "ij": 3,
    "kl": 3,
    "mn": 3,
    "op": 3,
    "qr": 3,
    "st": 3,
    "uv": 3,
    "wx": 3,
}


def _run(words=TEXTBOOK, **kw):
    return train(words, TrainConfig(variant=kw.pop("variant", "eow"), **kw))


@pytest.mark.parametrize("words", [TEXTBOOK, TIED_WORDS])
def test_pair_rows_are_the_full_tables_top_with_ranks_ties_and_marks(words):
    run = _run(words, min_frequency=1)
    assert run.num_steps
    for step in range(0, run.num_steps + 1):
        table = run.pair_table(max(0, step - 1))
        best = table[0][2]
        ties = sum(1 for _a, _b, c in table if c == best)
        got = pair_rows(run, step, limit=4)
        assert [(r.left, r.right, r.count) for r in got.rows] == table[:4]
        assert [r.rank for r in got.rows] == list(range(1, len(got.rows) + 1))
        assert got.best == best and got.ties == ties
        assert [r.mark for r in got.rows] == [CHOSEN] + [TIED if c == best else NONE for _a, _b, c in table[1:4]]
        assert got.more_tied == ties - sum(1 for _a, _b, c in table[:4] if c == best)
        assert got.scale == max(c for _a, _b, c in table[:4])
        # counted again over the corpus: the same rows, nothing chosen
        exact = pair_rows(run, step, limit=4, exact=True)
        assert [(r.rank, r.left, r.right, r.count) for r in exact.rows] == [
            (r.rank, r.left, r.right, r.count) for r in got.rows
        ]
        assert CHOSEN not in {r.mark for r in exact.rows}


def test_marked_pairs_beyond_the_limit_and_missing_ones_are_added():
    run = _run(TIED_WORDS, min_frequency=1)
    table = run.pair_table(0)
    far, missing = (table[7][0], table[7][1]), (table[0][1], table[0][0])
    got = pair_rows(run, 1, limit=3, marks={far: ("ref", "reference"), missing: ("you", "yours")})
    assert [(r.rank, r.left, r.right, r.count, r.mark) for r in got.rows] == [
        (1, *table[0], TIED),
        (2, *table[1], TIED),
        (3, *table[2], TIED),
        (8, *table[7], MARKED),
        (None, *missing, 0, MARKED),
    ]
    assert got.more_tied == got.ties - 4


def test_merge_card_holds_the_snapshots_numbers_and_where_the_token_was_made():
    run = _run(min_frequency=1)
    for step in range(1, run.num_steps + 1):
        snap, card = run.snapshot(step), merge_card(run, step)
        assert card.kind == MERGE and card.step == step
        assert (card.left, card.right, card.token, card.count, card.ties, card.tie_break) == snap[1:4] + (
            snap.count,
            snap.ties,
            snap.tie_break,
        )
        assert card.corpus_tokens == run.corpus_tokens(step)
        assert card.corpus_tokens_before == run.corpus_tokens(step - 1)
        assert card.made_at == (step if snap.is_new else run.created_step[snap.token]) <= step


def test_changed_words_are_the_runs_changed_words_with_the_new_token():
    run = _run()
    for step in range(1, run.num_steps + 1):
        new = run.snapshot(step).token
        got = changed_words(run, step)
        assert [(w.index, w.word, w.freq, list(w.before.ids), list(w.after.ids)) for w in got] == [
            (i, w, f, list(b), list(a)) for i, w, f, b, a in run.changed_words(step)
        ]
        assert all(w.after.new == new and w.before.new is None for w in got)
        assert len(got) == run.snapshot(step).words_changed
    assert changed_words(run, 0) == ()


def test_max_tokens_cuts_the_ids_but_counts_them_all():
    run = _run({"abababababababab": 2}, variant="char", num_merges=1)
    (word,) = changed_words(run, 1, max_tokens=3)
    assert len(word.after.ids) == 3 and word.after.total == run.token_count(0, 1) == 8
    assert len(word.before.ids) == 3 and word.before.total == 16


def test_step_zero_names_the_corpus_and_the_next_merge():
    run = _run()
    view = step_view(run, 0)
    assert view.kind == "start" and view.merge is None and view.changed == ()
    assert view.next == merge_card(run, 1)
    assert view.start.word_types == 4 and view.start.words == 16
    assert view.start.corpus_tokens == run.corpus_tokens(0) and view.start.base_symbols == run.vocab_size_at(0)
    assert view.pairs == pair_rows(run, 0)
    assert [w.after.ids for w in word_views(run, 0, range(2))] == [tuple(run.segmentation(i, 0)) for i in range(2)]


def test_the_last_step_says_why_training_stopped_and_a_run_without_merges_has_no_pairs():
    run = _run()
    assert step_view(run, run.num_steps).stop_reason == run.stop_reason is not None
    assert step_view(run, run.num_steps - 1).stop_reason is None
    empty = _run({"a": 3}, variant="char")
    view = step_view(empty, 0)
    assert empty.num_steps == 0 and view.pairs is None and view.next is None and view.stop_reason
    with pytest.raises(IndexError):
        step_view(run, run.num_steps + 1)


def test_a_step_view_is_frozen_and_holds_the_words_asked_for():
    run = _run()
    view = step_view(run, 2, pairs=3, words=1)
    assert view.merge == merge_card(run, 2) and len(view.pairs.rows) <= 3
    assert view.changed == changed_words(run, 2, 1) and view.words_changed == run.snapshot(2).words_changed
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.step = 3
    assert view == step_view(run, 2, pairs=3, words=1)  # a value: compared by its fields


def test_the_step_view_imports_no_streamlit():
    code = "import sys, bpe_core.teaching.step_view; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_panels_draw_one_view_per_step_kept_in_the_runs_memo():
    from ui import panels, run_cache

    run = _run()
    view = panels.view_of(run, 2)
    assert panels.view_of(run, 2) is view
    assert view == step_view(run, 2, pairs=10, words=0, max_tokens=panels.ROW_TOKENS)
    pieces = panels.step_panels(run, 2)
    assert pieces["bpe-merge-card"] == panels.merge_card_html(run, 2)
    assert pieces["bpe-pair-panel"] == panels.pair_table_html(run, 2)
    assert sum(1 for k in run_cache.memo(run) if isinstance(k, tuple) and k[0] == "step_view") == 1


#: The renderers of a step: each draws what step_view computed and reads no snapshot, pair table or ties itself.
RENDERERS = ("ui/panels.py", "ui/pictures.py", "ui/step_ahead.py", "bpe_core/teaching/handout.py")


@pytest.mark.parametrize("path", RENDERERS)
def test_the_renderers_read_a_step_through_the_step_view(path):
    source = (ROOT / path).read_text(encoding="utf-8")
    for own_reading in (".snapshot(", "top_pairs", ".pair_table(", ".changed_words("):
        assert own_reading not in source, (
            f"{path} reads {own_reading!r} itself; take it from bpe_core.teaching.step_view"
        )


@pytest.mark.parametrize(
    "path",
    [*RENDERERS, "ui/corpus_panel.py", "ui/chips.py", "ui/quiz.py", "ui/stepper.py"]
    + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "bpe_core" / "teaching").glob("*.py")),
)
def test_the_step_modules_are_small_and_laid_out_by_the_formatter(path):
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    assert len(lines) <= (450 if path.startswith("bpe_core") else 400), f"{path}: {len(lines)} lines"
    assert not [line for line in lines if line.rstrip().endswith("# fmt: skip")], path
