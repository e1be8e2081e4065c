"""bpe_core.teaching.worksheet: the blank worksheet (the corpus given, the pair tables empty) in every language."""

from __future__ import annotations

import re

from html_doc import Doc, find, text

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.i18n import LANGUAGES, translations
from bpe_core.teaching.worksheet import BLANK_ROWS, worksheet_html

NIHAO = "你好啊 你好 你好啊 你好 我 啊 走"


def _run(merges=10):
    config = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=merges, min_frequency=1)
    return train(corpus_words(NIHAO, config), config)


def test_the_corpus_is_given_and_the_merges_are_blank():
    run = _run()
    doc = Doc(worksheet_html(run, 4))
    words = [text(w) for w in find(doc.root, "span", "word")]
    assert words == ["你好啊", "你好", "我", "啊", "走"]
    sections = find(doc.root, "section", "merge")
    assert [text(find(s, "h2")[0]) for s in sections] == ["Merge 1", "Merge 2", "Merge 3", "Merge 4"]
    for s in sections:
        rows = find(s, "tr", "blank")
        assert len(rows) == BLANK_ROWS
        assert all(text(td) == "" for r in rows for td in find(r, "td")[1:])  # pair and count left to the student
    # nothing of the answer: no merged token, no chosen row
    body = text(find(doc.root, "body")[0])
    assert "你\\xe5" not in body and "Settings" in body and not find(doc.root, "tr", "chosen")
    merged = {run.token_text(run.snapshot(k).token, "utf8") for k in range(1, 5)}
    assert not merged & {text(b).split("\n")[0] for b in find(doc.root, "span", "tok")}
    assert not re.search(r"(src|href)\s*=|url\(|@import|<script", worksheet_html(run, 4))


def test_every_language_and_the_merge_count_is_clamped():
    run = _run(3)
    for lang in LANGUAGES:
        tr = None if lang == "en" else translations(lang)
        doc = Doc(worksheet_html(run, 10, tr=tr, lang=lang))
        assert find(doc.root, "html")[0]["attrs"]["lang"] == lang
        assert len(find(doc.root, "section", "merge")) == 3  # the run made 3 merges
    hant = text(find(Doc(worksheet_html(run, 2, tr=translations("zh-Hant"), lang="zh-Hant")).root, "body")[0])
    assert "練習單" in hant and "一共做 2 次合併" in hant and "Merge" not in hant
