"""Parity of the trainer with independent implementations, on real text and on generated corpora.

* byte-level ``first-seen`` == tiktoken's ``_educational.bpe_train`` (GPT-2 pattern);
* byte-level ``hf`` == Hugging Face ``tokenizers`` (``BpeTrainer``, ``ByteLevel`` pre-tokenizer);
* eow attached ``lexical`` == subword-nmt's ``learn_bpe`` (the trainer docstring names it);
* every variant (char, eow separate, eow attached, byte) and every tie-break == the textbook loop
  ``bpe_core/algorithms/reference.py`` (compared through ``tests/reference_bpe.py``), on excerpts of the real
  corpora (English, Chinese, emoji) and on hypothesis-generated small corpora.

All with minimum frequency 1 on real text (so every tie among count-1 pairs is exercised too).
"""

from __future__ import annotations

import contextlib
import io

import pytest
from core_checks import TIE_BREAKS, VARIANTS
from corpus_excerpts import named_excerpt
from hf_reference import hf_model, hf_setup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_bpe import assert_matches_reference
from subword_nmt.learn_bpe import learn_bpe
from tiktoken._educational import bpe_train

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.byte_display import bytes_to_unicode

# GPT-2's pre-tokenizer regex, as in openai/gpt-2 encoder.py (and tiktoken's _educational
# train_simple_encoding), written out here rather than taken from bpe_core.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

TIKTOKEN_MERGES = 1000
HF_MERGES = 3000


# ------------------------------------------------------------------------------------- tiktoken


def tiktoken_ranks_from_run(run, vocab_size: int) -> dict:
    """tiktoken's dict built from our merge sequence: ranks[left + right] = len(ranks), in merge
    order, until the dict holds vocab_size entries (a second merge making the same bytes overwrites
    the entry with the current size, as bpe_train does)."""
    ranks = {bytes((i,)): i for i in range(256)}
    for left, right in run.merges():
        if len(ranks) >= vocab_size:
            break
        ranks[run.token_value(left) + run.token_value(right)] = len(ranks)
    return ranks


@pytest.mark.parametrize("key", ["english", "chinese", "emoji"])
def test_byte_first_seen_equals_tiktoken_educational(key):
    text = named_excerpt(key)
    vocab_size = 256 + TIKTOKEN_MERGES
    expected = bpe_train(text, vocab_size, GPT2_PATTERN, visualise=None)
    assert len(expected) == vocab_size

    cfg = TrainConfig(
        variant="byte", pretokenizer="gpt2", min_frequency=1, tie_break="first-seen", vocab_size=vocab_size
    )
    run = train(corpus_words(text, cfg), cfg)
    assert run.stop_reason == "vocab_size"
    assert run.vocab_size_at(run.num_steps) == vocab_size
    got = tiktoken_ranks_from_run(run, vocab_size)
    if got != expected:
        by_rank = sorted(expected.items(), key=lambda kv: kv[1])
        ours = sorted(got.items(), key=lambda kv: kv[1])
        first = next(i for i, (a, b) in enumerate(zip(ours, by_rank)) if a != b)
        pytest.fail(f"first difference at rank {first}: ours {ours[first]!r}, tiktoken {by_rank[first]!r}")

    # The merged pairs implied by tiktoken's ranks, where the split of a token into two
    # earlier tokens is unique, must be ours at that step.
    assert sorted(expected.values()) == list(range(vocab_size)), "two merges made the same bytes"
    merges = run.merges()
    checked = 0
    for token, rank in expected.items():
        if rank < 256:
            continue
        splits = [
            (token[:i], token[i:])
            for i in range(1, len(token))
            if expected.get(token[:i], rank) < rank and expected.get(token[i:], rank) < rank
        ]
        assert splits, f"tiktoken token {token!r} (rank {rank}) is not two earlier tokens"
        if len(splits) == 1:
            left, right = merges[rank - 256]
            assert (run.token_value(left), run.token_value(right)) == splits[0], f"rank {rank}"
            checked += 1
    assert checked >= TIKTOKEN_MERGES // 2, f"only {checked} merges had an unambiguous split"


# ------------------------------------------------------------------------------- Hugging Face


def hf_train(text: str, num_merges: int) -> dict:
    tok, trainer = hf_setup("byte", vocab_size=256 + num_merges, min_frequency=1)
    tok.train_from_iterator([text], trainer)
    model = hf_model(tok)
    assert all(len(m) == 2 for m in model["merges"])
    return model


@pytest.mark.parametrize(
    "key,size",
    [("english", 60_000), ("wiki", 60_000), ("chinese", 60_000), ("emoji", 60_000)],
)
def test_byte_hf_equals_huggingface_tokenizers(key, size):
    text = named_excerpt(key, size)
    expected = hf_train(text, HF_MERGES)

    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", min_frequency=1, tie_break="hf", vocab_size=256 + HF_MERGES)
    run = train(corpus_words(text, cfg), cfg)
    got = [(run.token_wire(a), run.token_wire(b)) for a, b in run.merges()]
    if got != expected["merges"]:
        first = next(
            (i for i, (a, b) in enumerate(zip(got, expected["merges"])) if a != b),
            min(len(got), len(expected["merges"])),
        )
        pytest.fail(
            f"merge {first + 1}: ours {got[first : first + 3]!r}, HF {expected['merges'][first : first + 3]!r} "
            f"({len(got)} vs {len(expected['merges'])} merges)"
        )
    assert len(got) >= 1000
    hf_vocab = expected["vocab"]
    size = run.vocab_size_at(run.num_steps)
    assert size == len(hf_vocab)
    ours = [run.token_wire(i) for i in range(size)]
    assert set(ours) == set(hf_vocab)
    # Merged tokens in creation order, and the base alphabet in HF's order (by GPT-2 alias).
    assert ours[256:] == sorted((w for w in hf_vocab if hf_vocab[w] >= 256), key=hf_vocab.get)
    alias = bytes_to_unicode()
    assert sorted(alias.values(), key=hf_vocab.get) == sorted(alias.values())


# ------------------------------------------------------------------------------- subword-nmt


def subword_nmt_merges(words: dict, num_merges: int, min_frequency: int) -> list:
    """subword-nmt's learn_bpe on a "word count" dictionary: its merges as (left, right) strings."""
    infile = io.StringIO("".join(f"{w} {f}\n" for w, f in words.items()))
    outfile = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):  # its progress bar and "Stopping" message
        learn_bpe(infile, outfile, num_merges, min_frequency=min_frequency, is_dict=True)
    lines = outfile.getvalue().splitlines()
    assert lines[0].startswith("#version")
    return [tuple(line.split(" ")) for line in lines[1:]]


@pytest.mark.parametrize(
    "key,size,min_frequency,num_merges",
    [("english", 40_000, 2, 1500), ("emoji", 60_000, 1, 2000), ("chinese", 15_000, 1, 1000)],
)
def test_eow_attached_lexical_equals_subword_nmt(key, size, min_frequency, num_merges):
    text = named_excerpt(key, size)
    cfg = TrainConfig(
        variant="eow",
        eow_style="attached",
        tie_break="lexical",
        pretokenizer="whitespace",
        min_frequency=min_frequency,
        num_merges=num_merges,
    )
    words = corpus_words(text, cfg)
    expected = subword_nmt_merges(words, num_merges, min_frequency)
    run = train(words, cfg)
    got = [(run.token_value(a), run.token_value(b)) for a, b in run.merges()]
    if got != expected:
        first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
        pytest.fail(f"merge {first + 1}: ours {got[first : first + 3]!r}, subword-nmt {expected[first : first + 3]!r}")
    assert len(got) >= 900


# ------------------------------------------------------------------------- slow reference


REFERENCE_MERGES = 300
REFERENCE_EXCERPT_BYTES = 10_000


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@pytest.mark.parametrize("key", ["english", "chinese", "emoji"])
def test_excerpt_equals_reference(key, variant, style, tie_break):
    text = named_excerpt(key, REFERENCE_EXCERPT_BYTES)
    cfg = TrainConfig(
        variant=variant,
        eow_style=style,
        tie_break=tie_break,
        min_frequency=1,
        num_merges=REFERENCE_MERGES,
        top_k=25,
        max_tied=50,
    )
    run = assert_matches_reference(corpus_words(text, cfg), cfg)
    assert run.num_steps == REFERENCE_MERGES


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
def test_excerpt_equals_reference_min_frequency_and_vocab_size(variant, style, tie_break):
    # English with the default minimum frequency 2 until it stops, capped by a vocabulary size;
    # and with a custom marker.
    text = named_excerpt("english", 4_000)
    cfg = TrainConfig(
        variant=variant, eow_style=style, tie_break=tie_break, vocab_size=(256 if variant == "byte" else 60) + 250
    )
    words = corpus_words(text, cfg)
    run = assert_matches_reference(words, cfg)
    assert run.stop_reason in ("min_frequency", "vocab_size")
    cfg = TrainConfig(
        variant=variant, eow_style=style, eow_marker="_", tie_break=tie_break, pretokenizer="gpt2", num_merges=150
    )
    assert_matches_reference(corpus_words(text, cfg), cfg)


def test_eow_hf_ids_put_end_of_word_symbols_after_the_characters():
    # The trainer docstring (rule 2, hf), as Hugging Face's BpeTrainer with end_of_word_suffix does:
    # characters by code point first, then the end-of-word symbols, even though "</w>" ('<' is U+003C)
    # would sort before the letters by code point.
    # eow separate, {"aa": 1}: a a </w>; ids a=0 </w>=1; (a,a)=(0,0) beats (a,</w>)=(0,1).
    cfg = TrainConfig(variant="eow", eow_style="separate", tie_break="hf", min_frequency=1, num_merges=1)
    run = train({"aa": 1}, cfg)
    assert [(run.token_value(a), run.token_value(b)) for a, b in run.merges()] == [("a", "a")]
    # eow attached, {"abaa": 1}: a b a a</w>; ids a=0 b=1 a</w>=2; (a,b)=(0,1) beats (a,a</w>)=(0,2).
    cfg = TrainConfig(variant="eow", eow_style="attached", tie_break="hf", min_frequency=1, num_merges=1)
    run = train({"abaa": 1}, cfg)
    assert [(run.token_value(a), run.token_value(b)) for a, b in run.merges()] == [("a", "b")]
    # Hugging Face agrees on a case where the order decides: {"ab": 1, "acd": 1} merges a + c.
    cfg = TrainConfig(variant="eow", eow_style="attached", tie_break="hf", min_frequency=1, num_merges=1)
    run = train({"ab": 1, "acd": 1}, cfg)
    assert [(run.token_value(a), run.token_value(b)) for a, b in run.merges()] == [("a", "c")]


# ------------------------------------------------------------------- generated small corpora

SYMBOLS = ["a", "a", "a", "b", "b", "c", "é", "你", "😀", "<", "/", "w", ">", "_", " "]
word = st.one_of(
    st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=10).map("".join),
    st.integers(1, 12).map(lambda n: "a" * n),  # overlapping runs
    st.sampled_from(["a", "aa", "aaa", "aaaa", "ab", "abab", "aabaa", "</w>", "_"]),
)
word_counts = st.dictionaries(word, st.integers(1, 6), max_size=8)
texts = st.lists(st.sampled_from(SYMBOLS + ["\n", "\r\n", "1", "'s", "Z", "  "]), max_size=40).map("".join)

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def small_config(variant, style, tie_break, data):
    return TrainConfig(
        variant=variant,
        eow_style=style,
        eow_marker=data.draw(st.sampled_from(["</w>", "_", "w"]), label="marker"),
        tie_break=tie_break,
        min_frequency=data.draw(st.integers(1, 3), label="min_frequency"),
        num_merges=data.draw(st.one_of(st.none(), st.integers(0, 12)), label="num_merges"),
        vocab_size=data.draw(st.one_of(st.none(), st.integers(1, 300)), label="vocab_size"),
        top_k=data.draw(st.integers(1, 12), label="top_k"),
        max_tied=data.draw(st.integers(1, 12), label="max_tied"),
    )


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@SETTINGS
@given(words=word_counts, data=st.data())
def test_generated_word_counts_equal_reference(variant, style, tie_break, words, data):
    cfg = small_config(variant, style, tie_break, data)
    assert_matches_reference(words, cfg)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@SETTINGS
@given(text=texts, pretokenizer=st.sampled_from(["whitespace", "gpt2", "gpt4", "none"]))
def test_generated_text_equals_reference(variant, style, tie_break, text, pretokenizer):
    cfg = TrainConfig(variant=variant, eow_style=style, tie_break=tie_break, pretokenizer=pretokenizer, min_frequency=1)
    assert_matches_reference(corpus_words(text, cfg), cfg)
