"""bpe_core.scripts: spotting text written without spaces, on excerpts of the real corpora."""

from __future__ import annotations

import gettext

import pytest
from corpus_excerpts import corpus_slice, read_corpus

from bpe_core.scripts import space_free_report, space_free_share, suggest_pretokenizer, whitespace_hint

CHINESE = ["hongloumeng.txt", "sanguo.txt", "xiyouji.txt"]
ENGLISH = ["pg16457.txt", "taylorswift.txt", "emoji-test.txt"]


@pytest.mark.parametrize("name", CHINESE)
def test_chinese_novels_are_space_free_and_get_a_suggestion(name):
    text = corpus_slice(name, 5_000, 2_000)
    assert space_free_share(text) > 0.95
    assert suggest_pretokenizer(text, "whitespace") == "gpt2"
    for other in ("gpt2", "gpt4", "none", "regex"):
        assert suggest_pretokenizer(text, other) is None
    report = space_free_report(text)
    assert report.longest_word_chars > 100 and report.mean_word_chars > 8


@pytest.mark.parametrize("name", ENGLISH)
def test_english_texts_get_no_suggestion(name):
    text = read_corpus(name)
    assert space_free_share(text) < 0.05
    assert suggest_pretokenizer(text, "whitespace") is None


def test_the_issue_case_chinese_with_emoji():
    text = corpus_slice("hongloumeng.txt", 3_000, 2_000) + " 👨\u200d👩\u200d👧 🇨🇳 👍🏽"
    assert suggest_pretokenizer(text, "whitespace") == "gpt2"
    hint = whitespace_hint(text, "whitespace")
    longest = max(len(w) for w in text.split())
    assert f"the longest {longest:,} characters" in hint and "GPT-2 pattern" in hint
    assert whitespace_hint(text, "gpt2") is None


def test_chinese_already_cut_into_words_by_spaces_is_left_alone():
    text = "你好啊 你好 你好啊 你好 我 啊 走"
    assert space_free_share(text) == 1.0
    assert suggest_pretokenizer(text, "whitespace") is None


def test_other_space_free_scripts_and_mixed_text():
    thai = "ภาษาไทยเขียนติดกันโดยไม่เว้นวรรคระหว่างคำ"  # Thai vowels are combining marks: counted as letters
    japanese = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
    assert space_free_share(thai) == 1.0 and space_free_share(japanese) == 1.0
    assert suggest_pretokenizer(thai, "whitespace") == suggest_pretokenizer(japanese, "whitespace") == "gpt2"
    half = corpus_slice("pg16457.txt", 30_000, 1_000)
    assert space_free_share(half + "你好") < 0.01
    assert space_free_share("") == 0.0 and space_free_share("123 !!! 🙂") == 0.0
    assert suggest_pretokenizer("", "whitespace") is None


def test_the_hint_goes_through_the_translation():
    class Marked(gettext.NullTranslations):
        def gettext(self, message):
            return "[zh] " + message

    text = corpus_slice("xiyouji.txt", 10_000, 1_000)
    assert whitespace_hint(text, "whitespace", Marked()).startswith("[zh] Most of this text")
