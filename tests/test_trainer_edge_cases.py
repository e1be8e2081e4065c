"""The trainer on whatever a class pastes: empty and tiny corpora, early stops, bad settings, Unicode edge
cases and 1 MB words (issue 6).

Every case either trains (stopping early and saying why) or is refused with a one-line ``ValueError``;
every finished run keeps the invariants of ``core_checks.check_run``. The "1 MB" cases run in a
subprocess with a time limit, so a regression that makes them quadratic fails quickly instead of
hanging the suite.
"""

from __future__ import annotations

import pytest
from core_checks import (
    KINDS,
    PRETOKENIZERS,
    assert_one_line_message,
    cfg_for,
    check_run,
    run_bounded,
)
from textbook import TEXTBOOK_WORDS

from bpe_core import (
    TrainConfig,
    clean_text,
    corpus_words,
    train,
)


# ----------------------------------------------------------------------------- empty and tiny
@pytest.mark.parametrize("pre", PRETOKENIZERS)
@pytest.mark.parametrize("variant", KINDS)
def test_empty_text_trains_nothing_and_queries_still_work(variant, pre):
    cfg = cfg_for(variant, pretokenizer=pre, num_merges=10)
    assert clean_text("") == ""
    words = corpus_words("", cfg)
    assert words == {}
    run = train(words, cfg)
    assert run.num_steps == 0 and run.stop_reason == "no_pairs"
    assert run.corpus_view(0) == [] and run.pair_table(0) == []
    assert run.series()["step"] == [0]
    assert len(run.vocabulary()) == (256 if variant == "byte" else 0)
    assert run.changed_words(1) == [] and run.merges() == []


@pytest.mark.parametrize("pre", PRETOKENIZERS)
@pytest.mark.parametrize("variant", KINDS)
def test_whitespace_only(variant, pre):
    text = clean_text("  \t\n\r\n \u00a0\u2003 \r ")
    cfg = cfg_for(variant, pretokenizer=pre, num_merges=10, min_frequency=1)
    words = corpus_words(text, cfg)
    if pre == "whitespace":
        assert words == {}
    run = train(words, cfg)
    check_run(run, words, cfg)


@pytest.mark.parametrize("variant", KINDS)
def test_single_character_has_no_pair(variant):
    cfg = cfg_for(variant, pretokenizer="whitespace", num_merges=10, min_frequency=1)
    words = corpus_words("a", cfg)
    run = train(words, cfg)
    if variant == "eow":  # "a" + "</w>" is a pair
        assert run.num_steps == 1 and run.stop_reason == "no_pairs"
    else:
        assert run.num_steps == 0 and run.stop_reason == "no_pairs"
    check_run(run, words, cfg)


@pytest.mark.parametrize("variant", ("char", "byte"))
def test_no_pair_left_to_merge_stops_and_says_why(variant):
    cfg = cfg_for(variant, pretokenizer="whitespace", num_merges=50, min_frequency=1)
    words = corpus_words("abc abc", cfg)
    run = train(words, cfg)
    assert run.num_steps == 2 and run.stop_reason == "no_pairs"
    assert run.snapshots[-1].stop_reason == "no_pairs"
    check_run(run, words, cfg)


@pytest.mark.parametrize("variant", KINDS)
def test_min_frequency_above_every_count(variant):
    cfg = cfg_for(variant, pretokenizer="whitespace", num_merges=10, min_frequency=1000)
    run = train(TEXTBOOK_WORDS, cfg)
    assert run.num_steps == 0 and run.stop_reason == "min_frequency"
    check_run(run, TEXTBOOK_WORDS, cfg)


@pytest.mark.parametrize("variant", KINDS)
def test_more_merges_than_possible_stop_early(variant):
    cfg = cfg_for(variant, pretokenizer="whitespace", num_merges=100_000, min_frequency=1)
    run = train(TEXTBOOK_WORDS, cfg)
    assert 0 < run.num_steps < 100 and run.stop_reason == "no_pairs"
    check_run(run, TEXTBOOK_WORDS, cfg, steps=range(run.num_steps + 1))
    # ... and with the default minimum frequency 2, when only pairs seen once are left.
    words = dict(TEXTBOOK_WORDS, zq=1)
    cfg2 = cfg_for(variant, pretokenizer="whitespace", num_merges=100_000)
    run2 = train(words, cfg2)
    assert run2.stop_reason == "min_frequency" and run2.snapshots[-1].stop_reason == "min_frequency"
    check_run(run2, words, cfg2)


def test_vocab_size_smaller_than_the_alphabet_stops_at_once():
    cfg = cfg_for("byte", vocab_size=10)
    run = train({"abc": 3}, cfg)
    assert run.num_steps == 0 and run.stop_reason == "vocab_size"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_merges": -1},
        {"vocab_size": 0},
        {"min_frequency": 0},
        {"variant": "bpe"},
        {"pretokenizer": "spaces"},
        {"tie_break": "random"},
        {"variant": "eow", "eow_marker": ""},
        {"variant": "eow", "eow_marker": "a b"},
        {"variant": "eow", "eow_style": "glued"},
    ],
)
def test_bad_settings_are_value_errors_with_a_message(kwargs):
    with pytest.raises(ValueError) as info:
        train(TEXTBOOK_WORDS, TrainConfig(**kwargs))
    assert_one_line_message(info.value)


def test_lone_surrogate_reaching_the_trainer_is_a_value_error():
    # The app and the CLI call clean_text first; a caller that does not still gets a ValueError.
    for variant in KINDS:
        cfg = cfg_for(variant, num_merges=5, min_frequency=1)
        try:
            words = corpus_words("ab\ud800ab\ud800", cfg)
            run = train(words, cfg)
        except ValueError as err:
            assert str(err)
        else:
            check_run(run, words, cfg)


UNICODE_CASES = {
    "rtl": "שלום שלום עולם مرحبا مرحبا بالعالم",
    "bidi-marks": "abc\u200fdef \u202eevil\u202c \u2066iso\u2069 \u200e\u200f\u061c x\u202dy\u202a",
    "combining": "e\u0301 e\u0301te\u0301 Z\u0351\u0362\u036b\u0350a\u0310\u0334 n\u0303 n\u0303",
    "zwj-emoji": "👨\u200d👩\u200d👧 👨\u200d👩\u200d👧 🏳️\u200d🌈 🧑🏽\u200d💻",
    "flags": "🇨🇳🇺🇸🇯🇵 🇨🇳 🇺🇸🇺🇸",
    "skin-tones": "👍🏻 👍🏽 👍🏿 👍🏽👍🏽",
    "variation-selectors": "☀️ ❤️ ☀ ❤ ☀️❤️",
    "cjk": "你好啊 你好 你好啊 你好 我 啊 走",
    "astral-and-nonchars": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0010ffff \ufffe \uffff \U000e0041",
}


@pytest.mark.parametrize("name", sorted(UNICODE_CASES))
@pytest.mark.parametrize("variant", KINDS)
def test_unicode_edge_cases_train_and_round_trip(name, variant):
    text = clean_text(UNICODE_CASES[name])
    for pre in PRETOKENIZERS:
        cfg = cfg_for(variant, pretokenizer=pre, num_merges=30, min_frequency=1)
        words = corpus_words(text, cfg)
        run = train(words, cfg)
        check_run(run, words, cfg, steps=range(run.num_steps + 1))
        for tid in range(run.vocab_size):  # every token can be shown in every byte mode
            for mode in ("utf8", "hex", "escaped", "gpt2"):
                assert isinstance(run.token_text(tid, mode), str)


def test_combining_mark_is_its_own_character_symbol():
    cfg = cfg_for("char", num_merges=1, min_frequency=2)
    run = train(corpus_words("e\u0301 e\u0301 e\u0301x", cfg), cfg)
    assert run.token_value(run.snapshots[0].token) == "e\u0301"


# ---------------------------------------------------------------------------------- 1 MB inputs
_BIG = """
import random, time
from bpe_core import TrainConfig, corpus_words, train
text = {text}
variant = {variant!r}
t = time.perf_counter()
cfg = TrainConfig(variant=variant, num_merges=40, min_frequency=1)
words = corpus_words(text, cfg)
run = train(words, cfg)
n = run.num_steps
for step in (0, 1, n // 2, n):
    ids = run.segmentation(0, step)
    values = [run.token_value(i) for i in ids]
    got = b"".join(values) if variant == "byte" else "".join(values)
    want = text.encode() if variant == "byte" else text + ("</w>" if variant == "eow" else "")
    assert got == want, (variant, step)
run.corpus_view(n)
run.pair_table(n, limit=10)
run.changed_words(n, limit=5)
print(n, run.stop_reason, [s.count for s in run.snapshots[:5]], round(time.perf_counter() - t, 2))
"""
#: A hang guard, not a speed target (5-10 s on a busy 2-core machine; benchmarks/train_speed.py times
#: training): a trainer quadratic in the word's length would not end at all on 1 MB.
BIG_TIMEOUT = 300


@pytest.mark.parametrize("variant", KINDS)
def test_one_megabyte_single_word_in_bounded_time(variant):
    text = "''.join(random.Random(0).choices('abcdefghij', k=1_000_000))"
    out = run_bounded(_BIG.format(text=text, variant=variant), timeout=BIG_TIMEOUT)
    assert out.split()[:2] == ["40", "num_merges"], out


@pytest.mark.parametrize("variant", KINDS)
def test_one_megabyte_of_one_character_in_bounded_time(variant):
    # Overlapping pairs: (a, a) occurs 999,999 times in a^1000000; after the merge, (aa, aa)
    # occurs 499,999 times, and so on: training needs about 20 merges, each halving the word.
    out = run_bounded(_BIG.format(text="'a' * 1_000_000", variant=variant), timeout=BIG_TIMEOUT)
    n, reason, counts = out.split(" ", 2)
    assert reason == "no_pairs" and 19 <= int(n) < 40, out
    assert counts.startswith("[999999, 499999, 249999, 124999, 62499]"), out
