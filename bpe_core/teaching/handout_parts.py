"""The pieces of a handout page (:mod:`bpe_core.teaching.handout`): its print stylesheet and fonts, and tokens,
pairs and words as escaped HTML. Every piece of user text goes through ``html.escape`` here."""

from __future__ import annotations

import gettext
import html

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
  white-space: pre; background: #fafafa; line-height: 1.15; }
.tok.new { border: 2px solid #000; background: #ffd966; font-weight: bold; }
.tok.partial { border-style: dashed; }
.more { color: #555; font-style: italic; }
.changed td:first-child { font-weight: bold; }
table.words td:first-child { min-width: 30mm; }
footer { margin-top: 8mm; color: #666; font-size: 9pt; }
"""


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


def token_box(run, tid: int, tr=None, new: bool = False) -> str:
    """One token as an escaped HTML box: whitespace drawn visibly, long tokens clipped, a dashed border
    for a byte-level token that is not a whole UTF-8 character, a bold yellow box for ``new``."""
    text = _clip(token_display(run, tid), TOKEN_CLIP, tr_or_english(tr))
    cls = "tok" + (" new" if new else "") + (" partial" if run.variant.is_bytes and run.is_partial(tid) else "")
    return f'<span class="{cls}">{esc(text)}</span>'


def tokens_html(run, ids: list[int], tr=None, new: int | None = None) -> str:
    """A word's tokens as boxes (at most :data:`WORD_TOKENS`, then how many more); ``new`` marks a token id."""
    t = tr_or_english(tr)
    shown = "".join(token_box(run, tid, tr, new=tid == new) for tid in ids[:WORD_TOKENS])
    rest = len(ids) - WORD_TOKENS
    if rest > 0:
        more = t.ngettext("and {n} more token", "and {n} more tokens", rest).format(n=num(rest))
        shown += f' <span class="more">{esc(more)}</span>'
    return shown


def pair_html(run, left: int, right: int) -> str:
    """A pair of token ids as two boxes joined by ``+``."""
    return f'{token_box(run, left)}<span class="arrow">+</span>{token_box(run, right)}'


def _word_cell(word: str, t) -> str:
    return f"<span class='word'>{esc(_clip(word, 60, t))}</span>"


def word_table(run, rows, t) -> str:
    """``rows``: :class:`~bpe_core.teaching.step_view.WordView` values; before → after when a row has ``before``
    (the token its ``after`` highlights marked new)."""
    # The column lists each word's tokens, not their number: the context keeps it from 词元数.
    tokens = t.pgettext("the tokens themselves, not a count", "Tokens")
    head = f"<tr><th>{esc(t.gettext('Word'))}</th><th class='num'>{esc(t.gettext('Count'))}</th>"
    head += f"<th>{esc(tokens)}</th></tr>"
    body = []
    for row in rows:
        if row.before is None:
            cells = tokens_html(run, row.after.ids, t)
            cls = ""
        else:
            after = tokens_html(run, row.after.ids, t, new=row.after.new)
            cells = f"{tokens_html(run, row.before.ids, t)}<span class='arrow'>→</span>{after}"
            cls = " class='changed'"
        cell = _word_cell(row.word, t)
        body.append(f"<tr{cls}><td>{cell}</td><td class='num'>{num(row.freq)}</td><td>{cells}</td></tr>")
    return f"<table class='words'>{head}{''.join(body)}</table>"
