"""A real tokenizer replayed on the user's text (the merges that fire, in rank order, one step at a
time; the merge tree of any token), and the overlap of a byte-level training run's first merges with
GPT-2's (:func:`bpe_core.merge_overlap`)."""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import load_gpt, merge_overlap
from bpe_core.encoding.traces import Replay
from bpe_core.models import MODEL_NAMES
from bpe_core.teaching.facts import numbering_legend, rank_of_merge

from . import persist, stepper
from .chips import chip_html, merge_html, token_label, tokens_html
from .i18n import _, ngettext, tr
from .text import esc_raw, visible

#: Most nodes of a merge tree drawn (a 100-byte token would be too wide to read).
MAX_TREE_LEAVES = 32


def _step_label(key: str, j: int, n: int) -> str:
    # "Step", not "Merge": the card below names the merge by its number in the tokenizer (GPT-2's merge 15,275),
    # while j counts only the merges that fire on this text.
    text = _("Step {step} of {n}").format(step=f"{j:,}", n=f"{n:,}")
    return f"<div class='bpe-step-label' id='{key}-replay-label' data-step='{j}'>{esc_raw(text)}</div>"


def replay_steps(
    replay: Replay,
    src,
    *,
    key: str,
    name: str,
    start: str,
    merge_label: Callable[[int], str],
    note: Callable[[int], str] | None = None,
    unknown: list[str] | None = None,
    mode: str = "utf8",
    present: bool = False,
) -> int:
    """Step through the merges that fire on a text, one at a time: the step control
    (:func:`ui.stepper.step_controls`, stepper ``key``, its step kept in the session under ``name``) and
    a card with the merge of step j (:func:`ui.chips.merge_html`) over the text's tokens after it.
    Used by the GPT tokenizers' replay (``key="rt"``) and the Encode page's (``"enc"``).

    Args:
        replay: :meth:`bpe_core.encoding.encoder.Tokenizer.replay` of the text (at least one merge).
        src: the chip source of its tokenizer (:mod:`ui.chips`).
        start: the sentence shown at step 0.
        merge_label: the label before a merge's chips, from its number k (from 1;
            ``"GPT-2's merge 12 (rank and id 267):"``).
        note: a line under the merge, from its merge number (optional).
        unknown: the symbols ``<unk>`` stands for (:func:`bpe_core.encoding.replay.unknown_symbols`).

    Returns the step j (0..len(replay)). Element ids: ``<key>-replay-label``, ``-merge`` (``data-merge``: its merge number),
    ``-tokens`` and ``-count`` (``data-tokens``)."""
    n = len(replay)
    j = stepper.step_controls(
        n,
        key=key,
        store=stepper.KeptStep(name),
        label=lambda k: _step_label(key, k, n),
        unit="merge",
        presentation=present,
        autoplay=False,
    )
    if j == 0:
        head, new_token = f"<div class='bpe-reason'>{esc_raw(start)}</div>", None
    else:
        step = replay.steps[j - 1]
        new_token = step.token
        applies = ngettext("applies here {n} time", "applies here {n} times", step.count).format(n=f"{step.count:,}")
        attrs = f"id='{key}-replay-merge' data-step='{j}' data-merge='{step.merge_number}'"
        head = merge_html(
            src,
            step.left,
            step.right,
            step.token,
            mode,
            present,
            label=merge_label(step.merge_number),
            badge=applies,
            attrs=attrs,
        )
        if note:
            head += f"<div class='bpe-muted'>{esc_raw(note(step.merge_number))}</div>"
    ids = replay.ids_at(j)
    count = ngettext("{n} token.", "{n} tokens.", len(ids)).format(n=f"{len(ids):,}")
    st.html(
        f"<div class='bpe-card'>{head}<div style='margin-top:.5rem'>"
        + tokens_html(src, ids, mode, present, unknown=unknown, new_token=new_token, css_id=f"{key}-replay-tokens")
        + f"</div><p class='bpe-muted' id='{key}-replay-count' data-tokens='{len(ids)}'>{esc_raw(count)}</p></div>"
    )
    return j


@st.cache_resource(show_spinner=False, max_entries=24)
def gpt_replay(name: str, text: str):
    """:meth:`bpe_core.encoding.encoder.Tokenizer.replay` of a shipped model on ``text``, kept for the last texts
    asked (a 5,000-character text takes about half a second; every click of the step controls reruns)."""
    return load_gpt(name).replay(text)


def replay_section(model, text: str, mode: str, present: bool) -> None:
    """Step through the merges of ``model`` (a :class:`ui.real_tokenizers.Model` of a shipped tokenizer, or an
    uploaded byte-level BPE tokenizer.json, replayed here: it is kept per server by its file) that fire on ``text``."""
    replay = gpt_replay(model.key, text) if model.key in MODEL_NAMES else model.tok.replay(text)
    n = len(replay)
    if n == 0:
        st.info(_("No merge of this tokenizer applies to this text: it stays split into bytes."))
        return
    name = f"pg.rt.replay.{persist.short_key(model.key, text)}"
    start = _("Start: the text as single bytes. Each step applies the next merge, in rank order.")

    made_by = getattr(model.tok, "merge_token", None)  # a tokenizer.json: its merge k makes the file's own id

    def merge_label(rank: int) -> str:
        if made_by is not None:
            return _("{model}'s merge {number} (token id {id}):").format(
                model=model.label, number=f"{rank:,}", id=f"{made_by(rank):,}"
            )
        # Merge k is rank and id 255 + k in the rank file (bpe_core.teaching.facts): both numbers, as the legend says.
        return _("{model}'s merge {number} (rank and id {rank}):").format(
            model=model.label, number=f"{rank:,}", rank=f"{rank_of_merge(rank):,}"
        )

    replay_steps(
        replay, model.src, key="rt", name=name, start=start, merge_label=merge_label, mode=mode, present=present
    )
    if made_by is not None:
        st.caption(
            _(
                "Merge k is the k-th line of the tokenizer.json's model.merges; the id of the token it makes is the "
                "file's own (model.vocab). Added tokens such as <|im_start|> are matched in the text before any merge."
            )
        )
    else:
        st.caption(numbering_legend(tr()))
    tree_picker(model, replay.ids_at(n), mode, present)


def tree_picker(model, ids: list[int], mode: str, present: bool) -> None:
    """A picker over the distinct tokens of ``ids`` and the merge tree of the chosen one."""
    options = [t for t in dict.fromkeys(ids) if model.tok.merge_number(t) is not None]
    if not options:
        return
    options.sort(key=lambda t: -len(model.tok.token_value(t)))
    key = f"rt.tree.{model.key}"
    walked = st.session_state.get(key)  # a token reached by walking the tree, maybe not in this text
    if isinstance(walked, int) and walked not in options and walked in model.tok.values:
        options.append(walked)
    tid = st.selectbox(
        _("Merge tree of a token of this text"),
        options,
        key=key,
        format_func=lambda t: f"{token_label(model.src, t, mode)}  ·  {t}",
    )
    if tid is None:
        return
    tree = model.tok.merge_tree(tid)
    numbers = tree.merge_numbers()
    line = ngettext(
        "{n} merge built this token: merge {numbers}.",
        "{n} merges built this token: merges {numbers}.",
        len(numbers),
    ).format(n=len(numbers), numbers=", ".join(f"{r:,}" for r in numbers))
    st.html(f"<p class='bpe-note' id='rt-tree-ranks'>{esc_raw(line)}</p>" + merge_tree_html(model, tree, mode, present))
    from ui.corpus_panel import children_html, walk_control  # (only a picked tree draws them)

    graph = model.tok.merge_graph()
    st.html(children_html(model.src, graph, tid, mode, present, _merge_label, "rt-tree-up"))
    walk_control(model.src, graph, tid, mode, f"{key}.walk", lambda t: st.session_state.__setitem__(key, t))


def _merge_label(number: int | None) -> str:
    return _("#{number}").format(number=f"{number:,}") if number is not None else _("byte")


def merge_tree_html(model, tree, mode: str, present: bool) -> str:
    """A :class:`bpe_core.MergeTree` as the app's tree of chips, each node labelled with its merge number."""
    if len(model.tok.token_value(tree.token)) > MAX_TREE_LEAVES:
        return ""

    def node(t) -> str:
        label = _("#{number}").format(number=f"{t.merge_number:,}") if t.merge_number is not None else _("byte")
        kids = f"<ul>{node(t.left)}{node(t.right)}</ul>" if t.merge_number is not None else ""
        return f"<li>{chip_html(model.src, t.token, mode, present)}<span class='stepnum'>{esc_raw(label)}</span>{kids}</li>"

    return f"<ul class='bpe-tree' id='rt-tree'>{node(tree)}</ul>"


# ------------------------------------------------------------------------------------ rediscovery
def overlap_chart(curve: tuple, present: bool) -> dict:
    """A Vega-Lite spec: merges shared by the first k of each list, and the diagonal (all shared)."""
    k = list(range(1, len(curve) + 1))
    shared, every = _("shared with GPT-2"), _("all of them (the most possible)")
    frame = pd.DataFrame({"k": k + k, "merges": list(curve) + k, "series": [shared] * len(k) + [every] * len(k)})
    font = 16 if present else 13
    x_title, y_title = _("first k merges of each"), _("merges in common")
    chart = (
        alt.Chart(frame)
        .mark_line(strokeWidth=3)
        .encode(
            x=alt.X("k:Q", title=x_title, axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("merges:Q", title=y_title, axis=alt.Axis(format="d", tickMinStep=1)),
            color=alt.Color(
                "series:N",
                title=None,
                sort=[shared, every],
                scale=alt.Scale(domain=[shared, every], range=["#1b6ca8", "#bbbbbb"]),
                legend=alt.Legend(orient="top", labelLimit=400),
            ),
            strokeDash=alt.StrokeDash("series:N", sort=[shared, every], legend=None),
            tooltip=[alt.Tooltip("k:Q", title=x_title), alt.Tooltip("merges:Q", title=y_title)],
        )
        .properties(height=260)
        .configure_axis(labelFontSize=font, titleFontSize=font)
        .configure_legend(labelFontSize=font)
    )
    return chart.to_dict()


def _merge_text(variant, pair, mode: str) -> str:
    return " + ".join(visible(variant.display(v, mode)) for v in pair)


def rediscovery(ours_tok, gpt2_tok, present: bool, mode: str, n: int = 100) -> None:
    """Compare the first ``n`` merges of a byte-level run (``ours_tok``) with GPT-2's."""
    ours, theirs = ours_tok.first_merges(n), gpt2_tok.first_merges(n)
    result = merge_overlap(ours, theirs, n)
    first = result.first_difference
    where = (
        _("The lists agree on all {n} merges, in the same order.").format(n=result.n)
        if first is None
        else _("They first differ at merge #{number}.").format(number=first)
    )
    line = ngettext(
        "{shared} of the first {n} merges is also among GPT-2's first {n}.",
        "{shared} of the first {n} merges are also among GPT-2's first {n}.",
        result.shared,
    ).format(shared=result.shared, n=result.n)
    st.html(
        f"<p class='bpe-note' id='rt-overlap' data-shared='{result.shared}' data-n='{result.n}' "
        f"data-first='{first or 0}'><b>{esc_raw(line)}</b> {esc_raw(where)}</p>"
    )
    st.vega_lite_chart(overlap_chart(result.curve, present), width="stretch")
    theirs_set = set(map(tuple, theirs))
    rows = []
    for k in range(result.n):
        a = tuple(ours[k]) if k < len(ours) else None
        b = tuple(theirs[k]) if k < len(theirs) else None
        same = "✓" if a is not None and a in theirs_set else ""
        a_text = esc_raw(_merge_text(ours_tok.variant, a, mode)) if a else ""
        b_text = esc_raw(_merge_text(gpt2_tok.variant, b, mode)) if b else ""
        rows.append(
            f"<tr class='{'chosen' if a == b else ''}'><td class='num'>{k + 1}</td><td>{a_text}</td>"
            f"<td class='num'>{same}</td><td>{b_text}</td></tr>"
        )
    with st.expander(_("The first {n} merges side by side").format(n=result.n)):
        st.html(
            "<table class='bpe-table' id='rt-merges'><thead><tr><th>#</th>"
            + "".join(f"<th>{esc_raw(h)}</th>" for h in (_("Your training"), _("Among GPT-2's first merges?"), "GPT-2"))
            + "</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
