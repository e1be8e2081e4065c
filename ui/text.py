"""How user text and tokens look in HTML: user text escaped and made visible, and tokens coloured. Neither needs
Streamlit, so the picture code (:mod:`ui.pictures`) and the tests can import this module alone.

**Making user text safe and visible.**

* :func:`visible` -- whitespace and control characters become visible glyphs (space ``␣``,
  newline ``↵``, tab ``→``, carriage return ``⇤``, no-break space ``⍽``; other controls their ASCII
  abbreviation, ``‹NUL›``, ``‹ESC›``, ``‹DEL›``); a token made only of invisible characters (a lone
  zero-width joiner, a variation selector) is shown as its code points (``U+200D``).
* :func:`esc` -- :func:`visible` then ``html.escape``: the only way user text goes into HTML.
* :func:`clip` -- cuts very long words (a pasted text without spaces is one "word") for display.
* :func:`md_escape` -- backslash-escapes Markdown and Streamlit directives (``**``, ``:red[...]``,
  ``$...$``, links), for user text inside ``st.error``/``st.warning``/``st.markdown``.

**Token colours** (:func:`palette`, :func:`colour_index`, :func:`token_colour`), shared by the chips of every page
(:mod:`ui.chips`) and the pictures for slides (:mod:`ui.pictures`).

A token's colour comes from its VALUE, not its id: the same token (``es``; the bytes ``b"es"`` of a
byte-level run are the same text) has the same colour in every column of *Side by side*, on every
page and in every picture, whatever id each run gave it.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
import zlib

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


# --- Token colours ------------------------------------------------------------------------------------------------


@functools.cache
def palette(presentation: bool) -> tuple[str, ...]:
    """Token colours as ``#rrggbb``.

    Normal mode: ColorBrewer "Set3" (Cynthia Brewer, colorbrewer2.org, as shipped in matplotlib's
    colormaps), light enough for black text. Presentation mode: Paul Tol's colour-blind-safe
    qualitative scheme "light", from his ``tol_colors`` package (Tol, "Colour Schemes",
    SRON/EPS/TN/09-002), designed for cells with black labels."""
    if presentation:
        import tol_colors

        return tuple(c.lower() for c in tol_colors.light)
    import matplotlib
    from matplotlib.colors import to_hex

    return tuple(to_hex(c) for c in matplotlib.colormaps["Set3"].colors)


def colour_index(value: str | bytes, n: int) -> int:
    """Index ``0..n-1`` into a palette of ``n`` colours for a token's value.

    ``value`` is the token's text (char and end-of-word runs) or its bytes (byte-level runs); text is
    taken as its UTF-8 bytes, so ``"es"`` and ``b"es"`` agree. The index is CRC-32 of those bytes
    modulo ``n``: stable across processes and Python versions (unlike ``hash()``, which is salted).

    Raises:
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"a palette needs at least one colour, not {n}")
    data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)
    return zlib.crc32(data) % n


def token_colour(value: str | bytes, presentation: bool) -> str:
    """The ``#rrggbb`` colour of a token's value in the chosen palette (see :func:`colour_index`)."""
    colours = palette(presentation)
    return colours[colour_index(value, len(colours))]
