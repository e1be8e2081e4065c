"""bpe_core.algorithms.tiebreak: the one definition of the tie-break rules, and the trainer's inline copy of it."""

from __future__ import annotations

import pytest
from corpus_excerpts import named_excerpt

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.algorithms.tiebreak import TIE_BREAKS, TieKey, base_alphabet, hf_base_ranks, rev_key
from bpe_core.byte_display import bytes_to_unicode
from bpe_core.variants import Variant

VARIANTS = [("char", "separate"), ("eow", "separate"), ("eow", "attached"), ("byte", "separate")]


def test_rev_key_sorts_descending_with_longer_strings_first():
    values = ["ab", "abc", "b", "a", "", "ba", "é", "你"]
    assert sorted(values, key=rev_key) == sorted(values, reverse=True)
    raw = [b"ab", b"abc", b"\xff", b"\x00", b"", b"a"]
    assert sorted(raw, key=rev_key) == sorted(raw, reverse=True)


def test_lexical_key_is_subword_nmt_largest_pair_first():
    base = ["a", "b", "c", "ab"]
    key = TieKey("lexical", base[:3])
    key.add("ab")
    pairs = [(i, j) for i in range(4) for j in range(4)]
    got = sorted(pairs, key=lambda p: key(*p))
    assert [(base[i], base[j]) for i, j in got] == sorted(((base[i], base[j]) for i, j in pairs), reverse=True)


def test_hf_key_bytes_follow_the_gpt2_alias_then_creation_order():
    alias = bytes_to_unicode()
    ranks = hf_base_ranks()
    assert sorted(range(256), key=ranks.__getitem__) == sorted(range(256), key=lambda b: alias[b])
    key = TieKey("hf", base_alphabet([], Variant("byte")))
    key.add(b"ab")  # id 256, ranked after every byte
    assert all(key(ord("a"), 256) > key(ord("a"), b) for b in range(256))
    assert key(256, 0) > max(key(b, c) for b in range(256) for c in (0, 255))
    # '!' (0x21) is the smallest alias; the space byte's alias 'Ġ' (U+0120) comes after the printable ASCII.
    assert key(0x21, 0x21) == 0 and key(0x20, 0x21) > key(0x7E, 0x21)


def test_hf_ids_put_end_of_word_symbols_after_the_characters():
    separate = Variant("eow", "separate")
    assert base_alphabet(separate.symbols("ba") + separate.symbols("a"), separate) == ["a", "b", "</w>"]
    attached = Variant("eow", "attached")
    syms = attached.symbols("ab") + attached.symbols("zb") + attached.symbols("ba")
    assert base_alphabet(syms, attached) == ["a", "b", "z", "a</w>", "b</w>"]
    # A one-character marker equal to a letter: the plain letter stays a plain symbol.
    w_marker = Variant("eow", "attached", "w")
    assert base_alphabet(w_marker.symbols("wa"), w_marker) == ["w", "aw"]
    key = TieKey("hf", ["a", "b", "z", "a</w>", "b</w>"])
    assert key(0, 1) < key(0, 3) < key(1, 0) < key(3, 0)


def test_first_seen_key_is_the_position_and_unknown_rules_are_refused():
    key = TieKey("first-seen", ["a", "b"])
    assert key(1, 0, 7) == 7 and key(0, 1, 3) < key(1, 1, 4)
    assert TIE_BREAKS == ("first-seen", "hf", "lexical")
    with pytest.raises(ValueError, match="unknown tie-break"):
        TieKey("random", ["a"])


def first_positions(run, step: int) -> dict:
    """Each pair's first position after ``step`` merges as the trainer numbers it: the flat index of
    the pair's left token's first base symbol (word types in order, symbols left to right)."""
    firsts: dict = {}
    pos = 0
    for i in range(run.num_words):
        seg = run.segmentation(i, step)
        for a, b in zip(seg, seg[1:]):
            firsts.setdefault((a, b), pos)
            pos += run.symbol_length(a)
        pos += run.symbol_length(seg[-1]) if seg else 0
    return firsts


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
def test_the_trainers_inline_keys_agree_with_tiekey(variant, style, tie_break):
    # The trainer computes first-seen keys from its own position lists and hf keys from packed ids; every
    # key it stored in a snapshot must be the key TieKey gives that pair at that step.
    text = named_excerpt("english", 2_000) + named_excerpt("chinese", 600) + named_excerpt("emoji", 600)
    cfg = TrainConfig(variant=variant, eow_style=style, tie_break=tie_break, min_frequency=1, num_merges=120)
    run = train(corpus_words(text, cfg), cfg)
    assert run.num_steps == 120
    key = run.tie_key()
    checked = 0
    for snap in run.snapshots:
        firsts = first_positions(run, snap.step - 1) if tie_break == "first-seen" else {}
        for _count, stored, packed in snap.top_entries + snap.tied_entries:
            left, right = packed >> 32, packed & 0xFFFFFFFF
            assert stored == key(left, right, firsts.get((left, right), 0)), (snap.step, left, right)
            checked += 1
        entries = list(snap.top_entries)
        assert entries == sorted(entries)
    assert checked > 120 * 5


@pytest.mark.parametrize("rule", ["hf", "lexical"])
@pytest.mark.parametrize("base", [["a", "b", "c</w>"], [bytes((b,)) for b in range(256)]])
def test_packed_key_is_the_same_key_and_follows_new_tokens(rule, base):
    key = TieKey(rule, base)
    packed = key.packed(32)
    key.add(base[0] + base[1])
    ids = [0, 1, 2, len(base) - 1, len(base)]
    for left in ids:
        for right in ids:
            assert packed(left << 32 | right) == key(left, right)
    with pytest.raises(ValueError):
        TieKey("first-seen", base).packed(32)
