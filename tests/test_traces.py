"""bpe_core.encoding.traces: replaying a tokenizer's merges on a text, and the merge tree of a token."""

from __future__ import annotations

import pytest
from corpus_excerpts import CHINESE, ENGLISH, corpus_slice

from bpe_core import TrainConfig, load_gpt, train
from bpe_core.encoding.encoder import Tokenizer

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def test_textbook_replay_lists_the_merges_that_fire_in_rank_order_with_counts():
    tok = Tokenizer.from_run(train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10)))
    replay = tok.replay("newest newest lower")
    word = tok.token_text
    assert [(s.merge_number, word(s.left), word(s.right), word(s.token), s.count) for s in replay.steps] == [
        (1, "e", "s", "es", 2),
        (2, "es", "t", "est", 2),
        (3, "est", "</w>", "est</w>", 2),
        (4, "l", "o", "lo", 1),
        (5, "lo", "w", "low", 1),
        (6, "n", "e", "ne", 2),
        (7, "ne", "w", "new", 2),
        (8, "new", "est</w>", "newest</w>", 2),
    ]
    assert [word(t) for t in replay.ids_at(0)] == list("newest") + ["</w>"] + list("newest") + ["</w>"] + list(
        "lower"
    ) + ["</w>"]
    assert [word(t) for t in replay.ids_at(5)][-4:] == ["low", "e", "r", "</w>"]
    assert replay.ids_at(len(replay)) == tok.encode("newest newest lower")
    with pytest.raises(ValueError):
        replay.ids_at(len(replay) + 1)


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_gpt_replay_on_real_text_ends_at_the_encoding_and_counts_every_merge(name):
    tok = load_gpt(name)
    text = corpus_slice(ENGLISH, 30_000, 3_000) + corpus_slice(CHINESE, 9_000, 500)
    replay = tok.replay(text)
    numbers = [s.merge_number for s in replay.steps]
    assert numbers == sorted(set(numbers))
    assert replay.ids_at(len(replay)) == tok.encode(text)
    # Each merge applied removes one token: the counts add up to the tokens saved.
    assert len(replay.ids_at(0)) - len(tok.encode(text)) == sum(s.count for s in replay.steps)
    lengths = [len(replay.ids_at(k)) for k in range(0, len(replay) + 1, 25)]
    assert lengths == sorted(lengths, reverse=True)
    for s in replay.steps[:50]:
        assert s.token == s.merge_number + 255 and tok.merges[s.merge_number - 1] == (
            tok.values[s.left],
            tok.values[s.right],
        )


def test_gpt2_merge_tree_of_a_token():
    tok = load_gpt("gpt2")
    (tid,) = tok.encode(" the")
    tree = tok.merge_tree(tid)
    assert tree.token == tid and tree.merge_number == tid - 255
    leaves = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.merge_number is None:
            assert node.left is None and node.right is None
            leaves.append(node.token)
        else:
            assert tok.values[node.left.token] + tok.values[node.right.token] == tok.values[node.token]
            assert node.left.merge_number is None or node.left.merge_number < node.merge_number
            stack.extend((node.right, node.left))
    assert b"".join(tok.values[t] for t in leaves) == b" the"
    # The merge numbers that built it are the merges a trace of " the" applies (a token is its own merge).
    assert tree.merge_numbers() == [st.merge_number for st in tok.trace_piece(" the").steps]
    assert tok.merge_tree(tok.vocab[b"a"]).merge_number is None
    with pytest.raises(ValueError):
        tok.merge_tree(10**9)
