"""The Languages page's parts: every language's token bill on the Declaration (a sortable table, a chart of
the tax, the spread per tokenizer), a language read as token chips, and the same table for the learner's own
parallel texts.

The numbers come from :mod:`bpe_core.languages.token_tax` on :mod:`bpe_core.languages.declaration`'s texts; language names come
from Babel's CLDR locale data in the interface language. The GPT tables are computed once per server and
article choice (:func:`gpt_table`), the sidebar run's once per run (:mod:`ui.run_cache`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import altair as alt
import pandas as pd
import streamlit as st
from babel import Locale

from bpe_core.encoding.replay import unknown_symbols
from bpe_core.languages import declaration as decl
from bpe_core.languages.token_tax import TaxTable, count_ids, tax_table

from . import run_cache
from .chips import tokens_html
from .i18n import N_, _, current_language, ngettext
from .real_tokenizers import YOURS, Model, real_models
from .text import esc_raw

#: The interface languages as Babel names them.
_BABEL = {"en": "en", "zh-Hans": "zh_Hans", "zh-Hant": "zh_Hant"}
#: Most chips drawn per tokenizer and text.
MAX_CHIPS = 500
#: The separator of the learner's own parallel texts: a line holding only this.
SEPARATOR = "---"

MEASURES = {
    "tax": N_("Tax (tokens ÷ reference tokens)"),
    "tokens": N_("Tokens"),
    "bytes_per_token": N_("UTF-8 bytes per token"),
}


@functools.cache
def language_name(key: str, lang: str) -> str:
    """The name of the Declaration language ``key`` in the interface language ``lang``
    (``"en"``, ``"zh-Hans"``, ``"zh-Hant"``), from CLDR through Babel."""
    return Locale.parse(decl.LOCALES[key]).get_display_name(_BABEL.get(lang, "en"))


def section_label(choice) -> str:
    """The article picker's label for ``None`` (all), 0 (the preamble) or an article number."""
    if choice is None:
        return _("The whole Declaration (preamble and 30 articles)")
    if choice == 0:
        return _("Preamble")
    return _("Article {n}").format(n=choice)


def sections_of(choice) -> tuple | None:
    """The section numbers a picker choice stands for (``None``: all)."""
    return None if choice is None else (choice,)


def gpt_table(sections: tuple | None) -> TaxTable:
    """The Declaration's 20 languages under the real tokenizers (:func:`ui.real_tokenizers.real_models`), once per
    server, article choice and set of models."""
    return _real_table(sections, tuple(name for name, _label in real_models()))


@st.cache_resource(show_spinner=False, max_entries=40)
def _real_table(sections: tuple | None, names: tuple) -> TaxTable:
    from bpe_core import load_gpt

    return tax_table(decl.texts(sections), {name: load_gpt(name) for name in names})


def own_table(model: Model, sections: tuple | None) -> TaxTable:
    """The Declaration under the sidebar's tokenizer, once per run and article choice."""
    return run_cache.cached(
        model.src.owner, "languages", sections, lambda: tax_table(decl.texts(sections), {YOURS: model.tok})
    )


def combined(tables: list[TaxTable]) -> list[dict]:
    """One record per text from several tables over the same texts: ``{"key", "chars", "bytes", "counts",
    "tax", "bytes_per_token"}`` with per-model dicts merged."""
    out = []
    for rows in zip(*(t.rows for t in tables)):
        first = rows[0]
        rec = {"key": first.name, "chars": first.chars, "bytes": first.bytes, "counts": {}, "tax": {}, "bpt": {}}
        for row in rows:
            rec["counts"].update(row.counts)
            rec["tax"].update(row.tax)
            rec["bpt"].update(row.bytes_per_token)
        out.append(rec)
    return out


def frame(records: list[dict], models: list[Model], measure: str, name_of, first: str | None = None) -> pd.DataFrame:
    """The table as a DataFrame (translated column names): name, characters, bytes, bytes per character,
    then ``measure`` per tokenizer, then ``<unk>`` for a tokenizer that has one."""
    with_unk = [m for m in models if m.tok.unk_id is not None]
    data = {
        first or _("Language"): [name_of(r["key"]) for r in records],
        _("Characters"): [r["chars"] for r in records],
        _("UTF-8 bytes"): [r["bytes"] for r in records],
        _("Bytes per character"): [r["bytes"] / r["chars"] if r["chars"] else 0.0 for r in records],
    }
    for m in models:
        if measure == "tokens":
            data[m.label] = [r["counts"][m.key].tokens for r in records]
        elif measure == "tax":
            data[m.label] = [r["tax"][m.key] for r in records]
        else:
            data[m.label] = [r["bpt"][m.key] for r in records]
    for m in with_unk:
        data[_("{name}: unknown (<unk>)").format(name=m.label)] = [r["counts"][m.key].unknown for r in records]
    return pd.DataFrame(data)


def column_formats(df: pd.DataFrame) -> dict:
    """``st.dataframe`` column settings: whole numbers with thousands separators, fractions with two decimals
    (the values keep their precision, so sorting is exact)."""
    out = {}
    for name, dtype in df.dtypes.items():
        if pd.api.types.is_integer_dtype(dtype):
            out[name] = st.column_config.NumberColumn(format="localized")
        elif pd.api.types.is_float_dtype(dtype):
            out[name] = st.column_config.NumberColumn(format="%.2f")
    return out


def spread_frame(tables: list[TaxTable], models: list[Model]) -> pd.DataFrame:
    """Per tokenizer: the spread (largest tax over smallest), the Gini coefficient and the ``<unk>`` total."""
    by_model = {key: t for t in tables for key in t.models}
    rows = []
    for m in models:
        t = by_model[m.key]
        taxes = t.taxes(m.key)
        fair = min(taxes) > 0
        rows.append(
            {
                _("Tokenizer"): m.label,
                _("Spread (largest tax ÷ smallest)"): t.spread(m.key) if fair else None,
                _("Gini coefficient"): t.gini(m.key),
                _("Unknown (<unk>)"): t.unknown(m.key),
            }
        )
    return pd.DataFrame(rows)


def tax_chart(records: list[dict], models: list[Model], name_of, presentation: bool) -> alt.Chart:
    """A bar per language per tokenizer (the tax), grouped by language, with a rule at 1.0 (the reference)."""
    rows = [
        {"language": name_of(r["key"]), "tokenizer": m.label, "tax": round(r["tax"][m.key], 3), "order": i}
        for i, r in enumerate(records)
        for m in models
    ]
    order = [name_of(r["key"]) for r in records]
    size = 18 if presentation else 13
    lang_t, tax_t, tok_t = _("Language"), _("Tax (tokens ÷ reference tokens)"), _("Tokenizer")
    base = alt.Chart(pd.DataFrame(rows))
    bars = base.mark_bar().encode(
        y=alt.Y("language:N", sort=order, title=lang_t, axis=alt.Axis(labelFontSize=size, titleFontSize=size)),
        yOffset=alt.YOffset("tokenizer:N", sort=[m.label for m in models]),
        x=alt.X("tax:Q", title=tax_t, axis=alt.Axis(labelFontSize=size, titleFontSize=size)),
        color=alt.Color(
            "tokenizer:N",
            sort=[m.label for m in models],
            title=tok_t,
            legend=alt.Legend(orient="top", labelFontSize=size, titleFontSize=size),
        ),
        tooltip=[
            alt.Tooltip("language:N", title=lang_t),
            alt.Tooltip("tokenizer:N", title=tok_t),
            alt.Tooltip("tax:Q", title=tax_t, format=".2f"),
        ],
    )
    rule = alt.Chart(pd.DataFrame({"x": [1.0]})).mark_rule(color="#333", strokeDash=[4, 3]).encode(x="x:Q")
    return (bars + rule).properties(height=alt.Step(7 if len(models) > 3 else 8))


class DeclarationView(NamedTuple):
    """What the page draws for one article choice: the table, the spread table, the chart's Vega-Lite spec,
    and the language keys in table order."""

    table: pd.DataFrame
    spread: pd.DataFrame
    chart: dict
    keys: list


def declaration_view(tables: list[TaxTable], models: list[Model], sections, measure: str, present: bool):
    """The :class:`DeclarationView` of ``tables`` (GPT table and the sidebar run's), kept per run, article
    choice, measure, presentation mode and interface language."""
    lang = current_language()

    def make() -> DeclarationView:
        names = current_names()
        records = combined(tables)
        chart = tax_chart(records, models, names, present).to_dict()
        return DeclarationView(
            frame(records, models, measure, names), spread_frame(tables, models), chart, [r["key"] for r in records]
        )

    owner = next(m.src.owner for m in models if m.key == YOURS)
    return run_cache.cached(owner, "language-view", (sections, measure, present, lang), make)


def parse_parallel(text: str) -> list[str]:
    """The learner's parallel texts: ``text`` split at lines holding only :data:`SEPARATOR` (blank texts
    dropped, each stripped of surrounding blank lines)."""
    parts, current = [], []
    for line in text.split("\n"):
        if line.strip() == SEPARATOR:
            parts.append("\n".join(current))
            current = []
        else:
            current.append(line)
    parts.append("\n".join(current))
    return [p.strip("\n") for p in parts if p.strip()]


def chips_for(model: Model, text: str, mode: str, present: bool, css_id: str) -> str:
    """Token chips of ``text`` under ``model`` (at most :data:`MAX_CHIPS`), with a count line; kept per
    tokenizer for the last texts and settings asked (a rerun draws them from the memo)."""
    key = (text, mode, present, css_id, current_language())
    return run_cache.cached(model.src.owner, "language-chips", key, lambda: _chips(model, text, mode, present, css_id))


def _chips(model: Model, text: str, mode: str, present: bool, css_id: str) -> str:
    ids = model.tok.encode(text)
    unk = count_ids(model.tok, ids).unknown
    line = ngettext("{n} token", "{n} tokens", len(ids)).format(n=f"{len(ids):,}")
    if unk:
        line += " · " + ngettext("{n} unknown (<unk>)", "{n} unknown (<unk>)", unk).format(n=f"{unk:,}")
    unknown = unknown_symbols(model.tok, text) if unk else None
    return f"<p class='bpe-note'>{esc_raw(line)}</p>" + tokens_html(
        model.src, ids, mode, present, unknown=unknown, limit=MAX_CHIPS, css_id=css_id
    )


def text_html(text: str, direction: str) -> str:
    """The text as a learner reads it, in its writing direction (``dir`` on the block: Arabic, Hebrew and
    Urdu run right to left), escaped. The block scrolls when long, so it takes the keyboard focus
    (``tabindex``): a keyboard user scrolls it with the arrow keys (WCAG 2.1.1; axe-core's
    scrollable-region-focusable)."""
    return (
        f"<div class='bpe-note' tabindex='0' dir='{'rtl' if direction == 'rtl' else 'ltr'}' "
        f"style='white-space:pre-wrap;max-height:14rem;overflow:auto;font-size:1.05rem'>{esc_raw(text)}</div>"
    )


def current_names():
    """A function giving each Declaration key its name in the current interface language."""
    lang = current_language()
    return lambda key: language_name(key, lang)
