"""The How BPE works page's HTML: a merge up close (the pairs before it; the merge, why, the words after),
the overlap example, the tie-break rules' first merges, how far two rules agree, when training stops, the
trainer's rules and stop codes. The page trains its fixed examples; these functions lay them out."""

from __future__ import annotations

from bpe_core import RULES
from bpe_core.pretokenize_words import JIEBA
from bpe_core.teaching.explain import TIE_RULES
from bpe_core.teaching.facts import tie_agreement_text

from .blocks import table_html
from .chips import chip_html
from .corpus_panel import corpus_table_html
from .explain import merge_reason
from .glossary import SEGMENTATION_HEADING
from .i18n import _, tr
from .panels import merge_line_html, pair_table_html
from .settings import PRE_LABELS
from .text import esc_raw


def stages_md(stages: list[str]) -> str:
    """The algorithm's stages (translated sentences) as a numbered Markdown list, then a line on cutting Chinese
    into words at stage 1 (the ``jieba`` pre-tokenizer) that sends the reader to the Glossary's section on word
    segmentation, which says what 分词 / 斷詞 is and is not."""
    numbered = "\n".join(f"{i}. {text}" for i, text in enumerate(stages, 1))
    line = _(
        "For Chinese, stage 1 can be word segmentation (分词 / 斷詞): choose the pre-tokenizer “{label}” in the "
        "sidebar and compare the merges with “{none}”. The Glossary's section “{heading}” says what word "
        "segmentation is and is not."
    )
    label, none = (_(PRE_LABELS[name]) for name in (JIEBA, "none"))
    line = line.format(label=label, none=none, heading=_(SEGMENTATION_HEADING))
    return f"{numbered}\n\n{line}"


def pairs_before_html(run, step: int, mode: str, present: bool) -> str:
    """Every pair and its count just before merge ``step`` (``#how-merge-<step>``)."""
    return f"<div id='how-merge-{step}'>{pair_table_html(run, step, mode, present, limit=6)}</div>"


def merge_card_html(run, step: int, mode: str, present: bool) -> str:
    """Merge ``step`` in a card with why it was chosen."""
    return (
        f"<div class='bpe-card'>{merge_line_html(run, step, mode, present)}"
        f"<div class='bpe-reason'>{esc_raw(merge_reason(run, step, mode))}</div></div>"
    )


def merge_up_close_html(run, step: int, mode: str, present: bool) -> str:
    """Merge ``step``, why, and the first words after it."""
    return merge_card_html(run, step, mode, present) + corpus_table_html(run, step, mode, present, limit=4)


def overlap_html(run, mode: str, present: bool) -> str:
    """The overlap example's first merge (``#how-overlap``: ``data-count``, the pairs counted; ``data-places``,
    the places rewritten) and its words after it."""
    snap = run.snapshot(1)
    return (
        f"<div class='bpe-card' id='how-overlap' data-count='{snap.count}' data-places='{snap.occurrences}'>"
        f"{merge_line_html(run, 1, mode, present)}</div>" + corpus_table_html(run, 1, mode, present, limit=4)
    )


def ties_table_html(runs: dict, steps: range, merge_heads: list[str], mode: str, present: bool) -> str:
    """The table ``#how-ties``: per tie-break rule (``runs``: ``{rule: run}``), its merges ``steps`` as pairs
    of chips, under ``merge_heads``."""
    body = []
    for rule, tie in TIE_RULES.items():
        r = runs[rule]
        cells = "".join(
            f"<td class='pair' data-step='{s}'>{chip_html(r, r.snapshot(s).left, mode, present)} + "
            f"{chip_html(r, r.snapshot(s).right, mode, present)}</td>"
            for s in steps
        )
        body.append(f"<tr data-rule='{rule}'><td><b>{esc_raw(_(tie.title))}</b></td>{cells}</tr>")
    return table_html("how-ties", [_("Rule"), *merge_heads], body)


def tie_agreement_html(agree) -> str:
    """How far first-seen and Hugging Face order agree on the textbook example (``#how-tie-agreement``;
    ``agree``: :func:`bpe_core.teaching.facts.tie_agreement`)."""
    lead = _("First seen and Hugging Face order on the textbook example, trained until no pair is left:")
    return (
        f"<p class='bpe-note' id='how-tie-agreement' data-same='{agree.same_step}' data-steps='{agree.steps}'>"
        f"{esc_raw(lead)} {esc_raw(tie_agreement_text(agree, tr()))}</p>"
    )


def your_corpus_html(label: str, run, mode: str, present: bool) -> str:
    """The first merge of the sidebar's corpus (``label``: its name, user text), in a card with why."""
    first = _("The first merge of {label}, with the settings of the sidebar:")
    return f"<p class='bpe-muted'>{esc_raw(first.format(label=label))}</p>" + merge_card_html(run, 1, mode, present)


def rules_html(stopped: list) -> str:
    """The trainer's rules in one sentence each (``#how-rules``) and the stop codes of the runs ``stopped``
    (``#how-stop-codes``)."""
    rules = "".join(f"<li><code>{esc_raw(key)}</code>: {esc_raw(_(text))}</li>" for key, text in RULES.items())
    codes = "".join(f"<li><code>{esc_raw(r.stop_reason or '')}</code></li>" for r in stopped)
    return f"<ul class='bpe-muted' id='how-rules'>{rules}</ul><ul class='bpe-muted' id='how-stop-codes'>{codes}</ul>"
