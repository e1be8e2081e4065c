"""Step pictures (ui/pictures.py) in Thai and Hindi have no missing-glyph boxes: every character of the words a
step shows goes to a font that draws it, combining marks stay with their letters (one shaped run), and Pillow
has its complex text layout (libraqm). Arabic draws with a font of its own, shaped."""

from __future__ import annotations

import io
import unicodedata

import pytest
from PIL import Image, features

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.languages import declaration as decl
from ui.fonts import Writer, find_fonts, has_glyph
from ui.pictures import step_png


def font_of(fonts, kind: str):
    if kind == "main":
        return fonts.regular
    if kind == "symbols":
        return fonts.symbols
    return fonts.scripts[int(kind[6:])]


def test_pillow_has_complex_text_layout():
    assert features.check("raqm"), "Pillow without libraqm: run.sh installs libraqm0"


@pytest.mark.parametrize("key", ["tha", "hin"])
def test_thai_and_hindi_step_pictures_have_no_boxes(key):
    text = decl.load(key).sections[1]  # article 1
    cfg = TrainConfig(variant="char", num_merges=20)
    run = train(corpus_words(text, cfg), cfg)
    fonts = find_fonts("en")
    w = Writer(fonts)
    for word in run.words:
        for kind, piece in w.runs(word):
            path, index = font_of(fonts, kind)
            for ch in piece:
                if unicodedata.category(ch).startswith("M"):
                    # A mark is shaped with its letter: it must be in that letter's script run.
                    assert kind.startswith("script"), (word, kind, ch)
                elif not ch.isspace():
                    assert has_glyph(path, index, ch), (word, kind, f"U+{ord(ch):04X}")
    # The pictures themselves: step 0 and the last merge draw.
    for step in (0, run.num_steps):
        img = Image.open(io.BytesIO(step_png(run, step)))
        assert img.width == 1600 and img.getbbox() is not None


def test_a_thai_syllable_is_shaped_not_a_row_of_boxes():
    fonts = find_fonts("en")
    w = Writer(fonts)
    size = 80

    def ink(text):
        img = Image.new("L", (600, 160), 0)
        w.draw(img, (10, 120), text, size, 255)
        return img

    # สิทธิ: the marks sit above their letters, so the shaped word is no wider than its four letters drawn alone.
    word, letters = "สิทธิ", "สทธ"
    assert w.runs(word) == [("script0", word)]
    shaped, bare = ink(word).getbbox(), ink(letters).getbbox()
    assert shaped[2] - shaped[0] <= bare[2] - bare[0] + 2
    assert shaped[1] < bare[1]  # the vowel marks rise above the letters
    # The notdef box of the main font is not what is drawn.
    assert ink(word).tobytes() != ink("\U0010fffd" * 3).tobytes()


def test_arabic_and_hebrew_have_their_own_fonts():
    w = Writer(find_fonts("en"))
    kinds = {kind for kind, _piece in w.runs("حقوق الإنسان") if kind != "main"}
    assert kinds and all(k.startswith("script") for k in kinds)
    assert all(k.startswith("script") for k, p in w.runs("זכויות האדם") if p.strip())


def test_rtl_words_read_right_to_left_in_the_steppers_tables():
    # The word cells take their direction from their text (dir='auto'): an Arabic word reads right to left,
    # the chips beside it stay in logical order.
    from ui import corpus_panel, panels

    cfg = TrainConfig(variant="char", num_merges=3)
    run = train(corpus_words(decl.load("arb").sections[1], cfg), cfg)
    table = corpus_panel.corpus_table_html(run, 1)
    assert "<td class='word' dir='auto'>" in table
    changed = panels.changed_words_html(run, 1)
    assert "<span class='word' dir='auto'>" in changed


def test_the_logical_order_note_where_chips_show_right_to_left_words():
    # One catalog string, said under the stepper's changed words, in its corpus table's line and under the
    # picture buttons, only when the corpus holds right-to-left letters.
    from app_helpers import new_app, no_exception

    from bpe_server import corpus_store
    from ui import chips, panels

    cfg = TrainConfig(variant="byte", num_merges=3)
    arabic = train(corpus_words(decl.load("arb").sections[1], cfg), cfg)
    english = train(corpus_words(decl.load("eng").sections[1], cfg), cfg)
    note = chips.rtl_note()  # in whatever language an earlier test left current here
    assert note in panels.changed_words_html(arabic, 1, presentation=True)
    assert note not in panels.changed_words_html(english, 1, presentation=True)
    heb = corpus_store.pack_text(decl.load("heb").sections[1])
    at = new_app(opened=("downloads.open",), text=heb, step=1, lang="en")  # the picture buttons' expander, open
    no_exception(at)
    english = "chips show tokens in logical order"
    assert any(english in m.value for m in at.caption)  # under the picture buttons
    assert any(english in b for b in (h.proto.body for h in at.get("html")) if "bpe-corpus" in b)
