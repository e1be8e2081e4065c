"""Making user text safe and visible.

* :func:`visible` -- whitespace and control characters become visible glyphs (space ``␣``,
  newline ``↵``, tab ``→``, carriage return ``␍``, other C0 controls their U+2400 pictures, DEL
  ``␡``, no-break space ``⍽``); a token made only of invisible characters (a lone zero-width
  joiner, a variation selector) is shown as its code points (``U+200D``).
* :func:`esc` -- :func:`visible` then ``html.escape``: the only way user text goes into HTML.
* :func:`md_escape` -- backslash-escapes Markdown and Streamlit directives (``**``, ``:red[...]``,
  ``$...$``, links), for user text inside ``st.error``/``st.warning``/``st.markdown``.
"""

from __future__ import annotations

import html
import re
import unicodedata

_VISIBLE = {" ": "␣", "\n": "↵", "\t": "→", "\r": "␍", "\x7f": "␡", "\u00a0": "⍽", "\u2028": "↵", "\u2029": "¶"}
for _c in range(0x20):
    _VISIBLE.setdefault(chr(_c), chr(0x2400 + _c))
_TABLE = str.maketrans(_VISIBLE)
_INVISIBLE_CATEGORIES = {"Cf", "Mn", "Me", "Cc", "Co", "Cn", "Zs", "Zl", "Zp"}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&])")


def visible(text: str) -> str:
    """``text`` with whitespace and control characters replaced by visible glyphs (not escaped)."""
    if text and all(unicodedata.category(c) in _INVISIBLE_CATEGORIES and c not in _VISIBLE for c in text):
        return " ".join(f"U+{ord(c):04X}" for c in text)
    out = text.translate(_TABLE)
    # Other Unicode spaces (ideographic space, thin space...) would be invisible too.
    if any(c.isspace() for c in out):
        out = "".join("␣" if c.isspace() else c for c in out)
    return out


def esc(text: str) -> str:
    """User text ready for HTML: visible whitespace/controls, then ``html.escape`` (quotes too)."""
    return html.escape(visible(str(text)), quote=True)


def esc_raw(text: str) -> str:
    """``html.escape`` without the visible-whitespace rewrite (for prose, e.g. provenance lines)."""
    return html.escape(str(text), quote=True)


def md_escape(text: str) -> str:
    """Backslash-escape every character Markdown or Streamlit's directives could interpret."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))
