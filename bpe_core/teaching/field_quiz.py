"""The quiz's questions about WordPiece, Unigram and PickyBPE steps, without a user interface: "which pair scores
highest?" (a WordPiece merge: the pairs are offered with their counts and their parts' counts, not their scores),
"which of these tokens does this round remove?" (a Unigram round: some removed tokens among some kept ones) and
"which parts does PickyBPE remove after this merge?" (a PickyBPE merge, with the pair's and its parts' counts and
the threshold, not the IoS; a removal step is not asked about: it follows from its merge, where it is asked). Options
are shuffled with the step as seed, the same for every session and rerun."""

from __future__ import annotations

import random
from typing import NamedTuple


class PairOption(NamedTuple):
    """A pair offered: token ids, its count and its parts' counts, whether it is the one merged (``chosen``) or
    has the same score (``tied``)."""

    left: int
    right: int
    count: int
    left_count: int
    right_count: int
    chosen: bool
    tied: bool


def wordpiece_question(run, step: int, size: int = 6) -> tuple[PairOption, ...]:
    """The first ``size`` pairs of merge ``step``'s score table (the chosen pair always among them), shuffled.
    Raises ``IndexError`` outside the run, ``ValueError`` for ``size`` < 2."""
    if size < 2:
        raise ValueError("a question offers at least two pairs")
    snap = run.snapshot(step)
    rows = list(snap.table[:size])
    random.Random(step).shuffle(rows)
    return tuple(
        PairOption(
            r.left,
            r.right,
            r.count,
            r.left_count,
            r.right_count,
            chosen=(r.left, r.right) == (snap.left, snap.right),
            tied=r.score == snap.score and (r.left, r.right) != (snap.left, snap.right),
        )
        for r in rows
    )


def grade_pair(options: tuple[PairOption, ...], pick: int) -> str:
    """``"right"`` (the merged pair), ``"tied"`` (another pair with its score) or ``"wrong"`` for option ``pick``."""
    o = options[pick]
    return "right" if o.chosen else "tied" if o.tied else "wrong"


def unigram_question(run, step: int, size: int = 6) -> tuple[tuple[int, ...], frozenset[int]]:
    """Up to ``size`` tokens (ids): about half removed by round ``step`` (its lowest loss increases) and the rest
    kept (the next lowest, the hardest to tell apart), shuffled; and the set of the removed ones among them."""
    snap = run.snapshot(step)
    n_removed = len(snap.removed)
    half = max(1, min(size // 2, n_removed))
    removed = [t for t, _ in snap.candidates[:n_removed]][-half:]  # the removed tokens nearest the cut
    kept = [t for t, _ in snap.candidates[n_removed : n_removed + size - half]]
    tokens = removed + kept
    random.Random(step).shuffle(tokens)
    return tuple(tokens), frozenset(removed)


#: The answers to the PickyBPE question: neither part, the first, the second, both.
PICKY_ANSWERS = ("none", "first", "second", "both")


def picky_answers(snap) -> frozenset[str]:
    """The right answers (:data:`PICKY_ANSWERS`) about a PickyBPE merge record ``snap`` (its ``left``, ``right``
    and the ``removes`` it caused): one, or, for a pair of one token twice (removed once), all three that name it."""
    gone = set(snap.removes)
    if snap.left == snap.right:
        return frozenset(("first", "second", "both") if gone else ("none",))
    first, second = snap.left in gone, snap.right in gone
    answer = "both" if first and second else "first" if first else "second" if second else "none"
    return frozenset((answer,))
