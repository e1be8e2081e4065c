"""bpe_core.teaching.explain: merge and stop explanations as values and as sentences, without Streamlit."""

from __future__ import annotations

import gettext
import importlib
import re

from bpe_core import RULES, TIE_BREAKS, TrainConfig, train
from bpe_core.teaching.explain import (
    TIE_RULES,
    merge_explanation,
    merge_text,
    stop_explanation,
    stop_reason_at,
    stop_text,
    word_ref,
)

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def textbook(**kw):
    cfg = dict(variant="eow", pretokenizer="whitespace", num_merges=10)
    cfg.update(kw)
    return train(dict(TEXTBOOK), TrainConfig(**cfg))


def label_of(run):
    return lambda t: run.token_value(t)


def test_step_one_of_the_textbook_as_a_value():
    run = textbook()
    ex = merge_explanation(run, 1)
    assert [run.token_value(t) for t in (ex.left, ex.right, ex.token)] == ["e", "s", "es"]
    assert ex.count == 9
    assert [(s.word, s.total, s.windows, s.freq) for s in ex.shares] == [("newest", 6, 1, 6), ("widest", 3, 1, 3)]
    assert (ex.rest_words, ex.rest_total) == (0, 0)
    assert ex.ties == 3 and ex.tie_break == "first-seen"
    assert [(run.token_value(a), run.token_value(b)) for a, b in ex.also_tied] == [("s", "t"), ("t", "</w>")]
    assert ex.more_tied == 0 and ex.is_new and ex.made_at == 1 and not ex.overlapping


def test_merge_text_in_english():
    run = textbook()
    assert merge_text(merge_explanation(run, 1), label_of(run)) == (
        "e + s occurs 9 times: 6 in newest, 3 in widest. 3 pairs were tied at 9 and the first-seen rule "
        "chose e + s (its first occurrence comes earliest in the corpus); also tied: s + t, t + </w>."
    )
    assert merge_text(merge_explanation(run, 9), label_of(run)) == (
        "low + </w> occurs 5 times: all in low. No other pair occurs 5 times."
    )


def test_words_beyond_max_words_are_summed_and_repeats_are_multiplied():
    run = train({"abab": 3, "ab": 1, "xab": 1, "yab": 1}, TrainConfig(variant="char", num_merges=1, min_frequency=1))
    ex = merge_explanation(run, 1, max_words=1)
    assert [(s.word, s.total, s.windows, s.freq) for s in ex.shares] == [("abab", 6, 2, 3)]
    assert (ex.rest_words, ex.rest_total) == (3, 3)
    text = merge_text(ex, label_of(run))
    assert text.startswith("a + b occurs 9 times: 6 in abab (2 × 3), 3 in 3 other words.")


def test_overlap_and_single_word_count():
    run = train({"aaaa": 1}, TrainConfig(variant="char", min_frequency=1))
    ex = merge_explanation(run, 1)
    assert ex.overlapping and ex.count == 3
    text = merge_text(ex, label_of(run))
    assert "Overlapping windows all count" in text and "(3 × 1)" not in text
    assert text.startswith("a + a occurs 3 times: all in aaaa.")


def test_a_merge_that_makes_an_existing_token():
    # ab + c and a + bc both make "abc": the second merge does not grow the vocabulary.
    words = {"abc": 10, "xab": 8, "bcy": 7, "zbc": 6, "abq": 5}
    run = train(words, TrainConfig(variant="char", min_frequency=1))
    for step in range(1, run.num_steps + 1):
        ex = merge_explanation(run, step)
        if not ex.is_new:
            text = merge_text(ex, label_of(run))
            assert f"is already a token (made at step {ex.made_at})" in text
            assert ex.made_at < step
            break


def test_word_ref_quotes_words_with_symbols():
    assert word_ref("newest") == "newest"
    assert word_ref("don't") == "“don't”"
    assert word_ref(" the", lambda w: w.replace(" ", "␣")) == "“␣the”"


def test_stop_explanations_for_every_reason():
    run = textbook()
    assert stop_text(stop_explanation(run)) == "Training stopped after the 10 merges asked for."
    one = textbook(num_merges=1)
    assert stop_text(stop_explanation(one)) == "Training stopped after the 1 merge asked for."
    vocab = train(dict(TEXTBOOK), TrainConfig(variant="eow", vocab_size=15))
    assert stop_text(stop_explanation(vocab)) == (
        "Training stopped when the vocabulary reached 15 tokens (the size asked for)."
    )
    minf = textbook(num_merges=None, min_frequency=5)
    ex = stop_explanation(minf)
    assert ex.reason == "min_frequency" and 0 < ex.best_left < ex.min_frequency
    assert stop_text(ex) == (
        f"Training stopped: the most frequent pair left occurs {ex.best_left} time"
        f"{'' if ex.best_left == 1 else 's'}, below the minimum frequency of 5."
    )
    nothing = train({"a": 3}, TrainConfig(variant="char"))
    assert stop_text(stop_explanation(nothing)) == (
        "Training stopped: no adjacent pair is left (every word is a single token)."
    )
    empty = train({}, TrainConfig(variant="char"))
    assert stop_text(stop_explanation(empty)) == (
        "There is nothing to train on: the pre-tokenizer found no words in the text."
    )
    capped = train(dict(TEXTBOOK), TrainConfig(variant="eow", num_merges=2, vocab_size=100))
    assert stop_text(stop_explanation(capped)) == (
        "Training stopped at the app's limit of 2 merges before the vocabulary reached 100 tokens."
    )
    assert stop_reason_at(run, 3) == "num_merges" and stop_reason_at(minf, minf.num_steps) == "min_frequency"


class Shouting(gettext.NullTranslations):
    """A catalog that upper-cases every message: shows which strings went through ``tr``."""

    def gettext(self, message):
        return re.sub(r"[^{}]+(?=\{|$)", lambda m: m.group(0).upper(), message)

    def ngettext(self, singular, plural, n):
        return self.gettext(singular if n == 1 else plural)


def test_sentences_go_through_the_translations():
    run = textbook()
    text = merge_text(merge_explanation(run, 1), label_of(run), tr=Shouting())
    assert text.startswith("e + s OCCURS 9 TIMES: 6 IN newest, 3 IN widest.")
    assert "ITS FIRST OCCURRENCE COMES EARLIEST" in text
    assert stop_text(stop_explanation(run), tr=Shouting()) == "TRAINING STOPPED AFTER THE 10 MERGES ASKED FOR."


def test_one_table_of_tie_break_wording():
    assert set(TIE_RULES) == set(TIE_BREAKS)
    trainer = importlib.import_module("bpe_core.algorithms.trainer")
    assert trainer.RULES is RULES
    for name, rule in TIE_RULES.items():
        assert RULES[name] == rule.rule
        assert rule.label.startswith(name) and rule.short and rule.why
