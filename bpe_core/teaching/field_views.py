"""The step views of WordPiece's merges (``"score_merge"``), Unigram's pruning rounds (``"prune"``) and PickyBPE's
merges (``"picky_merge"``; its removals: :mod:`bpe_core.teaching.removal_view`), registered with :func:`~bpe_core.teaching.step_view.register_view` (see :mod:`bpe_core.teaching.step_view`): the parts every
renderer draws (headline, numbers, candidates, changed words) filled from the two algorithms' records."""

from __future__ import annotations

from ..i18n import N_
from .step_view import (
    CHOSEN,
    NONE,
    START,
    TIED,
    Candidate,
    Chips,
    Headline,
    Number,
    PairRows,
    StartView,
    StepView,
    WordView,
    register_start,
    register_view,
)

#: The meanings of the numbers of these steps (message ids of the catalogs).
_SCORE, _VOCABULARY, _TOKENS, _LOSS, _REMOVED, _COUNT = (
    N_("Score"),
    N_("Vocabulary"),
    N_("Tokens"),
    N_("Loss"),
    N_("Removed"),
    N_("Count"),
)
#: A PickyBPE merge's candidates are its two parts, by IoS.
_IOS_LEFT, _IOS_RIGHT = N_("IoS of the first part"), N_("IoS of the second part")


def changed_by_segmentation(run, step: int, words: int, highlight) -> tuple[WordView, ...]:
    """The first ``words`` word types whose segmentation step ``step`` changed, before and after it (``highlight``:
    a token id to mark in the after chips), found by comparing ``run.segmentation`` at the two steps: for any run
    that keeps its segmentations by step, whether its boundaries go or come back."""
    out = []
    for i in range(len(run.words)):
        if len(out) >= words:
            break
        before, after = run.segmentation(i, step - 1), run.segmentation(i, step)
        if before != after:
            new = highlight if highlight in after else None
            out.append(
                WordView(
                    i,
                    run.words[i],
                    run.freqs[i],
                    Chips(tuple(before), len(before)),
                    Chips(tuple(after), len(after), new),
                )
            )
    return tuple(out)


def segmented_step(
    run, step: int, words: int, *, kind: str, highlight, words_changed: int, headline, numbers: tuple, candidates
) -> StepView:
    """The view of step ``step`` (``kind``) of a run that keeps its segmentations by step (WordPiece, Unigram,
    PickyBPE, BoundlessBPE): no BPE merge record, the changed words by :func:`changed_by_segmentation` (``words`` of
    them, ``highlight`` marked), the stop reason on the last step, and the given headline, numbers and candidates."""
    n = run.num_steps
    return StepView(
        kind=kind,
        step=step,
        num_steps=n,
        start=None,
        merge=None,
        next=None,
        pairs=None,
        changed=changed_by_segmentation(run, step, words, highlight) if words else (),
        words_changed=words_changed,
        stop_reason=run.stop_reason if step == n else None,
        headline=headline,
        numbers=numbers,
        candidates=candidates,
    )


def score_merge_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """WordPiece's merge ``step``: the pair and its token, its score and the score table (candidates: the pairs,
    scored by count / (count of first × count of second), the chosen one first)."""
    snap = run.snapshot(step)
    rows = tuple(
        Candidate(rank, (r.left, r.right), r.score, CHOSEN if rank == 1 else TIED if r.score == snap.score else NONE)
        for rank, r in enumerate(snap.table[:pairs], start=1)
    )
    table = PairRows(
        rows,
        snap.score,
        snap.ties,
        max(0, snap.ties - sum(1 for r in rows if r.mark != NONE)),
        max(r.count for r in rows),
    )
    return segmented_step(
        run,
        step,
        words,
        kind=snap.kind,
        highlight=snap.token,
        words_changed=snap.words_changed,
        headline=Headline((snap.left, snap.right), snap.token),
        numbers=(Number(_SCORE, snap.score), Number(_VOCABULARY, snap.vocab_size), Number(_TOKENS, snap.corpus_tokens)),
        candidates=table,
    )


def prune_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """Unigram's round ``step``: the tokens removed, the loss before and after, the candidates lowest loss increase
    first (the removed ones marked chosen)."""
    snap = run.snapshot(step)
    gone = set(snap.removed)
    rows = tuple(
        Candidate(rank, (t,), inc, CHOSEN if t in gone else NONE)
        for rank, (t, inc) in enumerate(snap.candidates[:pairs], start=1)
    )
    scale = max((abs(r.count) for r in rows), default=0) or 1
    table = PairRows(rows, rows[0].count if rows else 0, len(gone), max(0, len(gone) - len(rows)), scale)
    return segmented_step(
        run,
        step,
        words,
        kind=snap.kind,
        highlight=None,
        words_changed=sum(
            1 for i in range(len(run.words)) if run.segmentation(i, step - 1) != run.segmentation(i, step)
        ),
        headline=Headline(tuple(snap.removed), None, snap.removed[0] if snap.removed else None),
        numbers=(Number(_LOSS, snap.loss), Number(_REMOVED, len(snap.removed)), Number(_VOCABULARY, snap.vocab_size)),
        candidates=table,
    )


def _start(run, numbers: tuple, candidates: PairRows | None) -> StepView:
    """Step 0 of a WordPiece or Unigram ``run``: its starting vocabulary as the headline's tokens (every id,
    in id order), the corpus it starts from, ``numbers`` and ``candidates``."""
    segmentations = (run.segmentation(i, 0) for i in range(len(run.words)))
    tokens = sum(f * len(ids) for f, ids in zip(run.freqs, segmentations))
    n = run.num_steps
    return StepView(
        kind=START,
        step=0,
        num_steps=n,
        start=StartView(False, len(run.words), sum(run.freqs), tokens, run.num_base),
        merge=None,
        next=None,
        pairs=None,
        changed=(),
        words_changed=0,
        stop_reason=run.stop_reason if n == 0 else None,
        headline=Headline(tuple(range(run.num_base))),
        numbers=(Number(_VOCABULARY, run.num_base), *numbers, Number(_TOKENS, tokens)),
        candidates=candidates,
    )


def wordpiece_start_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """WordPiece before its first merge: every word split into characters (``##`` on those that do not start
    it), the vocabulary the special tokens and the sorted alphabet (the headline's tokens), and the score table
    the first merge chooses from as candidates (``None`` when no merge was made)."""
    table = score_merge_view(run, 1, pairs, 0, None).candidates if run.num_steps else None
    return _start(run, (), table)


def unigram_start_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """Unigram before its first round: the seed vocabulary (the headline's tokens, in seed order), the corpus
    loss under it, and as candidates the first ``pairs`` seed tokens by cost, cheapest (most probable) first,
    each with its cost ``-log p`` (p: its seed count over all the seed counts); none is marked."""
    model = run.model(0)
    by_cost = sorted(range(run.num_base), key=lambda t: model[run.values[t]])[:pairs]
    rows = tuple(Candidate(rank, (t,), model[run.values[t]], NONE) for rank, t in enumerate(by_cost, start=1))
    scale = max((r.count for r in rows), default=0) or 1
    table = PairRows(rows, rows[0].count if rows else 0, 0, 0, scale)
    return _start(run, (Number(_LOSS, run.loss0),), table)


def picky_merge_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """PickyBPE's merge ``step``: the pair and its token, its count, its parts' IoS; candidates: the two parts with
    their IoS, the ones this merge makes the trainer remove marked chosen."""
    snap = run.snapshot(step)
    gone = set(snap.removes)
    rows = tuple(
        Candidate(None, (t,), ios, CHOSEN if t in gone else NONE)
        for t, ios in ((snap.left, snap.left_ios), (snap.right, snap.right_ios))
    )
    return segmented_step(
        run,
        step,
        words,
        kind=snap.kind,
        highlight=snap.token,
        words_changed=snap.words_changed,
        headline=Headline((snap.left, snap.right), snap.token),
        numbers=(
            Number(_COUNT, snap.count),
            Number(_IOS_LEFT, snap.left_ios),
            Number(_IOS_RIGHT, snap.right_ios),
            Number(_VOCABULARY, snap.vocab_size),
        ),
        candidates=PairRows(rows, max(snap.left_ios, snap.right_ios), len(gone), 0, 1),
    )


register_view("score_merge", score_merge_view)
register_view("picky_merge", picky_merge_view)
register_view("prune", prune_view)
register_start("wordpiece", wordpiece_start_view)
register_start("unigram", unigram_start_view)
