"""One concept, one term: within each Chinese catalog, *pair*, *merge k*, *step k* and *rank* each have one
translation (the glossary's, ``ui/glossary.py``), so a student never wonders whether 词元对 and 符号对, or 第 3 步合并
and 第 3 次合并, are two different things.

``tests/test_glossary.py`` checks that a message using a term contains the glossary's Chinese; this test checks the
other direction: no rival translation of the same concept sits beside it. 字节对 / 位元組對 is right inside
字节对编码 / 位元組對編碼 and for a pair of bytes, and nowhere else.
"""

from __future__ import annotations

import re

import pytest
from catalogs import catalog_entries

CHINESE = ("zh-Hans", "zh-Hant")

#: The English that makes 字节对 right: Byte-Pair Encoding, a byte pair, a pair of bytes.
BYTE_PAIR_EN = re.compile(r"\bbyte[- ]pairs?\b|\bpairs? of (?:adjacent )?bytes\b", re.IGNORECASE)
#: Per language: the glossary's term for a pair of symbols, the compound 字节对编码, the word 字节对, and the rival
#: words for a pair of symbols (a pair of tokens, characters or bytes said where the glossary says 符号对), as patterns

#: (字符对应 / 字元對應 "corresponds" is not a pair.)
PAIR = {
    "zh-Hans": ("符号对", "字节对编码", "字节对", ("词元对", "字符对(?!应)", "字节对", "令牌对", "标记对")),
    "zh-Hant": ("符號對", "位元組對編碼", "位元組對", ("詞元對", "字元對(?!應)", "位元組對", "權杖對", "標記對")),
}
#: "merge {k}" in English: the k-th merge learned.
MERGE_K = re.compile(r"\bmerges?[ \t]+#?\{(\w+)\}", re.IGNORECASE)
#: "step {k}" in English: the stepper's step k (the corpus after merge k).
STEP_K = re.compile(r"\bsteps?[ \t]+\{(\w+)\}", re.IGNORECASE)
#: "第 {k} 步合并": merge k said as a step, the rival this test exists for.
STEP_MERGE = re.compile(r"第\s*\S+\s*步合[并併]")
RANK_EN = re.compile(r"\branks?\b", re.IGNORECASE)
RANK_RIVALS = ("名次", "顺位", "順位", "等级", "等級", "秩")


def rival_terms(lang: str, pairs) -> list[str]:
    """Every translation in ``pairs`` (``(English texts, translations)``) that says a concept in a second way."""
    term, compound, byte_pair, rivals = PAIR[lang]
    problems = []
    for english, forms in pairs:
        en = "\n".join(english)
        about_bytes = bool(BYTE_PAIR_EN.search(en))
        for form in forms:
            said = f"{en[:70]!r} -> {form[:90]!r}"
            rest = form.replace(compound, "")
            if about_bytes:
                rest = rest.replace(byte_pair, "")
            problems += [f"pair as {r} (the glossary: {term}): {said}" for r in rivals if re.search(r, rest)]
            problems += [f"merge k as a step ({m}): {said}" for m in STEP_MERGE.findall(form)]
            for k in MERGE_K.findall(en):
                if not re.search(rf"第\s*\{{{k}\}}\s*次", form):
                    problems.append(f"merge {{{k}}} is not 第 {{{k}}} 次: {said}")
            for k in STEP_K.findall(en):
                if not re.search(rf"第\s*\{{{k}\}}\s*步", form):
                    problems.append(f"step {{{k}}} is not 第 {{{k}}} 步: {said}")
            if RANK_EN.search(en):
                problems += [f"rank as {r} (the glossary: 排名): {said}" for r in RANK_RIVALS if r in form]
    return problems


@pytest.mark.parametrize("lang", CHINESE)
def test_one_concept_one_term(lang):
    problems = rival_terms(lang, catalog_entries(lang))
    assert not problems, "\n".join(problems)


def test_the_check_finds_each_rival():
    """Not vacuous: each kind of rival the issue found is reported, and the allowed uses of 字节对 are not."""
    found = rival_terms(
        "zh-Hans",
        [
            (("Pair",), ("字节对",)),
            (("More pairs",), ("更多词元对",)),
            (("Merge {step}",), ("第 {step} 步合并",)),
            (("The corpus at step {k}",), ("第 {k} 次合并后的语料",)),
            (("Rank",), ("名次",)),
        ],
    )
    assert len(found) == 6, found  # "Merge {step}" is both a step said for a merge and not 第 {step} 次
    assert not rival_terms(
        "zh-Hant",
        [
            (("Byte-Pair Encoding, one merge at a time",), ("位元組對編碼，一次一個合併",)),
            (("replace the most frequent pair of bytes",), ("替換頻次最高的位元組對",)),
            (("Merge {k} of {n}",), ("第 {k} 次合併，共 {n} 次",)),
            (("Pair",), ("符號對",)),
        ],
    )
