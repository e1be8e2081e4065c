"""Comparing merge lists: did a training run rediscover a real tokenizer's merges?

The merges are compared as values (``(left, right)`` pairs of ``bytes`` for byte-level), so ids that
differ between two tokenizers do not matter. Byte-level training with the ``gpt2`` pre-tokenizer on
English text is the like-for-like comparison with GPT-2 (:func:`bpe_core.models.load_gpt`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MergeOverlap:
    """How two merge lists agree over their first ``n`` merges.

    Attributes:
        n: merges compared (the shorter list may stop earlier).
        shared: merges among the first ``n`` of both lists, in any order.
        first_difference: the first 1-based rank where the lists hold different merges, or None.
        curve: ``curve[k - 1]`` = merges the first ``k`` of each list share, for k = 1..n.
    """

    n: int
    shared: int
    first_difference: int | None
    curve: tuple


def merge_overlap(ours: list, theirs: list, n: int = 100) -> MergeOverlap:
    """Compare the first ``n`` merges of two lists of ``(left_value, right_value)`` pairs.

    Raises:
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    n = min(n, max(len(ours), len(theirs)))
    seen_ours: set = set()
    seen_theirs: set = set()
    shared = 0
    curve = []
    first = None
    for k in range(n):
        a = tuple(ours[k]) if k < len(ours) else None
        b = tuple(theirs[k]) if k < len(theirs) else None
        if first is None and a != b:
            first = k + 1
        if a is not None and a not in seen_ours:
            seen_ours.add(a)
            shared += a in seen_theirs
        if b is not None and b not in seen_theirs:
            seen_theirs.add(b)
            shared += b in seen_ours
        curve.append(shared)
    return MergeOverlap(n, shared, first, tuple(curve))
