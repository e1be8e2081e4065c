"""The Declaration in 20 languages (bpe_core.languages.declaration) and the token tax (bpe_core.languages.token_tax): counts equal
tiktoken's on every file, English pays 1.0, character-level tokenizers report <unk>, byte-level never."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from babel import Locale
from tiktoken_offline import ENCODINGS, get_encodings

from bpe_core import Tokenizer, TrainConfig, corpus_words, load_gpt, train
from bpe_core.languages import declaration as decl
from bpe_core.languages.token_tax import count_tokens, gini, spread, tax_table

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tiktoken_encodings():
    return get_encodings()


# ------------------------------------------------------------------------------------------ the files
def test_the_shipped_files_are_the_shared_corpus_unchanged():
    # The shared collection beside the repository (or beside the worktrees' folder); a clone elsewhere has only
    # the README's sha256 list as the record.
    found = [p / "shared" / "corpora" / "udhr" for p in (ROOT.parent, ROOT.parent.parent)]
    shared = next((p for p in found if p.is_dir()), None)
    readme = (decl.DATA_DIR / "README.md").read_text(encoding="utf-8")
    for key in decl.KEYS:
        data = (decl.DATA_DIR / f"udhr_{key}.xml").read_bytes()
        assert hashlib.sha256(data).hexdigest() in readme, key
        assert b"<!--\xc2\xa9 The Office of the High Commis" in data  # the copyright comment stays
        if shared is not None:
            assert data == (shared / f"udhr_{key}.xml").read_bytes()


def test_text_is_the_paras_in_order_without_titles_or_notes():
    eng = decl.load("eng")
    text = eng.text()
    assert text.startswith("Whereas recognition of the inherent dignity")
    assert "Article 1" not in text and "Preamble" not in text and "Universal Declaration of Human Rights\n" not in text
    assert eng.sections[1] == (
        "All human beings are born free and equal in dignity and rights. They are endowed with reason and "
        "conscience and should act towards one another in a spirit of brotherhood."
    )
    assert text.endswith("aimed at the destruction of any of the rights and freedoms set forth herein.")
    # Independently: every <para> of the file in document order, except those in a <note>.
    root = ET.parse(decl.DATA_DIR / "udhr_eng.xml").getroot()
    ns = "{http://www.unhchr.ch/udhr}"
    assert text == "\n".join(p.text.strip() for p in root.iter(ns + "para"))
    arb = ET.parse(decl.DATA_DIR / "udhr_arb.xml").getroot()
    note = arb.find(ns + "note").find(ns + "para").text
    assert note not in decl.load("arb").text()
    assert decl.load("arb").direction == "rtl" and decl.load("heb").direction == "rtl"
    # Paragraph counts differ; articles align.
    assert eng.paragraphs == 60 and decl.load("ben").paragraphs == 63 and decl.load("tha").paragraphs == 58
    for d in decl.load_all().values():
        assert sorted(d.sections) == list(range(31)) and all(d.sections.values())


def test_sections_in_the_order_given_and_bad_input():
    eng = decl.load("eng")
    assert eng.text([2, 1]) == eng.sections[2] + "\n" + eng.sections[1]
    with pytest.raises(KeyError):
        eng.text([31])
    with pytest.raises(ValueError, match="no Declaration"):
        decl.load("xyz")
    with pytest.raises(ValueError, match="not well-formed"):
        decl.parse_declaration(b"<udhr")
    with pytest.raises(ValueError, match="sections missing"):
        decl.parse_declaration(b"<udhr xmlns='http://www.unhchr.ch/udhr' key='x'><preamble/></udhr>")


def test_every_key_has_a_locale_babel_knows_and_that_matches_the_file():
    assert set(decl.KEYS) == set(decl.LOCALES) and len(decl.KEYS) == 20 and decl.KEYS[0] == decl.REFERENCE
    for key in decl.KEYS:
        locale = Locale.parse(decl.LOCALES[key])
        assert locale.get_display_name("en")
        root = ET.parse(decl.DATA_DIR / f"udhr_{key}.xml").getroot()
        assert root.get("{http://www.w3.org/XML/1998/namespace}lang").replace("-", "_") == decl.LOCALES[key]
    assert Locale.parse("zh_Hans").get_display_name("zh_Hant") == "中文 (簡體)"
    assert Locale.parse("sw").get_display_name("zh_Hans") == "斯瓦希里语"


# ------------------------------------------------------------------------------------------ the counts
def test_counts_equal_tiktoken_on_all_20_files(tiktoken_encodings):
    texts = decl.texts()
    table = tax_table(texts, {name: load_gpt(name) for name in ENCODINGS})
    for row in table.rows:
        text = texts[row.name]
        assert row.chars == len(text) and row.bytes == len(text.encode("utf-8"))
        for name, enc in tiktoken_encodings.items():
            assert row.counts[name].tokens == len(enc.encode_ordinary(text)), (row.name, name)
            assert row.counts[name].unknown == 0
    # One article too (the page's side-by-side choice): a different text, the same agreement.
    one = decl.texts([3])
    for text in one.values():
        assert count_tokens(load_gpt("o200k"), text).tokens == len(tiktoken_encodings["o200k"].encode_ordinary(text))


def test_english_pays_one_and_the_measures_follow_their_definitions():
    texts = decl.texts()
    table = tax_table(texts, {name: load_gpt(name) for name in ENCODINGS})
    assert table.reference == "eng"
    by = {row.name: row for row in table.rows}
    for name in ENCODINGS:
        assert by["eng"].tax[name] == 1.0
        for row in table.rows:
            assert row.tax[name] == row.counts[name].tokens / by["eng"].counts[name].tokens
            assert row.bytes_per_token[name] == row.bytes / row.counts[name].tokens
        taxes = table.taxes(name)
        assert table.spread(name) == max(taxes) / min(taxes)
    # GPT-2 saw little besides English: its Thai and Hindi cost several times English; GPT-4o's bigger,
    # more multilingual vocabulary brings them much closer.
    assert by["tha"].tax["gpt2"] > 5 and by["tha"].tax["o200k"] < 2.5
    assert table.spread("o200k") < table.spread("cl100k") < table.spread("gpt2")
    assert table.gini("o200k") < table.gini("gpt2")


def test_gini_and_spread_by_hand():
    assert gini([1, 1, 1, 1]) == 0.0
    assert gini([0, 0, 0, 1]) == pytest.approx(0.75)  # 1 - 1/n: one pays all
    # |1-3| twice over 2 * n^2 * mean = 2 * 4 * 2: 4 / 16
    assert gini([1, 3]) == pytest.approx(0.25)
    assert gini([2, 6]) == gini([1, 3])  # scale-free
    assert spread([1.0, 2.5, 0.5]) == 5.0
    for bad in ([], [0, 0], [-1, 2]):
        with pytest.raises(ValueError):
            gini(bad)
    with pytest.raises(ValueError):
        spread([0.0, 1.0])


def test_first_text_is_the_reference_and_empty_texts_are_refused():
    tok = {"gpt2": load_gpt("gpt2")}
    table = tax_table({"a": "Hello world, hello.", "b": "你好，世界，你好。"}, tok)
    assert table.reference == "a" and table.rows[0].tax["gpt2"] == 1.0
    assert table.rows[1].tax["gpt2"] > 1
    with pytest.raises(ValueError, match="empty"):
        tax_table({"a": "Hello", "b": ""}, tok)
    with pytest.raises(ValueError, match="reference"):
        tax_table({"a": "Hello"}, tok, reference="z")


def _trained(variant: str, text: str, merges: int = 200) -> Tokenizer:
    cfg = TrainConfig(variant=variant, num_merges=merges)
    return Tokenizer.from_run(train(corpus_words(text, cfg), cfg))


def test_char_level_trained_on_english_reports_unk_for_chinese_byte_level_never():
    texts = decl.texts()
    english = texts["eng"]
    char = _trained("char", english)
    byte = _trained("byte", english)
    table = tax_table({k: texts[k] for k in ("eng", "cmn_hans", "tha", "spa")}, {"char": char, "byte": byte})
    by = {row.name: row for row in table.rows}
    zh = texts["cmn_hans"]
    # Every Chinese character is unknown to a tokenizer that saw only the English Declaration's characters,
    # and each <unk> is one token.
    unknown_chars = sum(1 for c in zh if c not in english and not c.isspace())
    assert by["cmn_hans"].counts["char"].unknown >= unknown_chars > 1000
    assert by["eng"].counts["char"].unknown == 0
    assert by["cmn_hans"].counts["char"].unknown == char.encode(zh).count(char.unk_id)
    assert table.unknown("byte") == 0 and byte.unk_id is None
    assert table.unknown("char") == sum(r.counts["char"].unknown for r in table.rows)
