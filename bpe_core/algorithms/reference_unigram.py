"""The textbook Unigram trainer: short and slow, written to be read (the loop the Hugging Face course builds in
chapter 6, section 7). Every candidate is scored by segmenting the whole corpus again without it.
:mod:`bpe_core.algorithms.unigram` removes the same tokens in the same order, segmenting again only the words whose
best path used the candidate; the tests check the two agree."""

from __future__ import annotations

from math import log


def seed(word_freqs: dict[str, int], seed_size: int) -> dict[str, int]:
    """Every character, then the most frequent substrings of 2 to 16 characters: ``{token: count}``."""
    chars: dict = {}
    substrings: dict = {}
    for word, freq in word_freqs.items():
        for i in range(len(word)):
            chars[word[i]] = chars.get(word[i], 0) + freq
            for j in range(i + 2, min(len(word), i + 16) + 1):  # at most 16 characters, as SentencePiece
                substrings[word[i:j]] = substrings.get(word[i:j], 0) + freq
    ranked = sorted(substrings, key=substrings.get, reverse=True)
    return {**chars, **{s: substrings[s] for s in ranked[: seed_size - len(chars)]}}


def costs(counts: dict[str, int]) -> dict[str, float]:
    """Each token's ``-log p``, its probability being its count over all the counts."""
    total = sum(counts.values())
    return {token: -log(count / total) for token, count in counts.items()}


def best_score(word: str, cost: dict[str, float]) -> float:
    """The smallest sum of ``-log p`` over the segmentations of ``word`` (Viterbi). It starts at 1, as the course's
    does, so the loss counts each word once more; which segmentation wins does not change."""
    best = [1.0] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(end):  # the best way to reach end, from the best ways to reach the positions before
            piece = word[start:end]
            if piece in cost and best[start] is not None:
                score = cost[piece] + best[start]
                if best[end] is None or score < best[end]:
                    best[end] = score
    return best[-1]


def loss(word_freqs: dict[str, int], cost: dict[str, float]) -> float:
    """The corpus loss: every word's best score times its frequency."""
    return sum(freq * best_score(word, cost) for word, freq in word_freqs.items())


def train_unigram(word_freqs: dict[str, int], vocab_size: int, seed_size: int = 300, shrink: float = 0.1) -> list[str]:
    """The vocabulary Unigram keeps from ``{word: frequency}``: prune the seed while it is larger than
    ``vocab_size``, removing each round the ``shrink`` share of the vocabulary whose removal raises the loss least."""
    counts = seed(word_freqs, seed_size)
    while len(counts) > vocab_size:
        cost = costs(counts)
        now = loss(word_freqs, cost)
        increase = {}
        for token in counts:
            if len(token) > 1:  # characters stay, so that every word can still be written
                without = {t: c for t, c in cost.items() if t != token}
                increase[token] = loss(word_freqs, without) - now
        if not increase:
            break
        for token in sorted(increase, key=increase.get)[: max(1, int(len(counts) * shrink))]:
            del counts[token]
    return list(counts)
