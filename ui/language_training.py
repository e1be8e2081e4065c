"""The Languages page's training part: byte-level BPE trained on the Declaration in a chosen language mix with the
plain and the parity-aware ("fair") merge rule (:mod:`bpe_core.fair_bpe`), measured on held-out articles beside the
GPT tokenizers: every language's tax, the spread and Gini per tokenizer, and which language each fair merge served.

Trainings are kept once per server per mix, merge count and rule (``st.cache_resource``): a class that asks for the
same mix trains it once.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from bpe_core import declaration as decl
from bpe_core.byte_display import to_gpt2
from bpe_core.fair_bpe import FairRun, byte_share_weights, train_mix
from bpe_core.token_tax import tax_table

from .i18n import N_, _
from .languages import column_formats, gpt_table
from .real_tokenizers import GPT_MODELS

#: Trained on the preamble and articles 1-20, measured on 21-30 (held out).
TRAIN_SECTIONS = tuple(range(0, 21))
HELD_OUT = tuple(range(21, 31))
DEFAULT_MERGES = 2_000
MAX_MERGES = 5_000
MIXES = {
    "eng": N_("English only"),
    "cmn_hans": N_("Chinese (Simplified) only"),
    "equal": N_("All 20 languages, equal shares of UTF-8 bytes"),
    "own": N_("Your own weights"),
}


@st.cache_resource(show_spinner=False, max_entries=16)
def trained(weights: tuple, merges: int, rule: str) -> FairRun:
    """A training on the Declaration's training articles with ``weights`` (``((key, weight), ...)``), once per
    server."""
    texts = decl.texts(TRAIN_SECTIONS)
    return train_mix(texts, merges, rule, dict(weights))


def mix_weights(mix: str, own: dict) -> dict:
    """``{key: weight}`` for a mix choice: one language alone, equal UTF-8 byte shares, or ``own`` weights
    (as typed) scaled by the equal-share weights, so weight 1 everywhere is the equal mix."""
    if mix in decl.LOCALES:
        return {k: (1.0 if k == mix else 0.0) for k in decl.KEYS}
    shares = byte_share_weights(decl.texts(TRAIN_SECTIONS))
    if mix == "equal":
        return shares
    return {k: shares[k] * max(0.0, float(own.get(k, 0.0))) for k in decl.KEYS}


def own_weights_editor(names) -> dict:
    """A table where the learner types a weight per language (1 = an equal byte share, 0 = left out)."""
    frame = pd.DataFrame({_("Language"): [names(k) for k in decl.KEYS], _("Weight"): [1.0] * len(decl.KEYS)})
    edited = st.data_editor(
        frame, hide_index=True, key="lang.train.weights", disabled=[_("Language")], width="stretch",
        column_config={_("Weight"): st.column_config.NumberColumn(min_value=0.0, max_value=100.0, step=0.5)},
    )  # fmt: skip
    return dict(zip(decl.KEYS, (float(w) if w == w else 0.0 for w in edited[_("Weight")])))


def results(runs: dict, names) -> None:
    """The held-out table (tax per language under plain, fair and the GPT tokenizers), the spreads, and the
    languages the fair rule served."""
    held = decl.texts(HELD_OUT)
    ours = tax_table(held, {rule: run.tokenizer() for rule, run in runs.items()})
    gpt = gpt_table(HELD_OUT)
    labels = {"plain": _("Plain BPE"), "fair": _("Fair BPE (parity-aware)")}
    labels.update(dict(GPT_MODELS))
    data = {_("Language"): [names(r.name) for r in ours.rows]}
    for rule in runs:
        data[labels[rule]] = [r.tax[rule] for r in ours.rows]
    for key, _label in GPT_MODELS:
        data[labels[key]] = [r.tax[key] for r in gpt.rows]
    table = pd.DataFrame(data)
    st.dataframe(table, hide_index=True, width="stretch", column_config=column_formats(table))
    spread = pd.DataFrame(
        [
            {
                _("Tokenizer"): labels[m],
                _("Spread (largest tax ÷ smallest)"): t.spread(m),
                _("Gini coefficient"): t.gini(m),
            }
            for t, models in ((ours, list(runs)), (gpt, [k for k, _l in GPT_MODELS]))
            for m in models
        ]
    )
    st.dataframe(spread, hide_index=True, width="stretch", column_config=column_formats(spread))
    fair = runs.get("fair")
    if fair is None:
        return
    served = Counter(fair.served)
    st.subheader(_("Which language each fair merge served"))
    st.bar_chart(pd.DataFrame({_("Language"): [names(k) for k in served], _("Merges"): list(served.values())}),
                 x=_("Language"), y=_("Merges"), horizontal=True)  # fmt: skip
    first = [
        {_("Merge"): k, _("Pair"): f"{to_gpt2(a)} + {to_gpt2(b)}", _("Served"): names(lang)}
        for k, ((a, b), lang) in enumerate(zip(fair.merges[:30], fair.served), start=1)
    ]
    st.caption(_("The first 30 fair merges (bytes shown in GPT-2's printable alias, Ġ for a space):"))
    st.dataframe(pd.DataFrame(first), hide_index=True, width="stretch")
