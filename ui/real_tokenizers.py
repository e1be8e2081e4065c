"""The real tokenizers beside the student's own: GPT-2, GPT-4, GPT-4o, Qwen3 and DeepSeek-V3 when its file is
there (:func:`bpe_core.load_gpt`, :func:`real_models`)
and the sidebar's run on the same text -- token chips with ids, counts and ratios, what a Chinese
character or an emoji costs in each, and BPE-dropout samples of one word.

Every tokenizer is drawn through one chip source (:class:`ui.chips.TokenizerTokens`); the GPT ones
are built once per server process (:func:`gpt_tokens`), like the tokenizers themselves.
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from bpe_core import load_gpt
from bpe_core.measures import dropout_segmentations, partial_tokens, text_stats
from bpe_core.models import available_models
from bpe_core.scripts import costly_graphemes

from .added_tokens import legend_html, mark_added
from .chips import token_label, tokens_html
from .encoding import tokenizer_at, tokens_at
from .i18n import N_, _, ngettext
from .text import esc, esc_raw

#: The shipped models as the page names them: ``(bpe_core name, label)``; labels are product names.
GPT_MODELS = (("gpt2", "GPT-2"), ("cl100k", "GPT-4"), ("o200k", "GPT-4o"))
#: The tokenizer.json models (ids from ``tokenizers``); DeepSeek-V3 only where its file is found.
HF_LABELS = (("qwen3", "Qwen3"), ("deepseek_v3", "DeepSeek-V3"))
#: The key of the student's own tokenizer among the models.
YOURS = "yours"
_YOURS_LABEL = N_("Your BPE")
#: Most distinct Chinese characters, and most emoji, the cost table lists.
MAX_COST_ROWS = 8
#: Most chips drawn per tokenizer in the comparison.
MAX_CHIPS = 600


class Model(NamedTuple):
    """One tokenizer on the page: ``key`` (``"yours"`` or a :data:`bpe_core.MODEL_NAMES` name), its
    label, the :class:`bpe_core.encoding.encoder.Tokenizer` and its chip source."""

    key: str
    label: str
    tok: object
    src: object


def real_models() -> tuple[tuple[str, str], ...]:
    """The real tokenizers this server has, as ``(bpe_core name, label)``: the GPT ones, Qwen3, and DeepSeek-V3
    when its file is found (:func:`bpe_core.models.available_models`)."""
    here = available_models()
    return GPT_MODELS + tuple((key, label) for key, label in HF_LABELS if key in here)


@st.cache_resource(show_spinner=False, max_entries=len(GPT_MODELS) + len(HF_LABELS))
def gpt_tokens(name: str):
    """The chip source of a shipped model, made once per server (it indexes every merge: about a
    second for GPT-4o's 200,000)."""
    from .chips import TokenizerTokens

    tok = load_gpt(name)
    return mark_added(TokenizerTokens(tok), tok)  # a tokenizer.json's special tokens are marked on their chips


def models(run) -> list[Model]:
    """The student's tokenizer (the sidebar's run at its last step) and the real ones (:func:`real_models`)."""
    out = [Model(YOURS, _(_YOURS_LABEL), tokenizer_at(run), tokens_at(run))]
    for name, label in real_models():
        out.append(Model(name, label, load_gpt(name), gpt_tokens(name)))
    return out


def plain_bpe_note(config) -> None:
    """Say (``st.caption``) that "Your BPE" is plain BPE when the sidebar trains BoundlessBPE (``config``: the
    sidebar's :class:`~bpe_core.TrainConfig`): its runs are stepped on the stepper page only (ui.training's
    ``merge_config`` gives this page BPE's run)."""
    if config is not None and config.algorithm == "boundless":
        st.caption(
            _(
                "The sidebar trains BoundlessBPE, which the stepper page steps through: “Your BPE” here is plain BPE "
                "trained on the same corpus with the sidebar's other settings, without supermerges or removals. "
                "The command line encodes with a BoundlessBPE model (train --boundless --out DIR, then encode "
                "--model DIR)."
            )
        )


def model_label(key: str) -> str:
    """The shown name of a model key."""
    return _(_YOURS_LABEL) if key == YOURS else dict(GPT_MODELS + HF_LABELS)[key]


# ------------------------------------------------------------------------------------------ drawing
def comparison(all_models: list[Model], text: str, mode: str, present: bool) -> dict[str, list[int]]:
    """The summary table and each tokenizer's chips for ``text``; returns ``{key: ids}``."""
    encoded = {m.key: m.tok.encode(text) for m in all_models}
    measured = [(m, text_stats(m.tok, text, encoded[m.key])) for m in all_models]
    with_unk = any(s.unknown for _m, s in measured)  # only a character-level run has <unk>
    rows = []
    for m, s in measured:
        rows.append(
            f"<tr id='rt-row-{m.key}' data-tokens='{s.tokens}'><td>{esc_raw(m.label)}</td>"
            f"<td class='num'>{s.tokens:,}</td><td class='num'>{s.per_char:.2f}</td>"
            f"<td class='num'>{s.bytes_per_token:.2f}</td><td class='num'>{s.partial:,}</td>"
            + (f"<td class='num'>{s.unknown:,}</td>" if with_unk else "")
            + "</tr>"
        )
    heads = [_("Tokenizer"), _("Tokens"), _("Tokens per character"), _("Bytes per token"),
             _("Pieces of characters (not whole UTF-8)")] + ([_("Unknown (<unk>)")] if with_unk else [])  # fmt: skip
    chars, size = measured[0][1].chars, measured[0][1].size
    st.html(
        "<p class='bpe-note'>"
        + esc_raw(
            ngettext(
                "The text has {chars} character ({size} UTF-8 bytes).",
                "The text has {chars} characters ({size} UTF-8 bytes).",
                chars,
            ).format(chars=f"{chars:,}", size=f"{size:,}")
        )
        + "</p><table class='bpe-table' id='rt-summary'><thead><tr>"
        + "".join(f"<th>{esc_raw(h)}</th>" for h in heads)
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    tab_labels = [
        ngettext("{name} · {n} token", "{name} · {n} tokens", len(encoded[m.key])).format(
            name=m.label, n=f"{len(encoded[m.key]):,}"
        )
        for m in all_models
    ]
    for tab, m in zip(st.tabs(tab_labels), all_models):
        chips = tokens_html(m.src, encoded[m.key], mode, present, limit=MAX_CHIPS, css_id=f"rt-toks-{m.key}")
        tab.html(chips + legend_html(m.src, encoded[m.key][:MAX_CHIPS]))
    return encoded


def cost_table(all_models: list[Model], text: str, mode: str, present: bool) -> None:
    """What each Chinese character and emoji of ``text`` costs, encoded on its own, in each tokenizer."""
    found = costly_graphemes(text, MAX_COST_ROWS)
    if not found:
        st.info(_("This text has no Chinese characters and no emoji. Add some (e.g. 你好 😀) to compare their cost."))
        return
    head = "".join(f"<th class='num'>{esc_raw(m.label)}</th>" for m in all_models)
    rows = []
    for g in found:
        cells = []
        for m in all_models:
            ids = m.tok.encode(g)
            pieces = " ".join(token_label(m.src, t, mode) for t in ids)
            partial = partial_tokens(m.tok, ids) > 0
            cells.append(
                f"<td class='num' data-model='{m.key}' data-tokens='{len(ids)}' title='{esc_raw(pieces)}' "
                f"style='font-size:1.25rem;{'' if len(ids) == 1 else 'font-weight:700;'}'>"
                f"{len(ids)}{' ▦' if partial else ''}</td>"
            )
        codes = " ".join(f"U+{ord(c):04X}" for c in g)
        size = ngettext("{n} byte", "{n} bytes", len(g.encode("utf-8"))).format(n=len(g.encode("utf-8")))
        rows.append(
            f"<tr id='rt-cost-{'-'.join(f'{ord(c):X}' for c in g)}'><td style='font-size:1.5rem'>{esc(g)}</td>"
            f"<td class='bpe-muted'>{codes} · {esc_raw(size)}</td>{''.join(cells)}</tr>"
        )
    st.html(
        "<table class='bpe-table' id='rt-costs'><thead><tr>"
        + "".join(f"<th>{esc_raw(h)}</th>" for h in (_("Character"), _("Code points and UTF-8 bytes")))
        + f"{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    st.caption(
        _(
            "Tokens for each character encoded on its own (hover a number to see the pieces). ▦ marks pieces that "
            "are not whole characters: a byte-level tokenizer that never merged all of a character's UTF-8 bytes "
            "spends several tokens on it."
        )
    )


def dropout_table(model: Model, word: str, p: float, seed: int, n: int, mode: str, present: bool) -> None:
    """The distinct segmentations of ``word`` among ``n`` dropout samples, with how often each came."""
    plain = tuple(model.tok.encode(word))
    found = dropout_segmentations(model.tok, word, p, seed, n)
    plain_label = _("without dropout")
    rows = []
    for ids, times in found:
        mark = f" <span class='bpe-badge chosen'>{esc_raw(plain_label)}</span>" if ids == plain else ""
        rows.append(
            f"<tr><td>{tokens_html(model.src, list(ids), mode, present, with_ids=False)}{mark}</td>"
            f"<td class='num'>{len(ids)}</td><td class='num' data-times='{times}'>{times:,}</td>"
            f"<td class='num'>{times / n:.0%}</td></tr>"
        )
    summary = ngettext(
        "{n} sample gave {k} different segmentations.", "{n} samples gave {k} different segmentations.", n
    ).format(n=f"{n:,}", k=f"{len(found):,}")
    st.html(
        f"<p class='bpe-note' id='rt-dropout-summary' data-distinct='{len(found)}'>{esc_raw(summary)}</p>"
        "<table class='bpe-table' id='rt-dropout'><thead><tr>"
        + "".join(f"<th>{esc_raw(h)}</th>" for h in (_("Segmentation"), _("Tokens"), _("Times"), _("Share")))
        + "</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
