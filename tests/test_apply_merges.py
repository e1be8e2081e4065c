"""bpe_core.encoding.apply_merges: the rank algorithms agree, and BPE-dropout's properties (Provilkov et al. 2020)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, corpus_slice
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import TrainConfig, corpus_words, load_gpt, train
from bpe_core.encoding.apply_merges import bpe_dropout, bpe_heap, bpe_leftmost, bpe_simple
from bpe_core.encoding.encoder import Tokenizer


def trained(variant: str, pretokenizer: str, text: str, merges: int = 300) -> Tokenizer:
    cfg = TrainConfig(variant=variant, pretokenizer=pretokenizer, num_merges=merges)
    return Tokenizer.from_run(train(corpus_words(text, cfg), cfg))


ENGLISH_TEXT = corpus_slice(ENGLISH, 20_000, 8_000)
MIXED_TEXT = corpus_slice(CHINESE, 5_000, 1_500) + corpus_slice(EMOJI, 40_000, 2_000) + ENGLISH_TEXT[:2_000]
TOKENIZERS = {
    "byte gpt2": lambda: trained("byte", "gpt2", ENGLISH_TEXT + MIXED_TEXT),
    "eow whitespace": lambda: trained("eow", "whitespace", ENGLISH_TEXT),
    "char gpt4": lambda: trained("char", "gpt4", MIXED_TEXT),
    "GPT-2": lambda: load_gpt("gpt2"),
}


@cache
def byte_gpt2() -> Tokenizer:
    return TOKENIZERS["byte gpt2"]()


@pytest.fixture(scope="module", params=list(TOKENIZERS))
def tok(request) -> Tokenizer:
    return TOKENIZERS[request.param]()


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="abcdeflowrnst \u4e00\u4e01😀", min_size=1, max_size=150))
def test_simple_heap_trace_and_dropout_zero_agree(text):
    tok = byte_gpt2()
    for piece in tok.pieces(text) + [text]:
        start = tok.symbol_ids(piece)
        expected = bpe_simple(start, tok._ranks, tok._pair_of_rank)
        assert bpe_heap(start, tok._ranks, tok._pair_of_rank) == expected
        assert bpe_dropout(start, tok._ranks, tok._pair_of_rank, 0.0, random.Random(1)) == expected
        assert list(tok.trace_piece(piece).ids) == expected


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="ab =-'\n\u4e00\u00e9😀", min_size=1, max_size=150))
def test_leftmost_agrees_with_simple_on_rank_files(text):
    """One occurrence at a time gives GPT-2's result when merges only make pairs of higher rank (repeated
    pairs such as runs of spaces or '=' included)."""
    for name in ("gpt2", "o200k"):
        tok = load_gpt(name)
        for piece in tok.pieces(text) + [text, text * 3]:
            start, tables = tok.symbol_ids(piece), (tok._ranks, tok._pair_of_rank)
            assert bpe_leftmost(start, *tables) == bpe_simple(start, *tables)


def test_dropout_zero_is_the_deterministic_encoding(tok):
    for text in (ENGLISH_TEXT, MIXED_TEXT):
        expected = tok.encode(text)
        assert tok.encode(text, dropout=0.0, seed=3) == expected
        # p = 0 given to the dropout algorithm itself (not the short cut in encode) agrees too.
        rng = random.Random(3)
        ids = [
            t
            for piece in tok.pieces(text)
            for t in bpe_dropout(tok.symbol_ids(piece), tok._ranks, tok._pair_of_rank, 0.0, rng)
        ]
        assert ids == expected


def test_dropout_one_leaves_the_base_symbols(tok):
    for text in (ENGLISH_TEXT, MIXED_TEXT):
        base = [t for piece in tok.pieces(text) for t in tok.symbol_ids(piece)]
        assert tok.encode(text, dropout=1.0, seed=0) == base


def test_same_seed_same_result_and_seeds_vary(tok):
    text = ENGLISH_TEXT[:3_000]
    a = tok.encode(text, dropout=0.3, seed=42)
    assert tok.encode(text, dropout=0.3, seed=42) == a
    samples = {tuple(tok.encode(text, dropout=0.3, seed=s)) for s in range(5)}
    assert len(samples) == 5  # thousands of draws: five seeds never coincide
    deterministic = tok.encode(text)
    assert all(len(s) >= len(deterministic) for s in samples)  # dropout only ever merges less here


def test_dropout_uses_no_global_random_state(tok):
    random.seed(7)
    before = random.getstate()
    tok.encode(ENGLISH_TEXT[:2_000], dropout=0.5, seed=1)
    assert random.getstate() == before
    random.seed(1)
    a = tok.encode(ENGLISH_TEXT[:2_000], dropout=0.5, seed=9)
    random.seed(2)
    assert tok.encode(ENGLISH_TEXT[:2_000], dropout=0.5, seed=9) == a


@settings(max_examples=40, deadline=None)
@given(p=st.floats(min_value=0.0, max_value=1.0), seed=st.integers(0, 2**32))
def test_decode_gives_back_the_text_at_any_p(p, seed):
    gpt2 = load_gpt("gpt2")
    text = MIXED_TEXT[:1_500]
    assert gpt2.decode(gpt2.encode(text, dropout=p, seed=seed)) == text


def test_decode_of_dropout_equals_decode_of_the_deterministic_encoding(tok):
    for p in (0.1, 0.5, 0.9):
        assert tok.decode(tok.encode(MIXED_TEXT, dropout=p, seed=5)) == tok.decode(tok.encode(MIXED_TEXT))


@pytest.mark.parametrize("p", [-0.1, 1.5, float("nan")])
def test_dropout_outside_zero_to_one_is_refused(p):
    with pytest.raises(ValueError, match="dropout"):
        load_gpt("gpt2").encode("hello", dropout=p)
