"""The Languages page's training part: byte-level BPE trained on the Declaration in a chosen language mix with the
plain and the parity-aware ("fair") merge rule (:mod:`bpe_core.algorithms.fair_bpe`), measured on held-out articles beside the
GPT tokenizers: every language's tax, the spread and Gini per tokenizer, and which language each fair merge served.

Trainings are kept once per server per mix, merge count and rule (``st.cache_resource``): a class that asks for the
same mix trains it once.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core import train
from bpe_core.algorithms.fair_bpe import FairRun, is_mix_config, stepper_run, train_mix
from bpe_core.byte_display import to_gpt2
from bpe_core.languages import declaration as decl
from bpe_core.languages.mix import (
    HELD_OUT,
    TRAIN_SECTIONS,
    mix_spec,
    parse_mix_spec,
    served_counts,
    summed_words,
    training_texts,
)
from bpe_core.languages.token_tax import tax_table

from .corpus import Corpus, digest_of
from .i18n import N_, _
from .languages import column_formats, gpt_table
from .real_tokenizers import real_models

DEFAULT_MERGES = 2_000
MAX_MERGES = 5_000
MIXES = {
    "eng": N_("English only"),
    "cmn_hans": N_("Chinese (Simplified) only"),
    "cmn_hant": N_("Chinese (Traditional) only"),
    "equal": N_("All 20 languages, equal shares of UTF-8 bytes"),
    "own": N_("Your own weights"),
}
#: The mix the page starts with: every language, so that the two merge rules differ.
DEFAULT_MIX = "equal"


def mix_options(language: str) -> list[str]:
    """The keys of :data:`MIXES` in the order the page offers them for interface ``language``: the Chinese of
    the interface's script (:func:`bpe_core.languages.declaration.chinese_key`) before the other one."""
    first = decl.chinese_key(language)
    other = "cmn_hans" if first == "cmn_hant" else "cmn_hant"
    return ["eng", first, other, "equal", "own"]


@st.cache_resource(show_spinner=False, max_entries=16)
def trained(weights: tuple, merges: int, rule: str) -> FairRun:
    """A training on the Declaration's training articles with ``weights`` (``((key, weight), ...)``), once per
    server."""
    texts = decl.texts(TRAIN_SECTIONS)
    return train_mix(texts, merges, rule, dict(weights))


# ------------------------------------------------------------------------------- the stepper's corpus
#: The sidebar's and the stepper's names of the two merge rules.
RULE_LABELS = {"plain": N_("Plain BPE"), "fair": N_("Fair BPE (parity-aware)")}


def mix_corpus(spec: str) -> Corpus:
    """The Declaration's training articles in the mix ``spec`` (:func:`bpe_core.languages.mix.mix_spec`) as a
    corpus: trained byte-level with GPT-2's pre-tokenizer, it is :func:`bpe_core.algorithms.fair_bpe.stepper_run` (the number
    of merges from the settings); with other settings (pages that compare variants) it is the languages' words
    summed, trained the ordinary way. Raises ``ValueError`` for a bad spec."""
    rule, weights = parse_mix_spec(spec)
    texts, size = training_texts(tuple(weights))
    label = _("The Declaration in {n} languages, {rule}").format(n=len(weights), rule=_(RULE_LABELS[rule]))

    def words(config):
        return summed_words(texts, config)

    def run(config, progress, on_start):
        if is_mix_config(config):
            return stepper_run(texts, config, rule, weights, progress, on_start)
        return train(words(config), config, progress=progress, on_start=on_start)

    return Corpus(digest_of("mix\0" + spec), size, label, words, run)


STEPPER_PAGE = "app_pages/0_Step_through_BPE.py"


def mix_settings(merges: int = DEFAULT_MERGES) -> dict:
    """The sidebar's settings for a language-mix training: byte-level, GPT-2's pre-tokenizer, ``merges`` merges."""
    from .settings import preset_settings

    return {**preset_settings(None), "variant": "byte", "pre": "gpt2", "limit": "merges", "merges": int(merges)}


def open_in_stepper(rule: str, weights: dict, merges: int) -> None:
    """Make the session's corpus this mix trained by ``rule`` (byte-level, GPT-2's pre-tokenizer, ``merges``
    merges) and open the stepper on it, at step 0."""
    from . import persist

    ss = persist.ss()
    ss[persist.K_SOURCE], ss[persist.K_MIX], ss[persist.K_LINK_GONE] = "mix", mix_spec(rule, weights), None
    ss[persist.K_SETTINGS] = mix_settings(merges)
    persist.set_step(0)
    st.switch_page(STEPPER_PAGE)


def own_weights_editor(names) -> dict:
    """A table where the learner types a weight per language (1 = an equal byte share, 0 = left out)."""
    frame = pd.DataFrame({_("Language"): [names(k) for k in decl.KEYS], _("Weight"): [1.0] * len(decl.KEYS)})
    edited = st.data_editor(
        frame,
        hide_index=True,
        key="lang.train.weights",
        disabled=[_("Language")],
        width="stretch",
        column_config={_("Weight"): st.column_config.NumberColumn(min_value=0.0, max_value=100.0, step=0.5)},
    )
    return dict(zip(decl.KEYS, (float(w) if w == w else 0.0 for w in edited[_("Weight")])))


def results(runs: dict, names) -> None:
    """The held-out table (tax per language under plain, fair and the GPT tokenizers), the spreads, and the
    languages the fair rule served."""
    held = decl.texts(HELD_OUT)
    ours = tax_table(held, {rule: run.tokenizer() for rule, run in runs.items()})
    gpt = gpt_table(HELD_OUT)
    labels = {rule: _(label) for rule, label in RULE_LABELS.items()}
    real = real_models()
    labels.update(dict(real))
    data = {_("Language"): [names(r.name) for r in ours.rows]}
    for rule in runs:
        data[labels[rule]] = [r.tax[rule] for r in ours.rows]
    for key, _label in real:
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
            for t, models in ((ours, list(runs)), (gpt, [k for k, _l in real]))
            for m in models
        ]
    )
    st.dataframe(spread, hide_index=True, width="stretch", column_config=column_formats(spread))
    fair = runs.get("fair")
    if fair is None:
        return
    served = served_counts(fair.served)
    st.subheader(_("Which language each fair merge served"))
    st.bar_chart(
        pd.DataFrame({_("Language"): [names(k) for k in served], _("Merges"): list(served.values())}),
        x=_("Language"),
        y=_("Merges"),
        horizontal=True,
    )
    first = [
        {_("Merge"): k, _("Pair"): f"{to_gpt2(a)} + {to_gpt2(b)}", _("Served"): names(lang)}
        for k, ((a, b), lang) in enumerate(zip(fair.merges[:30], fair.served), start=1)
    ]
    st.caption(_("The first 30 fair merges (bytes shown in GPT-2's printable alias, Ġ for a space):"))
    st.dataframe(pd.DataFrame(first), hide_index=True, width="stretch")
