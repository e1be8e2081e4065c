"""The gpt2 / gpt4 / o200k pre-tokenizers: tiktoken's current patterns, their whitespace edge cases,
and the same splits in Hugging Face ``tokenizers`` through tokenizer.json's ``Split``."""

from __future__ import annotations

import importlib
import json

import pytest
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, WIKI, corpus_slice
from tiktoken_ext import openai_public
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import PRETOKENIZERS, TrainConfig, corpus_words, pretokenize, tokenizer_json, train

PRE = importlib.import_module("bpe_core.pretokenize")
EDGES = "x\n  |a  \nb|x  |\n\n|a \n b|it's|We'LL|CamelCase|HTTPServer|123456|a/b//|\r\n|\t |\u3000\u00a0x|  "


def test_patterns_are_tiktokens_current_ones(monkeypatch):
    # The encoding constructors would download the ranks; only their pattern strings are wanted here.
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *args, **kwargs: {})
    assert PRE.PATTERNS["gpt2"] == openai_public.r50k_pat_str
    assert PRE.PATTERNS["gpt4"] == openai_public.cl100k_base()["pat_str"]
    assert PRE.PATTERNS["o200k"] == openai_public.o200k_base()["pat_str"]
    assert PRETOKENIZERS == ("whitespace", "gpt2", "gpt4", "o200k", "none")


@pytest.mark.parametrize(
    "text, gpt4, o200k",
    [
        ("x\n  ", ["x", "\n  "], ["x", "\n", "  "]),
        ("x  ", ["x", "  "], ["x", "  "]),
        ("a  \nb", ["a", "  \n", "b"], ["a", "  \n", "b"]),
        ("x\n\n", ["x", "\n\n"], ["x", "\n\n"]),
        ("a \n b", ["a", " \n", " b"], ["a", " \n", " b"]),
        ("x\r\n", ["x", "\r\n"], ["x", "\r\n"]),
        ("CamelCase it's", ["CamelCase", " it", "'s"], ["Camel", "Case", " it's"]),
        ("1234567", ["123", "456", "7"], ["123", "456", "7"]),
    ],
)
def test_whitespace_and_letter_edge_cases(text, gpt4, o200k):
    assert pretokenize(text, "gpt4") == gpt4
    assert pretokenize(text, "o200k") == o200k
    for name in ("gpt2", "gpt4", "o200k"):
        assert "".join(pretokenize(text, name)) == text


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "o200k"])
@pytest.mark.parametrize("corpus", [ENGLISH, WIKI, CHINESE, EMOJI])
def test_hugging_face_split_from_tokenizer_json_splits_as_we_do(name, corpus):
    """The ``Split`` that tokenizer.json writes cuts real text exactly where our pre-tokenizer does."""
    run = train({"ab": 2}, TrainConfig(variant="byte", pretokenizer=name, num_merges=1))
    doc = json.loads(tokenizer_json(run))
    pre = doc["pre_tokenizer"]
    split = pre["pretokenizers"][0] if pre["type"] == "Sequence" else None
    if name == "gpt2":  # GPT-2's own regex in ByteLevel
        assert pre["type"] == "ByteLevel" and pre["use_regex"] is True
        split = {"type": "Split", "pattern": {"Regex": PRE.PATTERNS["gpt2"]}, "behavior": "Isolated", "invert": False}
    splitter = HFTokenizer.from_str(
        json.dumps({**doc, "pre_tokenizer": split, "normalizer": None, "post_processor": None})
    ).pre_tokenizer
    text = corpus_slice(corpus, 60_000, 20_000) + EDGES
    assert [piece for piece, _ in splitter.pre_tokenize_str(text)] == pretokenize(text, name)


@pytest.mark.parametrize("name", ["gpt4", "o200k"])
@pytest.mark.parametrize("variant, style", [("byte", "separate"), ("eow", "attached")])
def test_tokenizer_json_encodes_to_our_ids_with_the_new_patterns(name, variant, style):
    text = corpus_slice(ENGLISH, 0, 30_000) + corpus_slice(CHINESE, 0, 5_000) + corpus_slice(EMOJI, 0, 10_000)
    cfg = TrainConfig(variant=variant, pretokenizer=name, eow_style=style, num_merges=200)
    run = train(corpus_words(text, cfg), cfg)
    hf = HFTokenizer.from_str(tokenizer_json(run))
    held_out = corpus_slice(ENGLISH, 300_000, 10_000) + corpus_slice(CHINESE, 90_000, 2_000) + EDGES
    assert hf.encode(held_out).ids == run.tokenizer().encode(held_out)
