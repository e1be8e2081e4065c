"""Tests of bpe_core.encoding.encoder: the rank encoder, the longest-match encoder, traces and decoding."""

from __future__ import annotations

import random

import pytest
from corpus_excerpts import corpus_slice
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.encoding.encoder import UNK_TOKEN, Tokenizer
from bpe_core.variants import Variant

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def texts(tok: Tokenizer, ids) -> list[str]:
    return [tok.token_text(i) for i in ids]


# ------------------------------------------------------------------------------ rank encoder
def test_textbook_words_encode_to_their_training_segmentation():
    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10))
    tok = Tokenizer.from_run(run)
    assert texts(tok, tok.encode("low lower newest widest")) == [
        "low</w>",
        "low",
        "e",
        "r",
        "</w>",
        "newest</w>",
        "wi",
        "d",
        "est</w>",
    ]
    assert texts(tok, tok.encode("lowest")) == ["low", "est</w>"]
    # after 5 merges only es, est, est</w>, lo, low exist
    tok5 = Tokenizer.from_run(run, 5)
    assert tok5.num_merges == 5 and tok5.vocab_size == 16 and tok5.unk_id == 16
    assert texts(tok5, tok5.encode("newest low")) == ["n", "e", "w", "est</w>", "low", "</w>"]


@pytest.mark.parametrize(
    "name, variant, pretokenizer, style",
    [
        ("pg16457.txt", "byte", "gpt2", "separate"),
        ("pg16457.txt", "eow", "whitespace", "separate"),
        ("pg16457.txt", "eow", "whitespace", "attached"),
        ("hongloumeng.txt", "char", "gpt4", "separate"),
        ("emoji-test.txt", "byte", "whitespace", "separate"),
    ],
)
def test_rank_encoder_replays_training_at_every_checked_step(name, variant, pretokenizer, style):
    """Encoding a training word with the merges of steps 1..k gives the trainer's segmentation at step k."""
    text = corpus_slice(name, 0, 12_000)
    cfg = TrainConfig(variant=variant, pretokenizer=pretokenizer, eow_style=style, num_merges=200)
    run = train(corpus_words(text, cfg), cfg)
    assert run.num_steps == 200
    for step in (0, 1, 7, 60, 200):
        tok = Tokenizer.from_run(run, step)
        for i in range(run.num_words):
            word, _ = run.word(i)
            assert list(tok.encode_piece(word)) == run.segmentation(i, step), (step, word)


def test_minbpe_example_aaabdaaabac():
    cfg = TrainConfig(variant="byte", pretokenizer="none", num_merges=3, min_frequency=1)
    run = train(corpus_words("aaabdaaabac", cfg), cfg)
    tok = run.tokenizer()
    ids = tok.encode("aaabdaaabac")
    assert ids == [258, 100, 258, 97, 99]
    assert tok.encode_tokens("aaabdaaabac") == [b"aaab", b"d", b"aaab", b"a", b"c"]
    assert tok.decode(ids) == "aaabdaaabac"
    assert tok.unk_id is None


def test_unknown_symbols_char_and_eow():
    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=5))
    tok = run.tokenizer()
    assert tok.unk_id == run.vocab_size == 16
    ids = tok.encode("lox")
    assert texts(tok, ids) == ["lo", UNK_TOKEN, "</w>"]
    assert ids[1] == 16
    assert tok.decode(ids) == "lo<unk>"
    assert tok.decode(tok.encode("low xyz lower")) == "low <unk><unk><unk> lower"
    char = train(TEXTBOOK, TrainConfig(variant="char", num_merges=2)).tokenizer()
    assert char.unk_id == char.vocab_size
    assert texts(char, char.encode("lq")) == ["l", UNK_TOKEN]
    with pytest.raises(ValueError):
        tok.decode([999])


def test_attached_eow_unknown_last_symbol():
    tok = train(TEXTBOOK, TrainConfig(variant="eow", eow_style="attached", num_merges=4)).tokenizer()
    # "l" is known but "l</w>" (l at the end of a word) never occurred in training
    assert texts(tok, tok.encode("ll")) == ["l", UNK_TOKEN]
    assert texts(tok, tok.encode("lower")) == [tok.token_text(tok.vocab["lo"]), "w", "e", "r</w>"]


def test_trace_records_each_rank_and_the_segmentation_after_it():
    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10))
    tok = run.tokenizer()
    ids, traces = tok.encode_with_trace("lowest aaa")
    assert ids == tok.encode("lowest aaa")
    first = traces[0]
    assert first.text == "lowest"
    assert texts(tok, first.start) == ["l", "o", "w", "e", "s", "t", "</w>"]
    assert [s.merge_number for s in first.steps] == [1, 2, 3, 4, 5]
    assert [texts(tok, s.tokens) for s in first.steps] == [
        ["l", "o", "w", "es", "t", "</w>"],
        ["l", "o", "w", "est", "</w>"],
        ["l", "o", "w", "est</w>"],
        ["lo", "w", "est</w>"],
        ["low", "est</w>"],
    ]
    assert first.steps[0].positions == (3,)
    assert (tok.token_text(first.steps[0].left), tok.token_text(first.steps[0].right)) == ("e", "s")
    assert traces[1].steps == () and texts(tok, traces[1].ids) == [UNK_TOKEN] * 3 + ["</w>"]


def test_trace_merges_all_occurrences_left_to_right_without_overlap():
    cfg = TrainConfig(variant="byte", pretokenizer="none", num_merges=1, min_frequency=1)
    tok = train(corpus_words("aaaaa", cfg), cfg).tokenizer()
    _, (trace,) = tok.encode_with_trace("aaaaa")
    assert len(trace.steps) == 1
    assert trace.steps[0].positions == (0, 2)
    assert trace.ids == (256, 256, 97)


def _random_tokenizer(rng: random.Random, alphabet: str, n_merges: int) -> Tokenizer:
    """A byte-level tokenizer with arbitrary (not trained) merges, including ones that build the same
    string twice."""
    values = [bytes((b,)) for b in range(256)]
    vocab = {v: i for i, v in enumerate(values)}
    pool = [c.encode() for c in alphabet]
    merges = []
    for _ in range(n_merges):
        left, right = rng.choice(pool), rng.choice(pool)
        merges.append((left, right))
        if left + right not in vocab:
            vocab[left + right] = len(vocab)
            pool.append(left + right)
    return Tokenizer(Variant("byte"), "none", merges, vocab)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), n_merges=st.integers(1, 40), length=st.integers(65, 400))
def test_long_pieces_use_the_same_rule_as_short_ones(seed, n_merges, length):
    """Pieces over 64 symbols go through the O(n log n) path; it must match GPT-2's plain loop (trace)."""
    rng = random.Random(seed)
    tok = _random_tokenizer(rng, "abc", n_merges)
    piece = "".join(rng.choice("abc") for _ in range(length))
    assert list(tok.encode_piece(piece)) == list(tok.trace_piece(piece).ids)


def test_encode_is_cached_and_the_cache_is_bounded():
    tok = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10)).tokenizer()
    tok.CACHE_SIZE = 50
    for i in range(500):
        tok.encode(f"low{i}")
        assert len(tok._cache) <= 50
    assert tok.encode("lowest") == tok.encode("lowest")


def test_constructor_rejects_inconsistent_models():
    vocab = {"a": 0, "b": 1}
    with pytest.raises(ValueError, match="not in the vocabulary"):
        Tokenizer("char", "whitespace", [("a", "b")], vocab)
    with pytest.raises(ValueError, match="256 bytes"):
        Tokenizer("byte", "gpt2", [], {b"a": 0})
    with pytest.raises(ValueError, match="pre-tokenizer"):
        Tokenizer("char", "spaces", [], vocab)
    with pytest.raises(ValueError, match="both"):
        Tokenizer("char", "whitespace", [], {"a": 0, "b": 0})
    tok = Tokenizer("char", "whitespace", [("a", "b")], {"a": 0, "b": 1, "ab": 2})
    assert tok.encode("abab ba") == [2, 2, 1, 0] and tok.unk_id == 3


# ----------------------------------------------------------------------------- longest match
def test_longest_match_and_rank_disagree_on_lowest():
    """Textbook corpus, 13 merges: merge 13 made 'lowe' (from 'lower'), the longest token inside
    'lowest</w>', so the greedy longest-match encoder takes it and strands 's t </w>'; the rank encoder
    applies es, est, est</w> (ranks 1-3) before lo, low (4-5) and never reaches lowe."""
    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=13))
    assert run.token_text(run.snapshots[-1].token) == "lowe"
    tok = run.tokenizer()
    assert texts(tok, tok.encode("lowest")) == ["low", "est</w>"]
    assert texts(tok, tok.encode_longest_match("lowest")) == ["lowe", "s", "t", "</w>"]
    # on the training words themselves the two agree
    for word in TEXTBOOK:
        assert tok.encode(word) == tok.encode_longest_match(word)
    ((piece, rank_ids, lm_ids),) = tok.compare_methods("lowest")
    assert piece == "lowest" and rank_ids != lm_ids


def test_longest_match_order_is_length_then_training_frequency():
    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=5))
    tok = run.tokenizer()
    order = texts(tok, tok.longest_match_order())
    assert order[:5] == ["est</w>", "low", "est", "es", "lo"]
    # single symbols by frequency in the corpus after 5 merges: w 9, e 8, </w> 7, n 6, ...
    assert order[5:9] == ["w", "e", "</w>", "n"]


def test_longest_match_never_matches_inside_the_marker():
    # 'w' is more frequent than '</w>' here, and would match the "w" of "</w>" in a plain string search
    tok = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=5)).tokenizer()
    assert texts(tok, tok.encode_longest_match("l")) == ["l", "</w>"]


def test_longest_match_unknown_remainder_is_one_unknown_token():
    tok = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10)).tokenizer()
    assert texts(tok, tok.encode_longest_match("xyzlow")) == [UNK_TOKEN, "low</w>"]
    assert texts(tok, tok.encode("xyzlow")) == [UNK_TOKEN] * 3 + ["low</w>"]


def test_longest_match_handles_very_long_words_without_recursion():
    # The tutorial's recursion goes one level deeper per token tried: with 5,000 distinct characters,
    # ordered so that each level splits off only the first character, it would need 5,000 frames.
    chars = [chr(0x4E00 + i) for i in range(5000)]
    vocab = {c: i for i, c in enumerate(chars)}
    tok = Tokenizer("char", "none", [], vocab, frequencies={i: 5000 - i for i in range(5000)})
    word = "".join(chars)
    assert tok.encode_longest_match(word) == list(range(5000))
    # a long real word, with merges
    eow = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10)).tokenizer()
    long_word = "lowestnewer" * 5_000
    assert eow.decode(eow.encode_longest_match(long_word)) == long_word
    byte_tok = train(
        corpus_words(corpus_slice("pg16457.txt", 0, 20_000), TrainConfig()), TrainConfig(num_merges=100)
    ).tokenizer()
    long_piece = "abc" * 20_000
    assert byte_tok.decode(byte_tok.encode_longest_match(long_piece)) == long_piece


def _tutorial_tokenize(units: tuple, sorted_tokens: list, unknown) -> list:
    """The classic tutorial's recursive ``tokenize_word`` (on symbol tuples instead of regexes)."""
    if not units:
        return []
    if not sorted_tokens:
        return [unknown]
    for i, token in enumerate(sorted_tokens):
        width = len(token)
        starts = []
        p = 0
        while p + width <= len(units):
            if units[p : p + width] == token:
                starts.append(p)
                p += width
            else:
                p += 1
        if not starts:
            continue
        out = []
        pos = 0
        for s in starts:
            out += _tutorial_tokenize(units[pos:s], sorted_tokens[i + 1 :], unknown)
            out.append(token)
            pos = s + width
        out += _tutorial_tokenize(units[pos:], sorted_tokens[i + 1 :], unknown)
        return out
    return [unknown]


@settings(max_examples=120, deadline=None)
@given(
    words=st.dictionaries(st.text("abcde", min_size=1, max_size=8), st.integers(1, 6), min_size=1, max_size=8),
    probes=st.lists(st.text("abcdefz", min_size=1, max_size=14), min_size=1, max_size=6),
    kind=st.sampled_from(["char", "eow-separate", "eow-attached", "byte"]),
    merges=st.integers(0, 25),
)
def test_longest_match_equals_the_tutorial_algorithm(words, probes, kind, merges):
    variant, _, style = kind.partition("-")
    cfg = TrainConfig(variant=variant, eow_style=style or "separate", num_merges=merges, min_frequency=1)
    run = train(words, cfg)
    tok = run.tokenizer()
    v = run.variant

    def units_of(symbols):
        return tuple(symbols)

    # tokens as tuples of base symbols, via the merge history
    def symbols_of(tid):
        src = run.created_from[tid]
        return (run.values[tid],) if src is None else symbols_of(src[0]) + symbols_of(src[1])

    order = tok.longest_match_order()
    sorted_tokens = [symbols_of(t) for t in order]
    by_units = {symbols_of(t): t for t in order}
    for probe in probes:
        units = units_of(v.symbols(probe))
        expected = _tutorial_tokenize(units, sorted_tokens, "UNK")
        got = tok.longest_match_piece(probe)
        assert [tok.unk_id if e == "UNK" else by_units[e] for e in expected] == got, probe


# ---------------------------------------------------------------------------------- decoding
@pytest.mark.parametrize(
    "name, start", [("pg16457.txt", 100_000), ("hongloumeng.txt", 50_000), ("emoji-test.txt", 200_000)]
)
@pytest.mark.parametrize("pretokenizer", ["gpt2", "gpt4", "none"])
def test_byte_level_decode_inverts_encode_on_real_text(name, start, pretokenizer):
    cfg = TrainConfig(variant="byte", pretokenizer=pretokenizer, num_merges=300)
    run = train(corpus_words(corpus_slice(name, 0, 30_000), cfg), cfg)
    tok = run.tokenizer()
    held_out = corpus_slice(name, start, 20_000)
    ids = tok.encode(held_out)
    assert len(ids) < len(held_out.encode("utf-8"))
    assert tok.decode(ids) == held_out
    assert tok.decode(tok.encode_longest_match(held_out)) == held_out


def test_decode_detail_flags_partial_utf8():
    cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=2)
    tok = train(corpus_words("你好啊 你好 你好啊 你好 我 啊 走", cfg), cfg).tokenizer()
    ids = tok.encode("你")
    assert [tok.token_text(i, "hex") for i in ids] == ["e4 bd a0"]
    detail = tok.decode_detail(tok.encode("你好"))
    assert detail == [(ids[0], "你", True), (0xE5, "\\xe5", False), (0xA5, "\\xa5", False), (0xBD, "\\xbd", False)]
    tok1 = train(
        corpus_words("你好啊 你好 你好啊 你好 我 啊 走", cfg),
        TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=1),
    ).tokenizer()
    assert [c for _, _, c in tok1.decode_detail(tok1.encode("你"))] == [False, False]
    # bytes that are not UTF-8 on their own decode with the replacement character
    assert tok.decode([0xE4]) == "\ufffd"
    assert tok.token_text(0x20, "gpt2") == "Ġ"


def test_eow_decode_turns_markers_into_spaces():
    tok = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10)).tokenizer()
    assert tok.decode(tok.encode("  low   lower\nnewest ")) == "low lower newest"
    att = train(TEXTBOOK, TrainConfig(variant="eow", eow_style="attached", eow_marker="@@", num_merges=10)).tokenizer()
    assert att.decode(att.encode("lowest wider")) == "lowest wider"
    assert all(c for _, _, c in att.decode_detail(att.encode("lowest")))
    char = train(TEXTBOOK, TrainConfig(variant="char", num_merges=10)).tokenizer()
    assert char.decode(char.encode("low lower")) == "lowlower"


@settings(max_examples=150, deadline=None)
@given(
    words=st.dictionaries(st.text("abcé你 ", min_size=1, max_size=10), st.integers(1, 6), min_size=1, max_size=10),
    kind=st.sampled_from(["char", "eow-separate", "eow-attached", "byte"]),
    tie_break=st.sampled_from(["first-seen", "hf", "lexical"]),
    merges=st.integers(0, 30),
)
def test_rank_encoder_replays_any_small_training_run(words, kind, tie_break, merges):
    variant, _, style = kind.partition("-")
    cfg = TrainConfig(
        variant=variant, eow_style=style or "separate", num_merges=merges, min_frequency=1, tie_break=tie_break
    )
    run = train(words, cfg)
    for step in sorted({0, run.num_steps // 2, run.num_steps}):
        tok = Tokenizer.from_run(run, step)
        for i in range(run.num_words):
            word, _ = run.word(i)
            assert list(tok.encode_piece(word)) == run.segmentation(i, step)
            assert list(tok.trace_piece(word).ids) == run.segmentation(i, step)
