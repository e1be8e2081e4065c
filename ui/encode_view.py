"""The Encode and decode page's HTML: the text's tokens with their summary, the merges the text uses in
rank order, the words that merge rank and longest match split differently, and ids decoded back to text.
The page computes (:mod:`bpe_core.encoding.replay`); these functions lay it out, user text escaped."""

from __future__ import annotations

from bpe_core.encoding.replay import UNK_LOST, WHITESPACE_DROPPED, WHITESPACE_ONE_SPACE, unknown_symbols

from .blocks import table_html
from .chips import chip_html, tokens_html
from .i18n import N_, _, ngettext
from .text import esc, esc_raw

#: Why a text's own ids may decode to another text (:data:`bpe_core.encoding.replay.RoundTrip.reasons`).
REASONS = {
    WHITESPACE_ONE_SPACE: N_(
        "the whitespace pre-tokenizer drops whitespace (the end-of-word marker brings back one space between words)"
    ),
    WHITESPACE_DROPPED: N_("the whitespace pre-tokenizer drops whitespace"),
    UNK_LOST: N_("<unk> cannot be turned back into the character it replaced"),
}


def summary_html(summary, src, ids: list[int], unknown: list[str], mode: str, present: bool) -> str:
    """Characters, tokens, characters per token and ``<unk>`` of an encoding (``#enc-summary``,
    ``data-tokens``, ``data-unk``; ``summary``: :func:`bpe_core.encoding.replay.encoding_summary`), then its tokens
    (``#enc-tokens``)."""
    numbers = dict(
        chars=f"{summary.chars:,}",
        tokens=f"{summary.tokens:,}",
        ratio=f"{summary.chars_per_token:.2f}",
        unk=f"{summary.unknown:,}",
    )
    if summary.unknown:
        said = _(
            "{chars} characters → {tokens} tokens ({ratio} characters per token); {unk} unknown (<unk>: "
            "characters the training corpus never had)."
        )
    else:
        said = _("{chars} characters → {tokens} tokens ({ratio} characters per token).")
    return (
        f"<p class='bpe-note' id='enc-summary' data-tokens='{summary.tokens}' data-unk='{summary.unknown}'>"
        f"{esc_raw(said.format(**numbers))}</p>"
        + tokens_html(src, ids, mode, present, unknown=unknown, css_id="enc-tokens")
    )


def plan_table_html(src, replay, j: int, mode: str) -> str:
    """The table ``#enc-plan``: every merge of ``replay`` (:meth:`bpe_core.encoding.encoder.Tokenizer.replay`) in
    rank order, with the places it applies; the one of replay step ``j`` marked ``chosen``."""
    rows = []
    for i, step in enumerate(replay.steps, start=1):
        rows.append(
            f"<tr class='{'chosen' if i == j else ''}'><td class='num'>{i}</td><td class='num'>{step.merge_number:,}</td>"
            f"<td class='pair'>{chip_html(src, step.left, mode)} + {chip_html(src, step.right, mode)} → "
            f"{chip_html(src, step.token, mode)}</td><td class='num'>{step.count}</td></tr>"
        )
    # The second column is merge k (its rank in a byte-level rank file is 255 + k: facts.numbering_legend).
    return table_html("enc-plan", (_("merge"), _("pair"), _("places")), rows, head_html="<th>#</th>")


def diffs_html(tok, src, diffs: list, shown: int, mode: str, present: bool) -> str:
    """The words split differently by merge rank and by longest match (``diffs``:
    :func:`bpe_core.encoding.replay.split_differences`), the first ``shown`` in the table ``#enc-diffs``; when there
    are none, a line saying so (``#enc-diffs-none``)."""
    if not diffs:
        same = _("Both methods split every word of this text the same way.")
        return f"<p class='bpe-note' id='enc-diffs-none'>{esc_raw(same)}</p>"
    rows = []
    for piece, by_rank, longest in diffs[:shown]:
        unknown = unknown_symbols(tok, piece)
        rows.append(
            f"<tr><td class='word'>{esc(piece)}</td>"
            f"<td>{tokens_html(src, by_rank, mode, present, with_ids=False, unknown=unknown)}</td>"
            f"<td>{tokens_html(src, longest, mode, present, with_ids=False)}</td></tr>"
        )
    if len(diffs) > shown:
        said = ngettext(
            "{n} word of this text is split differently (the first {shown} shown):",
            "{n} words of this text are split differently (the first {shown} shown):",
            len(diffs),
        )
    else:
        said = ngettext(
            "{n} word of this text is split differently:",
            "{n} words of this text are split differently:",
            len(diffs),
        )
    head = (
        _("word"),
        _("by merge rank (GPT-2, what training did)"),
        _("longest match first (Lei Mao's </w> tutorial)"),
    )
    note = esc_raw(said.format(n=f"{len(diffs):,}", shown=shown))
    return f"<p class='bpe-note'>{note}</p>" + table_html("enc-diffs", head, rows)


def decoded_html(src, wanted: list[int], back, mode: str, present: bool) -> str:
    """Ids ``wanted`` as tokens (``#enc-decode-tokens``), whether they give the text back (``back``:
    :func:`bpe_core.encoding.replay.round_trip`, with why not) and the decoded text (``#enc-decoded``)."""
    if back.exact:
        exact = _("Exactly the text above.")
        verdict = f"<span class='bpe-ok'>{esc_raw(exact)}</span>"
    elif back.same_ids and back.reasons:
        reasons = _("; ").join(_(REASONS[r]) for r in back.reasons)
        verdict = esc_raw(_("Not exactly the text above: {reasons}.").format(reasons=reasons))
    elif back.same_ids:
        verdict = esc_raw(_("Not exactly the text above."))
    else:
        verdict = ""
    decoded_as = ngettext("Decoded ({n} id):", "Decoded ({n} ids):", len(wanted)).format(n=f"{len(wanted):,}")
    return (
        tokens_html(src, wanted, mode, present, css_id="enc-decode-tokens")
        + f"<p class='bpe-muted'>{esc_raw(decoded_as)} {verdict}</p>"
        + f"<div class='bpe-text' id='enc-decoded'>{esc_raw(back.decoded)}</div>"
    )
