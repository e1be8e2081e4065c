"""Students' BPE trainers for the checker tests: one correct (minbpe-style), and one per known mistake.

Each trainer is the same short loop as :func:`train_correct` with exactly one thing done wrong, written
here independently of ``bpe_core.checking.mistakes`` (the checker's own copies), so a test compares two separate
implementations of each slip. Tokens are wire strings: text for char/eow, GPT-2 byte aliases for bytes
(what ``train --jsonl`` prints), so their output is what a student would paste.

Each trainer takes ``(text, settings, n)``: the corpus text, a :class:`Settings` and the number of merges,
and stops early, as the reference does by default, when the best pair occurs fewer than 2 times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bpe_core.byte_display import to_gpt2
from bpe_core.pretokenize import word_counts


@dataclass(frozen=True)
class Settings:
    variant: str  # char, eow (separate </w>) or byte
    pretokenizer: str  # whitespace, gpt2, none


def symbols_of(word: str, variant: str) -> list:
    """A word's base symbols as the student spells them."""
    if variant == "byte":
        return [to_gpt2(bytes((b,))) for b in word.encode("utf-8")]
    if variant == "eow":
        return [*word, "</w>"]
    if variant == "eow-attached":
        return [*word[:-1], word[-1] + "</w>"]
    return list(word)


def get_stats(words: list, freqs: list) -> dict:
    """minbpe's ``get_stats``, weighted by word frequency: every adjacent pair, overlaps included."""
    counts: dict = {}
    for ids, f in zip(words, freqs):
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + f
    return counts


def merge(ids: list, pair: tuple) -> list:
    """minbpe's ``merge``: replace each occurrence left to right, skipping past it."""
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def choose(stats: dict) -> tuple:
    return max(stats, key=stats.get)  # ties: the first pair seen (dict order)


def loop(text, settings, n, *, split=None, symbols=None, stats=get_stats, pick=choose, apply=merge, limit=None):
    """The training loop; every keyword is one part a mistake replaces."""
    counted = word_counts(text, split or settings.pretokenizer)
    words = [(symbols or (lambda w: symbols_of(w, settings.variant)))(w) for w in counted]
    freqs = list(counted.values())
    merges = []
    for _ in range(n if limit is None else limit(n)):
        table = stats(words, freqs)
        if not table:
            break
        pair = pick(table)
        if table[pair] < 2:
            break
        merges.append(pair)
        words = [apply(w, pair) for w in words]
    return merges


def train_correct(text, settings, n):
    return loop(text, settings, n)


# ------------------------------------------------------------------------------------- mistakes
def last_of_ties(stats: dict) -> tuple:
    best = max(stats.values())
    return [p for p, c in stats.items() if c == best][-1]  # MISTAKE: the last tied pair, not the first


def stats_no_overlap(words: list, freqs: list) -> dict:
    counts: dict = {}
    for ids, f in zip(words, freqs):
        last = {}
        for i in range(len(ids) - 1):
            pair = (ids[i], ids[i + 1])
            if last.get(pair) == i - 1:  # MISTAKE: an occurrence overlapping the one before is skipped
                continue
            last[pair] = i
            counts[pair] = counts.get(pair, 0) + f
    return counts


def stats_per_type(words: list, freqs: list) -> dict:
    return get_stats(words, [1] * len(words))  # MISTAKE: the word's frequency is dropped


def merge_from_right(ids: list, pair: tuple) -> list:
    out, i = [], len(ids) - 1
    while i >= 0:  # MISTAKE: the scan runs from the right end
        if i > 0 and (ids[i - 1], ids[i]) == pair:
            out.insert(0, pair[0] + pair[1])
            i -= 2
        else:
            out.insert(0, ids[i])
            i -= 1
    return out


def merge_one_step(ids: list, pair: tuple) -> list:
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(pair[0] + pair[1])
        else:
            out.append(ids[i])
        i += 1  # MISTAKE: after a replacement the scan should move two places
    return out


OTHER_SPLIT = {"whitespace": "none", "none": "whitespace", "gpt2": "whitespace"}
OTHER_VARIANT = {"eow": "eow-attached", "char": "byte", "byte": "char"}

#: cause -> trainer with exactly that one mistake (two for application-order: right to left, overlapping).
MISTAKES: dict[str, Callable] = {
    "tie-break": lambda t, s, n: loop(t, s, n, pick=last_of_ties),
    "overlap-counting": lambda t, s, n: loop(t, s, n, stats=stats_no_overlap),
    "word-frequency": lambda t, s, n: loop(t, s, n, stats=stats_per_type),
    "pre-tokenization": lambda t, s, n: loop(t, s, n, split=OTHER_SPLIT[s.pretokenizer]),
    "application-order": lambda t, s, n: loop(t, s, n, apply=merge_from_right),
    "application-order-overlapping": lambda t, s, n: loop(t, s, n, apply=merge_one_step),
    "settings": lambda t, s, n: loop(t, s, n, symbols=lambda w: symbols_of(w, OTHER_VARIANT[s.variant])),
    "stop-rule": lambda t, s, n: loop(t, s, n, limit=lambda n: n - 1),  # MISTAKE: range(n - 1)
}
