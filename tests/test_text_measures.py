"""bpe_core.measures on a text under a tokenizer (the numbers of the Real tokenizers and BPE vs BBPE pages) and
bpe_core.scripts' Chinese / emoji classes, without Streamlit, on excerpts of the real corpora."""

from __future__ import annotations

from collections import Counter

import pytest
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, corpus_slice

from bpe_core import TrainConfig, corpus_words, load_gpt, train
from bpe_core.measures import (
    bytes_per_token,
    corpus_size,
    dropout_segmentations,
    graphemes,
    multibyte_by_frequency,
    multibyte_counts,
    partial_tokens,
    round_trip,
    text_stats,
    tokens_per_character,
    unknown_tokens,
)
from bpe_core.scripts import costly_graphemes, is_emoji, is_emoji_code_point, is_han

MIXED = corpus_slice(ENGLISH, 400_000, 1_500) + corpus_slice(CHINESE, 200_000, 400) + corpus_slice(EMOJI, 9_000, 400)


def whole_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def char_tokenizer(text: str, variant: str = "eow", pretokenizer: str = "whitespace"):
    cfg = TrainConfig(variant=variant, pretokenizer=pretokenizer, num_merges=200, min_frequency=2)
    return train(corpus_words(text, cfg), cfg).tokenizer()


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_text_stats_of_a_gpt_tokenizer_on_english_chinese_and_emoji(name):
    tok = load_gpt(name)
    ids = tok.encode(MIXED)
    stats = text_stats(tok, MIXED)
    assert stats == text_stats(tok, MIXED, ids)  # the encoding may be handed in
    assert stats.tokens == len(ids)
    assert (stats.chars, stats.size) == (len(graphemes(MIXED)), len(MIXED.encode("utf-8")))
    assert stats.per_char == pytest.approx(len(ids) / len(graphemes(MIXED)))
    assert stats.bytes_per_token == pytest.approx(len(MIXED.encode("utf-8")) / len(ids))
    # Counted here from each token's bytes: the ones that do not decode on their own.
    assert stats.partial == sum(1 for t in ids if not whole_utf8(tok.token_value(t))) > 0
    assert stats.unknown == 0  # byte-level: every text can be encoded
    assert 1.0 < stats.bytes_per_token < 6.0 and 0.1 < stats.per_char < 2.0


def test_unknown_tokens_of_a_character_tokenizer_are_its_unseen_characters():
    tok = char_tokenizer(corpus_slice(ENGLISH, 400_000, 20_000))
    text = corpus_slice(CHINESE, 200_000, 300)
    ids = tok.encode(text)
    unseen = [g for g in graphemes(text) if not g.isspace() and g not in tok.vocab]
    assert unseen and unknown_tokens(tok, ids) == len(unseen)  # one <unk> per unseen character
    stats = text_stats(tok, text, ids)
    assert stats.unknown == len(unseen) and stats.partial == 0  # <unk> is not a piece of a character
    assert unknown_tokens(load_gpt("gpt2"), load_gpt("gpt2").encode(text)) == 0


def test_partial_tokens_of_a_byte_run_before_and_after_its_merges():
    text = corpus_slice(CHINESE, 200_000, 3_000)
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=300, min_frequency=2)
    run = train(corpus_words(text, cfg), cfg)
    sample = corpus_slice(CHINESE, 210_000, 200)
    at_start, at_end = run.tokenizer(0), run.tokenizer()
    start_ids, end_ids = at_start.encode(sample), at_end.encode(sample)
    multibyte = sum(len(c.encode()) for c in sample if len(c.encode()) > 1)
    assert partial_tokens(at_start, start_ids) == multibyte  # every byte of a 你 is a piece
    assert partial_tokens(at_end, end_ids) == sum(1 for t in end_ids if not whole_utf8(at_end.token_value(t)))
    assert partial_tokens(at_end, end_ids) < multibyte  # merges glued characters back together


def test_round_trip_exact_or_without_the_whitespace_the_pre_tokenizer_dropped():
    text = corpus_slice(CHINESE, 200_000, 2_000)
    unseen = "明天我们去北京看熊猫 🐼！"
    gpt = load_gpt("gpt2")
    assert round_trip(gpt, unseen) == (unseen, True, False) and round_trip(gpt, unseen).same
    byte_ws = char_tokenizer(text, "byte", "whitespace")
    back = round_trip(byte_ws, unseen)
    assert back.decoded == "明天我们去北京看熊猫🐼！" and not back.exact and back.but_whitespace and back.same
    char_ws = char_tokenizer(text, "char", "whitespace")
    lost = round_trip(char_ws, unseen)  # 🐼 was never seen: <unk> cannot be decoded back
    assert not lost.same and "<unk>" in lost.decoded
    assert round_trip(char_tokenizer(text, "byte", "gpt2"), unseen).exact


def test_dropout_segmentations_count_the_samples_most_frequent_first():
    tok = load_gpt("gpt2")
    word = "unbelievably"
    assert dropout_segmentations(tok, word, 0.0, 0, 20) == [(tuple(tok.encode(word)), 20)]
    found = dropout_segmentations(tok, word, 0.3, 5, 40)
    expected = Counter(tuple(tok.encode(word, dropout=0.3, seed=5 + i)) for i in range(40))
    assert dict(found) == dict(expected) and len(found) > 1
    assert sum(times for _ids, times in found) == 40
    assert [t for _ids, t in found] == sorted((t for _ids, t in found), reverse=True)
    assert all(tok.decode(list(ids)) == word for ids, _t in found)  # every segmentation spells the word
    assert dropout_segmentations(tok, word, 1.0, 0, 5) == [(tuple(tok.symbol_ids(word)), 5)]  # no merge: bytes


def test_rates_per_step_and_multibyte_characters_by_frequency():
    text = corpus_slice(CHINESE, 200_000, 2_000)
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=100, min_frequency=2)
    run = train(corpus_words(text, cfg), cfg)
    chars, data = corpus_size(run)
    per_char, per_token = tokens_per_character(run, chars), bytes_per_token(run, data)
    tokens = run.series()["corpus_tokens"]
    assert len(per_char) == len(per_token) == run.num_steps + 1
    assert per_char[0] == pytest.approx(data / chars) and per_token[0] == pytest.approx(1.0)  # one token a byte
    assert per_char[-1] == pytest.approx(tokens[-1] / chars) and per_token[-1] == pytest.approx(data / tokens[-1])
    assert all(a >= b for a, b in zip(per_char, per_char[1:]))  # a merge never adds tokens
    assert tokens_per_character(run, 0)[0] == 0.0
    ordered = multibyte_by_frequency(run)
    counts = multibyte_counts(run)
    assert dict(ordered) == counts and [c for _g, c in ordered] == sorted(counts.values(), reverse=True)
    first = list(counts)
    for (g1, c1), (g2, c2) in zip(ordered, ordered[1:]):
        assert c1 > c2 or first.index(g1) < first.index(g2)  # ties: first appearance first


def test_chinese_characters_and_emoji():
    assert is_han("你") and is_han("說") and is_han("\uf900")  # a compatibility ideograph
    assert not is_han("〇") and not is_han("々") and not is_han("a") and not is_han("你好")
    assert all(is_emoji(g) for g in ("😀", "👨‍👩‍👧", "🇨🇳", "👍🏽", "❤️", "1️⃣", "⭐"))
    assert not any(is_emoji(g) for g in ("a", "你", "é", "1"))
    assert is_emoji_code_point("⌚") and not is_emoji_code_point("\u200d")
    text = "你好 😀 hello 你们 ⭐ 好 😀 " + corpus_slice(CHINESE, 200_000, 500)
    found = costly_graphemes(text, 3)
    assert found[:3] == ["你", "好", "们"] and found[3:] == ["😀", "⭐"]
    emoji = costly_graphemes(corpus_slice(EMOJI, 9_000, 4_000), 8)
    assert len(emoji) == 8 and all(is_emoji(g) for g in emoji)  # no Chinese there: at most 8 emoji
