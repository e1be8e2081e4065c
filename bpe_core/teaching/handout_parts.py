"""The pieces of a handout page (:mod:`bpe_core.teaching.handout`): its print stylesheet and fonts, and tokens,
pairs and words as escaped HTML. Every piece of user text goes through ``html.escape`` here."""

from __future__ import annotations

import gettext
import html
import weakref

from ..byte_pieces import corpus_blob, example_in, pieces_alone, pieces_in_text, places_in, short_label, token_starts
from ..formats.merge_table import token_display, visible_whitespace

_ENGLISH = gettext.NullTranslations()

#: Longest token drawn whole (characters of its display text) and most tokens drawn for one word.
TOKEN_CLIP = 40
WORD_TOKENS = 60

#: Font stacks: Latin first, then Chinese (simplified or traditional first as the language asks), then emoji.
CJK_FONTS = {
    "zh-Hant": '"Noto Sans CJK TC", "Noto Sans TC", "PingFang TC", "Microsoft JhengHei", "Noto Sans CJK SC"',
    "default": '"Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK TC"',
}
EMOJI_FONTS = '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"'

CSS = """
@page { size: A4; margin: 12mm 14mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: %(sans)s; font-size: 10pt; line-height: 1.35; color: #111; max-width: 182mm; margin: 0 auto; }
h1 { font-size: 20pt; margin: 0 0 2mm; }
h2 { font-size: 14pt; margin: 6mm 0 2mm; break-after: avoid; page-break-after: avoid; }
h3 { font-size: 10.5pt; margin: 2mm 0 0.5mm; break-after: avoid; page-break-after: avoid; }
p { margin: 1mm 0; }
.sub { color: #444; margin-bottom: 4mm; }
.note { color: #444; font-size: 9.5pt; }
.screen-only { background: #eef4ff; border: 1px solid #9ab; padding: 2mm 3mm; border-radius: 2mm; }
@media print { .screen-only { display: none; } }
table { border-collapse: collapse; margin: 1mm 0 2mm; }
th, td { border-bottom: 1px solid #ccc; padding: 0.2mm 2mm; text-align: left; vertical-align: top; }
th { font-size: 9pt; color: #333; border-bottom: 1.5px solid #333; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr { break-inside: avoid; page-break-inside: avoid; }
tr.chosen td { background: #fff1b8; font-weight: bold; }
tr.tied td { background: #fff9e0; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 0.5mm 4mm; margin: 2mm 0; }
dl.settings dt { font-weight: bold; }
dl.settings dd { margin: 0; }
.merge { break-inside: avoid; page-break-inside: avoid; border-top: 2px solid #333; margin-top: 4mm; padding-top: 0.5mm; }
.merge h2 { margin: 1mm 0 0; font-size: 12pt; }
.headline { font-size: 14pt; margin: 1mm 0 0; }
.arrow { margin: 0 1.5mm; color: #555; }
.tok { display: inline-block; border: 1px solid #666; border-radius: 1mm; padding: 0 1mm; margin: 0 0.4mm;
  font-family: "DejaVu Sans Mono", "Noto Sans Mono", Menlo, Consolas, monospace, %(cjk)s, %(emoji)s;
  white-space: pre; background: #fafafa; line-height: 1.15; vertical-align: top; }
.tok.new { border: 2px solid #000; background: #ffd966; font-weight: bold; }
.tok.partial { border-style: dashed; text-align: center; }
.tok small { display: block; font-family: %(sans)s; font-size: 6.5pt; line-height: 1; color: #333; }
.merges { columns: 2; column-gap: 6mm; font-size: 9pt; }
.merges th, .merges td { padding: 0.2mm 1mm; }
.merges th { font-size: 7.5pt; line-height: 1.1; }
.merges .merge h2, .merges .summary h2 { font-size: 11pt; margin: 1mm 0 0; }
.merges .headline { font-size: 11pt; }
.merges .merge { margin-top: 0; margin-bottom: 3mm; break-inside: auto; page-break-inside: auto; }
/* In columns a merge may go on in the next column, but never inside a table, nor right after its title. */
.merges table { break-inside: avoid; page-break-inside: avoid; }
.merges .headline, .merges .merge h2, .merges .note { break-after: avoid; page-break-after: avoid; }
.merges h3 { font-size: 9.5pt; margin: 1mm 0 0; }
.merges table { width: 100%%; }
td.pair { white-space: nowrap; }
th.num { white-space: normal; }
td.mark { white-space: nowrap; }
.merges table.words td:first-child { min-width: 0; }
.legend { border: 1px solid #bbb; border-radius: 1.5mm; padding: 1mm 2mm; font-size: 9pt; }
.more { color: #555; font-style: italic; }
.changed td:first-child { font-weight: bold; }
table.words td:first-child { min-width: 30mm; }
footer { margin-top: 8mm; color: #666; font-size: 9pt; }
"""


def document_start(title: str, lang: str) -> str:
    """The start of a printable page up to ``<body>``: its language (``lang``, a BCP 47 tag, also picks the
    Chinese font tried first), ``title`` and the stylesheet with its fonts."""
    cjk = CJK_FONTS["zh-Hant" if lang == "zh-Hant" else "default"]
    sans = f'"Noto Sans", "DejaVu Sans", "Helvetica Neue", Arial, {cjk}, sans-serif, {EMOJI_FONTS}'
    css = CSS % {"sans": sans, "cjk": cjk, "emoji": EMOJI_FONTS}
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title><style>{css}</style></head><body>"
    )


def tr_or_english(tr: gettext.NullTranslations | None) -> gettext.NullTranslations:
    """``tr``, or English (no translation) for ``None``."""
    return tr or _ENGLISH


def fmt(template: str, **html_fragments) -> str:
    """A translated sentence as HTML: the template escaped, then its named placeholders filled with HTML
    fragments that are already escaped (token boxes, numbers)."""
    return html.escape(template, quote=False).format(**html_fragments)


def num(n: int) -> str:
    """``n`` with thousands separators (``1,234``)."""
    return f"{n:,}"


def esc(text: str) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def _clip(text: str, limit: int, t) -> str:
    """``text`` with visible whitespace, cut to ``limit`` characters with its length said (only the part
    kept is converted: a word can be a whole book)."""
    if len(text) <= limit:
        return visible_whitespace(text)
    return t.ngettext("{start}… ({n} character)", "{start}… ({n} characters)", len(text)).format(
        start=visible_whitespace(text[:limit]), n=num(len(text))
    )


#: Each run's words as one byte string (:func:`bpe_core.byte_pieces.corpus_blob`), for the examples of tokens alone.
_BLOBS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def byte_note(run, tid: int, at: tuple[bytes, int] | None = None) -> str:
    """The character a partial byte token belongs to, as a box shows it under its bytes (``很 1–2/3``): where it
    stands in a word (``at``: the word's bytes and the token's first byte), else where it first occurs in the
    corpus; ``""`` for a whole character or a run that is not byte-level."""
    if not run.variant.is_bytes or not run.is_partial(tid):
        return ""
    value = run.token_value(tid)
    if at is not None:
        pieces = pieces_in_text(at[0], at[1], at[1] + len(value))
    else:
        ex = example_in(_blob(run), value)
        pieces = ex.pieces if ex is not None else pieces_alone(value)
    return short_label(pieces, visible_whitespace)


def _blob(run) -> bytes:
    blob = _BLOBS.get(run)
    if blob is None:
        blob = _BLOBS[run] = corpus_blob(run.words)
    return blob


def word_places(run, ids, word: str | None) -> list[tuple[bytes, int] | None]:
    """For the tokens ``ids`` of ``word`` (its first tokens, or all), where each stands in the word, as
    :func:`byte_note` takes ``at``; ``None`` each when the run is not byte-level, ``word`` is ``None`` or the
    tokens do not spell it."""
    if word is None or not run.variant.is_bytes:
        return [None] * len(ids)
    values = [run.token_value(i) for i in ids]
    starts = token_starts(values, cut=True)  # the ids may be the first tokens of a long word
    if starts is None:
        return [None] * len(ids)
    # a word's first n bytes are within its first n characters: a word can be a whole book
    data = word[: sum(map(len, values))].encode("utf-8", "surrogatepass")
    return [(data, start) for start in starts]


def pair_places(run, ids) -> list[tuple[bytes, int] | None]:
    """For tokens standing side by side (a pair), where each is in the corpus where they first occur together
    (:func:`bpe_core.byte_pieces.places_in`), as :func:`byte_note` takes ``at``; ``None`` each for a run that is
    not byte-level."""
    if not run.variant.is_bytes:
        return [None] * len(ids)
    return places_in(_blob(run), [run.token_value(t) for t in ids])


def token_box(run, tid: int, tr=None, new: bool = False, at: tuple[bytes, int] | None = None, note: bool = True) -> str:
    """One token as an escaped HTML box: whitespace drawn visibly, long tokens clipped, a dashed border
    for a byte-level token that is not a whole UTF-8 character (with the character it belongs to under it,
    :func:`byte_note`, unless ``note`` is false: a box inside a sentence), a bold yellow box for ``new``."""
    text = _clip(token_display(run, tid), TOKEN_CLIP, tr_or_english(tr))
    note = byte_note(run, tid, at) if note else ""
    cls = "tok" + (" new" if new else "") + (" partial" if run.variant.is_bytes and run.is_partial(tid) else "")
    small = f"<small>{esc(note)}</small>" if note else ""
    return f'<span class="{cls}">{esc(text)}{small}</span>'


def tokens_html(run, ids: list[int], tr=None, new: int | None = None, word: str | None = None) -> str:
    """A word's tokens as boxes (at most :data:`WORD_TOKENS`, then how many more); ``new`` marks a token id;
    ``word``: the word they spell, so that a partial byte box names its character."""
    t = tr_or_english(tr)
    ids = list(ids)
    places = word_places(run, ids[:WORD_TOKENS], word)
    shown = "".join(token_box(run, tid, tr, new=tid == new, at=at) for tid, at in zip(ids[:WORD_TOKENS], places))
    rest = len(ids) - WORD_TOKENS
    if rest > 0:
        more = t.ngettext("and {n} more token", "and {n} more tokens", rest).format(n=num(rest))
        shown += f' <span class="more">{esc(more)}</span>'
    return shown


def pair_html(run, left: int, right: int, note: bool = True) -> str:
    """A pair of token ids as two boxes joined by ``+`` (``note``: as in :func:`token_box`; each box names its
    character where the pair first occurs in the corpus, :func:`pair_places`)."""
    at = pair_places(run, (left, right)) if note else (None, None)
    return (
        f'{token_box(run, left, at=at[0], note=note)}<span class="arrow">+</span>'
        f"{token_box(run, right, at=at[1], note=note)}"
    )


def byte_legend(run, t) -> str:
    """For a byte-level run, a line saying how to read a partial box (``""`` otherwise)."""
    if not run.variant.is_bytes:
        return ""
    text = t.gettext(
        "A dashed box is part of a character: UTF-8 writes a Chinese character as 3 bytes. Under it, the character "
        "and which of its bytes the box holds: 很 1–2/3 means bytes 1 to 2 of the 3 bytes of 很. In a word it is "
        "that word's character; in a pair table, a character where the pair first occurs in the corpus."
    )
    return f"<p class='legend'>{esc(text)}</p>"


def _word_cell(word: str, t) -> str:
    return f"<span class='word'>{esc(_clip(word, 60, t))}</span>"


def word_table(run, rows, t, before_after: bool = True) -> str:
    """``rows``: :class:`~bpe_core.teaching.step_view.WordView` values; before → after when a row has ``before``
    (the token its ``after`` highlights marked new); without ``before_after``, such a row shows only after, in
    bold (a small corpus, which the block before shows whole)."""
    # The column lists each word's tokens, not their number: the context keeps it from 词元数.
    tokens = t.pgettext("the tokens themselves, not a count", "Tokens")
    head = f"<tr><th>{esc(t.gettext('Word'))}</th><th class='num'>{esc(t.gettext('Count'))}</th>"
    head += f"<th>{esc(tokens)}</th></tr>"
    body = []
    for row in rows:
        if row.before is None:
            cells = tokens_html(run, row.after.ids, t, word=row.word)
            cls = ""
        elif not before_after:
            cells = tokens_html(run, row.after.ids, t, new=row.after.new, word=row.word)
            cls = " class='changed'"
        else:
            after = tokens_html(run, row.after.ids, t, new=row.after.new, word=row.word)
            cells = f"{tokens_html(run, row.before.ids, t, word=row.word)}<span class='arrow'>→</span>{after}"
            cls = " class='changed'"
        cell = _word_cell(row.word, t)
        body.append(f"<tr{cls}><td>{cell}</td><td class='num'>{num(row.freq)}</td><td>{cells}</td></tr>")
    return f"<table class='words'>{head}{''.join(body)}</table>"
