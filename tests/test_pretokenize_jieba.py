"""The jieba pre-tokenizer: Chinese word segmentation (分词 / 斷詞), 繁體 through OpenCC with the cuts mapped back
by character offsets; training on its words; the files it can and cannot be written to; the CLI and URL names."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from corpus_excerpts import CHINESE, corpus_slice

from bpe_core import PRETOKENIZER_CHOICES, PRETOKENIZERS, TrainConfig, corpus_words, pretokenize, train
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.formats import files as bfiles
from bpe_core.languages.declaration import load as declaration
from bpe_core.pretokenize_words import JIEBA, jieba_pieces
from ui.settings import PRE_LABELS, settings_from_url


def test_the_choices_list_the_segmenter_between_the_named_pre_tokenizers_and_the_users_pattern():
    # Deliberately not in PRETOKENIZERS: those need only regex and all write a tokenizer.json.
    assert PRETOKENIZER_CHOICES == ("whitespace", "gpt2", "gpt4", "o200k", "none", "jieba", "regex")
    assert JIEBA not in PRETOKENIZERS and JIEBA in PRE_LABELS


@pytest.mark.parametrize(
    "text, words",
    [
        ("我喜欢自然语言处理", ["我", "喜欢", "自然语言", "处理"]),
        # jieba alone cuts 自然 | 語言: its dictionary is mostly Simplified. Through t2s it gives the 简体 cuts.
        ("我喜歡自然語言處理", ["我", "喜歡", "自然語言", "處理"]),
        ("台灣的資料庫程式很有趣", ["台灣", "的", "資料庫", "程式", "很", "有趣"]),
        (
            "人人生而自由，在尊嚴和權利上一律平等。",
            ["人人", "生而自由", "，", "在", "尊嚴", "和", "權利", "上", "一律平等", "。"],
        ),
        (
            "人人生而自由，在尊严和权利上一律平等。",
            ["人人", "生而自由", "，", "在", "尊严", "和", "权利", "上", "一律平等", "。"],
        ),
        ("Hello, 世界!\r\n", ["Hello", ",", " ", "世界", "!", "\r\n"]),
        ("", []),
    ],
)
def test_real_sentences_are_cut_into_words(text, words):
    assert pretokenize(text, JIEBA) == words


def test_simplified_and_traditional_get_the_same_cuts():
    simplified, traditional = jieba_pieces("我喜欢自然语言处理"), jieba_pieces("我喜歡自然語言處理")
    assert [len(w) for w in simplified] == [len(w) for w in traditional]


@pytest.mark.parametrize("code", ["cmn_hans", "cmn_hant", "yue", "eng"])
def test_pieces_are_slices_of_the_original_text_and_join_back_to_it(code):
    text = declaration(code).text()
    pieces = jieba_pieces(text)
    assert "".join(pieces) == text and all(pieces)
    if code == "cmn_hant":  # offsets into the original: the pieces are 繁體, never the converted 简体
        assert "權利" in pieces and "权利" not in pieces


def test_characters_beyond_the_dictionary_and_the_bmp_keep_their_offsets():
    text = "𠀀字 🙂 café\t第二行  end "
    pieces = jieba_pieces(text)
    assert "".join(pieces) == text and "第二行" in pieces and "𠀀" in pieces


def test_training_on_words_never_merges_across_a_word_and_unsplit_text_does():
    text = corpus_slice(CHINESE, 0, 20_000)
    words = jieba_pieces(text)
    cfg = TrainConfig(variant="char", pretokenizer=JIEBA, num_merges=300)
    run = train(corpus_words(text, cfg), cfg)
    assert run.num_steps == 300 and set(run.words) == set(words)
    vocab = [entry.value for entry in run.vocabulary()]
    assert all(any(token in w for w in run.words) for token in vocab)
    # Without pre-tokenization the same merges budget learns tokens that span two of jieba's words.
    whole_cfg = TrainConfig(variant="char", pretokenizer="none", num_merges=300)
    whole = train(corpus_words(text, whole_cfg), whole_cfg)
    spans = {entry.value for entry in whole.vocabulary()} - set(vocab)
    assert any(not any(token in w for w in set(words)) for token in spans)


def test_a_byte_model_on_words_encodes_and_decodes_traditional_text():
    text = "我喜歡自然語言處理。我喜欢自然语言处理。台灣的資料庫程式很有趣\n" * 3
    cfg = TrainConfig(variant="byte", pretokenizer=JIEBA, num_merges=40)
    tok = Tokenizer.from_run(train(corpus_words(text, cfg), cfg))
    assert tok.decode(tok.encode(text)) == text


def test_tokenizer_json_is_refused_and_the_other_files_are_written(tmp_path):
    text = "我喜歡自然語言處理。我喜欢自然语言处理。\n" * 3
    cfg = TrainConfig(variant="byte", pretokenizer=JIEBA, num_merges=10)
    run = train(corpus_words(text, cfg), cfg)
    assert not bfiles.tokenizer_json_supported(run)
    with pytest.raises(ValueError, match="jieba word segmenter"):
        bfiles.tokenizer_json(run)
    names = {p.name for p in bfiles.save_model(run, tmp_path)}
    assert names == {"merges.txt", "vocab.json", "bpe_explorer.json"}
    assert json.loads((tmp_path / "bpe_explorer.json").read_text(encoding="utf-8"))["pretokenizer"] == JIEBA
    loaded = bfiles.load_model(tmp_path)
    assert loaded.pretokenizer == JIEBA and loaded.encode(text) == Tokenizer.from_run(run).encode(text)


def test_cli_trains_on_words_and_refuses_the_tokenizer_json_in_one_line(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("我喜歡自然語言處理。我喜欢自然语言处理。\n" * 3, encoding="utf-8")
    out = tmp_path / "model"
    args = [sys.executable, "-m", "bpe_core", "train", str(corpus), "--pretokenizer", "jieba", "--variant", "byte"]
    done = subprocess.run([*args, "--merges", "5", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "tokenizer.json cannot hold the jieba word segmenter" in done.stderr
    assert "pre-tokenizer jieba" in done.stdout and (out / "vocab.json").is_file()
    assert not (out / "tokenizer.json").exists()
    plain = subprocess.run([*args, "--merges", "5"], capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and plain.stderr == ""


def test_the_url_carries_the_segmenter():
    state = settings_from_url({"pre": "jieba"}, None)
    assert state.settings["pre"] == JIEBA and state.notes == ()


def test_the_sidebar_trains_the_traditional_chapter_on_words_and_the_url_keeps_it():
    from app_helpers import body_with, new_app, no_exception, text_of

    at = new_app(preset="hongloumeng-chapter-hant", variant="char", step=3)
    at.selectbox(key="w.pre").select(JIEBA).run()
    no_exception(at)
    assert at.query_params["pre"] == JIEBA
    card = " ".join(text_of(body_with(at, "bpe-merge-card")).split())
    # The card names the words the pair occurs in: the words jieba cut from the 繁體 text (那道人), not the chapter.
    assert card.startswith("Merge 3: 道 + 人 → 道人 count 19") and "14 in 道人, 5 in 那道人" in card


def test_an_upload_over_the_apps_jieba_limit_is_a_message_naming_the_limit_and_the_command_line():
    from app_helpers import new_app, no_exception, upload

    from bpe_core.inputs import format_size
    from ui.training import JIEBA_MAX_BYTES

    at = new_app(variant="char", pre="jieba")
    line = "滿紙荒唐言，一把辛酸淚。都云作者痴，誰解其中味？\n".encode()
    upload(at, "big.txt", line * (JIEBA_MAX_BYTES // len(line) + 1))
    no_exception(at)
    notes = [i.value for i in at.info]
    assert any(f"up to {format_size(JIEBA_MAX_BYTES)};" in n and "--pretokenizer jieba" in n for n in notes), notes
    # Just under the limit it trains on jieba's words.
    upload(at, "small.txt", line * 20)
    no_exception(at)
    assert not any("--pretokenizer jieba" in i.value for i in at.info)
    assert "滿紙" in " ".join(h.proto.body for h in at.get("html"))
