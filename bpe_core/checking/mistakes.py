"""The known ways a BPE trainer goes wrong, each written as a small textbook loop (see :mod:`bpe_core.algorithms.reference`).

:mod:`bpe_core.checking.check` asks, at the first merge where a student's list parts from the reference: had the
merges so far been made under *this* other rule, would the next merge be the student's pair? Each function
here is one rule, deliberately wrong, and as short and plain as the reference it departs from. They work on
*wire* strings (text for char/eow, GPT-2 byte aliases for bytes): a token is a string, a merge glues two.

Counting mistakes (:data:`COUNTERS`):

* ``once_per_run`` -- overlapping pairs counted once: ``a a a`` holds ``(a, a)`` once, not twice.
* ``once_per_type`` -- a pair counted once per word type, ignoring how often the word occurs.

Application mistakes (:data:`APPLIERS`):

* ``right_to_left`` -- occurrences replaced scanning from the right: ``a a a`` -> ``a aa``.
* ``overlapping`` -- after a replacement the scan moves one symbol, not two, so the right token is read
  again: ``a b c`` -> ``ab b c``.
"""

from __future__ import annotations

from collections.abc import Callable


# ------------------------------------------------------------------------------------- counting
def count_per_occurrence(words: list, freqs: list) -> dict:
    """The right count: every adjacent pair, overlaps included, times the word's frequency."""
    counts: dict = {}
    for tokens, freq in zip(words, freqs):
        for pair in zip(tokens, tokens[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def count_once_per_run(words: list, freqs: list) -> dict:
    """Wrong: a pair that overlaps the pair just counted (``a a a``) is skipped, as if counting the
    places a merge could be made rather than the pairs present."""
    counts: dict = {}
    for tokens, freq in zip(words, freqs):
        previous_end = -1
        for i, pair in enumerate(zip(tokens, tokens[1:])):
            if i == previous_end and pair == (tokens[i - 1], tokens[i]):
                previous_end = -1  # the middle symbol was used by the pair before: not counted again
                continue
            counts[pair] = counts.get(pair, 0) + freq
            previous_end = i + 1
    return counts


def count_once_per_type(words: list, freqs: list) -> dict:
    """Wrong: each word type counts once, however often it occurs in the corpus."""
    return count_per_occurrence(words, [1] * len(words))


COUNTERS: dict[str, Callable] = {"overlap-counting": count_once_per_run, "word-frequency": count_once_per_type}


# ------------------------------------------------------------------------------------- applying
def merge_left_to_right(tokens: list, left: str, right: str) -> list:
    """The right way: scan left to right; a replaced pair uses up both tokens (``a a a`` -> ``aa a``)."""
    out, i, last = [], 0, len(tokens) - 1
    new = left + right
    while i < last:
        token = tokens[i]
        if token == left and tokens[i + 1] == right:
            out.append(new)
            i += 2
        else:
            out.append(token)
            i += 1
    if i == last:  # the last token, when the scan did not use it up
        out.append(tokens[i])
    return out


def merge_right_to_left(tokens: list, left: str, right: str) -> list:
    """Wrong: scan from the right end, so ``a a a`` -> ``a aa``."""
    out, i = [], len(tokens) - 1
    while i >= 0:
        if i >= 1 and tokens[i - 1] == left and tokens[i] == right:
            out.append(left + right)
            i -= 2
        else:
            out.append(tokens[i])
            i -= 1
    return out[::-1]


def merge_overlapping(tokens: list, left: str, right: str) -> list:
    """Wrong: after a replacement the scan steps one place instead of two, so the right token is read
    again: ``a b c`` -> ``ab b c``, ``a a a`` -> ``aa aa a`` (the ``i += 1`` slip in a ``while`` loop)."""
    out, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == left and tokens[i + 1] == right:
            out.append(left + right)
        else:
            out.append(tokens[i])
        i += 1
    return out


APPLIERS: dict[str, Callable] = {"right-to-left": merge_right_to_left, "overlapping": merge_overlapping}


def replay(words: list, merges: list, apply: Callable = merge_left_to_right) -> list:
    """Every word's tokens after ``merges`` (``[(left, right)]`` wire strings) applied in order with ``apply``.

    Args:
        words: each word type's base symbols (wire strings).
        merges: the merges so far, rank order.
        apply: how one merge rewrites one word (``merge_left_to_right`` or an :data:`APPLIERS` entry).
    """
    out = [list(tokens) for tokens in words]
    # Which words hold each token: a merge visits only the words holding both of its sides, so replaying
    # a thousand merges over a book does not rescan every word a thousand times.
    holding: dict = {}
    for i, tokens in enumerate(out):
        for s in tokens:
            holding.setdefault(s, set()).add(i)
    spelled = ["".join(tokens) for tokens in out]  # the pair glued together must occur in the word's spelling
    for left, right in merges:
        both = holding.get(left, set()) & holding.get(right, set())
        glued = left + right
        for i in sorted(both):
            if glued not in spelled[i]:
                continue
            before = out[i]
            after = apply(before, left, right)
            if after == before:
                continue
            out[i] = after
            now = set(after)
            for s in now - set(before):
                holding.setdefault(s, set()).add(i)
            for s in set(before) - now:
                holding[s].discard(i)
    return out


def best_pairs(counts: dict) -> list:
    """The pairs with the highest count (all of them, when tied), in order of first appearance."""
    if not counts:
        return []
    top = max(counts.values())
    return [pair for pair, c in counts.items() if c == top]
