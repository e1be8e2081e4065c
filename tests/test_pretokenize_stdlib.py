"""The named patterns split by the standard library's ``re`` (texts without characters beyond U+FFFF, on
Python 3.11+) give exactly the pieces ``regex`` gives: for every character up to U+FFFF in every kind of
neighbourhood, for the contractions in every case, and on the real corpora."""

from __future__ import annotations

import importlib
import sys

import pytest
import regex
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, WIKI, read_corpus

from bpe_core import pretokenize

PRE = importlib.import_module("bpe_core.pretokenize")
NAMES = list(PRE.PATTERNS)
BMP = [chr(c) for c in range(0x10000)]
ASTRAL = regex.compile("[\U00010000-\U0010ffff]")

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="re has possessive quantifiers from 3.11")


def both(name: str, text: str) -> tuple[list[str], list[str]]:
    return PRE._stdlib_pattern(name).findall(text), PRE._COMPILED[name].findall(text)


# Neighbours chosen to meet every alternative of the three patterns: letters of both cases (o200k splits
# at case changes), digits (groups of three), spaces, line ends, apostrophes (contractions), '/' (o200k).
GLUES = ["", " ", "  ", "a", "A", "1", "'", "'s", "\n", "\r\n", " \n", "/", "-", "aB", "\u00e9", "\u4e00", "\u3000"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("glue", GLUES)
def test_every_bmp_character_in_every_neighbourhood(name, glue):
    text = glue.join(BMP)
    stdlib, reference = both(name, text)
    assert stdlib == reference
    doubled = glue.join(c + c for c in BMP) + glue
    stdlib, reference = both(name, doubled)
    assert stdlib == reference


@pytest.mark.parametrize("name", NAMES)
def test_contractions_in_every_case(name):
    # The characters regex matches case-insensitively with a contraction's letters (s also matches U+017F).
    letters = [c for c in BMP if regex.fullmatch("(?i)[sdmtlver]", c)]
    assert "\u017f" in letters
    pairs = [f"x'{a}{b} '{a}{b}\n" for a in letters for b in letters]
    stdlib, reference = both(name, "".join(pairs) + "".join(f"'{a}" for a in letters))
    assert stdlib == reference


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("corpus", [ENGLISH, WIKI, CHINESE, EMOJI])
def test_real_corpora(name, corpus):
    text = read_corpus(corpus)
    text = ASTRAL.sub("", text) + ASTRAL.sub("\u00a0", text[:50_000])  # the emoji corpus without its astral ones
    assert PRE._within_bmp(text)
    stdlib, reference = both(name, text)
    assert stdlib == reference
    assert pretokenize(text, name) == reference


@pytest.mark.parametrize("name", NAMES)
def test_text_beyond_the_bmp_goes_through_regex(name):
    text = "x \U0001d400\U0001d401 \U0001f600 it's 12\U0001d7ce\n  "  # bold A, B and digit 0: letters and a digit
    assert not PRE._within_bmp(text)
    stdlib, reference = both(name, text)
    assert stdlib != reference  # the re form knows only the letters and digits up to U+FFFF
    assert pretokenize(text, name) == reference


def test_within_bmp():
    assert PRE._within_bmp("") and PRE._within_bmp("abc \u00e9\u4e00\uffff")
    assert PRE._within_bmp("\ud800 lone surrogate \udfff")
    assert not PRE._within_bmp("a\U00010000") and not PRE._within_bmp("\U0010ffff")


def test_a_short_text_is_split_by_regex_until_the_re_pattern_is_compiled(monkeypatch):
    monkeypatch.setattr(PRE, "_STDLIB_READY", set())
    PRE._stdlib_pattern.cache_clear()
    short = "Hello world, it's 2024: 你好！"
    assert PRE.pretokenize(short, "gpt2") == PRE._COMPILED["gpt2"].findall(short)
    assert PRE._stdlib_pattern.cache_info().currsize == 0  # not compiled for a short text (a page's first view)
    long = short * (PRE.STDLIB_FROM // len(short) + 1)
    assert PRE.pretokenize(long, "gpt2") == PRE._COMPILED["gpt2"].findall(long)
    assert PRE._stdlib_pattern.cache_info().currsize == 1 and PRE._STDLIB_READY == {"gpt2"}
    hits = PRE._stdlib_pattern.cache_info().hits
    assert PRE.pretokenize(short, "gpt2") == PRE._COMPILED["gpt2"].findall(short)
    assert PRE._stdlib_pattern.cache_info().hits == hits + 1  # compiled now: short texts use it too
