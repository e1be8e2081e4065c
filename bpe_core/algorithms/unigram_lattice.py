"""One word's Unigram lattice, for a student to look at: every vocabulary piece found in the word as an edge with
its cost (``-log p``), and the best few segmentations with their scores (the best is the Viterbi path that
:func:`bpe_core.algorithms.unigram.viterbi` finds)."""

from __future__ import annotations

import heapq
from typing import NamedTuple


class Edge(NamedTuple):
    """A vocabulary piece in the word: characters ``start`` to ``end`` (end excluded), its text and ``cost``
    (``-log p``)."""

    start: int
    end: int
    piece: str
    cost: float


class Path(NamedTuple):
    """A segmentation of the word: its ``pieces`` and ``score`` (the sum of their costs: lower is better)."""

    pieces: tuple[str, ...]
    score: float


def lattice(word: str, model: dict[str, float], best: int = 3) -> tuple[list[Edge], list[Path]]:
    """The edges of ``word`` under ``model`` (``{piece: -log p}``), in start order then end order, and its ``best``
    lowest-scoring segmentations, best first (fewer when the word has fewer; none when a character is missing
    from the vocabulary).

    Every position keeps its ``best`` cheapest ways to be reached (a k-best Viterbi), so the cost is linear in the
    edges times ``best``. Raises ``ValueError`` for ``best`` < 1."""
    if best < 1:
        raise ValueError("best must be at least 1")
    n = len(word)
    longest = max(map(len, model), default=0)
    edges = [
        Edge(i, j, word[i:j], model[word[i:j]])
        for i in range(n)
        for j in range(i + 1, min(n, i + longest) + 1)
        if word[i:j] in model
    ]
    # reach[p]: up to `best` (score, pieces) that end at position p, cheapest first.
    reach: list[list[tuple[float, tuple[str, ...]]]] = [[] for _ in range(n + 1)]
    reach[0] = [(0.0, ())]
    by_start: dict[int, list[Edge]] = {}
    for edge in edges:
        by_start.setdefault(edge.start, []).append(edge)
    for p in range(n):
        for score, pieces in reach[p]:
            for edge in by_start.get(p, ()):
                reach[edge.end].append((score + edge.cost, (*pieces, edge.piece)))
        for q in {e.end for e in by_start.get(p, ())}:
            reach[q] = heapq.nsmallest(best, reach[q], key=lambda r: r[0])
    return edges, [Path(pieces, score) for score, pieces in heapq.nsmallest(best, reach[n], key=lambda r: r[0])]
