"""bpe_core.byte_pieces: which characters a byte-level token holds, in text and alone, on real Chinese and emoji."""

from __future__ import annotations

import pytest
from corpus_excerpts import CHINESE, EMOJI, excerpt

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.byte_display import from_gpt2, to_gpt2
from bpe_core.byte_pieces import (
    TextPieces,
    corpus_blob,
    describe,
    example_in,
    is_readable,
    pieces_alone,
    pieces_in_text,
    places_in,
    short_label,
    utf8_length,
)
from bpe_core.i18n import translations

NIHAO = "你好啊 你好 你好啊 你好 我 啊 走"


def _label(text: str, start: int, end: int) -> str:
    return short_label(pieces_in_text(text.encode(), start, end))


def test_partial_chinese_characters_are_named_with_their_bytes():
    assert _label("很", 0, 2) == "很 1–2/3"
    assert _label("很", 2, 3) == "很 3/3"
    assert _label("我很", 0, 5) == "我 + 很 1–2/3"  # the mixed chip 我\xe5\xbe
    assert _label("我很好", 4, 9) == "很 2–3/3 + 好"
    assert _label("你好啊", 0, 9) == "你好啊"
    assert is_readable(pieces_in_text("你好".encode(), 0, 6))
    assert not is_readable(pieces_in_text("你好".encode(), 0, 4))


def test_sentences_in_english_and_chinese():
    pieces = pieces_in_text("我很".encode(), 0, 5)
    assert describe(pieces) == "我 (a whole character) + bytes 1–2 of 很 (3 bytes)"
    hant = describe(pieces, translations("zh-Hant"))
    assert "很" in hant and "1–2" in hant and "bytes" not in hant
    assert describe(pieces_in_text("很".encode(), 2, 3)) == "byte 3 of 很 (3 bytes)"


def test_four_byte_emoji_and_zwj_sequences_are_code_points_inside_their_grapheme():
    family = "👨\u200d👩\u200d👧"  # 18 bytes: three 4-byte emoji, two 3-byte joiners
    data = family.encode()
    assert len(data) == 18
    (man,) = pieces_in_text(data, 0, 2)
    assert (man.char, man.first, man.last, man.size, man.grapheme) == ("👨", 1, 2, 4, family)
    (zwj,) = pieces_in_text(data, 5, 7)
    assert (zwj.char, zwj.first, zwj.last, zwj.size) == ("\u200d", 2, 3, 3)
    assert describe([zwj], show=lambda c: c.encode("unicode_escape").decode()).endswith(
        "inside " + family.encode("unicode_escape").decode()
    )
    heart = "❤️".encode()  # U+2764 + VS16: 6 bytes, one grapheme
    (vs,) = pieces_in_text(heart, 3, 5)
    assert (vs.char, vs.first, vs.last, vs.size, vs.grapheme) == ("\ufe0f", 1, 2, 3, "❤️")
    (ok,) = pieces_in_text("👍".encode(), 0, 4)
    assert ok.whole and ok.grapheme == ""


def test_crlf_counts_as_two_bytes_before_the_next_character():
    data = "a\r\n很".encode()
    pieces = pieces_in_text(data, 1, 5)
    assert [p.char for p in pieces] == ["\r", "\n", "很"]
    assert short_label(pieces) == "\r + \n + 很 1–2/3"
    assert all(p.grapheme == "\r\n" for p in pieces[:2])


def test_invalid_bytes_are_said_not_utf8():
    data = b"a\xff\xe5\xbe"  # a byte that is never UTF-8, then a character cut by the end of the text
    assert short_label(pieces_in_text(data, 1, 2)) == "0xFF"
    assert "not UTF-8" in describe(pieces_in_text(data, 1, 3))  # 0xFF, then the lead byte of the cut character
    # a text cut inside its last character: the bytes are the start of a character, which one is unknown
    assert describe(pieces_in_text(data, 2, 4)) == "the first 2 bytes of a 3-byte character"
    assert short_label(pieces_alone(b"\xc0\x80")) == "0xC0 + …?"  # an overlong form
    assert [utf8_length(b) for b in (0x41, 0x80, 0xC1, 0xC2, 0xE5, 0xF0, 0xF5)] == [1, 0, -1, 2, 3, 4, -1]
    with pytest.raises(ValueError):
        pieces_in_text(b"abc", 2, 2)


def test_a_token_alone_says_what_its_bytes_are():
    assert describe(pieces_alone(b"\xe4\xbd")) == "the first 2 bytes of a 3-byte character"
    assert describe(pieces_alone(b"\xe5")) == "the lead byte of a 3-byte character"
    assert describe(pieces_alone(b"\xf0")) == "the lead byte of a 4-byte character"
    assert describe(pieces_alone(b"\xbd\xa0")) == "2 continuation bytes (the rest of a character)"
    assert describe(pieces_alone(b"\xa0\xe5")) == (
        "1 continuation byte (the rest of a character) + the lead byte of a 3-byte character"
    )
    assert describe(pieces_alone("好".encode())) == "好 (a whole character)"


def test_gpt2_aliases_name_the_same_bytes():
    # GPT-2 writes e4 bd as "ä½": the alias form is read back to the bytes first, then described.
    assert to_gpt2(b"\xe4\xbd") == "ä½"
    assert short_label(pieces_alone(from_gpt2("ä½"))) == "? 1–2/3"
    assert short_label(pieces_in_text(" 很".encode(), 0, 3)) == "  + 很 1–2/3"  # GPT-2's Ġ is a plain space


def test_examples_come_from_the_corpus():
    blob = corpus_blob(NIHAO.split())
    ex = example_in(blob, b"\xbd\xa0\xe5")  # the end of 你 and the start of 好
    assert ex.word == "你好啊" and ex.chars == "你好"
    assert example_in(blob, "走".encode()).chars == "走"
    assert example_in(blob, b"\xff") is None and example_in(blob, b"zz") is None
    # a token never matches across two words
    assert example_in(corpus_blob(["a\xe4", "b"]), "\xe4".encode() + b"\xff") is None


@pytest.mark.parametrize("name", [CHINESE, EMOJI])
def test_every_token_of_a_real_run_is_cut_into_its_characters(name):
    """Byte-level BPE on real Chinese (CRLF) and the emoji test file: every token of every word, cut into pieces,
    gives back its bytes, and each partial piece's bytes are exactly bytes first..last of its character."""
    text = excerpt(name, 6_000)
    config = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=120)
    run = train(corpus_words(text, config), config)
    partial = 0
    blob = corpus_blob(run.words)
    for index, word in enumerate(run.words):
        data = word.encode()
        whole = TextPieces(data)  # the same pieces, the text segmented once
        at = 0
        for tid in run.segmentation(index, run.num_steps):
            value = run.token_value(tid)
            pieces = pieces_in_text(data, at, at + len(value))
            assert whole.at(at, len(value)) == pieces
            assert b"".join(p.raw for p in pieces) == value
            for p in pieces:
                if not p.whole:
                    assert p.char.encode()[p.first - 1 : p.last] == p.raw
                    partial += 1
            assert is_readable(pieces) == (not run.is_partial(tid))
            at += len(value)
        assert at == len(data)
    assert partial > 50
    for tid in range(run.num_base, run.vocab_size_at(run.num_steps)):
        value = run.token_value(tid)
        assert b"".join(p.raw for p in pieces_alone(value)) == value
        ex = example_in(blob, value)
        assert ex is not None and value in ex.word.encode()


def test_a_pair_is_read_where_it_first_occurs_together():
    blob = corpus_blob(NIHAO.split())
    left, right = "好".encode()[1:2], "好".encode()[2:3]  # a5 + bd, the end of 好
    (text, a), (same, b) = places_in(blob, [left, right])
    assert text is same and b == a + 1
    assert short_label(pieces_in_text(text, b, b + 1)) == "好 3/3"
    assert short_label(example_in(blob, right).pieces) == "你 2/3"  # alone, bd is first seen in 你 (e4 bd a0)
    assert places_in(blob, [b"\xe8", b"\xe6"]) == [None, None]  # never side by side


def test_a_text_segmented_once_gives_the_same_pieces_cut_or_whole():
    data = "我很好👨\u200d👩\u200d👧\r\n走".encode()
    whole = TextPieces(data)
    for start in range(len(data)):
        for end in range(start + 1, len(data) + 1):
            assert whole.at(start, end - start) == pieces_in_text(data, start, end), (start, end)
    cut = TextPieces(data[:4])  # 我 and the first byte of 很: the first tokens of a longer word
    assert short_label(cut.at(3, 1)) == "? 1/3" and short_label(cut.at(0, 3)) == "我"
