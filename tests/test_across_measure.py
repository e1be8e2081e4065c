"""bpe_core.across_measure: the held-out split, the prefix rule that reads every vocabulary size off one run, and the
curve on real text (issue 44's bytes-per-token measure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.across_measure import bpe_curve, compression_curves, split_held_out

BOOK = (Path(__file__).resolve().parent.parent / "presets" / "pg16457.txt").read_text(encoding="utf-8")
CHAPTER = BOOK[:60_000]


def test_the_held_out_part_is_the_last_whole_lines_with_at_least_the_share_of_bytes():
    text = "".join(f"line {i} é\n" for i in range(40))
    train_part, held = split_held_out(text, 0.1)
    assert train_part + held == text
    assert held.startswith("line 3") and held.endswith("\n")
    assert len(held.encode()) >= 0.1 * len(text.encode()) > len(held.encode()) - len("line 36 é\n".encode())


def test_a_one_line_text_is_cut_inside_the_line_and_a_tiny_one_is_refused():
    train_part, held = split_held_out("abcdefghij" * 10, 0.1)
    assert (len(train_part), len(held)) == (90, 10)
    with pytest.raises(ValueError, match="too short"):
        split_held_out("a\n\n", 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_held_out("abc", 1.0)


def test_each_size_read_off_one_run_equals_a_run_stopped_there():
    train_part, held = split_held_out(CHAPTER)
    config = TrainConfig(variant="byte", pretokenizer="gpt2")
    points = bpe_curve(train_part, held, [300, 420], config)
    for point in points:
        own = train(corpus_words(train_part, config), TrainConfig(variant="byte", num_merges=point.vocab_size - 256))
        assert len(own.tokenizer().encode(held)) == point.tokens
    assert [p.vocab_size for p in points] == [300, 420]


def test_bytes_per_token_grow_with_the_vocabulary_on_the_book():
    points = compression_curves(BOOK[:150_000], [512, 1024], TrainConfig(variant="byte"), methods=["bpe"])
    assert [p.vocab_size for p in points] == [512, 1024]
    assert 1.5 < points[0].bytes_per_token < points[1].bytes_per_token < 4.5


def test_bad_sizes_and_methods_are_refused():
    with pytest.raises(ValueError, match="above 256"):
        compression_curves(BOOK[:5000], [256], TrainConfig(variant="byte"))
    with pytest.raises(ValueError, match="unknown method"):
        compression_curves(BOOK[:5000], [300], TrainConfig(variant="byte"), methods=["wordpiece"])


def test_a_superbpe_point_is_the_superbpe_model_trained_at_that_size():
    from bpe_core.algorithms.superbpe import tokenizer, train_superbpe

    train_part, held = split_held_out(CHAPTER)
    (point,) = compression_curves(CHAPTER, [400], TrainConfig(variant="byte"), methods=["superbpe"])
    run = train_superbpe(train_part, TrainConfig(variant="byte", num_merges=144, transition=129))
    assert run.extras["transition"] == 129
    assert (point.vocab_size, point.tokens) == (400, len(tokenizer(run).encode(held)))


def test_on_the_book_both_merges_across_words_beat_plain_bpe_at_the_same_size():
    points = compression_curves(BOOK[:150_000], [1024], TrainConfig(variant="byte"))
    by = {p.method: p for p in points}
    assert list(by) == ["bpe", "superbpe", "boundless"]
    assert {p.vocab_size for p in points} == {1024}
    assert by["superbpe"].bytes_per_token > by["bpe"].bytes_per_token
    assert by["boundless"].bytes_per_token > by["bpe"].bytes_per_token
