"""Side by side: characters, characters + end-of-word marker and bytes, trained on the sidebar's
corpus with the sidebar's settings, stepped together by one step control.

Inputs (the sidebar, the words to compare) -> three runs (bpe_core) -> columns, a word table, a chart.
"""

import dataclasses

import streamlit as st

from bpe_core.measures import corpus_size, top_words
from ui import across_chart, algorithms_side, charts, page, panels, persist, side_by_side, sidebar, stepper, training
from ui.i18n import _, ngettext
from ui.settings import PRE_LABELS, TIE_LABELS, VARIANT_TITLES
from ui.sidebar import Choice
from ui.text import md_escape

VARIANTS = ("char", "eow", "byte")


def title(variant: str, config) -> str:
    """A variant's column heading in the interface language (the end-of-word marker named)."""
    if variant == "eow":
        return _("Characters + {marker}").format(marker=config.eow_marker)
    return _(VARIANT_TITLES[variant])


def caption(choice: Choice) -> None:
    cfg = choice.config
    if cfg.vocab_size is None:
        limit = ngettext("up to {n} merge", "up to {n} merges", cfg.num_merges).format(n=f"{cfg.num_merges:,}")
    else:
        limit = _("vocabulary up to {n} tokens").format(n=f"{cfg.vocab_size:,}")
    if choice.display.presentation:
        st.caption(md_escape(_("{label} · {limit}").format(label=choice.label, limit=limit)))
    else:
        pre = cfg.resolved_pretokenizer
        text = _(
            "Characters, characters + end-of-word marker and bytes, one step at a time. {label} · the same words "
            "for all three (pre-tokenizer: {pretokenizer}), minimum frequency {min_freq}, tie-break rule: "
            "{tie_break}, {limit}. Change them in the sidebar."
        ).format(
            label=choice.label,
            pretokenizer=_(PRE_LABELS.get(pre, pre)),
            min_freq=f"{cfg.min_frequency:,}",
            tie_break=_(TIE_LABELS.get(cfg.tie_break, cfg.tie_break)),
            limit=limit,
        )
        st.caption(md_escape(text))


def train_three(choice: Choice) -> list:
    """The three variants of the sidebar's corpus and settings (the same words: the sidebar always
    names the pre-tokenizer, and the variant does not enter the split)."""
    return training.get_runs([(choice.corpus, dataclasses.replace(choice.config, variant=v)) for v in VARIANTS])


def column(variant: str, run, step: int, mode: str, present: bool) -> None:
    """One variant: its merge at ``step``, vocabulary size and corpus tokens (with the change), its pairs."""
    st.html(side_by_side.column_html(variant, title(variant, run.config), run, step, mode, present))
    st.html(panels.pair_table_html(run, min(max(step, 0), run.num_steps), mode, present, limit=5))


def chosen_words(choice: Choice, run) -> list[str]:
    """The words picker (corpus words, or any typed word); the words chosen."""
    name = f"pg.sbs.words.{choice.corpus.digest[:12]}"
    chosen = list(persist.kept(name, top_words(run, 6)))
    options = top_words(run, 300, min_chars=1)
    options += [w for w in chosen if w not in options]
    st.multiselect(
        _("Words to compare: pick corpus words, or type any word and press Enter"),
        options,
        key=persist.seeded(name, chosen),
        on_change=persist.keep,
        args=(name,),
        accept_new_options=True,
        max_selections=12,
        format_func=lambda w: w.replace(" ", "␣"),
    )
    return [w for w in persist.kept(name, chosen) if w]


def words_table(words: list[str], runs: list, step: int, mode: str, present: bool) -> None:
    """Each word segmented by each run at ``step`` (a word not in the corpus: encoded)."""
    if words:
        titles = [title(v, r.config) for v, r in zip(VARIANTS, runs)]
        st.html(side_by_side.words_table_html(words, titles, runs, step, mode, present))
    else:
        st.info(_("Pick a few words above to see how each tokenizer splits them."))


def length_chart(runs: list, step: int, present: bool) -> None:
    """Corpus length of the three over all steps, the current step marked."""
    char_series, byte_series = runs[0].series()["corpus_tokens"], runs[2].series()["corpus_tokens"]
    chars, data = corpus_size(runs[0])
    if char_series == byte_series and chars == data:
        st.caption(
            _(
                "The Characters and Bytes lines coincide: every character of this corpus is one byte (ASCII), "
                "so both variants start from the same symbols and count the same pairs."
            )
        )
    series = {title(v, r.config): r.series()["corpus_tokens"] for v, r in zip(VARIANTS, runs)}
    st.vega_lite_chart(charts.lines_chart(series, _("corpus tokens"), step, present), width="stretch")


def step_view(every: float | None, choice: Choice, runs: list) -> None:
    """The step control and everything that changes with the step (a fragment, as on the stepper page:
    a step, or autoplay's press of Next, reruns only this part)."""
    stepper.check_timer(False, every)
    mode, present = choice.display.byte_mode, choice.display.presentation
    # One step control for all three: it counts to the longest run; a shorter one shows why it stopped.
    step = stepper.step_controls(max(r.num_steps for r in runs), presentation=present, key="sbs")
    sidebar.write_url(choice, step)
    for col, variant, run in zip(st.columns(3, gap="medium"), VARIANTS, runs):
        with col:
            column(variant, run, step, mode, present)
    st.subheader(_("The same words, three ways"))
    words_table(chosen_words(choice, runs[0]), runs, step, mode, present)
    st.subheader(_("Corpus length over the merges"))
    length_chart(runs, step, present)


def main() -> None:
    """The sidebar and the caption, the three runs, then the step view as a fragment."""
    choice = page.start_page(_("Side by side"), "🆚")
    if not choice.display.presentation:
        page.page_title(_("Side by side"))
    if not choice.ok:
        return
    caption(choice)
    runs = train_three(choice)
    if any(r is None for r in runs):
        return
    stepper.step_fragment(step_view, False, choice, runs)
    algorithms_side.section(choice)
    across_chart.section(choice)


main()
