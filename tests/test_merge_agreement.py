"""bpe_core.checking.merge_agreement: the overlap of two merge lists (a training run against GPT-2)."""

from __future__ import annotations

import pytest
from corpus_excerpts import ENGLISH, corpus_slice

from bpe_core import TrainConfig, corpus_words, load_gpt, train
from bpe_core.checking.merge_agreement import merge_overlap


def brute(ours, theirs, k):
    return len(set(map(tuple, ours[:k])) & set(map(tuple, theirs[:k])))


def test_small_lists():
    ours = [("a", "b"), ("c", "d"), ("ab", "c"), ("x", "y")]
    theirs = [("a", "b"), ("ab", "c"), ("c", "d")]
    result = merge_overlap(ours, theirs, 10)
    assert result.n == 4 and result.first_difference == 2
    assert result.curve == (1, 1, 3, 3) == tuple(brute(ours, theirs, k) for k in range(1, 5))
    assert result.shared == 3
    assert merge_overlap(ours, ours, 4).first_difference is None
    with pytest.raises(ValueError):
        merge_overlap(ours, theirs, 0)


def test_byte_level_training_on_english_against_gpt2():
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=100)
    run = train(corpus_words(corpus_slice(ENGLISH, 0, 300_000), cfg), cfg)
    ours = [(run.token_value(a), run.token_value(b)) for a, b in run.merges()]
    gpt2 = load_gpt("gpt2").merges
    result = merge_overlap(ours, gpt2, 100)
    assert result.curve == tuple(brute(ours, gpt2, k) for k in range(1, 101))
    assert result.curve[-1] == result.shared
    # GPT-2's first merge is "Ġ" + "t"; a book in English finds it among its first few too.
    assert gpt2[0] == (b" ", b"t") and (b" ", b"t") in ours[:5]
    assert 30 <= result.shared < 100
