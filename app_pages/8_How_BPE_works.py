"""How BPE works, for learners: the algorithm in plain steps, the textbook example computed live by ``bpe_core``
(its first merges up close), overlapping pairs, tie-break rules, when training stops, byte-level BPE and Chinese,
sources; code names (settings, the trainer's documented rules, the reference trainer) only "For developers"."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bpe_core import TrainConfig
from bpe_core.i18n import format_number
from bpe_core.teaching.explain import TIE_RULES, merge_explanation
from bpe_core.teaching.facts import UTF8_UNUSED_BYTES, ideograph_count, tie_agreement, utf8_rows
from ui import how_algorithms, how_reference, how_view, training
from ui.blocks import items_html
from ui.corpus import PRESETS, text_corpus, words_corpus
from ui.explain import stop_reason_text
from ui.i18n import _, current_language, join_list, ngettext
from ui.page import page_title, start_page
from ui.sidebar import write_url

TEXTBOOK = PRESETS["textbook-low"].words  # the same corpus as the preset (one copy in the app)
SHOWN_MERGES = 5
OVERLAP = {"aaa": 1, "aaaa": 1}
GAGE = {"aaabdaaabac": 1}
# Three anagrams: e+a, a+t and t+e each occur twice, and each tie-break rule picks a different one.
TIE_TEXT = "eat tea ate"
# The byte-level example in the script the reader reads (every character here is 3 UTF-8 bytes either way).
CHINESE_TEXT = {"zh-Hant": "我們 你們 他們 你們好 你好"}
CHINESE_TEXT_DEFAULT = "我们 你们 他们 你们好 你好"


def trained(corpus: dict[str, int] | str, config: TrainConfig):
    """The run of one of this page's fixed examples (word counts, or a text split by ``config``), trained once
    per server and then reused from :func:`ui.training.examples_cache` (not on every rerun)."""
    label = _("How BPE works")
    source = text_corpus(corpus, label) if isinstance(corpus, str) else words_corpus(corpus, label)
    return training.get_run(source, config, training.examples_cache())


def textbook_config(tie_break: str = "first-seen", num_merges: int | None = SHOWN_MERGES) -> TrainConfig:
    """The textbook settings: characters + end-of-word marker, split at whitespace, minimum frequency 2."""
    return TrainConfig(
        variant="eow", pretokenizer="whitespace", num_merges=num_merges, min_frequency=2, tie_break=tie_break
    )


def num(n: int) -> str:
    """``n`` formatted for the interface language."""
    return format_number(n, current_language())


def pair_text(run, left: int, right: int) -> str:
    """A pair as ``left + right`` (token text; tokens are data, never translated)."""
    return f"{run.token_text(left)} + {run.token_text(right)}"


def intro() -> None:
    page_title(_("How BPE works"))
    st.markdown(
        _(
            "Byte-Pair Encoding (BPE) builds a vocabulary of subwords from a corpus: it counts which two symbols "
            "stand next to each other most often, merges them into one new symbol, and repeats. Everything on this "
            "page is computed now by the same code as the rest of the app."
        )
    )


def algorithm() -> None:
    # "Stage" here, "step k" in the stepper (the corpus after merge k), "merge k" for the k-th merge learned.
    st.header(_("The algorithm in five stages"), anchor="algorithm")
    stages = (
        _(
            "Pre-tokenize: cut the text into words (pre-tokens) and count each distinct word: the word-frequency "
            "table (low 5, lower 2 …). Merges never cross a word's edge."
        ),
        _(
            "Split every word into its base symbols: characters with the end-of-word marker </w> after the last "
            "one, or, in byte-level BPE, the word's UTF-8 bytes."
        ),
        _(
            "Count every pair of adjacent symbols in the table, each weighted by its word's frequency, and merge "
            "the most frequent pair into one new symbol everywhere: a new vocabulary entry."
        ),
        _("Repeat from stage 3 until you have made the number of merges you want, or no pair occurs twice."),
        _(
            "To encode new text, pre-tokenize and split it the same way, then apply the learned merges in the order "
            "they were learned."
        ),
    )
    st.markdown(how_view.stages_md(stages))
    st.caption(
        _(
            "Three things are counted here: the five stages of the algorithm; merge k, the k-th merge learned; "
            "and step k of the stepper, the corpus after merge k (step 0: before any merge)."
        )
    )
    st.markdown(
        "**"
        + _("Where did </w> go?")
        + "** "
        + _(
            "Byte-level BPE, as in GPT-2, has no end-of-word marker. Its pre-tokenizer keeps the space in front "
            "of a word (“ the”), so a token tells a word's start, not its end. To print byte tokens, GPT-2's "
            "bytes_to_unicode gives each byte a visible character: the space 0x20 becomes Ġ (U+0120), which "
            "this app shows as ␣: ␣the is the token for “ the”."
        )
    )


def worked_example(run) -> None:
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
    per_word = {share.word: share.total for share in merge_explanation(run, 1, max_words=len(TEXTBOOK)).shares}
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
    after = ngettext("After {n} merge", "After {n} merges", run.num_steps).format(n=num(run.num_steps))
    for row in run.corpus_view(run.num_steps, limit=len(TEXTBOOK)):
        before = run.corpus_view(0, offset=row.index, limit=1)[0].tokens
        rows.append(
            {
                _("Word"): row.word,
                _("Frequency"): num(row.freq),
                _("Before training"): " ".join(run.token_text(t) for t in before),
                after: " ".join(run.token_text(t) for t in row.tokens),
            }
        )
    st.subheader(_("How the words are split"))
    st.table(rows, hide_index=True)


def up_close(run, mode: str, present: bool) -> None:
    """The first merges with every pair count before them, the chosen pair and the words it changed."""
    st.subheader(_("The first three merges up close"))
    st.caption(
        _(
            "Left: every pair and how often it occurs just before the merge. Right: the pair chosen, why, "
            "and the words it changed."
        )
    )
    for step in range(1, min(3, run.num_steps) + 1):
        left, right = st.columns([2, 3], gap="medium")
        left.html(how_view.pairs_before_html(run, step, mode, present))
        right.html(how_view.merge_up_close_html(run, step, mode, present))


def overlaps(mode: str, present: bool) -> None:
    st.header(_("Overlapping pairs: a a a"), anchor="overlaps")
    run = trained(OVERLAP, TrainConfig(variant="char", pretokenizer="whitespace", num_merges=1, min_frequency=1))
    snap = run.snapshot(1)
    st.markdown(
        _(
            "Take a corpus of two words, aaa and aaaa, once each. When pairs are counted, every window counts, "
            "even when windows overlap: aaa holds a + a twice, (a a) a and a (a a), and aaaa three times, so "
            "a + a occurs {count} times. When the merge is applied, it goes through each word from left to right "
            "and never reuses a symbol it has just merged: it rewrites only {places} places, so aaa becomes aa a "
            "and aaaa becomes aa aa."
        ).format(count=num(snap.count), places=num(snap.occurrences))
    )
    st.html(how_view.overlap_html(run, mode, present))


def tie_rules(mode: str, present: bool) -> None:
    st.header(_("When the tie-break rule matters"), anchor="tie-break")
    st.markdown(
        _(
            "Often two or more pairs share the highest count: they are tied, and only one can be merged at this "
            "step. The tie-break rule picks it. The rules agree whenever there is no tie; after a tie that went "
            "differently, the merges can go different ways for a while and meet again."
        )
    )
    base = TrainConfig(variant="char", pretokenizer="whitespace", num_merges=1, min_frequency=2)
    rows = []
    for rule, tie in TIE_RULES.items():
        run = trained(TIE_TEXT, replace(base, tie_break=rule))
        snap = run.snapshot(1)
        rows.append(
            {_("Rule"): _(tie.title), _("First merge"): pair_text(run, snap.left, snap.right), _("Why"): _(tie.short)}
        )
    st.markdown(
        _(
            "In the corpus “{text}”, the pairs e + a, a + t and t + e each occur {count} times. Each rule merges a different one:"
        ).format(text=TIE_TEXT, count=num(snap.count))
    )
    st.table(rows, hide_index=True)
    runs = {rule: trained(TEXTBOOK, textbook_config(rule)) for rule in TIE_RULES}
    steps = range(1, min(3, *(r.num_steps for r in runs.values())) + 1)
    merge_n = _("Merge {n}")
    part = {rule: tie_agreement(runs["first-seen"], runs[rule]).first_difference for rule in ("hf", "lexical")}
    if None not in part.values():  # they part within the merges shown (they do on the textbook corpus)
        names = {rule: _(TIE_RULES[rule].title) for rule in TIE_RULES}
        st.markdown(
            _(
                "The textbook example under each rule: “{lexical}” parts from “{first}” at merge {k}, “{hf}” at "
                "merge {j}."
            ).format(
                lexical=names["lexical"],
                first=names["first-seen"],
                hf=names["hf"],
                k=num(part["lexical"]),
                j=num(part["hf"]),
            )
        )
    st.html(how_view.ties_table_html(runs, steps, [merge_n.format(n=num(s)) for s in steps], mode, present))
    # How far first-seen and Hugging Face order agree over the whole textbook run, computed.
    whole = {rule: trained(TEXTBOOK, textbook_config(rule, num_merges=None)) for rule in ("first-seen", "hf")}
    agree = tie_agreement(whole["first-seen"], whole["hf"])
    st.html(how_view.tie_agreement_html(agree))
    st.caption(
        _(
            "To compare with other software, use its rule: minbpe and tiktoken's educational trainer take the "
            "pair seen first, Hugging Face tokenizers its own order, subword-nmt the pair last in code-point order. "
            "How OpenAI trained the GPT tokenizers is not published."
        )
    )


def stopping() -> list:
    """When training stops, on two examples; returns their runs (the developers' part names their codes)."""
    st.header(_("When training stops"), anchor="stopping")
    st.markdown(
        _(
            "Training stops after the number of merges you asked for, when the vocabulary reaches the size you "
            "asked for, when the most frequent pair occurs fewer times than the minimum frequency, or when no pair "
            "is left."
        )
    )
    textbook = trained(TEXTBOOK, textbook_config(num_merges=None))
    gage = trained(GAGE, TrainConfig(variant="byte", pretokenizer="none", min_frequency=2))
    items = (
        ngettext(
            "The textbook corpus with no limit on the merges: {n} merge, then: {reason}",
            "The textbook corpus with no limit on the merges: {n} merges, then: {reason}",
            textbook.num_steps,
        ).format(n=num(textbook.num_steps), reason=stop_reason_text(textbook)),
        ngettext(
            "aaabdaaabac as bytes (the example after Gage) with minimum frequency 2: {n} merge, then: {reason}",
            "aaabdaaabac as bytes (the example after Gage) with minimum frequency 2: {n} merges, then: {reason}",
            gage.num_steps,
        ).format(n=num(gage.num_steps), reason=stop_reason_text(gage)),
    )
    st.html(items_html(items, "how-stop"))
    return [textbook, gage]


def byte_level() -> None:
    """Why byte-level BPE: the UTF-8 table, why a Chinese character takes three bytes (or four), an example."""
    st.header(_("Byte-level BPE and Chinese"), anchor="byte-level")
    st.markdown(
        _(
            "Character BPE starts from the characters of the corpus. A Chinese corpus holds thousands of different "
            "characters, and a character never seen in training is not in the vocabulary (OOV). Byte-level BPE "
            "(BBPE) starts instead from the 256 possible byte values: any text is a sequence of UTF-8 bytes, so "
            "nothing is ever missing from its vocabulary."
        )
    )
    rows = [
        {
            _("Character"): r.text,
            _("Code point"): " ".join(r.code_points),
            _("UTF-8 bytes"): r.hex,
            _("Bytes"): num(r.num_bytes),
            _("Note"): _(r.note) if r.note else "",
        }
        for r in utf8_rows()
    ]
    st.table(rows, hide_index=True)
    char = "你"
    bits = f"{ord(char):016b}"
    data = char.encode("utf-8")
    st.markdown(
        _(
            "Why three bytes? UTF-8 writes a code point from U+0800 to U+FFFF, where the Chinese characters in "
            "common use are, with three bytes shaped 1110xxxx 10xxxxxx 10xxxxxx: the 16 bits of the code point "
            "fill the x's. {char} is {code}, in bits {bits}, so its bytes are {bytes}."
        ).format(
            char=char,
            code=f"U+{ord(char):04X}",
            bits=f"{bits[:4]} {bits[4:10]} {bits[10:]}",
            bytes=" ".join(f"{b:08b}" for b in data) + f" = {data.hex(' ')}",
        )
    )
    ideographs = ideograph_count()
    st.markdown(
        _(
            "Not every Chinese character takes three bytes: of the {total} CJK unified ideographs in Unicode "
            "{version}, {above} are above U+FFFF and take four bytes, like 𠮷 (U+20BB7 = f0 a0 ae b7); the {below} "
            "below it include the characters in common use. Byte-level BPE starts from all 256 byte values, even "
            "the {unused} that never occur in UTF-8 ({hex})."
        ).format(
            total=num(ideographs.bmp + ideographs.supplementary),
            version=ideographs.unicode_version,
            above=num(ideographs.supplementary),
            below=num(ideographs.bmp),
            unused=num(len(UTF8_UNUSED_BYTES)),
            hex="C0, C1, F5–FF",
        )
    )
    byte_level_example()


def byte_level_example() -> None:
    """Byte-level BPE's first merges on a short Chinese text: the bytes of frequent characters glued back."""
    text = CHINESE_TEXT.get(current_language(), CHINESE_TEXT_DEFAULT)
    cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=SHOWN_MERGES, min_frequency=2)
    run = trained(text, cfg)
    hexes = lambda token: bytes.fromhex(run.token_hex(token)).hex(" ")  # noqa: E731  e4bda0 -> e4 bd a0
    rows = []
    for step in range(1, run.num_steps + 1):
        snap = run.snapshot(step)
        whole = not run.is_partial(snap.token)
        rows.append(
            {
                _("Step"): num(step),
                _("Pair (bytes)"): hexes(snap.left) + " + " + hexes(snap.right),
                _("New token (bytes)"): hexes(snap.token),
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


def your_corpus(choice, mode: str, present: bool) -> None:
    """The first merge of the sidebar's corpus, with the sidebar's settings."""
    if not choice.ok:
        return
    run = training.get_run(choice.corpus, choice.config)
    if run is None or not run.num_steps:
        return
    st.header(_("Your corpus"))
    st.html(how_view.your_corpus_html(choice.label, run, mode, present))


def main() -> None:
    choice = start_page(_("How BPE works"), "📖")
    mode, present = choice.display.byte_mode, choice.display.presentation
    textbook = trained(TEXTBOOK, textbook_config())
    intro()
    algorithm()
    worked_example(textbook)
    up_close(textbook, mode, present)
    overlaps(mode, present)
    tie_rules(mode, present)
    stopped = stopping()
    byte_level()
    how_reference.unseen_tokens()
    how_reference.relatives()
    how_algorithms.sections()
    your_corpus(choice, mode, present)
    how_reference.sources()
    how_reference.for_developers(stopped)
    write_url(choice)


main()
