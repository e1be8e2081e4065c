"""Step events (bpe_core.teaching.step_view): a step is an event of a kind, and every renderer and the quiz show it.

A made-up kind, ``"removal"`` (a token removed from the vocabulary, as a Unigram pruning step does), is built here
on the public step view only: a BPE run with one step more whose record is of that kind, and the view builder
registered for it.
The panels, the step-ahead HTML, the PNG picture and the handout draw it from the parts every step view has (its
headline, numbers, candidates and changed words) without knowing the kind; the quiz asks nothing about it.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from PIL import Image

from bpe_core import TrainConfig, TrainedRun, train
from bpe_core.teaching import quiz
from bpe_core.teaching.handout import handout_html
from bpe_core.teaching.step_view import (
    CHOSEN,
    MERGE,
    NONE,
    Candidate,
    Chips,
    Headline,
    Number,
    PairRows,
    StepView,
    WordView,
    register_view,
    step_view,
)

REMOVAL = "removal"
ROOT = Path(__file__).resolve().parent.parent


class Removal(NamedTuple):
    """A made-up step record: ``token`` removed from the vocabulary, undoing the merge that made it."""

    step: int
    token: int
    score: int
    vocab_size: int
    corpus_tokens: int
    stop_reason: str | None = None
    kind: str = REMOVAL


def removal_view(run, step: int, pairs: int, words: int, max_tokens) -> StepView:
    """The view of a removal: the token removed, its score and the vocabulary after, the candidates it was chosen
    among (each token with its score), and the words it split."""
    record = run.snapshot(step)
    made_at = run.created_step[record.token]
    changed = run.changed_word_indices(made_at)
    views = tuple(
        WordView(i, run.words[i], run.freqs[i], Chips(*_seg(run, i, made_at)), Chips(*_seg(run, i, made_at - 1)))
        for i in changed[:words]
    )
    candidates = (Candidate(1, (record.token,), record.score, CHOSEN), Candidate(2, (run.snapshot(1).token,), 9, NONE))
    return StepView(
        kind=REMOVAL,
        step=step,
        num_steps=run.num_steps,
        start=None,
        merge=None,
        next=None,
        pairs=None,
        changed=views,
        words_changed=len(changed),
        stop_reason=run.stop_reason if step == run.num_steps else None,
        headline=Headline((), removed=record.token),
        numbers=(Number("Score", record.score), Number("Vocabulary", record.vocab_size)),
        candidates=PairRows(candidates, best=record.score, ties=1, more_tied=0, scale=9),
    )


def _seg(run, index: int, step: int) -> tuple[tuple[int, ...], int]:
    ids = tuple(run.segmentation(index, step))
    return ids, len(ids)


class WithRemoval(TrainedRun):
    """A finished run with one step more, a removal (what a made-up algorithm's run would hold): the other steps
    and everything else are the run's."""

    def __init__(self, run: TrainedRun, removal):
        self.__dict__.update(run.__dict__)
        self.removal = removal

    @property
    def num_steps(self) -> int:
        return len(self.snapshots) + 1

    def snapshot(self, step: int):
        return self.removal if step == self.num_steps else super().snapshot(step)


@pytest.fixture(scope="module")
def run():
    """Three merges of the textbook corpus, then step 4: the token of merge 3 removed. The real removal view
    (bpe_core.teaching.removal_view, PickyBPE's) is put back afterwards, for the tests that train PickyBPE."""
    from bpe_core.teaching import removal_view as real
    from bpe_core.teaching import step_view as views

    register_view(REMOVAL, removal_view)
    run = train({"low": 5, "lower": 2, "newest": 6, "widest": 3}, TrainConfig(variant="eow", num_merges=3))
    last = run.snapshot(3)
    yield WithRemoval(run, Removal(4, last.token, 3, last.vocab_size - 1, run.corpus_tokens(2)))
    register_view(REMOVAL, real.removal_view)
    assert views._VIEWS[REMOVAL] is real.removal_view


def test_a_merge_fills_the_parts_every_renderer_can_draw(run):
    view = step_view(run, 2)
    merge = view.merge
    assert view.kind == MERGE and view.candidates is view.pairs
    assert view.headline == Headline((merge.left, merge.right), merge.token, None)
    assert [(n.label, n.value) for n in view.numbers] == [
        ("Count", merge.count),
        ("Vocabulary", merge.vocab_size),
        ("Tokens", merge.corpus_tokens),
    ]
    assert view.candidates.rows[0].tokens == (merge.left, merge.right)


def test_the_step_view_builds_a_removal_and_refuses_an_unknown_kind(run):
    view = step_view(run, 4, words=3)
    assert view.kind == REMOVAL and view.merge is None and view.headline.removed == run.snapshot(3).token
    assert len(view.changed) == view.words_changed == 2  # "newest" and "widest" hold the token of merge 3
    pruned = WithRemoval(run, Removal(4, 0, 1, 1, 1, kind="transition"))
    with pytest.raises(ValueError, match="no step view for steps of kind 'transition'"):
        step_view(pruned, 4)


def test_the_panels_and_the_steps_drawn_ahead_draw_a_removal(run):
    from ui.panels import step_panels
    from ui.step_ahead import ahead_html

    token = run.token_text(run.snapshot(4).token)
    for presentation in (False, True):
        pieces = step_panels(run, 4, "utf8", presentation)
        card = pieces["bpe-merge-card"]
        assert "data-kind='removal'" in card and "Step 4 of 4" in card and "Score 3 · Vocabulary" in card
        assert token.replace("<", "&lt;").replace(">", "&gt;") in card
        assert "id='bpe-pairs'" in pieces["bpe-pair-panel"] and "chosen" in pieces["bpe-pair-panel"]
        assert ("The 2 word types this step changed" in pieces.get("bpe-changed", "")) == presentation
    block = ahead_html("stepper", 4, 4, lambda k: step_panels(run, k, "utf8", True))
    data = json.loads(re.search(r"<script type=\"application/json\">(.*)</script>", block).group(1))
    assert set(data) == {"0", "2", "3", "4"} and data["4"] == step_panels(run, 4, "utf8", True)


def test_the_picture_draws_a_removal(run):
    from ui.pictures import step_png

    png = step_png(run, 4)
    image = Image.open(io.BytesIO(png))
    assert image.size == (1600, 900) and image.convert("L").getextrema()[0] < 60 and png != step_png(run, 3)


def test_the_handout_draws_a_removal_and_its_merge_table_lists_the_merges(run):
    html = handout_html(run, 4)
    removal = html.split("<section class='merge'>")[-1]
    assert "<h2>Step 4 of 4</h2>" in removal and "Score 3 · Vocabulary" in removal
    assert "class='chosen'" in removal and "The 2 word types this step changed" in removal
    assert html.count("<section class='merge'>") == 4 and "<h2>Merge 3</h2>" in html
    assert html.split("<section class='summary'>")[1].count("<tr><td class='num'>") == 3  # the merges


def test_the_quiz_skips_a_step_whose_kind_has_no_question(run):
    assert quiz.question(run, 4) is None
    q = quiz.question(run, 3)
    assert q.merge == 3 and q.options[q.answer].chosen


def test_renderers_dispatch_on_the_kind_in_one_table():
    # No renderer compares a step's kind: each looks it up once in its table (kind -> drawing, with a fallback).
    for path in ("ui/panels.py", "ui/pictures.py", "bpe_core/teaching/handout.py", "bpe_core/teaching/quiz.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        assert not re.search(r"view\.kind\s*[!=]=|[!=]=\s*(MERGE|START)\b|[!=]= \"(merge|start)\"", source), path
        assert len(re.findall(r"\.get\(view\.kind", source)) == 1, path
