"""Applying merges to one pre-token: the algorithms behind :meth:`bpe_core.encoding.encoder.Tokenizer.encode`.

All work on token ids with ``ranks = {(left_id, right_id): index}`` (a merge's 0-based index in the merge
list, its number - 1 in the app's numbering of :mod:`bpe_core.teaching.facts`: lower first) and
``pair_of_rank = [(left_id, right_id, new_id)]`` by that index, and give GPT-2's ``bpe()`` result: repeatedly take the adjacent pair with the lowest rank and
merge *all* its occurrences, left to right without overlap, until no adjacent pair has a rank.

* :func:`bpe_simple` -- the direct loop, fastest for short pre-tokens.
* :func:`bpe_leftmost` -- the same result one occurrence at a time, for the shipped GPT rank files
  (a merge's result never takes part in a lower-ranked merge).
* :func:`bpe_heap` -- the same result in O(n log n) for long pre-tokens (a heap of ranks).
* :func:`bpe_dropout` -- BPE-dropout (Provilkov, Emelianenko and Voita, 2020): at each step every
  occurrence of every known pair is dropped with probability ``p`` before the lowest rank is chosen.
* :func:`merge_all` -- one merge applied to a word, with the positions it changed (for traces).
"""

from __future__ import annotations

import heapq
import random
from itertools import repeat

#: Sorts after every rank: the rank of a pair that has none.
_NO_RANK = 1 << 62


def merge_all(word: list, a: int, b: int, new: int) -> tuple[list, list]:
    """Merge every ``(a, b)`` in ``word`` left to right without overlap.

    Returns:
        ``(new_word, positions)``: the ids after the merge, and the indices (into the old word) where a
        merged occurrence started.
    """
    out = []
    positions = []
    i = 0
    n = len(word)
    while i < n:
        if i < n - 1 and word[i] == a and word[i + 1] == b:
            out.append(new)
            positions.append(i)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out, positions


def bpe_simple(word: list, ranks: dict, pair_of_rank: list) -> list:
    """GPT-2's ``bpe()`` on ids: repeatedly merge all occurrences of the lowest-ranked pair.

    Args:
        word: base-symbol ids of one pre-token (not modified).
        ranks: ``{(left_id, right_id): rank}``.
        pair_of_rank: ``[(left_id, right_id, new_id)]`` indexed by rank.

    Returns:
        The ids after every applicable merge.
    """
    get = ranks.get
    word = list(word)
    # found[i] is the rank of the pair word[i], word[i + 1]. Each pass finds the best with C-speed
    # list operations (min, index, count) and, for a pair that occurs once, updates only its neighbours;
    # a pair that occurs more than once is merged everywhere by the Python loop and found is rebuilt.
    found = list(map(get, zip(word, word[1:]), repeat(_NO_RANK)))
    while found:
        best = min(found)
        if best == _NO_RANK:
            break
        i = found.index(best)
        new = pair_of_rank[best][2]
        if found.count(best) == 1:
            word[i : i + 2] = [new]
            if i + 1 < len(word):
                found[i : i + 2] = [get((new, word[i + 1]), _NO_RANK)]
            else:
                del found[i:]
            if i:
                found[i - 1] = get((word[i - 1], new), _NO_RANK)
            continue
        a, b = word[i], word[i + 1]
        out = word[:i]
        n = len(word)
        while i < n:
            if word[i] == a and i < n - 1 and word[i + 1] == b:
                out.append(new)
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
        found = list(map(get, zip(word, word[1:]), repeat(_NO_RANK)))
    return word


def bpe_leftmost(word: list, ranks: dict, pair_of_rank: list) -> list:
    """The same result as :func:`bpe_simple`, merging one occurrence at a time, for merge tables in which
    no merge's result is a side of a lower-ranked merge (the rank files: a token's id is its rank, and the
    two sides of a merge have lower ids).

    Each step merges the leftmost occurrence of the lowest-ranked pair, as tiktoken's loop does. With
    such a table a merge only creates pairs of higher rank, so the other occurrences of the same pair
    stay the lowest and are merged next, left to right: GPT-2's "merge all occurrences", without the
    bookkeeping that takes (most pre-tokens are a few bytes long, and this loop is most of a cold encode).
    A trained run can break the condition (two merges that build the same string), so it uses
    :func:`bpe_simple`.

    Args:
        word: base-symbol ids of one pre-token (not modified).
        ranks: ``{(left_id, right_id): rank}``.
        pair_of_rank: ``[(left_id, right_id, new_id)]`` indexed by rank.

    Returns:
        The ids after every applicable merge.
    """
    get = ranks.get
    # -1 ends the word: no pair with it has a rank, so found[i] (the rank of word[i], word[i + 1]) exists
    # for every real symbol and neither the last one nor an empty found needs a special case.
    word = [*word, -1]
    found = list(map(get, zip(word, word[1:]), repeat(_NO_RANK)))
    while (best := min(found)) != _NO_RANK:
        i = found.index(best)
        new = pair_of_rank[best][2]
        word[i] = new
        del word[i + 1]
        found[i] = get((new, word[i + 1]), _NO_RANK)
        del found[i + 1]
        if i:
            found[i - 1] = get((word[i - 1], new), _NO_RANK)
    del word[-1]
    return word


def bpe_heap(ids: list, ranks: dict, pair_of_rank: list) -> list:
    """The same result as :func:`bpe_simple` in O(n log n), for long pre-tokens.

    Linked symbols; ``where[rank]`` holds positions where that pair may start (checked when used); a
    heap of ranks gives the lowest rank present. All occurrences of one rank are merged together, left
    to right, before any other rank -- exactly GPT-2's order.

    Args:
        ids: base-symbol ids of one pre-token.
        ranks: ``{(left_id, right_id): rank}``.
        pair_of_rank: ``[(left_id, right_id, new_id)]`` indexed by rank.
    """
    n = len(ids)
    tok = list(ids)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    where: dict = {}
    heap: list = []

    def add(rank: int, pos: int) -> None:
        lst = where.get(rank)
        if lst is None:
            where[rank] = [pos]
            heapq.heappush(heap, rank)
        else:
            lst.append(pos)

    for p in range(n - 1):
        r = ranks.get((tok[p], tok[p + 1]))
        if r is not None:
            add(r, p)
    while heap:
        rank = heapq.heappop(heap)
        positions = where.pop(rank, None)
        if not positions:
            continue
        a, b, new = pair_of_rank[rank]
        if ranks[(a, b)] != rank:  # a later duplicate of an earlier pair: never reached
            continue
        positions.sort()
        for p in positions:
            if tok[p] != a:
                continue
            q = nxt[p]
            if q < 0 or tok[q] != b:
                continue
            r_ = nxt[q]
            tok[p] = new
            tok[q] = -1
            nxt[p] = r_
            if r_ >= 0:
                prv[r_] = p
                x = ranks.get((new, tok[r_]))
                if x is not None:
                    add(x, p)
            o = prv[p]
            if o >= 0:
                x = ranks.get((tok[o], new))
                if x is not None:
                    add(x, o)
    out = []
    p = 0
    while p >= 0:
        out.append(tok[p])
        p = nxt[p]
    return out


def bpe_dropout(word: list, ranks: dict, pair_of_rank: list, p: float, rng: random.Random) -> list:
    """BPE-dropout on one pre-token (Provilkov et al. 2020, the reference implementation in
    subword-nmt's ``apply_bpe.py``).

    At each step every adjacent pair that has a rank is kept with probability ``1 - p`` (one draw per
    occurrence); the lowest-ranked kept pair is merged at its kept occurrences, left to right without
    overlap. Merging stops when no occurrence is kept. ``p = 0`` gives :func:`bpe_simple`'s result;
    ``p = 1`` leaves the base symbols.

    Args:
        word: base-symbol ids.
        ranks: ``{(left_id, right_id): rank}``.
        pair_of_rank: ``[(left_id, right_id, new_id)]`` indexed by rank.
        p: the dropout probability, 0 <= p <= 1.
        rng: the random source (the caller seeds it; no global state is used).
    """
    get = ranks.get
    word = list(word)
    while len(word) > 1:
        kept = []
        for i in range(len(word) - 1):
            r = get((word[i], word[i + 1]))
            if r is not None and rng.random() >= p:
                kept.append((r, i))
        if not kept:
            break
        best = min(kept)[0]
        starts = {i for r, i in kept if r == best}
        a_new = pair_of_rank[best][2]
        out = []
        i = 0
        n = len(word)
        while i < n:
            if i in starts and i < n - 1:
                out.append(a_new)
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
    return word
