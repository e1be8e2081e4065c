"""Known answers: the textbook examples, exactly, and the edge cases of the trainer.

Every expected value here is written out by hand (worked through in the comments), and each run is
also checked against the slow reference trainer in ``bpe_core/algorithms/reference.py`` (through ``tests/reference_bpe.py``).
"""

from __future__ import annotations

import pytest
from core_checks import VARIANTS
from corpus_excerpts import CHINESE, read_corpus
from reference_bpe import assert_matches_reference
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig, Trainer, corpus_words, train


def values(run, ids):
    return [run.token_value(i) for i in ids]


def merged_values(run):
    return [run.token_value(s.token) for s in run.snapshots]


# ------------------------------------------------------------------------------------ textbook


def test_low_lower_newest_widest_eow_separate():
    # Sennrich et al. / the classic tutorial: l o w </w> x5, l o w e r </w> x2, n e w e s t </w> x6,
    # w i d e s t </w> x3. Counts: (e,s)=(s,t)=(t,</w>)=9 (three-way tie, (e,s) seen first),
    # then (es,t)=9, (est,</w>)=9, then (l,o)=(o,w)=7.
    words = TEXTBOOK_WORDS
    cfg = TrainConfig(variant="eow", eow_style="separate", num_merges=5)
    run = train(words, cfg)
    assert merged_values(run) == ["es", "est", "est</w>", "lo", "low"]
    assert [s.count for s in run.snapshots] == [9, 9, 9, 7, 7]
    assert [(run.token_value(s.left), run.token_value(s.right)) for s in run.snapshots] == [
        ("e", "s"),
        ("es", "t"),
        ("est", "</w>"),
        ("l", "o"),
        ("lo", "w"),
    ]
    first = run.snapshots[0]
    assert first.ties == 3
    assert [(run.token_value(a), run.token_value(b)) for a, b in first.tied] == [("e", "s"), ("s", "t"), ("t", "</w>")]
    assert run.stop_reason == "num_merges"
    assert values(run, run.segmentation(run.find_word("newest"), 5)) == ["n", "e", "w", "est</w>"]
    assert values(run, run.segmentation(run.find_word("lower"), 5)) == ["low", "e", "r", "</w>"]
    assert_matches_reference(words, cfg, run)


def test_low_lowest_newer_wilder_new_marker_underscore():
    # Jurafsky & Martin's example with "_" as the end-of-word symbol (separate):
    # (e,r)=(r,_)=9 -> er, er_ ; (n,e)=(e,w)=8 -> ne, new ; (l,o)=(o,w)=7 -> lo, low ;
    # (new,er_)=6 -> newer_ ; (low,_)=5 -> low_.
    words = {"low": 5, "lowest": 2, "newer": 6, "wilder": 3, "new": 2}
    cfg = TrainConfig(variant="eow", eow_style="separate", eow_marker="_", num_merges=8)
    run = train(words, cfg)
    assert merged_values(run) == ["er", "er_", "ne", "new", "lo", "low", "newer_", "low_"]
    assert [s.count for s in run.snapshots] == [9, 9, 8, 8, 7, 7, 6, 5]
    assert values(run, run.segmentation(run.find_word("newer"), 8)) == ["newer_"]
    assert values(run, run.segmentation(run.find_word("wilder"), 8)) == ["w", "i", "l", "d", "er_"]
    assert_matches_reference(words, cfg, run)


def aaabdaaabac_run():
    cfg = TrainConfig(variant="byte", pretokenizer="none", num_merges=3, min_frequency=1)
    words = corpus_words("aaabdaaabac", cfg)
    assert words == {"aaabdaaabac": 1}
    return words, cfg, train(words, cfg)


def test_aaabdaaabac_byte_level():
    # a a a b d a a a b a c: (a,a) counts 4 (overlapping windows) -> aa=256, applied left to right:
    # aa a b d aa a b a c ; (aa,a)=(a,b)=2, (aa,a) seen first -> aaa=257 ; aaa b d aaa b a c ;
    # (aaa,b)=2 -> aaab=258 ; aaab d aaab a c.
    words, cfg, run = aaabdaaabac_run()
    assert [(s.left, s.right, s.token) for s in run.snapshots] == [(97, 97, 256), (256, 97, 257), (257, 98, 258)]
    assert merged_values(run) == [b"aa", b"aaa", b"aaab"]
    assert [s.count for s in run.snapshots] == [4, 2, 2]
    assert [s.ties for s in run.snapshots] == [1, 2, 1]
    assert run.segmentation(0, 0) == [97, 97, 97, 98, 100, 97, 97, 97, 98, 97, 99]
    assert run.segmentation(0, 1) == [256, 97, 98, 100, 256, 97, 98, 97, 99]
    assert run.segmentation(0, 2) == [257, 98, 100, 257, 98, 97, 99]
    assert run.segmentation(0, 3) == [258, 100, 258, 97, 99]
    assert [run.corpus_tokens(k) for k in range(4)] == [11, 9, 7, 5]
    assert run.stop_reason == "num_merges"
    assert_matches_reference(words, cfg, run)


def test_aaabdaaabac_encodes_end_to_end():
    # Needs bpe_core.encoding.encoder (being written alongside this test).
    words, cfg, run = aaabdaaabac_run()
    tok = run.tokenizer()
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert tok.decode([258, 100, 258, 97, 99]) == "aaabdaaabac"


def test_nihao_byte_level_whitespace():
    # 你 = e4 bd a0, 好 = e5 a5 bd, 啊 = e5 95 8a. (e4,bd), (bd,a0), (a0,e5), (e5,a5), (a5,bd) all
    # count 4; first seen: (e4,bd). Then (e4bd,a0)=4, then (e4bda0,e5)=4 ties (e5,a5)=4, seen first.
    text = "你好啊 你好 你好啊 你好 我 啊 走"
    cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=3)
    words = corpus_words(text, cfg)
    assert words == {"你好啊": 2, "你好": 2, "我": 1, "啊": 1, "走": 1}
    run = train(words, cfg)
    assert [(run.token_value(s.left), run.token_value(s.right)) for s in run.snapshots] == [
        (b"\xe4", b"\xbd"),
        (b"\xe4\xbd", b"\xa0"),
        (b"\xe4\xbd\xa0", b"\xe5"),
    ]
    assert [s.count for s in run.snapshots] == [4, 4, 4]
    assert [run.token_hex(s.token) for s in run.snapshots] == ["e4bd", "e4bda0", "e4bda0e5"]
    assert run.is_partial(run.snapshots[0].token) and not run.is_partial(run.snapshots[1].token)
    assert_matches_reference(words, cfg, run)


# ---------------------------------------------------------------------------------- edge cases


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_empty_corpus(variant, style):
    cfg = TrainConfig(variant=variant, eow_style=style, min_frequency=1)
    assert corpus_words("", cfg) == {}
    assert corpus_words(" \r\n\t ", TrainConfig(variant=variant, pretokenizer="whitespace")) == {}
    trainer = Trainer({}, cfg)
    assert list(trainer.steps()) == []
    run = trainer.run
    assert run.stop_reason == "no_pairs"
    assert run.num_steps == 0 and run.num_words == 0
    size = 256 if variant == "byte" else 0
    assert run.vocab_size_at(0) == len(run.vocabulary()) == size
    assert run.corpus_tokens(0) == 0
    assert run.pair_table(0) == []
    assert run.corpus_view(0) == []
    assert run.series() == {"step": [0], "vocab_size": [size], "corpus_tokens": [0], "count": [0]}
    assert_matches_reference({}, cfg)


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_one_word_of_one_char(variant, style):
    words = {"a": 1}
    run = train(words, TrainConfig(variant=variant, eow_style=style))
    if variant == "eow" and style == "separate":
        # a </w>: one pair, count 1, below the default minimum frequency 2.
        assert run.stop_reason == "min_frequency"
        assert run.vocab_size_at(0) == 2
    else:
        assert run.stop_reason == "no_pairs"
        assert run.vocab_size_at(0) == (256 if variant == "byte" else 1)
    assert run.num_steps == 0
    expected = {
        ("char", "separate"): ["a"],
        ("eow", "separate"): ["a", "</w>"],
        ("eow", "attached"): ["a</w>"],
        ("byte", "separate"): [b"a"],
    }[(variant, style)]
    assert [run.token_value(t) for t in run.segmentation(0, 0)] == expected
    for tb in ("first-seen", "hf", "lexical"):
        assert_matches_reference(words, TrainConfig(variant=variant, eow_style=style, tie_break=tb, min_frequency=1))


def test_one_char_eow_separate_with_min_frequency_one():
    words = {"a": 1}
    cfg = TrainConfig(variant="eow", min_frequency=1)
    run = assert_matches_reference(words, cfg)
    assert merged_values(run) == ["a</w>"]
    assert run.stop_reason == "no_pairs"
    assert run.snapshots[-1].stop_reason == "no_pairs"


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_min_frequency_above_every_count(variant, style):
    words = TEXTBOOK_WORDS
    cfg = TrainConfig(variant=variant, eow_style=style, min_frequency=10)
    trainer = Trainer(words, cfg)
    assert list(trainer.steps()) == []
    assert trainer.run.stop_reason == "min_frequency"
    assert trainer.run.snapshots == []
    # 9 is the highest count in this corpus (es / st in char, byte and eow); 9 merges it.
    run = train(words, TrainConfig(variant=variant, eow_style=style, min_frequency=9))
    assert run.num_steps >= 1 and all(s.count >= 9 for s in run.snapshots)
    assert run.stop_reason == "min_frequency"
    assert_matches_reference(words, cfg)


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_num_merges_zero(variant, style):
    words = {"low": 5, "lower": 2}
    cfg = TrainConfig(variant=variant, eow_style=style, num_merges=0)
    trainer = Trainer(words, cfg)
    assert list(trainer.steps()) == []
    assert trainer.run.stop_reason == "num_merges"
    assert trainer.run.num_steps == 0
    assert_matches_reference(words, cfg)


def test_vocab_size_smaller_than_base_alphabet():
    words = {"low": 5, "lower": 2, "newest": 6}
    run = train(words, TrainConfig(variant="byte", vocab_size=100))
    assert run.num_steps == 0 and run.stop_reason == "vocab_size" and run.vocab_size_at(0) == 256
    run = train(words, TrainConfig(variant="char", vocab_size=3))
    assert run.num_steps == 0 and run.stop_reason == "vocab_size" and run.vocab_size_at(0) == 8
    # Exactly the base alphabet: also stops before the first merge.
    run = train(words, TrainConfig(variant="char", vocab_size=8))
    assert run.num_steps == 0 and run.stop_reason == "vocab_size"
    run = train(words, TrainConfig(variant="char", vocab_size=10))
    assert run.num_steps == 2 and run.stop_reason == "vocab_size" and run.vocab_size_at(2) == 10
    for cfg in (
        TrainConfig(variant="byte", vocab_size=100),
        TrainConfig(variant="char", vocab_size=3),
        TrainConfig(variant="eow", vocab_size=12),
        TrainConfig(variant="byte", vocab_size=260),
    ):
        assert_matches_reference(words, cfg)


def test_same_string_twice_is_one_token_and_does_not_grow_the_vocabulary():
    # eow separate, the word "</w>": < / w > </w>. Merging < /, </ w, </w > builds the string "</w>",
    # which is the marker's own value: one token (rule 4), so that merge adds no entry.
    words = {"</w>": 3}
    cfg = TrainConfig(variant="eow", min_frequency=1)
    run = assert_matches_reference(words, cfg)
    marker = next(e.id for e in run.vocabulary() if e.value == "</w>")
    assert [(run.token_value(s.left), run.token_value(s.right)) for s in run.snapshots] == [
        ("<", "/"),
        ("</", "w"),
        ("</w", ">"),
        ("</w>", "</w>"),
    ]
    assert [s.is_new for s in run.snapshots] == [True, True, False, True]
    assert run.snapshots[2].token == marker
    assert [s.vocab_size for s in run.snapshots] == [6, 7, 7, 8]
    assert run.series()["vocab_size"] == [5, 6, 7, 7, 8]
    assert run.segmentation(0, 3) == [marker, marker]
    values = [e.value for e in run.vocabulary()]
    assert len(set(values)) == len(values) == 8
    assert len(run.vocabulary(3)) == run.vocab_size_at(3) == 7
    # vocab_size counts tokens, not merges: 8 tokens need 4 merges here.
    capped = TrainConfig(variant="eow", min_frequency=1, vocab_size=8)
    run = assert_matches_reference(words, capped)
    assert run.num_steps == 4 and run.stop_reason == "vocab_size"
    capped = TrainConfig(variant="eow", min_frequency=1, vocab_size=7)
    run = assert_matches_reference(words, capped)
    assert run.num_steps == 2 and run.stop_reason == "vocab_size"


@pytest.mark.parametrize("tie_break", ["first-seen", "hf", "lexical"])
def test_rebuilt_token_next_to_itself(tie_break):
    # "</w></w>" with the separate marker: < / w > < / w > </w>. Merging < /, then </ w, then </w >
    # rebuilds the marker's string "</w>" (rule 4) twice in one word. At the second occurrence of that
    # merge, the left neighbour is the token the first occurrence just made, so the pair (</w>, </w)
    # is gained and lost within one merge; the counts must still match the reference.
    words = {"</w></w>": 2, "</w></w></w>": 1, "x</w>": 1}
    run = assert_matches_reference(words, TrainConfig(variant="eow", min_frequency=1, tie_break=tie_break))
    assert not all(s.is_new for s in run.snapshots)


@pytest.mark.parametrize("tie_break", ["first-seen", "hf", "lexical"])
def test_merge_whose_left_neighbour_it_just_made(tie_break):
    # a b a b: merging (a, b) makes ab at 0, then the occurrence at 2 has ab on its left, so (ab, a),
    # gained by the first occurrence a moment before, is lost again: ab ab, with (ab, ab) counted once.
    words = {"abab": 3, "ababab": 2, "cabab": 1}
    run = assert_matches_reference(words, TrainConfig(variant="char", min_frequency=1, tie_break=tie_break))
    first = run.snapshots[0]
    assert values(run, [first.token]) == ["ab"] and first.count == 3 * 2 + 2 * 3 + 2
    assert values(run, run.segmentation(0, 1)) == ["ab", "ab"]
    assert run.pair_table(1)[0] == (first.token, first.token, 3 + 2 * 2 + 1)


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_more_merges_than_possible(variant, style):
    words = {"abc": 2, "bcd": 1}
    cfg = TrainConfig(variant=variant, eow_style=style, num_merges=1000, min_frequency=1)
    run = assert_matches_reference(words, cfg)
    assert run.stop_reason == "no_pairs"
    assert run.snapshots[-1].stop_reason == "no_pairs"
    assert all(s.stop_reason is None for s in run.snapshots[:-1])
    # Every word is one token at the end.
    assert all(len(run.segmentation(i, run.num_steps)) == 1 for i in range(run.num_words))


def a_run_expected(n: int) -> list[tuple[int, int, int]]:
    """(left length, right length, count) of every merge on one word of n 'a's (min frequency 2),
    worked out with run lengths: the segmentation is always big tokens first, then smaller ones."""
    # Segmentation as a list of (token length, how many in a row), longest first.
    seg = [(1, n)]
    out = []
    while True:
        counts = {}
        for i, (length, k) in enumerate(seg):
            if k > 1:
                counts[(length, length)] = counts.get((length, length), 0) + k - 1
            if i + 1 < len(seg):
                key = (length, seg[i + 1][0])
                counts[key] = counts.get(key, 0) + 1
        if not counts or max(counts.values()) < 2:
            return out
        best = max(counts.values())
        (left, right) = next(p for p, c in counts.items() if c == best)  # first seen (left to right)
        assert left == right  # with counts >= 2 only (x, x) pairs can win here
        out.append((left, right, best))
        new = []
        for length, k in seg:
            if length == left:
                if k // 2:
                    new.append((2 * length, k // 2))
                if k % 2:
                    new.append((length, 1))
            else:
                new.append((length, k))
        seg = []
        for length, k in new:  # neighbouring runs of one length are one run
            if seg and seg[-1][0] == length:
                seg[-1] = (length, seg[-1][1] + k)
            else:
                seg.append((length, k))


@pytest.mark.parametrize("variant", ["char", "byte"])
def test_100kb_of_one_repeated_character(variant):
    n = 100_000
    text = "a" * n
    cfg = TrainConfig(variant=variant)
    words = corpus_words(text, cfg)
    assert words == {text: 1}
    run = train(words, cfg)  # seconds: benchmarks/big_inputs.py
    # a+a counts n-1 (overlapping windows), then aa+aa counts n/2-1, aaaa+aaaa n/4-1, ...
    got = [(len(run.token_value(s.left)), len(run.token_value(s.right)), s.count) for s in run.snapshots]
    assert got[:5] == [(1, 1, 99_999), (2, 2, 49_999), (4, 4, 24_999), (8, 8, 12_499), (16, 16, 6_249)]
    assert got == a_run_expected(n)
    assert merged_values(run)[:3] == (["aa", "aaaa", "a" * 8] if variant == "char" else [b"aa", b"aaaa", b"a" * 8])
    assert run.stop_reason == "min_frequency"
    # The final segmentation follows the binary digits of n (largest tokens first).
    final = [len(run.token_value(t)) for t in run.segmentation(0, run.num_steps)]
    assert sum(final) == n and final == sorted(final, reverse=True)
    assert run.corpus_tokens(run.num_steps) == len(final)


def chinese_without_spaces(size: int) -> str:
    text = "".join(read_corpus(CHINESE)[3000:].split())
    data = text.encode("utf-8")[:size]
    return data.decode("utf-8", errors="ignore")


@pytest.mark.parametrize("variant", ["char", "byte"])
def test_100kb_single_chinese_word(variant):
    text = chinese_without_spaces(100_000)
    assert len(text.encode("utf-8")) > 99_990 and not any(c.isspace() for c in text)
    cfg = TrainConfig(variant=variant, pretokenizer="none", num_merges=200)
    words = corpus_words(text, cfg)
    assert words == {text: 1}
    run = train(words, cfg)  # seconds: benchmarks/big_inputs.py
    assert run.num_steps == 200 and run.stop_reason == "num_merges"
    joined = run.variant.empty().join(run.token_value(t) for t in run.segmentation(0, 200))
    assert joined == (text if variant == "char" else text.encode("utf-8"))
    # The first merges agree with the reference (recounting 100 KB per step is slow: 25 steps).
    short = TrainConfig(variant=variant, pretokenizer="none", num_merges=25)
    assert_matches_reference(words, short)
