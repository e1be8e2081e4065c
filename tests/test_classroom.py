"""The step page's classroom pieces without a browser: token colours from the token's value, long
words and segmentations clipped, the changed-words panel, the short presentation card, whole-step
chart axes, the zoom CSS, and the merges-so-far frame."""

from __future__ import annotations

import re

import pytest
from textbook import TEXTBOOK_MERGES, TEXTBOOK_WORDS

from bpe_core import TrainConfig, train
from ui import charts, corpus_panel, panels
from ui.chips import chip_html, chips_html
from ui.explain import quote_word
from ui.merges_view import merges_frame
from ui.text import colour_index, palette, token_colour
from ui.zoom import SCALES, zoom_css

# CRC-32 of b"es" and of "红" in UTF-8, modulo 12: written out so that a change of the hash shows.
ES, HONG = 3, 9


@pytest.fixture(scope="module")
def runs():
    return {v: train(TEXTBOOK_WORDS, TrainConfig(variant=v, num_merges=10)) for v in ("eow", "char", "byte")}


def _colour(html: str) -> str:
    return re.search(r"background:(#[0-9a-f]{6})", html).group(1)


# ---------------------------------------------------------------------------------------- colours
def test_colour_index_is_stable_and_in_range():
    # CRC-32 of the UTF-8 bytes: fixed values, the same in every process (hash() would be salted).
    assert (colour_index("es", 12), colour_index("红", 12)) == (ES, HONG)
    assert colour_index("es", 12) == colour_index(b"es", 12)
    assert all(0 <= colour_index(bytes([b]), 7) < 7 for b in range(256))
    assert len({colour_index(chr(c), 12) for c in range(ord("a"), ord("z") + 1)}) > 6  # spread, not one colour
    with pytest.raises(ValueError):
        colour_index("a", 0)


def test_same_token_same_colour_in_every_run(runs):
    # "es" has id 11 in the eow run and 256 in the byte-level run: one colour in both.
    eow, byte = runs["eow"], runs["byte"]
    t_eow, t_byte = eow.snapshot(1).token, byte.snapshot(1).token
    assert t_eow != t_byte
    for presentation in (False, True):
        a = _colour(chip_html(eow, t_eow, presentation=presentation))
        b = _colour(chip_html(byte, t_byte, presentation=presentation))
        assert a == b == token_colour("es", presentation)
        assert a in palette(presentation)


def test_colour_does_not_follow_the_id(runs):
    run = runs["char"]
    colours = {tid: _colour(chip_html(run, tid)) for tid in range(run.vocab_size_at(run.num_steps))}
    for tid, colour in colours.items():
        assert colour == token_colour(run.token_value(tid), False)


# ------------------------------------------------------------------------------ long words, chips
def test_long_segmentation_folds_its_rest(runs):
    run = runs["char"]
    ids = [run.snapshot(1).left] * 100
    html = chips_html(run, ids, clip_at=10)
    before, _sep, rest = html.partition("<details")
    assert before.count('class="bpe-chip"') == 10
    assert "… 90 more tokens" in rest and rest.count('class="bpe-chip"') == 90
    # Past max_chips the rest is only counted.
    html = chips_html(run, [ids[0]] * 1000, clip_at=10, max_chips=50)
    assert html.count('class="bpe-chip"') == 50 and "… 950 more tokens" in html
    assert "<details" not in chips_html(run, ids[:10], clip_at=10)


def test_word_cell_and_quote_are_clipped():
    word = "红" * 2000
    html = corpus_panel.word_html(word)
    assert html.startswith("红" * corpus_panel.WORD_CHARS + "<details")
    assert "2,000 characters" in html and html.count("红") == corpus_panel.WORD_CHARS + corpus_panel.WORD_MORE
    assert corpus_panel.word_html("<b>") == "&lt;b&gt;"
    quoted = quote_word("a b" * 100)
    assert quoted.startswith("a␣ba␣b") and quoted.endswith("… (300 characters)")
    assert quote_word("low") == "low"


# ------------------------------------------------------------------------------ panels of a step
def test_changed_words_before_and_after(runs):
    run = runs["eow"]
    html = panels.changed_words_html(run, 1, presentation=True)
    rows = html.split("bpe-changed-row")[1:]
    assert len(rows) == 2 and "newest" in rows[0] and "widest" in rows[1]
    assert "The 2 word types this merge changed" in html
    assert html.count("bpe-chip new") == 2  # es highlighted after the merge, in both words
    assert panels.changed_words_html(run, 0) == ""
    one = panels.changed_words_html(run, 1, limit=1)
    assert one.count("bpe-changed-row") == 1 and "… and 1 more word type" in one


def test_presentation_card_is_short(runs):
    run = runs["eow"]
    normal, present = panels.merge_card_html(run, 1), panels.merge_card_html(run, 1, presentation=True)
    assert "Rules:" in normal and "All the rules" in normal
    assert "Rules:" not in present and "<details" not in present
    assert "Merge 1:" in present and "count 9" in present


def test_pair_table_limit_and_marks(runs):
    html = panels.pair_table_html(runs["eow"], 1, limit=6)
    assert html.count("<tr class=") == 6
    assert html.count("bpe-badge chosen") == 1 and html.count("bpe-badge tied") == 2


# ------------------------------------------------------------------------------ charts, zoom, table
def test_step_axes_show_whole_steps(runs):
    specs = charts._run_specs(runs["eow"], False)
    for spec in specs:
        x = spec["layer"][0]["encoding"]["x"]
        assert x["axis"]["format"] == ",d" and x["axis"]["tickMinStep"] == 1
        step_tip = spec["layer"][0]["encoding"]["tooltip"][0]
        assert step_tip["format"] == ",d"
    spec = charts.lines_chart({"a": [1, 2, 3]}, "tokens", step=1)
    assert spec["layer"][0]["encoding"]["x"]["axis"] == {"format": ",d", "tickMinStep": 1}


def test_zoom_css():
    assert 1.0 in SCALES and max(SCALES) >= 1.5
    assert zoom_css(1.5) == "<style>html { font-size: 31.50px; }</style>"


def test_merges_frame_rows(runs):
    frame = merges_frame(runs["eow"], 5)
    got = [(r[1], r[2], r[4]) for r in frame.itertuples(index=False)]
    assert got == TEXTBOOK_MERGES
    assert list(frame.iloc[:, 0]) == [1, 2, 3, 4, 5]
    assert len(merges_frame(runs["eow"], 0)) == 0
