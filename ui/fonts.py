"""Fonts for the pictures (PNG, GIF): finding them, and drawing text that mixes Latin, Chinese and emoji.

Pillow draws a string with one font and has no fallback, so a line is cut into runs, each drawn with
the first font that has its characters: Noto Sans CJK (which also covers Latin), DejaVu Sans for the
symbols it lacks (``␣``, ``↵``), the Noto fonts of Thai, Devanagari, Bengali, Arabic and Hebrew
(:data:`SCRIPT_FONTS`, Debian's ``fonts-noto-core``) for those scripts, Noto Color Emoji for emoji. Each run is
drawn whole, so Pillow's complex text layout (libraqm, bundled with Pillow's wheels) shapes it: Thai and
Devanagari marks sit on their letters, Arabic letters join and read right to left. Colour emoji fonts are bitmap fonts
(CBDT) that FreeType only loads at their one strike size, 109 px: they are drawn at that size with
``embedded_color=True`` and scaled down to the line's size.

Fonts are found with fontconfig (``fc-list``); no font file is shipped or fetched. Without a Chinese
font :func:`find_fonts` raises :class:`FontError` naming the package to install.
"""

from __future__ import annotations

import functools
import subprocess
import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bpe_core.scripts import is_emoji_code_point

#: The only size a colour emoji bitmap font (Noto Color Emoji) can be opened at.
EMOJI_STRIKE = 109
#: Joiners and modifiers that belong to the emoji before them (ZWJ, variation selector 16, keycap, skin tones).
_EMOJI_JOIN = {0x200D, 0xFE0F, 0x20E3} | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))


class FontError(RuntimeError):
    """No usable font (above all: none with Chinese characters). The message says what to install."""


@dataclass(frozen=True)
class FontSet:
    """Font files: ``(path, index in a .ttc collection)`` for text (regular, bold) and symbols; a path for emoji."""

    regular: tuple[str, int]
    bold: tuple[str, int]
    symbols: tuple[str, int] | None
    emoji: str | None
    #: Fonts for the scripts Noto Sans CJK lacks (Thai, Devanagari, Bengali, Arabic, Hebrew), tried in order.
    scripts: tuple = ()


def _fc_list(pattern: str) -> list[tuple[str, int, str, str]]:
    """``[(file, index, family, style)]`` from ``fc-list PATTERN``. Raises :class:`FontError` without fontconfig."""
    try:
        out = subprocess.run(
            ["fc-list", pattern, "--format", "%{file}\t%{index}\t%{family[0]}\t%{style[0]}\n"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise FontError(f"cannot list fonts with fontconfig's fc-list ({exc}); install fontconfig") from None
    rows = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[0]:
            rows.append((parts[0], int(parts[1] or 0), parts[2], parts[3]))
    return rows


def _pick(rows, families: list[str], bold: bool):
    """The best ``(file, index)``: earliest preferred family, then Sans over Serif, the wanted weight."""

    def score(row):
        _f, _i, family, style = row
        fam = next((k for k, name in enumerate(families) if family == name), len(families))
        is_bold = "bold" in style.lower()
        plain = style.lower() in ("regular", "book", "normal") or (bold and style.lower() == "bold")
        return (fam, "serif" in family.lower() and "sans" not in family.lower(), is_bold != bold, not plain)

    best = min(rows, key=score)
    return best[0], best[1]


#: Scripts of the Declaration's languages that Noto Sans CJK does not cover: ``(fontconfig language, preferred
#: families)``. Debian's ``fonts-noto-core`` has them all; without it these characters would be boxes.
SCRIPT_FONTS = (
    ("th", ["Noto Sans Thai", "Noto Sans Thai UI", "Noto Serif Thai"]),
    ("hi", ["Noto Sans Devanagari", "Noto Sans Devanagari UI", "Noto Serif Devanagari"]),
    ("bn", ["Noto Sans Bengali", "Noto Sans Bengali UI", "Noto Serif Bengali"]),
    ("ar", ["Noto Sans Arabic", "Noto Naskh Arabic", "Noto Sans Arabic UI"]),
    ("ur", ["Noto Nastaliq Urdu", "Noto Sans Arabic", "Noto Naskh Arabic"]),
    ("he", ["Noto Sans Hebrew", "Noto Serif Hebrew"]),
)


@functools.lru_cache(maxsize=4)
def find_fonts(lang: str = "en") -> FontSet:
    """The fonts for pictures in interface language ``lang`` (``zh-Hant`` prefers the Traditional forms).

    Raises:
        FontError: no font with Chinese characters (``fc-list :lang=zh`` is empty), or no fontconfig.
    """
    cjk = _fc_list(":lang=zh")
    if not cjk:
        raise FontError(
            "no font with Chinese characters is installed (fc-list ':lang=zh' lists none); install Noto Sans CJK, "
            "e.g. 'apt-get install fonts-noto-cjk' on Debian/Ubuntu"
        )
    order = ["Noto Sans CJK SC", "Noto Sans CJK TC", "Source Han Sans SC", "Source Han Sans TC"]
    if lang == "zh-Hant":
        order = ["Noto Sans CJK TC", "Noto Sans CJK SC", "Source Han Sans TC", "Source Han Sans SC"]
    symbols = _fc_list(":family=DejaVu Sans")
    emoji = _fc_list(":charset=1f600")
    colour = [r for r in emoji if "emoji" in r[2].lower()]
    scripts = []
    for code, families in SCRIPT_FONTS:
        rows = [r for r in _fc_list(f":lang={code}") if "CJK" not in r[2] and "Emoji" not in r[2]]
        if rows:
            found = _pick(rows, families, bold=False)
            if found not in scripts:
                scripts.append(found)
    return FontSet(
        scripts=tuple(scripts),
        regular=_pick(cjk, order, bold=False),
        bold=_pick(cjk, order, bold=True),
        symbols=_pick(symbols, ["DejaVu Sans"], bold=False) if symbols else None,
        emoji=(colour or emoji)[0][0] if (colour or emoji) else None,
    )


@functools.lru_cache(maxsize=64)
def _font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=index)


@functools.lru_cache(maxsize=512)
def _emoji_image(path: str, text: str, size: int) -> Image.Image:
    """Emoji drawn in colour at the font's strike size, then scaled to ``size`` pixels (RGBA, transparent)."""
    font = _font(path, 0, EMOJI_STRIKE)
    left, top, right, bottom = font.getbbox(text, mode="RGBA")
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-left, -top), text, font=font, embedded_color=True)
    scale = size * 1.05 / EMOJI_STRIKE
    return img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.LANCZOS)


def _ink(font: ImageFont.FreeTypeFont, text: str) -> tuple:
    mask = font.getmask(text)
    return mask.size, bytes(mask)


@functools.lru_cache(maxsize=65536)
def has_glyph(path: str, index: int, ch: str) -> bool:
    """True when the font draws ``ch`` with a glyph of its own (not its ``.notdef`` box, "tofu"):
    ``ch`` is rendered and compared with an unassigned code point's rendering."""
    font = _font(path, index, 24)
    return _ink(font, ch) != _ink(font, "\U0010fffd")


class Writer:
    """Draws mixed-script text on a Pillow RGB image with the fonts of a :class:`FontSet`.

    Sizes are pixel sizes of the font (the em square); ``draw`` and ``width`` take ``bold``.
    """

    def __init__(self, fonts: FontSet):
        self.fonts = fonts

    def _main(self, size: int, bold: bool):
        path, index = self.fonts.bold if bold else self.fonts.regular
        return path, index, _font(path, index, size)

    def runs(self, text: str, bold: bool = False) -> list[tuple[str, str]]:
        """``[(kind, text)]``: ``kind`` is ``main``, ``symbols``, ``emoji`` or ``script<i>`` (a font of
        :data:`SCRIPT_FONTS`); joiners stay with their emoji."""
        main_path, main_index = self.fonts.bold if bold else self.fonts.regular
        out: list[list] = []
        for ch in text:
            cp = ord(ch)
            if out and out[-1][0] == "emoji" and cp in _EMOJI_JOIN:
                kind = "emoji"
            elif self.fonts.emoji and is_emoji_code_point(ch):
                kind = "emoji"
            elif out and out[-1][0].startswith("script") and unicodedata.category(ch).startswith("M"):
                # A combining mark (Thai vowels, Devanagari matras and virama) stays with its letter's font, so
                # the syllable is shaped whole; drawn alone it would float beside a dotted circle.
                kind = out[-1][0]
            elif has_glyph(main_path, main_index, ch):
                kind = "main"
            else:
                kind = self._script_kind(ch)
                if kind == "main" and self.fonts.symbols and has_glyph(*self.fonts.symbols, ch):
                    kind = "symbols"
            if out and out[-1][0] == kind:
                out[-1][1] += ch
            else:
                out.append([kind, ch])
        return [(k, t) for k, t in out]

    def _script_kind(self, ch: str) -> str:
        """``script<i>`` for the first script font that has ``ch`` (Thai, Devanagari, ...), else ``main``.
        A combining mark stays in the run before it when that font has it, so a syllable is shaped whole."""
        for i, (path, index) in enumerate(self.fonts.scripts):
            if has_glyph(path, index, ch):
                return f"script{i}"
        return "main"

    def _run_font(self, kind: str, size: int, bold: bool):
        if kind == "symbols":
            return _font(*self.fonts.symbols, size)
        if kind.startswith("script"):
            return _font(*self.fonts.scripts[int(kind[6:])], size)
        return self._main(size, bold)[2]

    def _emoji_image(self, text: str, size: int) -> Image.Image:
        return _emoji_image(self.fonts.emoji, text, size)

    def width(self, text: str, size: int, bold: bool = False) -> int:
        """The advance width of ``text`` in pixels."""
        total = 0.0
        for kind, run in self.runs(text, bold):
            if kind == "emoji":
                total += self._emoji_image(run, size).width + size * 0.05
            else:
                total += self._run_font(kind, size, bold).getlength(run)
        return round(total)

    def draw(self, img: Image.Image, xy: tuple[float, float], text: str, size: int, fill, bold: bool = False) -> int:
        """Draw ``text`` with its baseline at ``xy[1]`` from ``xy[0]``; returns the width drawn."""
        x, baseline = xy
        draw = ImageDraw.Draw(img)
        for kind, run in self.runs(text, bold):
            if kind == "emoji":
                glyphs = self._emoji_image(run, size)
                img.paste(glyphs, (round(x), round(baseline - glyphs.height + size * 0.12)), glyphs)
                x += glyphs.width + size * 0.05
            else:
                font = self._run_font(kind, size, bold)
                draw.text((x, baseline), run, font=font, fill=fill, anchor="ls")
                x += font.getlength(run)
        return round(x - xy[0])

    def fit(self, text: str, size: int, max_width: int, bold: bool = False) -> str:
        """``text`` cut with ``…`` so that it is at most ``max_width`` pixels wide."""
        if self.width(text, size, bold) <= max_width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.width(text[:mid] + "…", size, bold) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo] + "…"

    def wrap(self, text: str, size: int, max_width: int, bold: bool = False) -> list[str]:
        """Lines of at most ``max_width`` pixels: breaks at spaces, or anywhere in text without spaces (Chinese)."""
        lines: list[str] = []
        line = ""
        for piece in _pieces(text):
            if line and self.width(line + piece, size, bold) > max_width:
                lines.append(line.rstrip())
                line = piece.lstrip()
            else:
                line += piece
        if line.strip():
            lines.append(line.rstrip())
        return lines


def _pieces(text: str) -> list[str]:
    """Break opportunities: a word with its following space, or a single CJK character."""
    out: list[str] = []
    cur = ""
    for ch in text:
        if ord(ch) >= 0x2E80 and not is_emoji_code_point(ch):
            if cur:
                out.append(cur)
                cur = ""
            out.append(ch)
        elif ch == " ":
            out.append(cur + ch)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out
