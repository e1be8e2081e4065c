"""How BPE works: the rules the trainer follows, taken from ``bpe_core`` itself (the trainer's module
docstring and ``RULES``: no second copy written here), small examples computed live, and the sources."""

import importlib
import inspect
import re

import streamlit as st

from bpe_core import RULES, TrainConfig
from ui import page, sidebar, training
from ui.chips import chip_html, token_label
from ui.corpus import words_corpus
from ui.explain import merge_reason, rules_html, stop_reason_text
from ui.i18n import _
from ui.panels import corpus_table_html, merge_line_html, pair_table_html
from ui.presets import PRESETS
from ui.text import esc, esc_raw

# The modules (bpe_core re-exports a function named `pretokenize`, which hides the module attribute).
TRAINER_DOC = importlib.import_module("bpe_core.trainer").__doc__
VARIANTS_DOC = importlib.import_module("bpe_core.variants").__doc__
PRETOKENIZE_DOC = importlib.import_module("bpe_core.pretokenize").__doc__
TEXTBOOK = PRESETS["textbook-low"].words  # the same corpus as the preset (one copy in the app)
OVERLAP = {"aaa": 1, "aaaa": 1}

choice = page.start_page(_("How BPE works"), "📖")
present = choice.display.presentation
mode = choice.display.byte_mode
if not present:
    st.title(_("How BPE works"))
sidebar.write_url(choice)


def doc_markdown(doc: str) -> str:
    """A bpe_core docstring as Markdown: Sphinx roles (:data:`RULES`) become code."""
    return re.sub(r":\w+:`~?([^`]+)`", r"`\1`", inspect.cleandoc(doc or ""))


def section(doc: str, start: str, stop: str | None) -> str:
    """The part of a docstring from the line starting with ``start`` up to the one starting with ``stop``."""
    lines = doc_markdown(doc).splitlines()
    begin = next((i for i, line in enumerate(lines) if line.startswith(start)), 0)
    end = next((i for i, line in enumerate(lines) if stop and i > begin and line.startswith(stop)), len(lines))
    return "\n".join(lines[begin:end]).strip()


def textbook_config(**changes) -> TrainConfig:
    """The textbook preset's settings (so the worked example shares the stepper's cached run)."""
    base = dict(variant="eow", pretokenizer="whitespace", num_merges=10, min_frequency=2, tie_break="first-seen",
                eow_style="separate", eow_marker="</w>")  # fmt: skip
    base.update(changes)
    return TrainConfig(**base)


st.markdown(
    "Byte-Pair Encoding learns a vocabulary by **counting adjacent pairs of symbols and merging the most frequent "
    "pair into a new symbol, again and again**. Each merge is remembered with its rank; encoding new text "
    "replays the merges in that order. Below are the exact rules this app's trainer follows, then small examples "
    "computed live by the same code."
)

# ------------------------------------------------------------------------------ the rules
st.header("The rules")
st.caption("From the trainer's own documentation (bpe_core/trainer.py), the text the tests hold the code to.")
st.markdown(section(TRAINER_DOC, "1. ", "The loop is incremental"))
with st.expander("How the trainer stays fast"):
    st.markdown(section(TRAINER_DOC, "The loop is incremental", None))
left, right = st.columns(2, gap="large")
with left:
    st.subheader("Variants: what the symbols are")
    st.markdown(section(VARIANTS_DOC, "* ", "Token values are"))
with right:
    st.subheader("Pre-tokenizers: where merges stop")
    st.markdown(section(PRETOKENIZE_DOC, "* ", None))

# ------------------------------------------------------------------------------ worked example
st.header("A worked example")
words_html = ", ".join(f"{esc(w)} ({f})" for w, f in TEXTBOOK.items())
st.html(
    f"<p class='bpe-note'>The corpus of Sennrich et al. (2016): {words_html}, with the end-of-word symbol "
    "&lt;/w&gt;. Each word is split into characters + &lt;/w&gt;; every pair is counted, weighted by the word's "
    "frequency.</p>"
)
textbook = words_corpus(TEXTBOOK, "Textbook corpus")
runs = training.get_runs(
    [
        (textbook, textbook_config()),
        (words_corpus(OVERLAP, "aaa, aaaa"), TrainConfig(variant="char", pretokenizer="whitespace", num_merges=1,
                                                          min_frequency=1)),
        *[(textbook, textbook_config(tie_break=t, num_merges=1)) for t in ("hf", "lexical")],
        (textbook, textbook_config(num_merges=None)),
        (words_corpus({"aaabdaaabac": 1}, "aaabdaaabac"),
         TrainConfig(variant="byte", pretokenizer="none", min_frequency=2)),
    ]
)  # fmt: skip
if any(r is None for r in runs):
    st.stop()
example, overlap, tie_hf, tie_lexical, stop_textbook, stop_gage = runs

for step in (1, 2, 3):
    snap = example.snapshot(step)
    st.subheader(f"Merge {step}")
    c1, c2 = st.columns([2, 3], gap="medium")
    with c1:
        st.html(f"<div id='how-merge-{step}'>" + pair_table_html(example, step, mode, present, limit=6) + "</div>")
    with c2:
        st.html(
            "<div class='bpe-card'>"
            + merge_line_html(example, step, mode, present)
            + f"<div class='bpe-reason'>{esc_raw(merge_reason(example, step, mode))}</div></div>"
            + corpus_table_html(example, step, mode, present, limit=4)
        )
st.caption(
    "Computed now by bpe_core on the textbook corpus (the first three of the 'Textbook: low, lower, newest, widest' "
    "preset's merges; the stepper shows all ten)."
)

# ------------------------------------------------------------------------------ overlaps and ties
st.header("Overlaps and ties")
snap = overlap.snapshot(1)
st.subheader("Overlapping pairs: a a a")
st.html(
    "<p class='bpe-note'>Corpus: aaa (once) and aaaa (once). "
    f"Counting: <b>a + a occurs {snap.count} times</b>: aaa holds two overlapping windows (a a)a and a(a a), aaaa "
    f"holds three. Applying: the merge rewrites only <b>{snap.occurrences} places</b>, left to right without "
    "overlap, so aaa becomes aa a and aaaa becomes aa aa.</p>"
    f"<div class='bpe-card' id='how-overlap' data-count='{snap.count}' data-places='{snap.occurrences}'>"
    + merge_line_html(overlap, 1, mode, present)
    + "</div>"
    + corpus_table_html(overlap, 1, mode, present, limit=4)
    + f"<p class='bpe-muted'>{esc_raw(RULES['counting'])} {esc_raw(RULES['applying'])}</p>"
)

st.subheader("Ties: three pairs at count 9")
first = example.snapshot(1)
tied = ", ".join(f"{token_label(example, a, mode)} + {token_label(example, b, mode)}" for a, b in first.tied)
rows = []
for rule, run in (("first-seen", example), ("hf", tie_hf), ("lexical", tie_lexical)):
    s = run.snapshot(1)
    rows.append(
        f"<tr data-rule='{rule}'><td><b>{rule}</b></td><td class='pair'>{chip_html(run, s.left, mode, present)} + "
        f"{chip_html(run, s.right, mode, present)}</td><td>{esc_raw(RULES[rule])}</td></tr>"
    )
st.html(
    f"<p class='bpe-note'>In the textbook corpus the first merge has {first.ties} pairs tied at {first.count}: "
    f"{esc_raw(tied)}. Which one wins depends on the tie-break rule (the sidebar's 'Tie-break rule'):</p>"
    "<table class='bpe-table' id='how-ties'><thead><tr><th>rule</th><th>first merge</th><th>why</th></tr></thead>"
    f"<tbody>{''.join(rows)}</tbody></table>"
)

st.subheader("When training stops")
st.html(
    f"<p class='bpe-note'>{esc_raw(RULES['stopping'])}</p><ul class='bpe-note'>"
    f"<li>The textbook corpus with no merge limit: {stop_textbook.num_steps} merges, then "
    f"<b>{esc_raw(stop_textbook.stop_reason)}</b>: {esc_raw(stop_reason_text(stop_textbook))}</li>"
    f"<li>aaabdaaabac as bytes (the Wikipedia example after Gage) with minimum frequency 2: {stop_gage.num_steps} merges, then "
    f"<b>{esc_raw(stop_gage.stop_reason)}</b>: {esc_raw(stop_reason_text(stop_gage))}</li></ul>"
    f"<p class='bpe-muted'>{esc_raw(RULES['tokens'])}</p>"
)

# ------------------------------------------------------------------------------ your corpus
if choice.ok:
    run = training.get_run(choice.corpus, choice.config)
    if run is not None and run.num_steps:
        st.header("Your corpus")
        st.html(
            f"<p class='bpe-muted'>{esc_raw(choice.label)}, with the sidebar's settings:</p><div class='bpe-card'>"
            + merge_line_html(run, 1, mode, present)
            + f"<div class='bpe-reason'>{esc_raw(merge_reason(run, 1, mode))}</div></div>"
            + rules_html(run)
        )

# ------------------------------------------------------------------------------ sources
st.header("Sources")
st.markdown(
    """
- **Philip Gage (1994).** "A New Algorithm for Data Compression." *The C Users Journal* 12(2), 23–38.
  [Article](http://www.pennelynn.com/Documents/CUJ/HTML/94HTML/19940045.HTM). Byte pair encoding as a
  compression scheme: replace the most frequent pair of bytes by an unused byte, repeat.
- **Rico Sennrich, Barry Haddow and Alexandra Birch (2016).** "Neural Machine Translation of Rare Words with
  Subword Units." *Proceedings of ACL 2016*, 1715–1725.
  [ACL Anthology](https://aclanthology.org/P16-1162/) · [arXiv:1508.07909](https://arxiv.org/abs/1508.07909).
  BPE over characters with an end-of-word symbol, learned on word frequencies: the `</w>` variant.
- **Alec Radford, Jeffrey Wu, Rewon Child, David Luan, Dario Amodei and Ilya Sutskever (2019).** "Language Models
  are Unsupervised Multitask Learners" (the GPT-2 paper), OpenAI.
  [PDF](https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf) ·
  [code](https://github.com/openai/gpt-2/blob/master/src/encoder.py). Byte-level BPE: 256 byte symbols, a regex
  pre-tokenizer, no unknown token.

**Reference implementations the trainer is tested against** (`tests/`):
[tiktoken](https://github.com/openai/tiktoken/blob/main/tiktoken/_educational.py)'s `_educational` trainer
(byte-level, first-seen ties),
[Hugging Face tokenizers](https://github.com/huggingface/tokenizers) (`BpeTrainer`, hf ties; our `tokenizer.json`
files load in it and encode to the same ids),
[subword-nmt](https://github.com/rsennrich/subword-nmt)'s `learn_bpe` (end-of-word attached, lexical ties), and
[minbpe](https://github.com/karpathy/minbpe)'s worked example `aaabdaaabac`.
"""
)
