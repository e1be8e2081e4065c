"""How BPE works, written for learners: the algorithm in plain steps, the textbook example computed
live by ``bpe_core``, when the tie-break rule matters, what byte-level BPE changes for Chinese, the
sources; code names only in the "For developers" part at the end."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from dataclasses import replace

import streamlit as st

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.i18n import format_number
from ui.i18n import N_, _, current_language, join_list, ngettext
from ui.page import start_page
from ui.sidebar import write_url

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
SHOWN_MERGES = 5
# Three anagrams: e+a, a+t and t+e each occur twice, and each tie-break rule picks a different one.
TIE_TEXT = "eat tea ate"
TIE_RULES = {
    "first-seen": (N_("First seen"), N_("the tied pair that appears first in the corpus")),
    "hf": (
        N_("Hugging Face order"),
        N_("the tied pair whose symbols come first when symbols are numbered by code point"),
    ),
    "lexical": (N_("Dictionary order"), N_("the tied pair that comes last in dictionary order")),
}
# The byte-level example in the script the reader reads (every character here is 3 UTF-8 bytes either way).
CHINESE_TEXT = {"zh-Hant": "我們 你們 他們 你們好 你好"}
CHINESE_TEXT_DEFAULT = "我们 你们 他们 你们好 你好"
UTF8_EXAMPLES = ("a", "é", "你", "😀")


def textbook_config(tie_break: str = "first-seen") -> TrainConfig:
    """The textbook settings: characters + end-of-word marker, split at whitespace, minimum frequency 2."""
    return TrainConfig(
        variant="eow", pretokenizer="whitespace", num_merges=SHOWN_MERGES, min_frequency=2, tie_break=tie_break
    )


def num(n: int) -> str:
    """``n`` formatted for the interface language."""
    return format_number(n, current_language())


def pair_text(run, left: int, right: int) -> str:
    """A pair as ``left + right`` (token text; tokens are data, never translated)."""
    return f"{run.token_text(left)} + {run.token_text(right)}"


def spaced_hex(hex_text: str) -> str:
    """``e4bda0`` -> ``e4 bd a0``."""
    return " ".join(hex_text[i : i + 2] for i in range(0, len(hex_text), 2))


def intro() -> None:
    st.title(_("How BPE works"))
    st.markdown(
        _(
            "Byte-Pair Encoding (BPE) builds a vocabulary of subwords from a corpus: it counts which two symbols "
            "stand next to each other most often, merges them into one new symbol, and repeats. Everything on this "
            "page is computed now by the same code as the rest of the app."
        )
    )


def algorithm() -> None:
    st.header(_("The algorithm in five steps"))
    steps = (
        _("Split every word of the corpus into characters, and put the end-of-word marker </w> after each word."),
        _("Count every pair of adjacent symbols, weighted by how often its word occurs in the corpus."),
        _("Merge the most frequent pair into one new symbol everywhere, and add the new symbol to the vocabulary."),
        _("Repeat from step 2 until you have made the number of merges you want, or no pair occurs twice."),
        _("To encode new text, split it the same way and apply the learned merges in the order they were learned."),
    )
    st.markdown("\n".join(f"{i}. {text}" for i, text in enumerate(steps, 1)))


def worked_example() -> None:
    run = train(TEXTBOOK, textbook_config())
    st.header(_("The textbook example, computed now"))
    st.markdown(
        _(
            "The corpus of Sennrich et al. (2016) is four words, each with how often it occurs: "
            "low 5 times, lower 2 times, newest 6 times and widest 3 times."
        )
    )
    merges = []
    for step in range(1, run.num_steps + 1):
        snap = run.snapshot(step)
        merges.append(
            {
                _("Step"): num(step),
                _("Pair"): pair_text(run, snap.left, snap.right),
                _("New token"): run.token_text(snap.token),
                _("Frequency"): num(snap.count),
            }
        )
    st.subheader(ngettext("The first merge", "The first {n} merges", len(merges)).format(n=num(len(merges))))
    st.table(merges, hide_index=True)
    first = run.snapshot(1)
    per_word = {word: freq * sum(1 for x, y in zip(before, before[1:]) if (x, y) == (first.left, first.right))
                for _idx, word, freq, before, _after in run.changed_words(1)}  # fmt: skip
    others = [pair_text(run, a, b) for a, b in first.tied if (a, b) != (first.left, first.right)]
    st.markdown(
        ngettext(
            "Step 1: {pair} occurs {in_newest} times in newest and {in_widest} times in widest, {count} times in "
            "all. {n} other pair occurs {count} times too ({others}), so the tie-break rule decides which one is "
            "merged (see below).",
            "Step 1: {pair} occurs {in_newest} times in newest and {in_widest} times in widest, {count} times in "
            "all. {n} other pairs occur {count} times too ({others}), so the tie-break rule decides which one is "
            "merged (see below).",
            len(others),
        ).format(
            pair=pair_text(run, first.left, first.right),
            in_newest=num(per_word.get("newest", 0)),
            in_widest=num(per_word.get("widest", 0)),
            count=num(first.count),
            n=num(len(others)),
            others=join_list(others),
        )
    )
    rows = []
    for row in run.corpus_view(run.num_steps, limit=len(TEXTBOOK)):
        before = run.corpus_view(0, offset=row.index, limit=1)[0].tokens
        rows.append(
            {
                _("Word"): row.word,
                _("Frequency"): num(row.freq),
                _("Before training"): " ".join(run.token_text(t) for t in before),
                ngettext("After {n} merge", "After {n} merges", run.num_steps).format(n=num(run.num_steps)): " ".join(
                    run.token_text(t) for t in row.tokens
                ),
            }
        )
    st.subheader(_("How the words are split"))
    st.table(rows, hide_index=True)


def tie_rules() -> None:
    st.header(_("When the tie-break rule matters"))
    st.markdown(
        _(
            "Often two or more pairs share the highest count: they are tied, and only one can be merged at this "
            "step. The tie-break rule picks it. The rules agree whenever there is no tie, so on a large corpus "
            "they give almost the same vocabulary; on a small corpus one different choice changes every later step."
        )
    )
    base = TrainConfig(variant="char", pretokenizer="whitespace", num_merges=1, min_frequency=2)
    words = corpus_words(TIE_TEXT, base)
    rows = []
    for rule, (name, why) in TIE_RULES.items():
        run = train(words, replace(base, tie_break=rule))
        snap = run.snapshot(1)
        rows.append({_("Rule"): _(name), _("First merge"): pair_text(run, snap.left, snap.right), _("Why"): _(why)})
    st.markdown(
        _(
            "In the corpus “{text}”, the pairs e + a, a + t and t + e each occur {count} times. Each rule merges a different one:"
        ).format(text=TIE_TEXT, count=num(snap.count))
    )
    st.table(rows, hide_index=True)
    runs = {rule: train(TEXTBOOK, textbook_config(rule)) for rule in TIE_RULES}
    steps = min(r.num_steps for r in runs.values())
    table = []
    for step in range(1, min(steps, 3) + 1):
        row = {_("Step"): num(step)}
        for rule, (name, _why) in TIE_RULES.items():
            snap = runs[rule].snapshot(step)
            row[_(name)] = pair_text(runs[rule], snap.left, snap.right)
        table.append(row)
    st.markdown(_("The textbook example under each rule: after the first tie, the merges go different ways."))
    st.table(table, hide_index=True)
    st.caption(
        _(
            "To compare with other software, use its rule: tiktoken's and minbpe's trainers take the first seen "
            "pair, Hugging Face tokenizers its own order, subword-nmt dictionary order."
        )
    )


def byte_level() -> None:
    st.header(_("Byte-level BPE and Chinese"))
    st.markdown(
        _(
            "Character BPE starts from the characters of the corpus. A Chinese corpus holds thousands of different "
            "characters, and a character never seen in training is not in the vocabulary (OOV). Byte-level BPE "
            "(BBPE) starts instead from the 256 possible byte values: any text is a sequence of UTF-8 bytes, so "
            "nothing is ever missing from its vocabulary."
        )
    )
    rows = []
    for char in UTF8_EXAMPLES:
        data = char.encode("utf-8")
        rows.append(
            {
                _("Character"): char,
                _("Code point"): f"U+{ord(char):04X}",
                _("UTF-8 bytes"): spaced_hex(data.hex()),
                _("Bytes"): num(len(data)),
            }
        )
    st.table(rows, hide_index=True)
    char = "你"
    bits = f"{ord(char):016b}"
    data = char.encode("utf-8")
    st.markdown(
        _(
            "Why three bytes? UTF-8 writes a code point from U+0800 to U+FFFF, where almost all Chinese characters "
            "are, with three bytes shaped 1110xxxx 10xxxxxx 10xxxxxx: the 16 bits of the code point fill the x's. "
            "{char} is {code}, in bits {bits}, so its bytes are {bytes}."
        ).format(
            char=char,
            code=f"U+{ord(char):04X}",
            bits=f"{bits[:4]} {bits[4:10]} {bits[10:]}",
            bytes=" ".join(f"{b:08b}" for b in data) + f" = {spaced_hex(data.hex())}",
        )
    )
    text = CHINESE_TEXT.get(current_language(), CHINESE_TEXT_DEFAULT)
    cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=SHOWN_MERGES, min_frequency=2)
    run = train(corpus_words(text, cfg), cfg)
    rows = []
    for step in range(1, run.num_steps + 1):
        snap = run.snapshot(step)
        whole = not run.is_partial(snap.token)
        rows.append(
            {
                _("Step"): num(step),
                _("Pair (bytes)"): f"{spaced_hex(run.token_hex(snap.left))} + {spaced_hex(run.token_hex(snap.right))}",
                _("New token (bytes)"): spaced_hex(run.token_hex(snap.token)),
                _("As text"): run.token_text(snap.token) if whole else "—",
                _("Frequency"): num(snap.count),
            }
        )
    st.markdown(
        _(
            "Byte-level BPE on “{text}”: the first merges glue the bytes of frequent characters back together. "
            "Until then a token may hold only part of a character, which cannot be shown as text (—)."
        ).format(text=text)
    )
    st.table(rows, hide_index=True)


def sources() -> None:
    st.header(_("Sources"))
    items = (
        (
            'Philip Gage (1994). "A New Algorithm for Data Compression." *The C Users Journal* 12(2), 23–38.',
            _("Byte pair encoding as compression: replace the most frequent pair of bytes by an unused byte, repeat."),
        ),
        (
            'Rico Sennrich, Barry Haddow, Alexandra Birch (2016). "Neural Machine Translation of Rare Words with '
            'Subword Units." *ACL 2016*, 1715–1725. [ACL Anthology](https://aclanthology.org/P16-1162/)',
            _("BPE on characters with an end-of-word marker, learned from word frequencies: the textbook example."),
        ),
        (
            "Alec Radford, Jeffrey Wu, Rewon Child, David Luan, Dario Amodei, Ilya Sutskever (2019). "
            '"Language Models are Unsupervised Multitask Learners." OpenAI. '
            "[PDF](https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf)",
            _("Byte-level BPE (GPT-2): 256 byte values as base symbols, a regular expression as pre-tokenizer."),
        ),
    )
    st.markdown("\n".join(f"- {cite}  \n  {about}" for cite, about in items))


def for_developers() -> None:
    with st.expander(_("For developers: code names and the reference trainer")):
        st.markdown(
            _(
                'In the code: the settings are `bpe_core.TrainConfig` (`variant="eow"`, `tie_break="first-seen"`, '
                '`"hf"` or `"lexical"`, `min_frequency=2`); `bpe_core.train` runs the fast trainer of '
                "`bpe_core.trainer`, which the tests compare with a short, readable reference trainer."
            )
        )
        if importlib.util.find_spec("bpe_core.reference") is not None:
            st.code(inspect.getsource(importlib.import_module("bpe_core.reference")), language="python")
        else:
            st.markdown(inspect.cleandoc(importlib.import_module("bpe_core.trainer").__doc__ or ""))


def main() -> None:
    choice = start_page(_("How BPE works"), "📖")
    intro()
    algorithm()
    worked_example()
    tie_rules()
    byte_level()
    sources()
    for_developers()
    write_url(choice)


main()
