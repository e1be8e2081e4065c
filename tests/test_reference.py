"""bpe_core.algorithms.reference: the textbook loop on its own (the trainer is compared with it in test_trainer_parity.py)."""

from __future__ import annotations

import inspect

import pytest
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig
from bpe_core.algorithms import reference


def test_count_pairs_counts_overlaps_and_weights_by_frequency():
    counts = reference.count_pairs([["a", "a", "a"], ["a", "b"], ["a", "a"]], [2, 3, 1])
    assert counts == {("a", "a"): 2 * 2 + 1, ("a", "b"): 3}
    assert list(counts) == [("a", "a"), ("a", "b")]  # first-appearance order


def test_merge_goes_left_to_right_without_overlap():
    assert reference.merge(["a", "a", "a"], "a", "a") == ["aa", "a"]
    assert reference.merge(["a", "a", "a", "a"], "a", "a") == ["aa", "aa"]
    assert reference.merge([b"x", b"y", b"x"], b"x", b"y") == [b"xy", b"x"]
    assert reference.merge(["a", "b"], "b", "a") == ["a", "b"]


def test_textbook_example_step_by_step():
    cfg = TrainConfig(variant="eow", num_merges=5)
    steps, stop = reference.train(TEXTBOOK_WORDS, cfg)
    assert stop == "num_merges"
    assert [s.pair for s in steps] == [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    assert [s.ranked[0][1] for s in steps] == [9, 9, 9, 7, 7]
    assert steps[0].ranked[:3] == [(("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9)]
    assert steps[-1].words[0] == ["low", "</w>"]
    assert steps[-1].vocab_size == 11 + 5


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"num_merges": 0}, "num_merges"),
        ({"vocab_size": 2}, "vocab_size"),
        ({"min_frequency": 100}, "min_frequency"),
        ({"min_frequency": 1}, "no_pairs"),
    ],
)
def test_stop_reasons(kwargs, reason):
    steps, stop = reference.train({"ab": 1}, TrainConfig(variant="char", **kwargs))
    assert stop == reason
    assert len(steps) == (1 if reason == "no_pairs" else 0)


def test_a_string_built_twice_is_one_token():
    # eow separate, the word "</w>": < / w > </w>. The third merge spells "</w>", the marker's own
    # value, so the vocabulary does not grow.
    steps, stop = reference.train({"</w>": 3}, TrainConfig(variant="eow", min_frequency=1))
    assert [s.pair for s in steps] == [("<", "/"), ("</", "w"), ("</w", ">"), ("</w>", "</w>")]
    assert [s.vocab_size for s in steps] == [6, 7, 7, 8]
    assert steps[2].words == [["</w>", "</w>"]] and stop == "no_pairs"


def test_the_source_is_short_enough_to_show():
    code = [
        line for line in inspect.getsource(reference).splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    assert len(code) <= 80
