"""Chinese that reads naturally in both scripts: no Simplified-only character in the 繁體 text, no
Traditional-only one in the 简体 text, and no term a reader of that locale would not use.

The texts checked are every translation in both catalogs and the glossary's terms and definitions
(``ui/glossary.py``, which is not a catalog). A character is "Simplified-only" when OpenCC's
character-level Simplified → Traditional conversion changes it, and "Traditional-only" when the
Traditional → Simplified conversion changes it (OpenCC: https://github.com/BYVoid/OpenCC, its
``s2t`` / ``t2s`` dictionaries). :data:`BOTH_SCRIPTS` lists the few characters that both scripts
write in some words (著/着, 裡/里, 台/臺 ...), where a one-character conversion cannot decide, and a
character the English text itself quotes (a title such as 紅樓夢) is left as written.
"""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po
from opencc import OpenCC

from bpe_core.i18n import catalog_path
from ui.glossary import TERMS

#: Characters written in both scripts, in some words: a character-level conversion cannot tell.
#: 著 (Traditional 著作, Simplified 著名), 里 (公里) / 裡, 台 (平台, both), 后 (皇后), 干 (干扰),
#: 只 (只有, both), 面 (表面), 系 (系統), 准 (准許), 于 (姓), 制 (制度), 余 (姓), 表 (表格).
BOTH_SCRIPTS = frozenset("著着裡里台臺后干只面系准于制余表")

#: Words a reader of each locale would not use there (Mainland terms in 繁體, with their Taiwan term,
#: and terms this project has retired in both scripts), as ``{word: what to write instead}``.
BANNED: dict[str, dict[str, str]] = {
    "zh-Hant": {
        "預設語料": "內建語料 (預設 is 'default' in Taiwan)",
        "預設範例": "內建語料",
        "窗口": "視窗 or 位置",
        "點擊": "點選",
        "滑塊": "滑桿",
        "拖動": "拖曳",
        "實現": "實作",
        "教程": "教學",
        "示例": "範例",
        "大語言模型": "大型語言模型",
        "保存": "儲存",
        "打開": "開啟",
        "占比": "佔比",
        "製表符": "定位字元",
        "重放": "重播",
        "並列規則": "同分取捨規則",
        "起始字母表": "初始符號集",
        "環月旅行": "環遊月球",
        "BPE Explorer 生成": "BPE 探索器 生成",
    },
    "zh-Hans": {
        "并列规则": "同分取舍规则",
        "起始字母表": "初始符号集",
        "环月旅行": "环游月球",
        "BPE Explorer 生成": "BPE 探索器 生成",
    },
}

_S2T, _T2S = OpenCC("s2t"), OpenCC("t2s")


def catalog_texts(lang: str) -> list[tuple[str, str]]:
    """``(English id, translation)`` for every translated entry of ``lang``'s catalog (each plural form)."""
    with open(catalog_path(lang, ".po"), "rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if not m.id:
            continue
        ident = m.id if isinstance(m.id, str) else m.id[0]
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        out.extend((ident, s) for s in strings if s)
    return out


def glossary_texts(lang: str) -> list[tuple[str, str]]:
    """The glossary's terms and definitions in ``lang``, as ``(English term, text)``."""
    return [(t.en, t.name(lang)) for t in TERMS] + [(t.en, t.definition(lang)) for t in TERMS]


def wrong_script(text: str, lang: str) -> list[str]:
    """The characters of ``text`` that belong to the other script only (allow-list excepted)."""
    convert = _S2T if lang == "zh-Hant" else _T2S
    return [ch for ch in dict.fromkeys(text) if ch not in BOTH_SCRIPTS and convert.convert(ch) != ch]


def banned_terms(text: str, lang: str) -> list[str]:
    return [f"{w} → {instead}" for w, instead in BANNED[lang].items() if w in text]


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_each_text_uses_its_own_script(lang):
    bad = []
    for ident, text in catalog_texts(lang) + glossary_texts(lang):
        # A name the English text quotes as it is (the title 紅樓夢 of the Traditional preset) stays.
        chars = [ch for ch in wrong_script(text, lang) if ch not in ident]
        if chars:
            bad.append(f"{''.join(chars)} in {text[:60]!r} ({ident[:40]!r})")
    assert not bad, f"{len(bad)} {lang} texts with the other script's characters:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_no_banned_term(lang):
    bad = []
    for ident, text in catalog_texts(lang) + glossary_texts(lang):
        for hit in banned_terms(text, lang):
            bad.append(f"{hit} in {text[:60]!r} ({ident[:40]!r})")
    assert not bad, f"{len(bad)} {lang} texts with a term to replace:\n" + "\n".join(bad)


def test_the_checks_catch_what_they_are_for():
    # A Simplified character in 繁體 text, a Traditional one in 简体 text, the allow-list, a banned term.
    assert wrong_script("词元的个数", "zh-Hant") == ["词", "个", "数"]
    assert wrong_script("詞元的個數", "zh-Hans") == ["詞", "個", "數"]
    assert wrong_script("詞元的個數", "zh-Hant") == [] and wrong_script("词元的个数", "zh-Hans") == []
    assert wrong_script("顯著、裡面、平台", "zh-Hant") == []
    assert banned_terms("點擊「下一步」", "zh-Hant") == ["點擊 → 點選"]
    assert banned_terms("點選「下一步」", "zh-Hant") == []
