"""Drawing a merge check (:mod:`bpe_core.checking.check`) and an encoder check (:mod:`bpe_core.checking.check_encoder`):
the cause in plain words with a link to its rule on *How BPE works*, the pair table with both rows
marked, the words involved, and an encoder's first difference with its merge order.

Every number comes from the reports; this module only words and draws them.
"""

from __future__ import annotations

from bpe_core.byte_display import from_gpt2

from .chips import chip_html, chips_html
from .i18n import N_, _, ngettext
from .settings import PRE_LABELS, TIE_LABELS
from .text import esc, esc_raw

#: Where each cause's rule is explained: an anchor of the How BPE works page and its section title.
RULE_SECTIONS = {
    "settings": ("byte-level", N_("Byte-level BPE and Chinese")),
    "tie-break": ("tie-break", N_("When the tie-break rule matters")),
    "overlap-counting": ("overlaps", N_("Overlapping pairs: a a a")),
    "word-frequency": ("algorithm", N_("The algorithm in five stages")),
    "pre-tokenization": ("algorithm", N_("The algorithm in five stages")),
    "application-order": ("overlaps", N_("Overlapping pairs: a a a")),
    "stop-rule": ("stopping", N_("When training stops")),
    "unknown": ("algorithm", N_("The algorithm in five stages")),
}
CAUSE_NAMES = {
    "settings": N_("Settings"),
    "tie-break": N_("Tie-break"),
    "overlap-counting": N_("Overlapping pairs counted once"),
    "word-frequency": N_("Word frequency left out"),
    "pre-tokenization": N_("Pre-tokenization"),
    "application-order": N_("Order of applying a merge"),
    "stop-rule": N_("When to stop"),
    "unknown": N_("Unknown"),
}


def pair_text(pair) -> str:
    """A pair as plain text: ``left + right`` (wire strings)."""
    return f"{pair[0]} + {pair[1]}"


def _settings_name(detail: dict) -> str:
    variant = detail.get("variant")
    if variant == "char":
        return _("characters")
    if variant == "byte":
        return _("bytes (GPT-2 alias spelling)")
    if variant == "eow" and detail.get("eow_style") == "attached":
        return _("characters with {marker} attached to the last character").format(marker=detail["marker"])
    if variant == "eow":
        return _("characters with {marker} as a separate symbol").format(marker=detail["marker"])
    return _("other settings")


def cause_sentence(report, config) -> str:
    """The cause of a parting :class:`bpe_core.checking.check.CheckReport` in plain words (plain text, not escaped)."""
    d, cause = report.detail, report.cause
    if cause == "settings":
        if "symbol" in d:
            said = _(
                "Your merges start from the symbol {symbol}, which these settings never make: they look "
                "like {what}. Check the variant (characters or bytes) and the end-of-word marker."
            )
            return said.format(symbol=repr(d["symbol"]), what=_settings_name(d))
        return _(
            "Trained on {what} instead, the reference makes your pair next: check the variant and the "
            "end-of-word marker."
        ).format(what=_settings_name(d))
    if cause == "tie-break":
        rules = d.get("rules") or []
        said = _(
            "Both pairs occur {count} times: a tie, so a tie-break rule decides. The reference uses “{rule}”."
        ).format(count=f"{report.reference_count:,}", rule=_(TIE_LABELS[report.tie_break]))
        if rules:
            names = ", ".join(_(TIE_LABELS[r]) for r in rules)
            return said + " " + _("Your pair is the one “{rules}” picks.").format(rules=names)
        return said + " " + _("None of the known rules picks your pair: look at how your code chooses among equals.")
    if cause == "overlap-counting":
        return _(
            "Your counts look like a run such as a a a held the pair (a, a) once. It holds it twice: "
            "every overlapping pair counts, although only one of them can be merged."
        )
    if cause == "word-frequency":
        return _(
            "Your counts look like each word type counted once. A pair counts once for every "
            "occurrence of the word: a word seen 5 times adds 5."
        )
    if cause == "pre-tokenization":
        pre = d.get("pretokenizer", "")
        said = _("Split with “{other}” instead of “{own}”, the corpus makes your pair next.").format(
            other=_(PRE_LABELS.get(pre, pre)),
            own=_(PRE_LABELS.get(config.resolved_pretokenizer, config.resolved_pretokenizer)),
        )
        if d.get("crosses_boundary"):
            said = _("Your pair never occurs inside one word: it crosses a word boundary.") + " " + said
        return said + " " + _("Pairs are counted inside pre-tokens only.")
    if cause == "application-order":
        if d.get("order") == "right-to-left":
            return _(
                "Your corpus looks like merges were applied from the right: a a a became a aa. A merge "
                "rewrites left to right: aa a."
            )
        return _(
            "Your corpus looks like a merge kept its right token too (a b c became ab b c): after "
            "replacing a pair, the scan must skip both of its tokens."
        )
    if cause == "stop-rule":
        if d.get("missing") == "yours":
            return _(
                "The lists agree, but yours stops after {n} merges while the reference makes merge {step}."
            ).format(n=f"{report.merges:,}", step=f"{report.step:,}")
        return _(
            "The lists agree, but the reference stops after {n} merges (the minimum frequency, the number "
            "of merges or the vocabulary size) while yours goes on."
        ).format(n=f"{report.agree:,}")
    return _(
        "None of the known mistakes gives your pair here: your pair occurs {yours} times, the reference's {ref} times."
    ).format(yours=f"{report.yours_count or 0:,}", ref=f"{report.reference_count or 0:,}")


def rule_link(cause: str) -> tuple[str, str]:
    """``(url, title)`` of the section of *How BPE works* that explains ``cause``'s rule."""
    anchor, title = RULE_SECTIONS[cause]
    return f"How_BPE_works#{anchor}", _(title)


def summary_html(report) -> str:
    """The headline: identical, or where the lists part (``#check-summary``, with data attributes)."""
    if report.identical:
        said = ngettext(
            "Identical: your merge agrees with the reference (tie-break rule “{rule}”).",
            "Identical: all {n} merges agree with the reference (tie-break rule “{rule}”).",
            report.merges,
        )
        text = said.format(n=f"{report.merges:,}", rule=_(TIE_LABELS[report.tie_break]))
    else:
        said = _(
            "The lists agree for {k} merges and part at merge {step} (reference: tie-break rule “{rule}”). "
            "Cause: {cause}."
        )
        text = said.format(
            k=f"{report.agree:,}",
            step=f"{report.step:,}",
            rule=_(TIE_LABELS[report.tie_break]),
            cause=_(CAUSE_NAMES[report.cause]),
        )
    return (
        f"<p class='bpe-note' id='check-summary' data-cause='{esc_raw(report.cause)}' "
        f"data-step='{report.step or ''}' data-agree='{report.agree}'>{esc_raw(text)}</p>"
    )


def pair_ids(run, pair):
    """A wire pair as the run's token ids, or ``None`` when a side is no token of the run."""
    if pair is None:
        return None
    try:
        values = [from_gpt2(s) if run.variant.is_bytes else s for s in pair]
    except ValueError:
        return None
    ids = tuple(run.value_to_id.get(v) for v in values)
    return None if None in ids else ids


def marks_of(report) -> dict:
    """The pair-table marks: the reference's row and the student's."""
    marks = {}
    ref, yours = pair_ids(report.run, report.reference), pair_ids(report.run, report.yours)
    if ref:
        marks[ref] = ("chosen", _("reference"))
    if yours:
        marks[yours] = ("yours", _("yours"))
    return marks


def pairs_html(report) -> str:
    """Both pairs side by side as text chips with their counts (``#check-pairs``)."""
    rows = []
    for css, label, pair, count in (
        ("yours", _("Your merge {step}"), report.yours, report.yours_count),
        ("chosen", _("Reference merge {step}"), report.reference, report.reference_count),
    ):
        shown = f"{esc(pair[0])} + {esc(pair[1])}" if pair else esc_raw(_("(none: the list ends here)"))
        counted = "" if count is None else esc_raw(ngettext("{n} time", "{n} times", count).format(n=f"{count:,}"))
        rows.append(
            f"<tr class='{css}'><th>{esc_raw(label.format(step=f'{report.step:,}'))}</th>"
            f"<td class='pair'>{shown}</td><td class='num'>{counted}</td></tr>"
        )
    return f"<table class='bpe-table' id='check-pairs'>{''.join(rows)}</table>"


def words_html(report, mode: str, presentation: bool) -> str:
    """The word types the two pairs occur in, split as before the parting step (``#check-words``)."""
    run, k = report.run, report.agree
    if not report.words:
        none = _("Neither pair occurs inside a word.")
        return f"<p class='bpe-muted' id='check-words'>{esc_raw(none)}</p>"
    items = []
    for word, freq, _tokens, has_yours, has_ref in report.words:
        index = run.find_word(word)
        if index is None:
            continue
        which = " · ".join(label for label, has in ((_("yours"), has_yours), (_("reference"), has_ref)) if has)
        items.append(
            f"<li class='bpe-check-word'><b>{esc(word)}</b> ×{freq:,} "
            f"{chips_html(run, run.segmentation(index, k), mode, None, presentation, max_chips=40)}"
            f" <span class='bpe-muted'>({esc_raw(which)})</span></li>"
        )
    return f"<ul class='bpe-check-words' id='check-words'>{''.join(items)}</ul>"


def encoder_html(report, src, mode: str, presentation: bool) -> str:
    """An encoder check: where the ids part, the pre-token, both segmentations and the merge order
    (``#check-encoder``)."""
    if report.identical:
        said = ngettext(
            "Identical: your {n} token id matches.", "Identical: all {n} token ids match.", len(report.yours)
        ).format(n=f"{len(report.yours):,}")
        return f"<p class='bpe-note' id='check-encoder' data-position=''>{esc_raw(said)}</p>"
    said = _("First difference at token {pos} (counting from 0): expected {expected}, yours {yours}.").format(
        pos=f"{report.position:,}",
        expected=report.expected[report.position] if report.position < len(report.expected) else _("nothing"),
        yours=report.yours[report.position] if report.position < len(report.yours) else _("nothing"),
    )
    parts = [f"<p class='bpe-note'>{esc_raw(said)}</p>"]
    if report.piece is not None:
        falls = _("It falls in pre-token {i}:").format(i=f"{report.piece_index + 1:,}")
        expected, yours = _("Expected:"), _("Yours:")
        parts.append(f"<p>{esc_raw(falls)} <b class='bpe-piece'>{esc(report.piece)}</b></p>")
        parts.append(
            f"<p>{esc_raw(expected)} {chips_html(src, report.expected_piece, mode, None, presentation)}</p>"
            f"<p>{esc_raw(yours)} {chips_html(src, _known(src, report.yours_piece), mode, None, presentation)}</p>"
        )
        if report.merges:
            merge_label = _("Merge {number}:")
            steps = "".join(
                f"<li>{esc_raw(merge_label.format(number=f'{number:,}'))} {chip_html(src, left, mode, presentation)}"
                f" + {chip_html(src, right, mode, presentation)} → {chip_html(src, token, mode, presentation)}</li>"
                for number, left, right, token in report.merges
            )
            head = _("The merges that apply to it, lowest rank first; each rewrites every occurrence, left to right:")
            parts.append(f"<p>{esc_raw(head)}</p><ol class='bpe-check-merges'>{steps}</ol>")
        else:
            none = _("No merge applies to it: it stays split into its base symbols.")
            parts.append(f"<p>{esc_raw(none)}</p>")
        if report.longest_match:
            longest = _("Your tokens here are what greedy longest match gives, not merge rank order.")
            parts.append(f"<p class='bpe-muted'>{esc_raw(longest)}</p>")
    return f"<div id='check-encoder' data-position='{report.position}'>{''.join(parts)}</div>"


def _known(src, ids: list) -> list:
    out = []
    for tid in ids:
        try:
            src.token_value(tid)
        except (ValueError, KeyError, IndexError):
            continue
        out.append(tid)
    return out
