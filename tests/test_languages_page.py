"""The Languages page through AppTest: its table holds bpe_core's numbers, language names come from Babel in
the interface language, one article reads side by side with English as chips, right-to-left languages say how
chips are ordered, and the learner's own parallel texts get the same table."""

from __future__ import annotations

import pytest
from app_helpers import APP, TIMEOUT, bodies, body_with, no_exception
from babel import Locale
from streamlit.testing.v1 import AppTest

from bpe_core import load_gpt
from bpe_core.algorithms.fair_bpe import byte_share_weights, train_mix
from bpe_core.languages import declaration as decl
from bpe_core.languages.token_tax import tax_table

PAGE = "app_pages/7_Languages.py"


def open_languages(lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    no_exception(at)
    at.switch_page(PAGE).run()
    no_exception(at)
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.fixture(scope="module")
def reference():
    return tax_table(decl.texts(), {name: load_gpt(name) for name in ("gpt2", "cl100k", "o200k")})


def test_table_holds_bpe_cores_numbers_and_babels_names(reference):
    at = open_languages("zh-Hans")
    table = at.dataframe[0].value
    assert list(table.iloc[:, 0]) == [Locale.parse(decl.LOCALES[k]).get_display_name("zh_Hans") for k in decl.KEYS]
    assert table.iloc[0, 0] == "英语" and "斯瓦希里语" in list(table.iloc[:, 0])
    by = {row.name: row for row in reference.rows}
    for i, key in enumerate(decl.KEYS):
        assert table["GPT-2"][i] == by[key].tax["gpt2"]
        assert table["GPT-4"][i] == by[key].tax["cl100k"]
        assert table["GPT-4o"][i] == by[key].tax["o200k"]
        assert table.iloc[i, 1] == by[key].chars and table.iloc[i, 2] == by[key].bytes
    assert table["GPT-4o"][0] == 1.0
    # The spread table: one row per tokenizer.
    spread = at.dataframe[1].value
    assert list(spread.iloc[:3, 1]) == [reference.spread(m) for m in ("gpt2", "cl100k", "o200k")]
    # Tokens instead of the tax.
    at.radio(key="lang.measure").set_value("tokens").run()
    table = at.dataframe[0].value
    assert table["GPT-4o"][decl.KEYS.index("tha")] == by["tha"].counts["o200k"].tokens


def test_one_article_side_by_side_with_english_as_chips():
    at = open_languages("en")
    at.selectbox(key="lang.article").set_value(1).run()
    no_exception(at)
    html = "".join(bodies(at))
    # Chinese (the default pick) beside English, under each tokenizer.
    for model in ("gpt2", "cl100k", "o200k", "yours"):
        assert f"lang-toks-{model}-eng" in html and f"lang-toks-{model}-cmn_hans" in html
    body_with(at, "人人生而自由")
    n = len(load_gpt("o200k").encode(decl.load("cmn_hans").sections[1]))
    assert f"{n} tokens" in html
    # Arabic: the text runs right to left, and the page says the chips are in logical order.
    at.selectbox(key="lang.pick").set_value("arb").run()
    no_exception(at)
    assert any("dir='rtl'" in b for b in bodies(at))
    assert any("right to left" in i.value for i in at.info)


def test_own_parallel_texts_first_is_the_reference():
    at = open_languages("en")
    at.text_area(key="w.pg.lang.own").input("The cat sleeps on the mat.\n---\n猫在垫子上睡觉。\n---\n").run()
    no_exception(at)
    tables = [d.value for d in at.dataframe]
    own = tables[2]
    assert list(own.iloc[:, 0]) == ["Text 1", "Text 2"]
    assert own["GPT-2"][0] == 1.0
    gpt2 = load_gpt("gpt2")
    expected = len(gpt2.encode("猫在垫子上睡觉。")) / len(gpt2.encode("The cat sleeps on the mat."))
    assert own["GPT-2"][1] == expected
    # One text only: a message, no table.
    at.text_area(key="w.pg.lang.own").input("Only one text").run()
    assert len(at.dataframe) == 2 and any("at least two" in i.value for i in at.info)


def test_training_plain_and_fair_side_by_side_on_held_out_articles():
    from bpe_core.algorithms.fair_bpe import byte_share_weights, train_mix

    at = open_languages("en")
    at.number_input(key="lang.train.n").set_value(150).run()
    assert len(at.dataframe) == 2  # nothing trained before the button
    at.button(key="lang.train.go").click().run()
    no_exception(at)
    held_table, spread = at.dataframe[2].value, at.dataframe[3].value
    train = decl.texts(range(0, 21))
    held = decl.texts(range(21, 31))
    weights = byte_share_weights(train)
    expected = tax_table(held, {r: train_mix(train, 150, r, weights).tokenizer() for r in ("plain", "fair")})
    assert list(held_table["Plain BPE"]) == expected.taxes("plain")
    assert list(held_table["Fair BPE (parity-aware)"]) == expected.taxes("fair")
    assert list(spread.iloc[:2, 1]) == [expected.spread("plain"), expected.spread("fair")]
    assert spread.iloc[1, 1] < spread.iloc[0, 1]
    # The first fair merges, each with the language it served.
    merges = at.dataframe[4].value
    assert len(merges) == 30 and set(merges.iloc[:, 2]) <= {
        Locale.parse(v).get_display_name("en") for v in decl.LOCALES.values()
    }


def open_with(**params) -> AppTest:
    """The Languages page opened from a link carrying ``params`` (beside the interface language)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = "en"
    at.run()
    for k, v in params.items():
        at.query_params[k] = v
    at.switch_page(PAGE).run()
    no_exception(at)
    return at


def test_article_and_language_travel_in_the_url():
    at = open_with(article="3", language="arb")
    assert not at.warning, [w.value for w in at.warning]
    assert at.selectbox(key="lang.article").value == 3 and at.selectbox(key="lang.pick").value == "arb"
    assert at.query_params["article"] == "3" and at.query_params["language"] == "arb"
    body_with(at, "lang-toks-o200k-arb")
    # The learner's picks go into the URL, and a rerun with that URL keeps them (the URL does not win back).
    at.selectbox(key="lang.article").set_value(0).run()
    at.selectbox(key="lang.pick").set_value("tha").run()
    assert at.query_params["article"] == "preamble" and at.query_params["language"] == "tha"
    at.run()
    assert at.selectbox(key="lang.article").value == 0 and at.selectbox(key="lang.pick").value == "tha"
    # The whole Declaration is written as article=all.
    at.selectbox(key="lang.article").set_value(None).run()
    assert at.query_params["article"] == "all"


def test_bad_url_values_give_a_message_and_the_default():
    at = open_with(article="99", language="klingon<b>")
    no_exception(at)
    notes = [w.value for w in at.warning]
    assert len(notes) == 2, notes
    assert "article='99'" in notes[0] and "whole Declaration" in notes[0]
    assert "klingon\\<b\\>" in notes[1] and "Chinese" in notes[1]
    assert at.selectbox(key="lang.article").value is None and at.selectbox(key="lang.pick").value == "cmn_hans"
    assert at.query_params["article"] == "all" and at.query_params["language"] == "cmn_hans"


def test_step_through_the_fair_training_and_its_link():
    at = open_languages("en")
    at.number_input(key="lang.train.n").set_value(60).run()
    at.button(key="lang.train.go").click().run()
    at.button(key="lang.train.step").click().run()  # the fair rule is picked by default
    no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.query_params["variant"] == "byte" and at.query_params["merges"] == "60" and "corpus" in at.query_params
    # Step 1: the merge card says which language the merge served, as the mix trainer chose it.
    at.query_params["step"] = "1"
    link = dict(at.query_params)
    weights = byte_share_weights(decl.texts(range(0, 21)))
    served = train_mix(decl.texts(range(0, 21)), 60, "fair", weights).served
    first = Locale.parse(decl.LOCALES[served[0]]).get_display_name("en")
    # The link opens the same training in a new session (the mix is kept in the corpus store).
    again = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in link.items():
        again.query_params[k] = v
    again.run()
    no_exception(again)
    card = body_with(again, "bpe-merge-card")
    assert f"This merge served {first}" in card
    assert at.radio(key="w.rule").value == "fair" and again.radio(key="w.rule").value == "fair"
    # The plain rule from the sidebar: another training, with its own link.
    again.radio(key="w.rule").set_value("plain").run()
    no_exception(again)
    assert not again.error and again.query_params["corpus"] != link["corpus"]


def test_a_mix_link_in_chinese_and_the_sidebars_merge_rule():
    from bpe_core.languages.mix import default_mix
    from bpe_server import corpus_store

    cid = corpus_store.put(default_mix(), "mix")  # all 20 languages, equal byte shares, the fair rule
    params = {"corpus": cid, "variant": "byte", "pre": "gpt2", "merges": "20", "step": "1", "lang": "zh-Hant"}
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.radio(key="w.source").value == "mix" and at.radio(key="w.rule").value == "fair"
    assert "這次合併服務於" in body_with(at, "bpe-merge-card")
    # Other settings than byte-level with GPT-2's pieces: a clear message, no training.
    at.query_params["variant"] = "char"
    at.run()
    no_exception(at)
    assert any("位元組級 BPE" in e.value for e in at.error)


@pytest.mark.parametrize(
    "lang, chinese, first", [("zh-Hant", "cmn_hant", "僅繁體中文"), ("zh-Hans", "cmn_hans", "仅简体中文")]
)
def test_the_chinese_read_and_offered_first_is_the_interfaces(lang, chinese, first):
    # In the 繁體 interface the page reads 中文（繁體）, and the training offers 僅繁體中文 before 僅簡體中文.
    at = open_languages(lang)
    assert at.selectbox(key="lang.pick").value == chinese and at.query_params["language"] == chinese
    mix = at.radio(key="lang.train.mix")
    assert mix.value == "equal" and mix.options[1] == first and len(mix.options) == 5
    assert {"仅繁体中文", "僅繁體中文"} & set(mix.options) and {"仅简体中文", "僅簡體中文"} & set(mix.options)
    # A link naming a language still opens it, in either interface.
    at.query_params["language"] = "cmn_hans" if chinese == "cmn_hant" else "cmn_hant"
    at.run()
    assert at.selectbox(key="lang.pick").value == at.query_params["language"]


def test_training_on_traditional_chinese_only():
    at = open_languages("zh-Hant")
    at.radio(key="lang.train.mix").set_value("cmn_hant").run()
    at.number_input(key="lang.train.n").set_value(40).run()
    at.button(key="lang.train.go").click().run()
    no_exception(at)
    served = at.dataframe[4].value
    assert set(served.iloc[:, 2]) == {Locale.parse("zh_Hant").get_display_name("zh_Hant")}
