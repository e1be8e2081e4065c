"""The Languages page's URL values (``article``, ``language``) read and written without Streamlit running, and
the check that finds right-to-left letters in a run's words."""

from __future__ import annotations

import pytest

from bpe_core.languages import declaration as decl
from bpe_core.scripts import has_right_to_left
from ui import language_links as ll


@pytest.mark.parametrize("choice", [None, 0, 1, 30])
def test_article_round_trip(choice):
    assert ll.parse_article(ll.article_param(choice)) == (choice, True)


@pytest.mark.parametrize("raw", ["31", "-1", "x", "", "３", "1.5"])
def test_bad_articles_fall_back_to_the_whole_declaration(raw):
    assert ll.parse_article(raw) == (None, False)


def test_languages():
    assert all(ll.parse_language(k) == (k, True) for k in decl.KEYS)
    assert ll.parse_language(" ARB ") == ("arb", True)
    assert ll.parse_language("en") == ("cmn_hans", False)  # outside a script run the interface is English


def test_adopt_takes_only_values_new_to_the_session():
    state = {}
    notes = ll.adopt({"article": "4", "language": "heb"}, None, state, ("a", "l"), str)
    assert notes == [] and state == {"a": 4, "l": "heb"}
    # What the page wrote last is not adopted again (the learner's later pick stands).
    state = {"a": 7, "l": "tha"}
    url = {"article": "4", "language": "heb"}
    assert ll.adopt(url, dict(url), state, ("a", "l"), str) == []
    assert state == {"a": 7, "l": "tha"}
    notes = ll.adopt({"article": "zz", "language": "zz"}, None, state, ("a", "l"), str)
    assert len(notes) == 2 and state == {"a": None, "l": "cmn_hans"}


def test_right_to_left_letters():
    assert has_right_to_left(["abc", "حقوق"]) and has_right_to_left(["זכויות"])
    assert has_right_to_left([decl.load("urd").sections[1]])
    assert not has_right_to_left(["abc", "人人生而自由", "123", "ศักดิ์ศรี"])
    assert not has_right_to_left(["a" * 10, "حقوق"], limit=10)  # only the first `limit` characters are read


def test_the_chinese_of_each_interface_is_its_script():
    keys = [decl.chinese_key(lang) for lang in ("en", "zh-Hans", "zh-Hant", "fr")]
    assert keys == ["cmn_hans", "cmn_hans", "cmn_hant", "cmn_hans"]
    assert set(decl.CHINESE.values()) <= set(decl.KEYS)
