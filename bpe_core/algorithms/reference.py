"""The textbook BPE trainer: short and slow, written to be read (Sennrich et al. 2016, Algorithm 1).

Every merge recounts every pair from scratch. :mod:`bpe_core.algorithms.trainer` makes the same merges in the same
order, but updates the counts in place instead of starting over; the tests check the two agree.
"""

from __future__ import annotations

from typing import NamedTuple

from ..config import TrainConfig
from .tiebreak import TieKey, base_alphabet


class Step(NamedTuple):
    """One merge: the ``pair`` merged (token values), every pair's count just before it (``ranked``:
    ``[(pair, count)]``, best first), each word type's tokens after it, and the vocabulary size after it."""

    pair: tuple
    ranked: list
    words: list
    vocab_size: int


def count_pairs(words: list, freqs: list) -> dict:
    """``{(left, right): count}`` over all word types, in order of first appearance."""
    counts: dict = {}
    for tokens, freq in zip(words, freqs):
        # A word type stands for all its copies, so its pairs count once per copy. Overlapping
        # neighbours all count: "a a a" holds (a, a) twice, although only one of them can merge.
        for pair in zip(tokens, tokens[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def merge(tokens: list, left, right) -> list:
    """``tokens`` with each ``left, right`` replaced by ``left + right``, scanning left to right."""
    out, i = [], 0
    while i < len(tokens):
        # Once a pair is merged its right token is used up, so "a a a" becomes "aa a", never "a aa".
        if i + 1 < len(tokens) and tokens[i] == left and tokens[i + 1] == right:
            out.append(left + right)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def rank_pairs(counts: dict, ids: dict, tie_key: TieKey) -> list:
    """``[(pair, count)]``, best first: the highest count, then the smallest tie-break key."""
    first = {pair: i for i, pair in enumerate(counts)}  # counts keeps pairs in order of first appearance

    def rank(pair):
        left, right = pair
        return -counts[pair], tie_key(ids[left], ids[right], first[pair])

    return [(pair, counts[pair]) for pair in sorted(counts, key=rank)]


def train(words: dict[str, int], config: TrainConfig) -> tuple[list[Step], str]:
    """Learn merges from ``{word: frequency}`` (pre-tokenized, first-appearance order) under ``config``.

    Returns the steps and why training stopped (one of :data:`bpe_core.algorithms.trainer.STOP_REASONS`).
    """
    variant = config.make_variant()
    freqs = list(words.values())
    # Every word starts as its base symbols: characters (with the end-of-word marker for eow) or bytes.
    corpus = [variant.symbols(word) for word in words]
    vocab = base_alphabet((s for tokens in corpus for s in tokens), variant)
    ids = {value: i for i, value in enumerate(vocab)}
    # When pairs tie on count, a rule must pick one. Some rules read token ids (Hugging Face numbers
    # tokens its own way), so the reference asks the trainer's own key rather than restating the rules.
    tie_key = TieKey(config.tie_break, vocab)
    steps: list[Step] = []
    while True:
        if config.num_merges is not None and len(steps) >= config.num_merges:
            return steps, "num_merges"
        if config.vocab_size is not None and len(vocab) >= config.vocab_size:
            return steps, "vocab_size"
        ranked = rank_pairs(count_pairs(corpus, freqs), ids, tie_key)
        if not ranked:
            return steps, "no_pairs"
        (left, right), count = ranked[0]
        if count < config.min_frequency:  # by default a pair seen once is a coincidence, not a pattern
            return steps, "min_frequency"
        new = left + right
        if new not in ids:  # two merges can spell the same string: it stays one token
            ids[new] = len(vocab)
            vocab.append(new)
            tie_key.add(new)
        corpus = [merge(tokens, left, right) for tokens in corpus]
        steps.append(Step((left, right), ranked, corpus, len(vocab)))
