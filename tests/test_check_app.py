"""The Check your BPE page in Streamlit's AppTest: pasted merges -> the report; an encoder's ids -> the first
difference; bad input -> a message, never an exception."""

from __future__ import annotations

import pytest
from app_helpers import bodies, body_with, new_app, no_exception, text_of

from bpe_core import load_gpt

PAGE = "app_pages/6_Check_your_BPE.py"


@pytest.fixture
def at():
    app = new_app()
    no_exception(app)
    app.switch_page(PAGE).run()
    no_exception(app)
    return app


def test_the_sample_merges_part_at_a_tie_with_both_rows_marked(at):
    # The default preset is the textbook corpus; the sample takes o w where the reference takes l o (7 each).
    summary = body_with(at, "check-summary")
    assert "data-cause='tie-break' data-step='4' data-agree='3'" in summary
    table = body_with(at, "bpe-pairs")
    assert table.count("<tr class='chosen'>") == 1 and table.count("<tr class='yours'>") == 1
    assert "Pair counts before merge 4" in text_of(table)
    words = " ".join(text_of(body_with(at, "check-words")).split())
    assert words == "low ×5 l o w </w> (yours · reference) lower ×2 l o w e r </w> (yours · reference)"
    cause = " ".join(m.value for m in at.markdown)
    assert "How_BPE_works#tie-break" in cause and "Both pairs occur 7 times" in cause


def test_identical_merges_say_so(at):
    at.text_area(key="w.pg.check.paste").input("e s\nes t\nest </w>\nl o\nlo w\n").run()
    no_exception(at)
    assert "data-cause='identical'" in body_with(at, "check-summary")
    assert "Identical: all 5 merges agree" in text_of(body_with(at, "check-summary"))


def test_a_bad_paste_is_a_message(at):
    at.text_area(key="w.pg.check.paste").input("a b c\n").run()
    no_exception(at)
    (error,) = [e.value.replace("\\", "") for e in at.error]  # Markdown-escaped
    assert error == "the pasted merges line 1: expected 'left right' (two tokens and one space), got 'a b c'."
    assert not any("check-summary" in b for b in bodies(at))


def test_an_encoder_check_on_gpt2(at):
    at.radio(key="check.enc.tok").set_value("gpt2").run()
    text = "the lowest price"
    ids = load_gpt("gpt2").encode(text)
    wrong = ids[:1] + [ids[1] + 1] + ids[2:]
    at.text_area(key="w.pg.check.enc.ids").input(", ".join(map(str, wrong))).run()
    no_exception(at)
    report = body_with(at, "check-encoder")
    assert "data-position='1'" in report and "lowest" in text_of(report)


def test_the_pair_table_marks_rows_beyond_its_limit_and_pairs_not_in_it():
    from bpe_core import TrainConfig, train
    from tests.textbook import TEXTBOOK_WORDS
    from ui import panels

    run = train(dict(TEXTBOOK_WORDS), TrainConfig(variant="eow", num_merges=3))
    ids = run.value_to_id
    table = run.pair_table(0)
    ninth = table[8][:2]  # ranked 9th before merge 1, outside a limit of 3
    absent = (ids["l"], ids["t"])  # no word holds "l t"
    marks = {table[0][:2]: ("chosen", "reference"), ninth: ("yours", "yours"), absent: ("yours", "x")}
    html = panels.pair_table_html(run, 1, limit=3, marks=marks)
    rows = html.split("<tr class=")[1:]  # the header row has no class
    assert len(rows) == 5 and rows[0].startswith("'chosen'")
    assert rows[3].startswith("'yours'><td class='num'>9</td>") and f">{table[8][2]}<" in rows[3]
    assert rows[4].startswith("'yours'><td class='num'></td>") and "<td class='num'>0</td>" in rows[4]
