"""Languages: the Universal Declaration of Human Rights in 20 languages under GPT-2, GPT-4, GPT-4o and the
sidebar's BPE -- characters, UTF-8 bytes, tokens, the token tax (tokens ÷ English tokens), the spread and Gini
per tokenizer; a language read as token chips; the same table for the learner's own parallel texts.

Inputs (sidebar, article, measure, language) -> bpe_core.languages.token_tax (cached per server / per run) -> sections.
"""

import streamlit as st

from bpe_core import InputError, clean_text
from bpe_core.languages import declaration as decl
from bpe_core.languages.mix import mix_weights
from bpe_core.languages.token_tax import tax_table
from ui import language_links as ll
from ui import language_training as lt
from ui import languages as lg
from ui import page, persist, sidebar
from ui.i18n import _, current_language
from ui.real_tokenizers import models, plain_bpe_note
from ui.text import md_escape

K_PICK = "lang.pick"  # the language read as chips (the selectbox; a click on a table row sets it)
K_TABLE = "lang.table"
K_ARTICLE = "lang.article"
K_URL_LAST = "lang.url_last"  # the article and language this page last wrote into the URL


def explanation() -> None:
    with st.expander(_("Why does the same text cost more tokens in some languages?"), expanded=False):
        st.markdown(
            _(
                "**UTF-8 bytes per character depend on the script.** ASCII letters (a to z) take 1 byte; accented "
                "Latin letters 2 (é, ş, ư) or 3 (Vietnamese ế, ộ); Cyrillic, Greek, Hebrew and Arabic 2; Chinese, "
                "Japanese, Korean, Devanagari, Bengali and Thai 3. A byte-level "
                "tokenizer starts from bytes, so before any merge a Chinese sentence already costs three times "
                "its characters.\n\n"
                "**Merges follow the training data.** A tokenizer learns merges for what its corpus repeats most. "
                "GPT-2's paper (Radford et al., 2019) says the model was trained on WebText, web pages from which "
                "non-English pages were deliberately removed; it does not say which text its 50,000 merges were "
                "learned from. What you can measure: under GPT-2, common English words are single tokens, while a "
                "Thai or Hindi word falls apart into pieces of one or two bytes. OpenAI has not published what the "
                "tokenizers of GPT-4 and GPT-4o were trained on. Their vocabularies are larger (about 100,000 and "
                "200,000 tokens, counted in their rank files), and this page's table gives each language's token "
                "count and tax under all three.\n\n"
                "**What byte-level guarantees, and what it does not.** Every text can be encoded: all 256 bytes are "
                "tokens, so there is never an unknown token (<unk>). A character-level tokenizer maps a character "
                "it never saw to <unk>, which counts as one token here and is reported beside the tax: a low tax "
                "made of <unk> is not a bargain, the text is lost. Byte-level does not make prices fair: the tax "
                "depends on the text the merges were learned from and on how many merges there are.\n\n"
                "The tax is the number of tokens a language needs for the same content, divided by the number "
                "English needs (Petrov et al., 2023, NeurIPS, call it the tokenization premium). English is 1.0 by "
                "definition. The spread is the largest tax divided by the smallest; the Gini coefficient is 0 "
                "when every language pays the same."
            )
        )


def article_picker():
    options = [None, *range(0, decl.ARTICLES + 1)]
    return st.selectbox(_("Text"), options, format_func=lg.section_label, key=K_ARTICLE)


def _row_clicked(keys: list[str]) -> None:
    """A click on a table row picks that language for the chips below."""
    state = st.session_state.get(K_TABLE)
    rows = state.selection.rows if state is not None else []
    if rows:
        st.session_state[K_PICK] = keys[rows[0]]


def declaration_part(all_models, mode, present) -> dict[str, str]:
    """The Declaration's table, spread, chart and chips; returns the article and language for the URL."""
    names = lg.current_names()
    params = {k: st.query_params[k] for k in st.query_params}
    for note in ll.adopt(params, st.session_state.get(K_URL_LAST), st.session_state, (K_ARTICLE, K_PICK), names):
        st.warning(note)
    choice = article_picker()
    sections = lg.sections_of(choice)
    tables = [lg.gpt_table(sections), lg.own_table(all_models[0], sections)]
    order = [m for m in all_models[1:]] + [all_models[0]]  # the GPT models first, then yours
    measure = st.radio(
        _("Show"), list(lg.MEASURES), format_func=lambda k: _(lg.MEASURES[k]), horizontal=True, key="lang.measure"
    )
    # Everything below is kept per run, article, measure and interface language: a rerun only draws it.
    view = lg.declaration_view(tables, order, sections, measure, present)
    st.dataframe(
        view.table,
        hide_index=True,
        key=K_TABLE,
        column_config=lg.column_formats(view.table),
        on_select=lambda: _row_clicked(view.keys),
        selection_mode="single-row",
        width="stretch",
    )
    st.caption(
        _(
            "Click a column name to sort; click a row to read that language as tokens below. Characters are "
            "Unicode code points; <unk> counts as one token."
        )
    )
    st.subheader(_("The spread: how unequal are the prices?"))
    st.dataframe(view.spread, hide_index=True, width="stretch", column_config=lg.column_formats(view.spread))
    st.subheader(_("The tax of every language (English = 1.0, the dashed line)"))
    st.vega_lite_chart(view.chart, width="stretch")
    key = reading_part(order, choice, sections, names, mode, present)
    st.session_state[K_URL_LAST] = ll.url_values(choice, key)
    return st.session_state[K_URL_LAST]


def reading_part(order, choice, sections, names, mode, present) -> str:
    """The picked language as text and as chips under each tokenizer; returns its key."""
    st.header(_("Read a language as tokens"))
    if K_PICK not in st.session_state:
        st.session_state[K_PICK] = ll.default_language()
    key = st.selectbox(_("Language"), list(decl.KEYS), format_func=names, key=K_PICK)
    one = decl.load(key)
    ref = decl.load(decl.REFERENCE)
    if one.direction == "rtl":
        st.info(
            _(
                "{name} is written right to left: the text below reads that way, but the chips show the tokens in "
                "the order they are stored (logical order), left to right."
            ).format(name=names(key))
        )
    texts = [(key, one.text(sections))]
    if choice is not None and key != decl.REFERENCE:
        texts.insert(0, (decl.REFERENCE, ref.text(sections)))  # one article: side by side with English
    cols = st.columns(len(texts))
    for col, (k, text) in zip(cols, texts):
        col.markdown(f"**{md_escape(names(k))}**")
        col.html(lg.text_html(text, decl.load(k).direction))
    if choice is None:
        st.caption(_("The whole Declaration is long: pick one article above to read it beside English."))
    for tab, m in zip(st.tabs([m.label for m in order]), order):
        cols = tab.columns(len(texts))
        for col, (k, text) in zip(cols, texts):
            col.html(lg.chips_for(m, text, mode, present, css_id=f"lang-toks-{m.key}-{k}"))
    return key


def training_part(names) -> None:
    st.header(_("Train where the tax falls"))
    st.caption(
        _(
            "Train a byte-level BPE (GPT-2's pre-tokenizer) on the Declaration's preamble and articles 1-20 in the "
            "mix of languages you choose, then measure every language's tax on articles 21-30, which training "
            "never saw. Two merge rules train side by side with the same number of merges: plain BPE merges the "
            "most frequent pair of the whole mix; fair BPE, after parity-aware BPE (Foroutan et al. 2025, arXiv "
            "2508.04796), finds the language whose text is currently the longest in tokens and merges that "
            "language's most frequent pair. This app adapts the authors' rule in three ways: it measures the "
            "lengths on the training text itself, not on a separate development text; when that language has no "
            "pair left that occurs twice, it serves the next-worst language instead of stopping; and equal counts "
            "go to the smallest pair of token ids (the authors' code takes the largest pair of strings)."
        )
    )
    c1, c2 = st.columns([3, 2])
    options = lt.mix_options(current_language())
    mix = c1.radio(
        _("Language mix"),
        options,
        format_func=lambda k: _(lt.MIXES[k]),
        index=options.index(lt.DEFAULT_MIX),
        key="lang.train.mix",
    )
    merges = int(c2.number_input(_("Merges"), 10, lt.MAX_MERGES, lt.DEFAULT_MERGES, 100, key="lang.train.n"))
    own = lt.own_weights_editor(names) if mix == "own" else {}
    weights = mix_weights(mix, own)
    if not any(weights.values()):
        st.info(_("Give at least one language a weight above 0."))
        return
    key = (tuple(sorted(weights.items())), merges)
    pressed = st.button(_("Train plain and fair BPE"), type="primary", key="lang.train.go")
    if pressed:
        st.session_state["lang.train.done"] = key
    if st.session_state.get("lang.train.done") != key:
        st.caption(_("Press the button to train (a few seconds for 2,000 merges on 20 languages)."))
        return
    with st.spinner(_("Training…")):
        runs = {rule: lt.trained(key[0], merges, rule) for rule in ("plain", "fair")}
    lt.results(runs, names)
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    rule = c1.radio(
        _("Merge rule"),
        list(lt.RULE_LABELS),
        format_func=lambda r: _(lt.RULE_LABELS[r]),
        index=1,
        horizontal=True,
        key="lang.train.rule",
    )
    if c2.button(_("Step through this training"), key="lang.train.step"):
        lt.open_in_stepper(rule, weights, merges)


def own_texts_part(order, mode, present) -> None:
    st.header(_("Your own parallel texts"))
    st.caption(
        _(
            "Paste two or more texts that say the same thing (a paragraph and its translations), separated by a "
            "line holding only ---. The first text is the reference (tax 1.0)."
        )
    )
    name = "pg.lang.own"
    st.text_area(
        _("Parallel texts"),
        key=persist.seeded(name, ""),
        on_change=persist.keep,
        args=(name,),
        height=160,
        placeholder="The cat sleeps.\n---\n猫在睡觉。\n---\nLe chat dort.",
    )
    try:
        raw = clean_text(persist.kept(name, ""))
    except InputError as err:
        st.error(md_escape(str(err)))
        return
    parts = lg.parse_parallel(raw[:20_000])
    if len(parts) < 2:
        st.info(_("Paste at least two texts separated by a line holding only ---."))
        return
    labels = [_("Text {n}").format(n=i + 1) for i in range(len(parts))]
    table = tax_table(dict(zip(labels, parts)), {m.key: m.tok for m in order})
    records = lg.combined([table])
    head = _("Text")
    for df in (
        lg.frame(records, order, "tax", str, head),
        lg.frame(records, order, "tokens", str, head),
        lg.spread_frame([table], order),
    ):
        st.dataframe(df, hide_index=True, width="stretch", column_config=lg.column_formats(df))


def main() -> None:
    """The sidebar, then the Declaration, training where the tax falls and the learner's own texts."""
    choice, own_run = page.start_run_page(
        _("Languages"), "🌐", _("The same text in 20 languages: every language's token bill")
    )
    mode, present = choice.display.byte_mode, choice.display.presentation
    st.caption(
        _(
            "The Universal Declaration of Human Rights in 20 languages (the UDHR in Unicode project; © OHCHR, freely "
            "reproducible), under GPT-2, GPT-4, GPT-4o and your BPE (the sidebar's training at its last merge)."
        )
    )
    explanation()
    plain_bpe_note(choice.config)
    all_models = models(own_run)
    sidebar.write_url(choice, extra=declaration_part(all_models, mode, present))
    training_part(lg.current_names())
    own_texts_part(all_models[1:] + all_models[:1], mode, present)


main()
