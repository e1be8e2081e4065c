"""Readable byte chips (issue 39): a partial UTF-8 chip in text names its character and bytes (很 1–2/3); a chip
standing alone (merge card, vocabulary) says what its bytes are and a character of the corpus they occur in."""

from __future__ import annotations

import html
import re

from app_helpers import bodies, body_with, new_app, no_exception, open_page

CHIP = re.compile(
    r'<span class="bpe-chip([^"]*)"[^>]*title="([^"]*)"[^>]*>(.*?)'
    r'(?:<span class="of">([^<]*)</span></span>|</span>(?!<span class="of">))'
)


def _chips(fragment: str) -> list[tuple[str, str, str, str]]:
    """``(classes, title, label, line under the chip)`` of every chip in ``fragment``, unescaped."""
    return [tuple(html.unescape(x) for x in m.groups(default="")) for m in CHIP.finditer(fragment)]


def test_chips_in_the_corpus_name_their_character_and_bytes():
    at = new_app(preset="nihao", step=3)
    no_exception(at)
    corpus = _chips(body_with(at, "id='bpe-corpus'"))
    lines = {(label, under) for cls, _, label, under in corpus if "partial" in cls}
    # 你好啊 after merge 3 (你 + \xe5): the mixed chip, then the rest of 好 and the three bytes of 啊
    assert {("你\\xe5", "你 + 好 1/3"), ("\\xa5", "好 2/3"), ("\\xbd", "好 3/3"), ("\\xe5", "啊 1/3")} <= lines
    titles = {title for cls, title, label, _ in corpus if label == "\\xa5"}
    assert titles == {"token 165 · bytes a5 · byte 2 of 好 (3 bytes) · base symbol"}
    # every partial chip in text says where it belongs; a whole character needs no line
    assert all(under for cls, _, _, under in corpus if "partial" in cls)
    assert not [under for cls, _, _, under in corpus if "partial" not in cls and under]


def test_chips_standing_alone_say_what_their_bytes_are_with_an_example():
    at = new_app(preset="nihao", step=3)
    card = _chips(body_with(at, "bpe-merge-card"))
    by_label = {label: (title, under) for _, title, label, under in card}
    title, under = by_label["\\xe5"]
    assert under == "e.g. 好 1/3"
    assert "the lead byte of a 3-byte character" in title and "e.g. 好 1/3 in the word 你好啊" in title
    title, under = by_label["你\\xe5"]
    assert under == "e.g. 你 + 好 1/3"
    assert "你 (a whole character) + the lead byte of a 3-byte character" in title
    vocab = _chips(next(b for b in bodies(at) if "made by merges" in b))
    assert ("你\\xe5", "e.g. 你 + 好 1/3") in {(label, under) for _, _, label, under in vocab}


def test_readable_bytes_in_traditional_chinese_and_gpt2_aliases():
    at = new_app(preset="nihao", step=3, lang="zh-Hant", bytes="gpt2")
    no_exception(at)
    corpus = _chips(body_with(at, "id='bpe-corpus'"))
    titles = [title for cls, title, _, under in corpus if under == "好 2/3"]
    assert titles and all("好 的第 2 個位元組（共 3 位元組）" in t for t in titles)
    assert all("GPT-2 把每個位元組寫成一個字元" in t for t in titles)
    card = body_with(at, "bpe-merge-card")
    assert '<span class="hex">e5</span><span class="of">例：好 1/3</span>' in card


def test_the_encode_page_names_the_characters_of_its_byte_chips():
    at = open_page("encode", preset="nihao")
    no_exception(at)
    chips = _chips(body_with(at, "enc-tokens"))
    notes = [under for cls, _, _, under in chips if "partial" in cls]
    # the page's text is encoded with the preset's merges: 我 and 走 stay three separate bytes each
    assert {"我 1/3", "我 2/3", "我 3/3", "走 1/3", "走 2/3", "走 3/3"} <= set(notes)
    assert all(notes)


def test_a_pair_names_its_bytes_where_the_pair_occurs():
    at = new_app(preset="nihao", step=4)
    pairs = [(label, under) for _, _, label, under in _chips(body_with(at, "bpe-pairs"))]
    # \xbd is first seen inside 你 (e4 bd a0), but beside \xa5 it is the end of 好, and so the table says
    assert ("\\xa5", "e.g. 好 2/3") in pairs and ("\\xbd", "e.g. 好 3/3") in pairs
    assert ("\\xbd", "e.g. 你 2/3") not in pairs
    alone = _chips(next(b for b in bodies(at) if "made by merges" in b))
    assert all(under.startswith("e.g. ") for cls, _, _, under in alone if "partial" in cls)
