"""The computed teaching facts (bpe_core.teaching.facts) against the shipped rank files, tiktoken, Hugging Face
tokenizers and the textbook corpus."""

from __future__ import annotations

import json

import pytest
import tiktoken
import tiktoken_ext.openai_public as openai_public
from textbook import TEXTBOOK_WORDS
from tiktoken.load import load_tiktoken_bpe

from bpe_core import TrainConfig, corpus_words, load_gpt, train
from bpe_core.i18n import translations
from bpe_core.models import HERE
from bpe_core.teaching.facts import (
    NUM_BYTES,
    SPECIAL_TOKENS,
    UTF8_UNUSED_BYTES,
    ideograph_count,
    merge_of_rank,
    numbering_legend,
    rank_of_merge,
    rediscovery_caption,
    tie_agreement,
    tie_agreement_text,
    utf8_row,
    utf8_rows,
    vocabulary_size,
    vocabulary_text,
)

ENCODINGS = {"gpt2": "r50k_base", "cl100k": "cl100k_base", "o200k": "o200k_base"}


def tiktoken_encoding(model: str) -> tiktoken.Encoding:
    """tiktoken's own definition of the encoding (tiktoken_ext/openai_public.py: pattern, special
    tokens, n_vocab), its rank file read from the shipped copy (same sha256, which tiktoken checks)
    instead of downloaded: this machine has no network."""

    def local(url: str, expected_hash: str | None = None):
        return load_tiktoken_bpe(str(HERE / url.rsplit("/", 1)[-1]), expected_hash)

    saved = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = local
    try:
        return tiktoken.Encoding(**getattr(openai_public, ENCODINGS[model])())
    finally:
        openai_public.load_tiktoken_bpe = saved


# ------------------------------------------------------------------------------ numbering
def test_merge_k_is_rank_255_plus_k_in_the_rank_files():
    """Merge k of the app = rank/id 255 + k in tiktoken: the token of GPT-2's merge 15,275 is id 15,530."""
    gpt2 = load_gpt("gpt2")
    enc = tiktoken_encoding("gpt2")
    for k in (1, 2, 100, 15_275, gpt2.num_merges):
        left, right = gpt2.merges[k - 1]
        token = left + right
        assert enc.encode_single_token(token) == rank_of_merge(k) == 255 + k
        assert merge_of_rank(rank_of_merge(k)) == k
    assert rank_of_merge(15_275) == 15_530
    assert merge_of_rank(255) is None and merge_of_rank(0) is None
    with pytest.raises(ValueError):
        rank_of_merge(0)
    with pytest.raises(ValueError):
        merge_of_rank(-1)


def test_merge_k_is_the_kth_line_of_merges_txt(tmp_path):
    """The same merges written as a Hugging Face merges.txt: line k after ``#version`` is merge k."""
    from bpe_core.formats.files import save_model

    run = train(TEXTBOOK_WORDS, TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=5))
    written = {p.name: p for p in save_model(run, tmp_path)}
    lines = written["merges.txt"].read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#version") and len(lines) == 1 + run.num_steps
    vocab = json.loads(written["vocab.json"].read_text(encoding="utf-8"))
    for k in range(1, run.num_steps + 1):
        left, right = lines[k].split(" ")
        assert vocab[left + right] == rank_of_merge(k)


def test_numbering_legend_in_every_language():
    assert "255 + k" in numbering_legend()
    for lang in ("zh-Hans", "zh-Hant"):
        text = numbering_legend(translations(lang))
        assert "255 + k" in text and "#version" in text and text != numbering_legend()


# ------------------------------------------------------------------------------ vocabulary arithmetic
@pytest.mark.parametrize("model", ["gpt2", "cl100k", "o200k"])
def test_vocabulary_arithmetic_from_the_rank_files(model):
    v = vocabulary_size(model)
    enc = tiktoken_encoding(model)
    assert v.ranks == len(enc._mergeable_ranks) and v.merges == v.ranks - NUM_BYTES
    assert v.merges == load_gpt(model).num_merges
    assert dict(v.specials) == enc._special_tokens  # the names and ids are tiktoken's
    assert v.highest_id + 1 == enc.n_vocab


def test_gpt2_is_256_bytes_plus_50000_merges_plus_endoftext():
    v = vocabulary_size("gpt2")
    assert (v.ranks, v.merges, v.total) == (50_256, 50_000, 50_257)
    assert vocabulary_text(v, "GPT-2") == (
        "GPT-2: 256 bytes + 50,000 merges + 1 special token (<|endoftext|>) = 50,257 tokens."
    )
    assert vocabulary_size("cl100k").total == 100_261 and vocabulary_size("o200k").total == 200_000
    assert SPECIAL_TOKENS["gpt2"] == (("<|endoftext|>", 50256),)
    with pytest.raises(ValueError):
        vocabulary_size("gpt5")


# ------------------------------------------------------------------------------ UTF-8
@pytest.mark.parametrize(
    "text, code_points, hex_bytes",
    [
        ("你", ("U+4F60",), "e4 bd a0"),
        ("\U00020bb7", ("U+20BB7",), "f0 a0 ae b7"),  # 𠮷: a four-byte ideograph
        ("\u2764", ("U+2764",), "e2 9d a4"),  # ❤: three bytes
        ("\u2764\ufe0f", ("U+2764", "U+FE0F"), "e2 9d a4 ef b8 8f"),  # ❤️: six
        ("\u00e9", ("U+00E9",), "c3 a9"),  # é precomposed
        ("e\u0301", ("U+0065", "U+0301"), "65 cc 81"),  # e + combining acute
    ],
)
def test_utf8_rows(text, code_points, hex_bytes):
    row = utf8_row(text)
    assert row.code_points == code_points and row.hex == hex_bytes
    assert row.num_bytes == len(hex_bytes.split())


def test_utf8_table_holds_the_edge_cases_with_notes():
    rows = {r.text: r for r in utf8_rows()}
    assert rows["\U0001f468\u200d\U0001f469\u200d\U0001f467"].num_bytes == 18
    assert rows["😀"].num_bytes == 4 and rows["a"].num_bytes == 1
    assert all(r.note for t, r in rows.items() if t != "a")
    # Bytes C0, C1 and F5-FF never occur in UTF-8: none of the rows holds one.
    assert not any(b in (0xC0, 0xC1) or b >= 0xF5 for r in rows.values() for b in bytes.fromhex(r.hex))
    with pytest.raises(UnicodeEncodeError):
        utf8_row("\ud800")


# ------------------------------------------------------------------------------ tie agreement
def textbook_run(rule: str):
    cfg = TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=None, min_frequency=2, tie_break=rule)
    return train(TEXTBOOK_WORDS, cfg)


def test_tie_agreement_on_the_textbook_corpus():
    """first-seen and Hugging Face order: 15 merges each, the same merge at steps 1, 4, 5, 8, 9 and 15,
    10 tokens in common, and every word one token in the end under both."""
    t = tie_agreement(textbook_run("first-seen"), textbook_run("hf"))
    assert (t.steps, t.same_step, t.first_difference, t.shared_tokens, t.same_words) == (15, 6, 2, 10, True)
    assert tie_agreement_text(t) == (
        "The two rules make the same merge at the same step at 6 of 15 steps, and 10 of the 15 new tokens are "
        "made by both. In the end every word is split the same way under both."
    )
    same = tie_agreement(textbook_run("lexical"), textbook_run("lexical"))
    assert same.same_step == same.steps == same.shared_tokens and same.first_difference is None


# ------------------------------------------------------------------------------ captions from settings
def test_rediscovery_caption_from_the_run():
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=100)
    short = train(TEXTBOOK_WORDS, cfg)  # a word-count list: 12 merges, then no pair is left
    text = rediscovery_caption(short, "the textbook list", True, 100)
    assert text.startswith("Byte-level BPE trained on the textbook list, a word-count list: no pre-tokenizer")
    assert "It asked for 100 merges and stopped after 12 merges: " in text
    assert "Its 12 merges beside GPT-2's first 100" in text and "8 million" not in text
    prose = train(corpus_words("the cat sat on the mat " * 30, cfg), cfg)
    text = rediscovery_caption(prose, "a text", False, 100)
    assert text.startswith("Byte-level BPE with GPT-2's pre-tokenizer, trained on a text.")
    assert ("stopped after" in text) == (prose.num_steps < 100)
    zh = rediscovery_caption(short, "课本", True, 100, translations("zh-Hans"))
    assert "12" in zh and "100" in zh and "Byte-level" not in zh


def test_bytes_that_never_occur_in_utf8():
    """Every code point (surrogates aside) encoded: exactly C0, C1 and F5-FF never occur."""
    seen = set()
    for cp in range(0x110000):
        if not 0xD800 <= cp <= 0xDFFF:
            seen.update(chr(cp).encode("utf-8"))
    assert tuple(sorted(set(range(256)) - seen)) == UTF8_UNUSED_BYTES
    assert len(UTF8_UNUSED_BYTES) == 13


def test_most_encoded_ideographs_are_above_u_ffff():
    import unicodedata

    c = ideograph_count()
    assert c.unicode_version == unicodedata.unidata_version
    every = sum(1 for cp in range(0x110000) if unicodedata.name(chr(cp), "").startswith("CJK UNIFIED IDEOGRAPH"))
    assert c.bmp + c.supplementary == every
    assert c.supplementary > c.bmp > 20_000  # the common ones are in the BMP, most are not
    assert len(chr(0x4E00).encode()) == 3 and len(chr(0x20000).encode()) == 4
