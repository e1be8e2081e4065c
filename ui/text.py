"""Making user text safe and visible.

* :func:`visible` -- whitespace and control characters become visible glyphs (space ``␣``,
  newline ``↵``, tab ``→``, carriage return ``⇤``, no-break space ``⍽``; other controls their ASCII
  abbreviation, ``‹NUL›``, ``‹ESC›``, ``‹DEL›``); a token made only of invisible characters (a lone
  zero-width joiner, a variation selector) is shown as its code points (``U+200D``).
* :func:`esc` -- :func:`visible` then ``html.escape``: the only way user text goes into HTML.
* :func:`clip` -- cuts very long words (a pasted text without spaces is one "word") for display.
* :func:`md_escape` -- backslash-escapes Markdown and Streamlit directives (``**``, ``:red[...]``,
  ``$...$``, links), for user text inside ``st.error``/``st.warning``/``st.markdown``.
"""

from __future__ import annotations

import html
import re
import unicodedata

# Every replacement is drawn from glyphs the chips' fonts (DejaVu Sans Mono, Noto Sans Mono CJK) have. Unicode's
# control pictures (U+2400-U+241F: ␀ ␍ ␛) would be the obvious choice, but neither font has them: a chip
# showed CR LF as an empty box. So CR is an arrow back to the line start, and the rarer controls spell out
# their ASCII abbreviation, which any font can draw.
_C0_NAMES = (
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split()
_VISIBLE = {" ": "␣", "\n": "↵", "\t": "→", "\r": "⇤", "\u00a0": "⍽", "\u2028": "↵", "\u2029": "¶", "\x7f": "‹DEL›"}
for _c in range(0x20):
    _VISIBLE.setdefault(chr(_c), f"‹{_C0_NAMES[_c]}›")
for _c in range(0x80, 0xA0):  # C1 controls
    _VISIBLE.setdefault(chr(_c), f"‹U+{_c:04X}›")
_TABLE = str.maketrans(_VISIBLE)
_INVISIBLE_CATEGORIES = {"Cf", "Mn", "Me", "Cc", "Co", "Cn", "Zs", "Zl", "Zp"}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&])")


_NAMES = {0x200D: "ZWJ", 0x200C: "ZWNJ", 0xFE0F: "VS16", 0xFE0E: "VS15", 0x200B: "ZWSP", 0xFEFF: "BOM"}


def _is_invisible(c: str) -> bool:
    return unicodedata.category(c) in _INVISIBLE_CATEGORIES and c not in _VISIBLE


def visible(text: str) -> str:
    """``text`` with whitespace and control characters replaced by visible glyphs (not escaped).

    Invisible characters (zero-width joiner, variation selectors, other format characters) stay
    as they are inside a character sequence they modify (👨‍👩‍👧 still renders as one family), but
    are written ``‹ZWJ›``/``‹U+XXXX›`` at the start of a token or after ASCII, where they would
    silently vanish; a token of nothing but such characters is its code points (``U+200D``).
    """
    if text and all(_is_invisible(c) for c in text):
        return " ".join(f"U+{ord(c):04X}" for c in text)
    if any(_is_invisible(c) for c in text):
        chars = []
        for i, c in enumerate(text):
            if _is_invisible(c) and (i == 0 or ord(text[i - 1]) < 0x80):
                chars.append(f"‹{_NAMES.get(ord(c), f'U+{ord(c):04X}')}›")
            else:
                chars.append(c)
        text = "".join(chars)
    out = text.translate(_TABLE)
    # Other Unicode spaces (ideographic space, thin space...) would be invisible too.
    if any(c.isspace() for c in out):
        out = "".join("␣" if c.isspace() else c for c in out)
    return out


#: Longest word shown whole in tables and sentences (characters); longer words are clipped.
CLIP_CHARS = 60


def clip(text: str, limit: int = CLIP_CHARS) -> str:
    """``text`` cut to ``limit`` characters with ``…`` and its full length, e.g. a pasted 1 MB
    "word" (a text without spaces) reads ``abcd… (1,000,000 characters)`` instead of filling the page."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def esc(text: str) -> str:
    """User text ready for HTML: visible whitespace/controls, then ``html.escape`` (quotes too)."""
    return html.escape(visible(str(text)), quote=True)


def esc_raw(text: str) -> str:
    """``html.escape`` without the visible-whitespace rewrite (for prose, e.g. provenance lines)."""
    return html.escape(str(text), quote=True)


def md_escape(text: str) -> str:
    """Backslash-escape every character Markdown or Streamlit's directives could interpret."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))
