"""bpe_core.measures: graphemes, code points and byte-level measures, without Streamlit."""

from __future__ import annotations

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.measures import (
    code_points,
    corpus_size,
    first_single_token_step,
    graphemes,
    multibyte_counts,
    partial_corpus_tokens,
    partial_series,
    partial_token_ids,
    top_words,
    total_words,
    used_bytes,
)

TEXT = "你好 你们 好的 你好 👨‍👩‍👧 é"


def runs():
    char = TrainConfig(variant="char", pretokenizer="whitespace", num_merges=30, min_frequency=1)
    byte = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=30, min_frequency=1)
    return train(corpus_words(TEXT, char), char), train(corpus_words(TEXT, byte), byte)


def test_graphemes_and_code_points():
    assert graphemes("👨‍👩‍👧🇨🇳é") == ["👨‍👩‍👧", "🇨🇳", "é"]
    family = code_points("👨‍👩‍👧")
    assert [cp for _, cp, _, _ in family] == ["U+1F468", "U+200D", "U+1F469", "U+200D", "U+1F467"]
    assert family[1][2] == "ZERO WIDTH JOINER" and family[0][3] == "👨".encode()
    assert code_points("\ue000")[0][2] == "(no name; category Co)"


def test_first_single_token_step_and_partial_tokens():
    char, byte = runs()
    assert first_single_token_step(char, "你") == 0  # a base symbol of the character model
    assert first_single_token_step(byte, "你") > 0  # three bytes merged into one token
    assert first_single_token_step(char, "猫") is None
    series = partial_series(byte)
    assert len(series) == byte.num_steps + 1 and series[0] == 0
    assert all(b - a in (0, 1) for a, b in zip(series, series[1:]))
    assert series[-1] == len(partial_token_ids(byte))
    assert partial_series(char) == [0] * (char.num_steps + 1)
    pieces = partial_corpus_tokens(byte, 0)
    assert pieces == sum(f * len(w.encode()) for w, f in zip(byte.words, byte.freqs) if not w.isascii()) - sum(
        f * sum(1 for c in w if c.isascii()) for w, f in zip(byte.words, byte.freqs) if not w.isascii()
    )
    assert partial_corpus_tokens(byte, byte.num_steps) <= pieces


def test_corpus_size_words_and_bytes():
    char, byte = runs()
    words = TEXT.split()
    assert corpus_size(char) == (sum(len(w) for w in words), sum(len(w.encode()) for w in words))
    assert total_words(char) == len(words)
    assert used_bytes(byte) == sorted({b for w in words for b in w.encode()})
    counts = multibyte_counts(char)
    assert counts["你"] == 3 and counts["👨‍👩‍👧"] == 1 and "e" not in counts
    assert list(counts)[:2] == ["你", "好"]  # first appearance order


def test_top_words_prefers_longer_words_and_first_appearance():
    run = train({"a": 9, "low": 5, "lower": 5, "newest": 6, "b": 1}, TrainConfig(variant="char", num_merges=0))
    assert top_words(run, 3) == ["newest", "low", "lower"]
    assert top_words(run, 5) == ["newest", "low", "lower", "a", "b"]
