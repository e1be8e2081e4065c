"""ui.text.visible: every control character becomes a symbol that the chips' fonts can draw."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache

import pytest

from ui.text import esc, visible

# The chip font stack of ui/render.py after ui-monospace (which Linux does not define).
CHIP_FONTS = ("DejaVu Sans Mono", "Noto Sans Mono CJK SC")
CONTROLS = (
    [chr(c) for c in range(0x20)] + ["\x7f", " ", "\u00a0", "\u2028", "\u2029"] + [chr(c) for c in range(0x80, 0xA0)]
)


@cache
def font_has(family: str, char: str) -> bool:
    """Whether the installed font ``family`` has a glyph for ``char`` (fontconfig's own charset data)."""
    assert shutil.which("fc-list"), "fontconfig's fc-list is needed (it comes with the fonts Chromium uses)"
    out = subprocess.run(
        ["fc-list", f"{family}:charset={ord(char):x}", "family"], capture_output=True, text=True, check=True
    ).stdout
    return bool(out.strip())


def test_the_chip_fonts_are_installed():
    for family in CHIP_FONTS:
        assert font_has(family, "a"), f"{family} is not installed"


@pytest.mark.parametrize("char", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_every_control_character_is_drawn_with_glyphs_the_chip_fonts_have(char):
    shown = visible(char)
    assert shown != char and shown.strip() and shown.isprintable()
    missing = [c for c in shown if not any(font_has(f, c) for f in CHIP_FONTS)]
    assert missing == [], f"{char!r} is shown as {shown!r}; no chip font draws {missing!r}"


def test_the_common_controls_read_as_symbols():
    assert visible("a\r\nb") == "a⇤↵b"
    assert visible("\tx") == "→x"
    assert visible("\x00\x1b\x7f") == "‹NUL›‹ESC›‹DEL›"
    assert visible("你\x85好") == "你‹U+0085›好"  # C1 controls too, even after a non-ASCII character
    assert esc("\r\n<") == "⇤↵&lt;"
