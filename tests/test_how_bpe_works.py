"""The How BPE works page (app_pages/8_How_BPE_works.py) through AppTest, in every interface language: the numbers
it shows are bpe_core's, and a Chinese page shows no English message of the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from bpe_core import TrainConfig, train
from bpe_core.i18n import LANGUAGES, catalog_path, translations
from bpe_core.teaching.explain import TIE_RULES

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
PAGE = "app_pages/8_How_BPE_works.py"
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
STEP1 = {
    "en": "Step 1: e + s occurs 6 times in newest and 3 times in widest, 9 times in all. 2 other pairs occur 9 "
    "times too (s + t, t + </w>), so the tie-break rule decides which one is merged (see below).",
    "zh-Hans": "第 1 步：e + s 在 newest 中出现 6 次，在 widest 中出现 3 次，共 9 次。另有 2 个符号对也出现 9 次"
    "（s + t、t + </w>），因此由同分取舍规则决定合并哪一个（见下文）。",
    "zh-Hant": "第 1 步：e + s 在 newest 中出現 6 次，在 widest 中出現 3 次，共 9 次。另有 2 個符號對也出現 9 次"
    "（s + t、t + </w>），因此由同分取捨規則決定合併哪一個（見下文）。",
}


def open_page(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.query_params["lang"] = lang
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def english_messages(lang: str) -> set[str]:
    """The catalog's English messages whose ``lang`` translation differs from them."""
    with open(catalog_path(lang, ".po"), "rb") as f:
        catalog = read_po(f)
    out = set()
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out.update(i for i in ids if i and i not in strings)
    return out


def page_texts(at: AppTest) -> list[str]:
    """Every text the page itself draws (the shared sidebar and the developers' part left out)."""
    developer = {id(e) for x in at.main.expander for e in x.markdown}
    texts = [e.value for e in (*at.title, *at.header, *at.subheader, *at.caption)]
    texts += [e.value for e in at.main.markdown if id(e) not in developer]
    texts += [x.label for x in at.main.expander]
    for table in at.table:
        texts += [str(c) for c in table.value.columns]
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_shows_the_textbook_merges_computed_by_bpe_core(lang):
    at = open_page(lang)
    tr = translations(lang)
    assert at.title[0].value == tr.gettext("How BPE works")
    merges = at.table[0].value
    run = train(TEXTBOOK, TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=5, min_frequency=2))
    expected = [(f"{run.token_text(s.left)} + {run.token_text(s.right)}", str(s.count)) for s in run.snapshots]
    assert expected == [("e + s", "9"), ("es + t", "9"), ("est + </w>", "9"), ("l + o", "7"), ("lo + w", "7")]
    assert list(zip(merges.iloc[:, 1], merges.iloc[:, 3])) == expected
    markdown = [m.value for m in at.markdown]
    assert STEP1[lang] in markdown
    # The three tie-break rules pick three different first merges on "eat tea ate".
    ties = at.table[2].value
    assert len(set(ties.iloc[:, 1])) == 3
    # Where the rules part on the textbook corpus, computed: lexical already at merge 1, Hugging Face at merge 2.
    titles = {rule: tr.gettext(tie.title) for rule, tie in TIE_RULES.items()}
    parting = tr.gettext(
        "The textbook example under each rule: “{lexical}” parts from “{first}” at merge {k}, “{hf}” at merge {j}."
    ).format(lexical=titles["lexical"], first=titles["first-seen"], hf=titles["hf"], k=1, j=2)
    assert parting in markdown
    utf8 = at.table[3].value
    row = utf8[utf8.iloc[:, 0] == "你"].iloc[0]
    assert (row.iloc[2], row.iloc[3]) == ("e4 bd a0", "3")
    # The edge rows, computed: a four-byte ideograph, a three-byte heart, é in two spellings.
    bytes_of = {c: (cp, h, n) for c, cp, h, n in zip(*(utf8.iloc[:, i] for i in range(4)))}
    assert bytes_of["\U00020bb7"] == ("U+20BB7", "f0 a0 ae b7", "4")
    assert bytes_of["\u2764"] == ("U+2764", "e2 9d a4", "3")
    assert bytes_of["\u2764\ufe0f"][2] == "6"
    assert bytes_of["\u00e9"] == ("U+00E9", "c3 a9", "2")
    assert bytes_of["e\u0301"] == ("U+0065 U+0301", "65 cc 81", "3")
    # The tie agreement of first-seen and Hugging Face order on the textbook corpus, computed.
    note = next(b.proto.body for b in at.get("html") if "how-tie-agreement" in b.proto.body)
    assert "data-same='6' data-steps='15'" in note


def test_five_stages_the_missing_marker_and_the_relatives():
    at = open_page("en")
    text = "\n".join(m.value for m in at.markdown)
    assert "1. Pre-tokenize: cut the text into words (pre-tokens) and count each distinct word" in text
    assert "4. Repeat from stage 3" in text
    assert "**Where did </w> go?**" in text and "Ġ (U+0120)" in text
    assert "SentencePiece BPE with byte fallback (Llama 1 and 2, Mistral 7B, Gemma)" in text
    assert "at inference it is switched off" in text
    assert "almost all Chinese characters" not in text and "every later step" not in text
    assert "are above U+FFFF and take four bytes, like 𠮷" in text


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_chinese_page_has_no_english_message(lang):
    at = open_page(lang)
    english = english_messages(lang)
    leaks = []
    for text in page_texts(at):
        for message in english:
            if text == message or (len(message.split()) >= 4 and message in text):
                leaks.append((message, text[:80]))
    assert not leaks


def test_developer_part_is_marked():
    at = open_page("en")
    assert [x.label for x in at.main.expander] == ["For developers: code names and the reference trainer"]
    # Code names appear only there.
    outside = "\n".join(page_texts(at))
    for name in ("tie_break", "TrainConfig", "bpe_core", "first-seen"):
        assert name not in outside


def test_examples_are_trained_once_and_reused_on_every_rerun():
    from ui.training import examples_cache, shared_cache

    sessions = [open_page(lang) for lang in LANGUAGES]  # every example, in every language, trained (or cached)
    cache = examples_cache()
    trained, class_runs = cache.trainings, len(shared_cache())
    assert trained >= 8 and len(cache) == trained  # each example trained once, none evicted
    for at in sessions:
        at.run()  # a rerun: any click on the page
        assert not at.exception
    open_page("zh-Hant")  # a new session
    assert cache.trainings == trained and len(cache) == trained
    assert len(shared_cache()) == class_runs  # the examples never take a place in the class's run cache
