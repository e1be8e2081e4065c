"""A blank worksheet for doing BPE by hand: the corpus is given, the pairs, counts and merges are the student's.

One self-contained HTML file for A4 (the handout's stylesheet, :mod:`bpe_core.teaching.handout_parts`): the
settings (so the student knows how ties are broken), the corpus before the first merge (words, counts and their
tokens as boxes; for bytes, the character each box belongs to), then one empty block per merge: a pair table to
fill in (pair, count), the pair chosen and the token it makes, and room for the words it changed. Nothing of
the answer is printed: the handout (:func:`bpe_core.teaching.handout.handout_html`) is the answer key.
"""

from __future__ import annotations

import gettext

from ..i18n import N_
from .handout import MAX_WORDS, corpus_before_html, settings_html
from .handout_parts import byte_legend, document_start, esc, num, tr_or_english

#: Messages written inside f-strings below, which the extractor cannot see there: listed once here.
_F_STRING_MESSAGES = (
    N_("Pair"),
    N_("Count"),
    N_("Name:"),
    N_("Chosen pair and the new token:"),
    N_("Words it changed, after the merge:"),
)

#: Empty rows of each merge's pair table.
BLANK_ROWS = 5

_CSS = """
.blank td { height: 7.5mm; }
.sheet .merge { break-inside: avoid; page-break-inside: avoid; }
.sheet table.pairs { width: 100%; }
.sheet table.pairs td:first-child { width: 8mm; }
.sheet table.pairs td:last-child { width: 22mm; }
.line { border-bottom: 1px solid #999; height: 7mm; }
.name { display: flex; gap: 3mm; align-items: flex-end; margin: 2mm 0 4mm; }
.name .line { flex: 1; max-width: 80mm; }
"""


def _merge_block(k: int, t) -> str:
    head = (
        f"<tr><th class='num'>#</th><th>{esc(t.gettext('Pair'))}</th>"
        f"<th class='num'>{esc(t.gettext('Count'))}</th></tr>"
    )
    rows = "".join(
        f"<tr class='blank'><td class='num'>{i}</td><td></td><td></td></tr>" for i in range(1, BLANK_ROWS + 1)
    )
    return (
        f"<section class='merge'><h2>{esc(t.gettext('Merge {step}').format(step=num(k)))}</h2>"
        f"<table class='pairs'>{head}{rows}</table>"
        f"<p>{esc(t.gettext('Chosen pair and the new token:'))}</p><div class='line'></div>"
        f"<p>{esc(t.gettext('Words it changed, after the merge:'))}</p><div class='line'></div><div class='line'></div>"
        "</section>"
    )


def worksheet_html(
    run, merges: int, tr: gettext.NullTranslations | None = None, lang: str = "en", *, max_words: int = MAX_WORDS
) -> str:
    """A blank worksheet (one self-contained HTML document, A4) for merges 1..``merges`` of ``run``'s corpus.

    Args:
        run: a :class:`~bpe_core.algorithms.run.TrainedRun`; only its corpus and settings are printed.
        merges: how many empty merge blocks (at least 1, at most the merges the run made, or 1 if none).
        tr: translations for every sentence (``None``: English).
        lang: BCP 47 tag for ``<html lang>`` (``en``, ``zh-Hans``, ``zh-Hant``).
        max_words: word types of the corpus listed; the rest are counted.

    Returns the document as a string. Raises nothing for any run.
    """
    t = tr_or_english(tr)
    n = max(1, min(int(merges), max(1, run.num_steps)))
    title = t.gettext("Byte-pair encoding by hand: a worksheet")
    steps = t.ngettext(
        "Find the most frequent pair of neighbouring tokens in the corpus below, counting each word as many times "
        "as it occurs; write the pairs you counted and the one chosen, merge it in every word, and go on. Do {n} "
        "merge.",
        "Find the most frequent pair of neighbouring tokens in the corpus below, counting each word as many times "
        "as it occurs; write the pairs you counted and the one chosen, merge it in every word, and go on. Do {n} "
        "merges.",
        n,
    ).format(n=num(n))
    blocks = "".join(_merge_block(k, t) for k in range(1, n + 1))
    return "\n".join(
        [
            document_start(title, lang).replace("</style>", _CSS + "</style>"),
            f"<h1>{esc(title)}</h1>",
            f"<div class='name'><b>{esc(t.gettext('Name:'))}</b><div class='line'></div></div>",
            f"<p>{esc(steps)}</p>",
            settings_html(run, t),
            byte_legend(run, t),
            corpus_before_html(run, t, max_words),
            f"<div class='merges sheet'>{blocks}</div>",
            f"<footer>{esc(t.gettext('Made with BPE Explorer.'))}</footer></body></html>",
        ]
    )
