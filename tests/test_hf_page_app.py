"""Qwen3, DeepSeek-V3 and an uploaded tokenizer.json on the Real tokenizers and Languages pages (AppTest): counts,
chips and the replay are ``tokenizers``' ids; a bad upload is a message, never a traceback (issue 42)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tokenizers
from app_helpers import APP, TIMEOUT, body_with, flat_text, new_app, no_exception, token_ids
from streamlit.testing.v1 import AppTest
from tokenizers import models, pre_tokenizers, trainers

from bpe_core.languages import declaration as decl
from bpe_core.models import HF_DIR_ENV, load_gpt

PAGE = "app_pages/5_Real_tokenizers.py"
SHARED = Path(__file__).resolve().parent.parent / ".." / "shared" / "tokenizers" / "hf"
TEXT = "你好，世界！ 很有趣 hi <|im_start|>user 😀"


@pytest.fixture(scope="module")
def references():
    return {
        name: tokenizers.Tokenizer.from_file(str(SHARED / name / "tokenizer.json")) for name in ("qwen3", "deepseek_v3")
    }


@pytest.fixture
def with_deepseek(monkeypatch):
    monkeypatch.setenv(HF_DIR_ENV, str(SHARED))


def open_page(text: str) -> AppTest:
    at = new_app(preset="zh-emoji")
    at = at.switch_page(PAGE).run()
    no_exception(at)
    at.text_area[0].input(text).run()
    no_exception(at)
    return at


def test_qwen3_and_deepseek_rows_chips_and_replay_are_tokenizers_ids(references, with_deepseek):
    at = open_page(TEXT)
    summary = body_with(at, "id='rt-summary'")
    for name, ref in references.items():
        expected = ref.encode(TEXT, add_special_tokens=False).ids
        assert f"id='rt-row-{name}' data-tokens='{len(expected)}'" in summary
        assert token_ids(body_with(at, f"id='rt-toks-{name}'")) == expected
    # <|im_start|> is one token under Qwen3: its chip looks special (its own class, its text escaped), says why, and
    # a legend line under the chips says what the special look means; the other chips and tabs are plain.
    chips = body_with(at, "id='rt-toks-qwen3'")
    special = re.findall(r'<span class="bpe-chip special"[^>]*data-token="(\d+)">([^<]*)<', chips)
    assert special == [("151644", "&lt;|im_start|&gt;")]
    assert "special token" in chips and chips.count("bpe-added-legend") == 1
    gpt2 = body_with(at, "id='rt-toks-gpt2'")
    assert "bpe-chip special" not in gpt2 and "bpe-added-legend" not in gpt2
    # The replay of Qwen3's merges ends on tokenizers' ids, and names the file's own token ids.
    at.radio(key="rt.replay.model").set_value("qwen3").run()
    no_exception(at)
    at.button(key="rt.next").click().run()
    replay = load_gpt("qwen3").replay(TEXT)
    step = replay.steps[0]
    assert f"Qwen3's merge {step.merge_number:,} (token id {step.token:,})" in flat_text(
        body_with(at, "id='rt-replay-merge'")
    )
    at.button(key="rt.last").click().run()
    card = body_with(at, "id='rt-replay-tokens'")
    assert (
        token_ids(card[card.index("id='rt-replay-tokens'") :])
        == references["qwen3"].encode(TEXT, add_special_tokens=False).ids
    )


def test_without_deepseeks_file_the_page_shows_qwen3_only(monkeypatch):
    monkeypatch.delenv(HF_DIR_ENV, raising=False)
    at = open_page("很有趣")
    summary = body_with(at, "id='rt-summary'")
    assert "rt-row-qwen3" in summary and "rt-row-deepseek_v3" not in summary


def _wordpiece_file() -> bytes:
    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(
        ["hello world, tokenizers cut words", "分词 和 子词"] * 10,
        trainers.WordPieceTrainer(vocab_size=120, special_tokens=["[UNK]"]),
    )
    return tok.to_str().encode("utf-8")


def test_an_uploaded_tokenizer_json_joins_the_comparison_and_a_bad_one_is_a_message():
    at = open_page("hello tokenizers 分词")
    tok = tokenizers.Tokenizer.from_str(_wordpiece_file().decode())
    tok.add_tokens(["分词"])  # an added token that is not special
    data = tok.to_str().encode("utf-8")
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", data, "application/json")).run()
    no_exception(at)
    expected = (
        tokenizers.Tokenizer.from_str(data.decode()).encode("hello tokenizers 分词", add_special_tokens=False).ids
    )
    assert f"id='rt-row-upload' data-tokens='{len(expected)}'" in body_with(at, "id='rt-summary'")
    chips = body_with(at, "id='rt-toks-upload'")
    assert token_ids(chips) == expected
    # The added token has its own chip class and legend line, apart from special tokens.
    added = tok.token_to_id("分词")
    assert re.findall(r'class="bpe-chip added"[^>]*data-token="(\d+)"', chips) == [str(added)]
    assert "added token" in chips and "bpe-chip special" not in chips
    # The dropout picker offers only the BPE models.
    assert "upload" not in at.radio(key="rt.dropout.model").options
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", data[: len(data) // 2], "application/json")).run()
    no_exception(at)
    assert any("truncated" in e.value for e in at.error), [e.value for e in at.error]
    assert "rt-row-upload" not in body_with(at, "id='rt-summary'")


def test_languages_page_has_qwen3_and_deepseek_columns(references, with_deepseek):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/7_Languages.py").run()
    no_exception(at)
    at.radio(key="lang.measure").set_value("tokens").run()
    table = at.dataframe[0].value
    texts = decl.texts()
    for label, name in (("Qwen3", "qwen3"), ("DeepSeek-V3", "deepseek_v3")):
        for i, key in enumerate(decl.KEYS):
            assert table[label][i] == len(references[name].encode(texts[key], add_special_tokens=False).ids)
    # The finding: 简体 costs more than English under GPT-4, less under both Chinese-first tokenizers.
    zh, en = decl.KEYS.index(decl.chinese_key("zh-Hans")), decl.KEYS.index("eng")
    assert table["GPT-4"][zh] > table["GPT-4"][en]
    assert table["Qwen3"][zh] < table["Qwen3"][en] and table["DeepSeek-V3"][zh] < table["DeepSeek-V3"][en]


def _trained_file(kind: str) -> bytes:
    if kind == "Unigram":
        tok = tokenizers.Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        trainer = trainers.UnigramTrainer(vocab_size=80, special_tokens=["<unk>"], unk_token="<unk>")
    else:
        tok = tokenizers.Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(["hello world, tokenizers cut words", "分词 和 子词"] * 10, trainer)
    return tok.to_str().encode("utf-8")


def test_an_uploaded_file_shows_how_it_cuts_wordpiece_steps_unigram_lattice_bpe_replay():
    at = open_page("hello worlds")
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", _wordpiece_file(), "application/json")).run()
    no_exception(at)
    steps = body_with(at, "id='hf-wordpiece'")  # "worlds" is not in the vocabulary: tried, struck out, then "world"
    assert "<s>worlds</s> <b class='hf-found'>world</b>" in steps
    at.file_uploader(key="rt.hf.upload").set_value(
        ("tokenizer.json", _trained_file("Unigram"), "application/json")
    ).run()
    no_exception(at)
    lattice = body_with(at, "id='hf-lattice'")
    assert "class='hf-best'" in lattice and "▁" in lattice
    data = _trained_file("BPE")
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", data, "application/json")).run()
    no_exception(at)
    at.radio(key="rt.replay.model").set_value("upload").run()
    no_exception(at)
    at.button(key="rt.last").click().run()
    card = body_with(at, "id='rt-replay-tokens'")
    expected = tokenizers.Tokenizer.from_str(data.decode()).encode("hello worlds", add_special_tokens=False).ids
    assert token_ids(card[card.index("id='rt-replay-tokens'") :]) == expected


def test_a_step_we_cannot_show_is_named_and_the_ids_still_come_from_tokenizers():
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(), pre_tokenizers.ByteLevel(add_prefix_space=False)]
    )
    tok.train_from_iterator(
        ["call 555 1234 now", "分词 12"] * 10,
        trainers.BpeTrainer(vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
    )
    data = tok.to_str().encode("utf-8")
    at = open_page("call 5551234 分词")
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", data, "application/json")).run()
    no_exception(at)
    warnings = [re.sub(r"\\(.)", r"\1", w.value) for w in at.warning]  # their Markdown escapes removed
    assert any("pre-tokenizer Digits" in w for w in warnings), warnings
    expected = tok.encode("call 5551234 分词", add_special_tokens=False).ids
    assert token_ids(body_with(at, "id='rt-toks-upload'")) == expected


def test_an_upload_over_the_limit_names_the_limit_and_the_command_line():
    at = open_page("hello")
    big = b'{"model": {"type": "BPE", "vocab": {}, "merges": []}, "pad": "' + b"x" * (25 * 1024 * 1024) + b'"}'
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", big, "application/json")).run()
    no_exception(at)
    assert any("over 25 MB" in e.value and "command line" in e.value for e in at.error), [e.value for e in at.error]


def test_an_uploaded_sentencepiece_style_bpe_replays_its_merges_to_tokenizers_ids():
    tok = tokenizers.Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    bytes_ = [f"<0x{b:02X}>" for b in range(256)]
    tok.train_from_iterator(
        ["hello world", "分词 和 子词"] * 10, trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", *bytes_])
    )
    text = "hello 分词 😀"
    at = open_page(text)
    at.file_uploader(key="rt.hf.upload").set_value(("tokenizer.json", tok.to_str().encode(), "application/json")).run()
    no_exception(at)
    at.radio(key="rt.replay.model").set_value("upload").run()
    at.button(key="rt.next").click().run()
    no_exception(at)
    assert "(token id " in flat_text(body_with(at, "id='rt-replay-merge'"))
    at.button(key="rt.last").click().run()
    card = body_with(at, "id='rt-replay-tokens'")
    expected = tok.encode(text, add_special_tokens=False).ids  # 😀 is four <0xNN> byte tokens
    assert token_ids(card[card.index("id='rt-replay-tokens'") :]) == expected and len(expected) >= 4
