"""Which characters a byte-level token is made of, in words a first-year student can read.

A byte-level token is any run of bytes, so it often holds part of a character: ``b"\\xe5\\xbe"`` is the
first two of the three UTF-8 bytes of 很. This module cuts a token's bytes into :class:`Piece` values
(a whole character, some of the bytes of one, or a byte that is never UTF-8) and words them short
(``很 1–2/3``) or as a sentence.

* A token **standing in text** (a word's segmentation, an encoded text): :func:`pieces_in_text` reads the
  characters from the text around it, so ``b"\\xe5\\xbe"`` at the start of 很 is ``很 1–2/3``, and a mixed
  token ``我\\xe5\\x80`` is ``我 + 很 1–2/3``.
* A token **standing alone** (the vocabulary, the pair table): :func:`pieces_alone` says only what the bytes
  are (the last byte of a character, the first two bytes of a 3-byte character...); :func:`corpus_blob` and
  :func:`example_in` find a character of the corpus it occurs in, to show beside it.

A piece is one **code point** (UTF-8 writes each code point as one to four bytes): 👨‍👩‍👧 is five code
points, so a piece also keeps the grapheme it is part of (:attr:`Piece.grapheme`) when that is more than
the code point. No Streamlit here; sentences go through the ``tr=`` translations object.
"""

from __future__ import annotations

import gettext
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

import regex

_ENGLISH = gettext.NullTranslations()

#: Bytes of context decoded on each side of a token to find the grapheme a code point is part of
#: (the longest common graphemes, ZWJ families and tagged flags, are under 30 bytes).
GRAPHEME_WINDOW = 64
#: Separates the words of :func:`corpus_blob`: 0xFF is never in UTF-8, so no token can match across it.
_SEP = b"\xff"
#: Unicode categories of code points that join a neighbour into one grapheme (marks and format characters).
_JOINING = frozenset({"Mn", "Me", "Mc", "Cf"})


@dataclass(frozen=True)
class Piece:
    """A part of a token's bytes.

    Attributes:
        char: the code point the bytes belong to (``""`` when it is unknown: a token standing alone that
            holds only part of a character, or bytes that are not UTF-8).
        first, last: which of the character's bytes the token holds, counted from 1 (``1, 2`` of 很);
            ``0, 0`` when unknown (the leading bytes of a character cut before the token).
        size: the character's length in bytes (1-4), or 0 when unknown.
        raw: the token's bytes of this piece.
        grapheme: the user-perceived character (``regex`` ``\\X``) holding ``char`` when it is more than
            ``char`` (👨‍👩‍👧 for the zero-width joiner inside it), else ``""``.
        invalid: the bytes are not UTF-8 (0xC0, 0xC1, 0xF5-0xFF, a lead byte without its continuation).
    """

    char: str
    first: int
    last: int
    size: int
    raw: bytes
    grapheme: str = ""
    invalid: bool = False

    @property
    def whole(self) -> bool:
        """True for a whole character."""
        return not self.invalid and self.size > 0 and self.first == 1 and self.last == self.size


def utf8_length(lead: int) -> int:
    """The length in bytes of a UTF-8 sequence starting with byte ``lead``: 1-4, 0 for a continuation byte
    (0x80-0xBF), -1 for a byte that never occurs in UTF-8 (0xC0, 0xC1, 0xF5-0xFF)."""
    if lead < 0x80:
        return 1
    if lead < 0xC0:
        return 0
    if lead < 0xC2 or lead > 0xF4:
        return -1
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _units(data: bytes):
    """Cut ``data`` into ``(start, end, kind)`` units: ``"char"`` (a valid sequence, whole), ``"head"`` (a lead
    byte and its continuations cut by the end of ``data``), ``"tail"`` (continuation bytes without their
    lead), ``"bad"`` (one byte that cannot be UTF-8 here)."""
    i, n = 0, len(data)
    while i < n:
        size = utf8_length(data[i])
        if size == 0:
            j = i
            while j < n and utf8_length(data[j]) == 0:
                j += 1
            yield i, j, "tail"
            i = j
            continue
        if size < 0:
            yield i, i + 1, "bad"
            i += 1
            continue
        j = i + 1
        while j < n and j < i + size and utf8_length(data[j]) == 0:
            j += 1
        if j - i == size:
            try:
                data[i:j].decode("utf-8")
            except UnicodeDecodeError:  # an overlong form or a surrogate: valid-looking, not UTF-8
                yield i, i + 1, "bad"
                i += 1
                continue
            yield i, j, "char"
        elif j == n:
            yield i, j, "head"
        else:
            yield i, i + 1, "bad"  # a lead byte followed by something other than its continuation
            j = i + 1
        i = j


def _joins(c: str) -> bool:
    """True when ``c`` may join a neighbour into one grapheme: a mark, a format character (the zero-width
    joiner), CR/LF, a regional indicator, an emoji skin tone, Hangul jamo. Other code points (a Chinese character,
    a letter) stand alone unless a neighbour joins them."""
    o = ord(c)
    return (
        c in "\r\n"
        or unicodedata.category(c) in _JOINING
        or 0x1F1E6 <= o <= 0x1F1FF
        or 0x1F3FB <= o <= 0x1F3FF
        or 0x1100 <= o <= 0x11FF
        or 0xAC00 <= o <= 0xD7FF
        or 0xA960 <= o <= 0xA97F
    )


def _grapheme_at(text: bytes, start: int, end: int) -> str:
    """The grapheme holding the code point at bytes ``start:end`` of ``text``, when it is more than that code
    point, else ``""`` (only a window around it is decoded: a word can be a whole book)."""
    # Most code points (Chinese, Latin) and their neighbours join nothing: no need to segment.
    before = start - 1
    while before > 0 and start - before < 4 and utf8_length(text[before]) == 0:
        before -= 1
    near = text[max(0, before) : end + max(1, utf8_length(text[end])) if end < len(text) else end]
    if not any(map(_joins, near.decode("utf-8", "replace"))):
        return ""
    lo = max(0, start - GRAPHEME_WINDOW)
    hi = min(len(text), end + GRAPHEME_WINDOW)
    while lo < start and utf8_length(text[lo]) == 0:
        lo += 1
    while hi < len(text) and utf8_length(text[hi]) == 0:
        hi += 1
    window = text[lo:hi].decode("utf-8", "replace")
    at = len(text[lo:start].decode("utf-8", "replace"))
    pos = 0
    for m in regex.finditer(r"\X", window):
        if pos <= at < pos + len(m.group()):
            return m.group() if len(m.group()) > 1 else ""
        pos += len(m.group())
    return ""


def pieces_in_text(text: bytes, start: int, end: int) -> list[Piece]:
    """The pieces of the token at bytes ``start:end`` of ``text`` (a word's or a text's UTF-8 bytes), each
    named by the character of ``text`` it belongs to.

    ``pieces_in_text("我很".encode(), 0, 5)`` is ``[我 whole, 很 bytes 1-2 of 3]``. Bytes of ``text`` that are
    not UTF-8 become invalid pieces of one byte each.

    Raises:
        ValueError: ``start:end`` is not a non-empty range inside ``text``.
    """
    if not 0 <= start < end <= len(text):
        raise ValueError(f"bytes {start}:{end} are not a token inside a text of {len(text)} bytes")
    inner = text[start + 1 : end - 1]
    if len(inner) > 8 and inner.isascii() and b"\r" not in inner and b"\n" not in inner:
        # A long run of plain ASCII (a text without spaces, "aaaa..."): inside it no character joins a neighbour,
        # so it is one whole piece, and only its two ends are read character by character.
        ends = pieces_in_text(text, start, start + 1), pieces_in_text(text, end - 1, end)
        return _joined([*ends[0], Piece(inner.decode("ascii"), 1, 1, 1, inner), *ends[1]])
    # The character holding byte `start` begins at most 3 bytes earlier.
    begin = start
    while begin > 0 and start - begin < 3 and utf8_length(text[begin]) == 0:
        begin -= 1
    stop = min(len(text), end + 3)
    out = []
    for a, b, kind in _units(text[begin:stop]):
        a, b = a + begin, b + begin
        if b <= start or a >= end:
            continue
        lo, hi = max(a, start), min(b, end)
        if kind == "char":
            char = text[a:b].decode("utf-8")
            out.append(Piece(char, lo - a + 1, hi - a, b - a, text[lo:hi], _grapheme_at(text, a, b)))
        elif kind == "head":  # a text cut inside its last character: which one is unknown
            out.append(Piece("", lo - a + 1, hi - a, utf8_length(text[a]), text[lo:hi]))
        else:  # not UTF-8 in the text itself
            out.extend(Piece("", 0, 0, 0, text[i : i + 1], invalid=True) for i in range(lo, hi))
    return _joined(out)


class TextPieces:
    """:func:`pieces_in_text` for many tokens of one text (a word's segmentation, an encoded text), its code points
    and graphemes found once: a chip table asks for thousands.

    Args:
        text: the text's UTF-8 bytes; an end cut inside a character (the first tokens of a long word) is read
            by :func:`pieces_in_text`.
    """

    def __init__(self, text: bytes):
        self.text = text
        try:
            chars = text.decode("utf-8")
        except UnicodeDecodeError as err:
            chars = text[: err.start].decode("utf-8")
        self.chars = chars
        self.starts = list(accumulate((len(c.encode("utf-8", "surrogatepass")) for c in chars), initial=0))
        self.graphemes: dict[int, str] = {}
        i = 0
        for g in regex.findall(r"\X", chars):
            if len(g) > 1:
                self.graphemes.update(dict.fromkeys(range(i, i + len(g)), g))
            i += len(g)

    def at(self, start: int, length: int) -> list[Piece]:
        """The pieces of the token of ``length`` bytes at byte ``start`` (as :func:`pieces_in_text`)."""
        end, starts = start + length, self.starts
        if end > starts[-1] or start < 0 or length < 1:
            return pieces_in_text(self.text, start, end)
        k, out = bisect_right(starts, start) - 1, []
        while k < len(self.chars) and starts[k] < end:
            a, b = starts[k], starts[k + 1]
            lo, hi = max(a, start), min(b, end)
            out.append(Piece(self.chars[k], lo - a + 1, hi - a, b - a, self.text[lo:hi], self.graphemes.get(k, "")))
            k += 1
        return _joined(out)


def pieces_alone(data: bytes) -> list[Piece]:
    """The pieces of a token with no text around it: whole characters, the first bytes of a character whose
    length the lead byte tells (``first=1``, ``size`` known, ``char`` unknown), the last bytes of a character
    (``first=last=size=0``: where they start is unknown), bytes that are never UTF-8."""
    out = []
    for a, b, kind in _units(data):
        raw = data[a:b]
        if kind == "char":
            out.append(Piece(raw.decode("utf-8"), 1, b - a, b - a, raw))
        elif kind == "head":
            out.append(Piece("", 1, b - a, utf8_length(data[a]), raw))
        elif kind == "tail":
            out.append(Piece("", 0, 0, 0, raw))
        else:
            out.append(Piece("", 0, 0, 0, raw, invalid=True))
    return _joined(out)


def _joined(pieces: list[Piece]) -> list[Piece]:
    """Runs of whole characters joined into one piece (``你好`` rather than ``你 + 好``)."""
    out: list[Piece] = []
    run: list[Piece] = []  # joined once at its end: adding to a string piece by piece is quadratic in a long token

    def close() -> None:
        out.extend([Piece("".join(p.char for p in run), 1, 1, 1, b"".join(p.raw for p in run))] if run[1:] else run)
        run.clear()

    for p in pieces:
        if p.whole and not p.grapheme:
            run.append(p)
        else:
            close()
            out.append(p)
    close()
    return out


def is_readable(pieces: list[Piece]) -> bool:
    """True when every piece is whole characters (nothing needs explaining)."""
    return all(p.whole for p in pieces)


def token_starts(values: list[bytes], cut: bool = False) -> list[int] | None:
    """Where each token starts (a byte offset) in the text the tokens ``values`` spell, or ``None`` when they
    spell no UTF-8 text (a list of separate tokens, such as the vocabulary). ``cut``: the values are only the
    first tokens of a text, so its last character may be cut."""
    text = b"".join(values)
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as err:
        if not (cut and err.end == len(text) and "end of data" in err.reason):
            return None
    starts, at = [], 0
    for v in values:
        starts.append(at)
        at += len(v)
    return starts


# ------------------------------------------------------------------------------------------ words
def _bytes_range(p: Piece) -> str:
    return f"{p.first}/{p.size}" if p.first == p.last else f"{p.first}–{p.last}/{p.size}"


def short_label(pieces: list[Piece], show=str) -> str:
    """The pieces in a few characters: ``我 + 很 1–2/3``; ``?`` for an unknown character (``? 1–2/3``,
    ``? …/2`` for trailing bytes), ``0xFF`` for a byte that is never UTF-8. ``show`` makes a character
    visible (a space, a zero-width joiner): :func:`ui.text.visible` in the app."""
    parts = []
    for p in pieces:
        if p.invalid:
            parts.append(" ".join(f"0x{b:02X}" for b in p.raw))
        elif p.whole:
            parts.append(show(p.char))
        elif p.size:
            parts.append(f"{show(p.char) if p.char else '?'} {_bytes_range(p)}")
        else:
            parts.append("…" + "?" * len(p.raw))
    return " + ".join(parts)


def describe(pieces: list[Piece], tr: gettext.NullTranslations | None = None, show=str) -> str:
    """The pieces as a sentence for a tooltip, e.g. "我 (a whole character) + bytes 1–2 of 很 (3 bytes)",
    or for a token alone "the first 2 bytes of a 3-byte character". ``tr``: translations (``None``: English);
    ``show`` as in :func:`short_label`."""
    t = tr or _ENGLISH
    parts = []
    for p in pieces:
        n = len(p.raw)
        if p.invalid:
            parts.append(
                t.ngettext("{hex}: a byte that is not UTF-8 here", "{hex}: bytes that are not UTF-8 here", n).format(
                    hex=p.raw.hex(" ")
                )
            )
        elif p.whole:
            parts.append(
                t.ngettext("{chars} (a whole character)", "{chars} (whole characters)", len(p.char)).format(
                    chars=show(p.char)
                )
            )
        elif p.char:
            size = t.ngettext("{n} byte", "{n} bytes", p.size).format(n=p.size)
            if p.first == p.last:
                line = t.gettext("byte {first} of {char} ({size})")
            else:
                line = t.gettext("bytes {first}–{last} of {char} ({size})")
            line = line.format(first=p.first, last=p.last, char=show(p.char), size=size)
            if p.grapheme:
                line += " " + t.gettext("inside {grapheme}").format(grapheme=show(p.grapheme))
            parts.append(line)
        elif p.size:
            if n == 1:
                line = t.gettext("the lead byte of a {size}-byte character")
            else:
                line = t.ngettext(
                    "the first {n} byte of a {size}-byte character",
                    "the first {n} bytes of a {size}-byte character",
                    n,
                )
            parts.append(line.format(n=n, size=p.size))
        else:
            parts.append(
                t.ngettext(
                    "{n} continuation byte (the rest of a character)",
                    "{n} continuation bytes (the rest of a character)",
                    n,
                ).format(n=n)
            )
    return " + ".join(parts)


def byte_notes(
    value: bytes, tr: gettext.NullTranslations | None = None, show=str, pieces=None, example: Example | None = None
) -> list[str]:
    """What a tooltip says about a byte token ``value``: where it stands in a text (``pieces``, from
    :func:`pieces_in_text`), the character(s) and bytes it holds; standing alone, that it is not a whole
    character, what its bytes are, and ``example`` (:func:`example_in`) when there is one. ``tr`` and ``show``
    as in :func:`describe`."""
    t = tr or _ENGLISH
    if pieces is not None:
        return [describe(pieces, t, show)]
    what = describe(pieces_alone(value), t, show)
    out = [t.gettext("not a whole UTF-8 character: {what}").format(what=what)]
    if example is not None:
        out.append(
            t.gettext("in the corpus, e.g. {piece} in the word {word}").format(
                piece=short_label(example.pieces, show), word=show(example.word)
            )
        )
    return out


# ------------------------------------------------------------------------------ examples from a corpus
def corpus_blob(words) -> bytes:
    """The words' UTF-8 bytes joined by a byte that is never UTF-8, for :func:`example_in` (build it once
    per corpus: it is as large as the corpus)."""
    return _SEP.join(w.encode("utf-8", "surrogatepass") if isinstance(w, str) else bytes(w) for w in words)


@dataclass(frozen=True)
class Example:
    """Where a token first occurs in a corpus: the word (cut around the token), the token's pieces there, and
    the word's bytes with the token's first byte in them (``data``, ``start``: to read its neighbours)."""

    word: str
    pieces: list[Piece]
    data: bytes = b""
    start: int = 0

    @property
    def chars(self) -> str:
        """The characters the token's bytes belong to (``你`` for ``e4 bd``, ``我很`` for ``我\\xe5\\xbe``)."""
        return "".join(p.char for p in self.pieces)


def example_in(blob: bytes, data: bytes, max_word: int = 40) -> Example | None:
    """The first word of :func:`corpus_blob` ``blob`` holding the bytes ``data``, and the characters they
    belong to there; ``None`` when no word holds them (``data`` empty or holding 0xFF too). The word is cut to about
    ``max_word`` characters around the token."""
    if not data or _SEP in data:
        return None
    at = blob.find(data)
    if at < 0:
        return None
    begin = blob.rfind(_SEP, 0, at) + 1
    end = blob.find(_SEP, at + len(data))
    end = len(blob) if end < 0 else end
    lo, hi = max(begin, at - 4 * max_word // 2), min(end, at + len(data) + 4 * max_word // 2)
    while lo > begin and utf8_length(blob[lo]) == 0:
        lo -= 1
    while hi < end and utf8_length(blob[hi]) == 0:
        hi += 1
    word = blob[lo:hi]
    start = at - lo
    return Example(word.decode("utf-8", "replace"), pieces_in_text(word, start, start + len(data)), word, start)


def places_in(blob: bytes, values: list[bytes]) -> list[tuple[bytes, int] | None]:
    """Where tokens standing side by side (a pair) first occur together in :func:`corpus_blob` ``blob``: for
    each, ``(text, start)`` as :func:`pieces_in_text` takes them, so each names the character it has *in that
    pair*; ``None`` each when they never occur together."""
    ex = example_in(blob, b"".join(values))
    if ex is None:
        return [None] * len(values)
    out, at = [], ex.start
    for v in values:
        out.append((ex.data, at))
        at += len(v)
    return out
