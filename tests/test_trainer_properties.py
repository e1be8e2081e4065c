"""Properties of training runs, checked with hypothesis on generated corpora and text.

* byte-level ``decode(encode(x)) == x`` for any valid text (the encoder of ``run.tokenizer()``);
* a word's segmentation always concatenates back to the word (its base symbols);
* the pair counts add up: sum of counts == sum of freq * (len - 1) at every step;
* a replayed run gives identical snapshots; a shorter run is a prefix of a longer one;
* merge counts never increase, and each merge removes the tokens it says it removes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from core_checks import (
    KINDS,
    PRETOKENIZERS,
    TIE_BREAKS,
    VARIANTS,
    assert_one_line_message,
    check_run,
    expected_value,
    joined,
)
from corpus_excerpts import named_excerpt
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bpe_core import InputError, TrainConfig, Trainer, clean_text, corpus_words, pretokenize, train
from bpe_core.variants import Variant

SYMBOLS = ["a", "a", "a", "b", "b", "c", "é", "你", "😀", "<", "/", "w", ">", "_", " "]
word = st.one_of(
    st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=10).map("".join),
    st.integers(1, 12).map(lambda n: "a" * n),
)
word_counts = st.dictionaries(word, st.integers(1, 6), max_size=8)
# Any valid text: every code point except surrogates (which UTF-8 cannot encode).
any_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80)
mixed_text = st.lists(
    st.sampled_from(
        ["a", "b", " ", "  ", "\n", "\r\n", "\t", "é", "你好", "😀", "👩‍👩‍👧", "1", "'s", "'ll", "!", "\u00a0", "\x00"]
    ),
    max_size=40,
).map("".join)

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(SETTINGS, max_examples=50)


def config_for(variant, style, tie_break, **kw):
    return TrainConfig(variant=variant, eow_style=style, tie_break=tie_break, **kw)


# ---------------------------------------------------------------------------- encode / decode


@cache
def trained_on_real_text(pretokenizer: str):
    """A byte-level run on English + Chinese + emoji text (300 merges)."""
    text = named_excerpt("english", 6_000) + named_excerpt("chinese", 6_000) + named_excerpt("emoji", 6_000)
    cfg = TrainConfig(variant="byte", pretokenizer=pretokenizer, min_frequency=1, num_merges=300)
    return text, train(corpus_words(text, cfg), cfg)


@pytest.mark.parametrize("pretokenizer", ["gpt2", "gpt4", "none"])
@SETTINGS
@given(text=st.one_of(any_text, mixed_text))
def test_byte_level_decode_encode_roundtrip(pretokenizer, text):
    _, run = trained_on_real_text(pretokenizer)
    for step in (0, 37, run.num_steps):
        tok = run.tokenizer(step)
        ids = tok.encode(text)
        assert all(0 <= i < run.vocab_size_at(step) for i in ids)
        assert tok.decode(ids) == text
        assert b"".join(run.token_value(i) for i in ids) == text.encode("utf-8")


@pytest.mark.parametrize("pretokenizer", ["gpt2", "none"])
def test_byte_level_roundtrip_on_the_training_text(pretokenizer):
    text, run = trained_on_real_text(pretokenizer)
    tok = run.tokenizer()
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    # The trained merges compress the text they were trained on.
    assert len(ids) < len(text.encode("utf-8")) // 2


@FEWER
@given(train_text=mixed_text, text=st.one_of(any_text, mixed_text), tie_break=st.sampled_from(TIE_BREAKS))
def test_byte_level_roundtrip_trained_on_generated_text(train_text, text, tie_break):
    cfg = TrainConfig(variant="byte", tie_break=tie_break, min_frequency=1)
    run = train(corpus_words(train_text, cfg), cfg)
    tok = run.tokenizer()
    assert tok.decode(tok.encode(text)) == text
    assert tok.decode(tok.encode(train_text)) == train_text


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_encoding_a_training_word_gives_its_training_segmentation(variant, style):
    # The rank encoder replays training on one word (bpe_core.encoding.encoder's docstring).
    text = named_excerpt("english", 4_000) + named_excerpt("emoji", 2_000)
    cfg = TrainConfig(variant=variant, eow_style=style, min_frequency=1, num_merges=200)
    run = train(corpus_words(text, cfg), cfg)
    tok = run.tokenizer()
    pre = cfg.resolved_pretokenizer
    checked = 0
    for i, w in enumerate(run.words):
        if pretokenize(w, pre) != [w]:
            continue
        assert tok.encode(w) == run.segmentation(i, run.num_steps), w
        checked += 1
    assert checked > 0.9 * run.num_words


# ------------------------------------------------------------------------- segmentations


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@FEWER
@given(words=word_counts, min_frequency=st.integers(1, 3), marker=st.sampled_from(["</w>", "_", "a"]))
def test_segmentation_concatenates_back_to_the_word(variant, style, tie_break, words, min_frequency, marker):
    run = train(words, config_for(variant, style, tie_break, min_frequency=min_frequency, eow_marker=marker))
    empty = run.variant.empty()
    for i, w in enumerate(words):
        whole = empty.join(run.variant.symbols(w))
        assert whole == (w.encode("utf-8") if variant == "byte" else w + (marker if variant == "eow" else ""))
        for k in range(run.num_steps + 1):
            ids = run.segmentation(i, k)
            assert empty.join(run.token_value(t) for t in ids) == whole
            assert all(0 <= t < run.vocab_size_at(k) for t in ids)


# ---------------------------------------------------------------------------- pair counts


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@FEWER
@given(words=word_counts, min_frequency=st.integers(1, 2))
def test_pair_counts_add_up_at_every_step(variant, style, tie_break, words, min_frequency):
    cfg = config_for(variant, style, tie_break, min_frequency=min_frequency, top_k=4, max_tied=3)
    trainer = Trainer(words, cfg)
    freqs = list(words.values())
    previous = None
    for snap in trainer.steps():
        run = trainer.run  # queryable while training
        k = snap.step
        before = run.pair_table(k - 1)
        total_pairs = sum(c for _, _, c in before)
        segs = [run.segmentation(i, k - 1) for i in range(len(words))]
        assert total_pairs == sum(f * (len(s) - 1) for f, s in zip(freqs, segs) if s)
        assert total_pairs == run.corpus_tokens(k - 1) - sum(f for f, s in zip(freqs, segs) if s)
        # The snapshot's counts are the recount's.
        assert before[0] == (snap.left, snap.right, snap.count)
        assert tuple(before[: len(snap.top_pairs)]) == snap.top_pairs
        assert snap.ties == sum(1 for _, _, c in before if c == snap.count)
        assert snap.tied == tuple((a, b) for a, b, c in before if c == snap.count)[: cfg.max_tied]
        assert snap.count >= cfg.min_frequency
        # Counts never increase from one merge to the next.
        if previous is not None:
            assert snap.count <= previous
        previous = snap.count
        # Each merge removes one token per rewritten occurrence: all of them for a pair of two
        # different tokens; at least every other window for (x, x) runs.
        removed = run.corpus_tokens(k - 1) - snap.corpus_tokens
        if snap.left != snap.right:
            assert removed == snap.count
        else:
            assert snap.count >= removed and 2 * removed >= snap.count
        assert snap.occurrences >= snap.words_changed >= 1
    final = trainer.run
    n = final.num_steps
    table = final.pair_table(n)
    assert sum(c for _, _, c in table) == sum(
        f * (len(final.segmentation(i, n)) - 1) for i, f in enumerate(freqs) if final.segmentation(i, n)
    )


# -------------------------------------------------------------------------------- replays


SNAPSHOT_FIELDS = (
    "step",
    "left",
    "right",
    "token",
    "is_new",
    "count",
    "ties",
    "tied",
    "tie_break",
    "top_pairs",
    "vocab_size",
    "corpus_tokens",
    "occurrences",
    "words_changed",
    "stop_reason",
)


def snap_dict(snap, **changes):
    """A snapshot's documented fields as a dict (optionally with some replaced)."""
    out = {f: getattr(snap, f) for f in SNAPSHOT_FIELDS}
    out.update(changes)
    return out


def snapshot_data(run):
    return [snap_dict(s) for s in run.snapshots]


def run_data(run):
    n = run.num_steps
    return (
        snapshot_data(run),
        run.stop_reason,
        [(e.id, e.value, e.step, e.left, e.right) for e in run.vocabulary()],
        run.series(),
        [[run.segmentation(i, k) for i in range(run.num_words)] for k in range(n + 1)],
        [run.pair_table(k) for k in range(n + 1)],
        [[(r.index, r.tokens, r.changed, r.before) for r in run.corpus_view(k, limit=100)] for k in range(n + 1)],
    )


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@FEWER
@given(words=word_counts, min_frequency=st.integers(1, 2), cut=st.integers(0, 12))
def test_replayed_run_gives_identical_snapshots(variant, style, tie_break, words, min_frequency, cut):
    cfg = config_for(variant, style, tie_break, min_frequency=min_frequency)
    first = train(words, cfg)
    again = train(dict(words), cfg)
    assert run_data(again) == run_data(first)
    streamed = Trainer(dict(words), cfg)
    snaps = list(streamed.steps())
    assert [snap_dict(s) for s in snaps] == snapshot_data(first)
    assert snaps == first.snapshots  # compared by value
    assert run_data(streamed.run) == run_data(first)

    # A run cut after `cut` merges is the prefix of the full run (only the stop reason differs).
    assume(cut < first.num_steps)
    short = train(words, replace(cfg, num_merges=cut))
    assert short.num_steps == cut and short.stop_reason == "num_merges"
    expect = snapshot_data(first)[:cut]
    if cut:
        expect[-1]["stop_reason"] = "num_merges"
    assert snapshot_data(short) == expect
    for i in range(len(words)):
        assert short.segmentation(i, cut) == first.segmentation(i, cut)
    # The same cut by vocabulary size.
    size = first.vocab_size_at(cut)
    capped = train(words, replace(cfg, vocab_size=size))
    stop = next(k for k in range(first.num_steps + 1) if first.vocab_size_at(k) >= size)
    assert capped.num_steps == stop and capped.stop_reason == "vocab_size"
    assert [snap_dict(s, stop_reason=None) for s in capped.snapshots] == [
        snap_dict(s, stop_reason=None) for s in first.snapshots[:stop]
    ]


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_replayed_run_on_real_text(variant, style):
    text = named_excerpt("chinese", 3_000) + named_excerpt("english", 3_000)
    cfg = TrainConfig(variant=variant, eow_style=style, min_frequency=1, num_merges=150)
    words = corpus_words(text, cfg)
    first, again = train(words, cfg), train(corpus_words(text, cfg), cfg)
    assert snapshot_data(again) == snapshot_data(first)
    assert [again.segmentation(i, 150) for i in range(again.num_words)] == [
        first.segmentation(i, 150) for i in range(first.num_words)
    ]
    assert again.series() == first.series()


@pytest.mark.parametrize("variant,style", VARIANTS)
@SETTINGS
@given(text=mixed_text, pretokenizer=st.sampled_from(["whitespace", "gpt2", "gpt4", "none"]))
def test_corpus_words_keep_every_character(variant, style, text, pretokenizer):
    cfg = TrainConfig(variant=variant, eow_style=style, pretokenizer=pretokenizer)
    words = corpus_words(text, cfg)
    assert all(w and f >= 1 for w, f in words.items())
    if pretokenizer == "whitespace":
        assert sum(words.values()) == len(text.split())
    else:
        # Nothing is dropped: the pieces, in order, are the text.
        assert "".join(pretokenize(text, pretokenizer)) == text
        assert sum(len(w) * f for w, f in words.items()) == len(text)


@pytest.mark.parametrize("variant,style", VARIANTS)
@SETTINGS
@given(words=st.lists(st.one_of(word, st.just("")), max_size=12), marker=st.sampled_from(["</w>", "_", "a"]))
def test_corpus_symbols_are_each_words_symbols_in_turn(variant, style, words, marker):
    # The trainer's set-up takes every word type's symbols at once (corpus_symbols); a word with no
    # characters has no symbols, not even the end-of-word marker.
    v = Variant(variant, style, marker)
    symbols, lengths = v.corpus_symbols(words)
    assert symbols == [s for w in words for s in v.symbols(w)]
    assert lengths == [len(v.symbols(w)) for w in words]


# ---------------------------------------------------------------------------------------- fuzz
SPECIAL = [
    "\x00", "\r", "\r\n", "\n", "\t", " ", "\u00a0", "\u2028", "\x1b", "\x7f", "\ufeff", "\ud800", "\udfff",
    "\u200d", "\u200f", "\u202e", "\u0301", "\u0308", "👨", "👩", "\U0001f3fd", "🇨", "🇳", "\ufe0f", "你", "好",
    "a", "b", "aa", "ab", "</w>", "<", ">", "'s", "'", "1", "12345", "é", "\U0010ffff",
]  # fmt: skip
texts = st.text(max_size=80) | st.lists(st.sampled_from(SPECIAL) | st.characters(), max_size=60).map("".join)

configs = st.builds(
    TrainConfig,
    variant=st.sampled_from(KINDS),
    pretokenizer=st.sampled_from((None,) + PRETOKENIZERS),
    num_merges=st.one_of(st.none(), st.integers(0, 60)),
    vocab_size=st.one_of(st.none(), st.integers(1, 320)),
    min_frequency=st.integers(1, 4),
    tie_break=st.sampled_from(("first-seen", "hf", "lexical")),
    eow_style=st.sampled_from(("separate", "attached")),
    eow_marker=st.sampled_from(("</w>", "_", "▁", "w>", "a")),
    top_k=st.integers(1, 12),
    max_tied=st.integers(1, 12),
)

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(text=texts, cfg=configs, steps=st.lists(st.integers(-3, 80), max_size=4))
def test_fuzz_pipeline_never_raises_and_keeps_invariants(text, cfg, steps):
    try:
        text = clean_text(text)
    except InputError as err:
        assert_one_line_message(err)
        assert "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    words = corpus_words(text, cfg)
    assert all(w and f > 0 for w, f in words.items())
    if cfg.resolved_pretokenizer != "whitespace":
        assert sum(len(w) * f for w, f in words.items()) == len(text)  # nothing dropped
    run = train(words, cfg)
    check_run(run, words, cfg)
    for step in steps:  # queries with any step (clamped)
        rows = run.corpus_view(step, limit=5, changed_first=True)
        assert len(rows) == min(5, len(words))
        for row in rows:
            assert joined(run, row.tokens) == expected_value(row.word, cfg)
        pairs = run.pair_table(step, limit=5)
        if 0 <= step < run.num_steps and pairs:
            nxt = run.snapshot(step + 1)
            assert (nxt.left, nxt.right, nxt.count) == pairs[0]
        for _i, _w, _f, before, after in run.changed_words(step, limit=3):
            assert len(after) < len(before)
        for tid in range(min(run.vocab_size, 300)):
            run.token_text(tid, "escaped")
            run.merge_tree(tid)
