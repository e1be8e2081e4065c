"""bpe_core.teaching.quiz: the questions, grades, reveal sentences and score of "Predict the next merge", without Streamlit."""

from __future__ import annotations

import pytest
from textbook import textbook_words

from bpe_core import TrainConfig, train
from bpe_core.i18n import translations
from bpe_core.teaching.quiz import (
    MAX_OPTIONS,
    NO_PICK,
    RIGHT,
    TIED,
    WRONG,
    Score,
    grade,
    question,
    reveal_text,
    score,
    score_text,
)


def run_of(variant="eow", tie="first-seen", words=None, **kw):
    cfg = TrainConfig(variant=variant, pretokenizer="whitespace", num_merges=10, tie_break=tie, **kw)
    return train(words or textbook_words(), cfg)


def pairs(run, q):
    return [(run.token_value(o.left), run.token_value(o.right)) for o in q.options]


def index_of(run, q, left, right):
    return pairs(run, q).index((left, right))


def label(run):
    return lambda t: run.token_value(t)


@pytest.mark.parametrize("tie, answer", [("first-seen", ("e", "s")), ("hf", ("e", "s")), ("lexical", ("t", "</w>"))])
def test_step_one_answer_under_each_tie_rule(tie, answer):
    run = run_of(tie=tie)
    q = question(run, 1)
    assert pairs(run, q)[q.answer] == answer
    assert sum(o.chosen for o in q.options) == 1
    # e + s, s + t and t + </w> all occur 9 times: three tied, the rule's pick among them.
    assert (q.count, q.ties, q.tie_break) == (9, 3, tie)
    tied = {p for p, o in zip(pairs(run, q), q.options) if o.tied}
    assert tied == {("e", "s"), ("s", "t"), ("t", "</w>")} - {answer}
    assert all(o.count == 9 for o in q.options if o.tied or o.chosen)
    assert all(o.count < 9 for o in q.options if not (o.tied or o.chosen))


def test_options_are_the_top_pairs_shuffled_the_same_way_every_time():
    run = run_of()
    q = question(run, 1)
    assert len(q.options) == MAX_OPTIONS
    top = [(a, b, c) for a, b, c in run.snapshot(1).top_pairs[:MAX_OPTIONS]]
    assert sorted((o.left, o.right, o.count) for o in q.options) == sorted(top)
    assert [(o.left, o.right) for o in q.options] != [(a, b) for a, b, _ in top]  # not in count order
    assert question(run, 1) == q
    assert len(question(run, 1, size=3).options) == 3


def test_every_pair_tied_at_the_top_is_offered_and_the_order_gives_nothing_away():
    run = run_of()
    fronts, answers = set(), set()
    for merge in range(1, run.num_steps + 1):
        q = question(run, merge)
        top = {(a, b) for a, b, c in run.snapshot(merge).top_pairs if c == q.count}
        assert top <= {(o.left, o.right) for o in q.options}, merge  # every tied pair (here at most 3) is a choice
        assert len(q.options) >= 4
        counts = [o.count for o in q.options]
        assert counts != sorted(counts, reverse=True), merge  # not in count order
        k = len(top)
        fronts.add(all(o.count == q.count for o in q.options[:k]))  # the tied pairs all in front?
        answers.add(q.answer)
    assert fronts == {False} and len(answers) > 3


def test_later_merges_follow_the_run():
    run = run_of()
    expected = [("e", "s", 9), ("es", "t", 9), ("est", "</w>", 9), ("l", "o", 7), ("lo", "w", 7)]
    for merge, (a, b, c) in enumerate(expected, start=1):
        q = question(run, merge)
        assert pairs(run, q)[q.answer] == (a, b) and q.count == c, merge
    assert question(run, 4).ties == 2  # l + o and o + w, 7 each


def test_grades():
    run = run_of()
    q = question(run, 1)
    assert grade(q, index_of(run, q, "e", "s")) == RIGHT
    assert grade(q, index_of(run, q, "s", "t")) == TIED
    assert grade(q, index_of(run, q, "l", "o")) == WRONG
    assert grade(q, None) == NO_PICK
    with pytest.raises(IndexError):
        grade(q, len(q.options))
    with pytest.raises(IndexError):
        question(run, 0)
    with pytest.raises(IndexError):
        question(run, run.num_steps + 1)


def test_reveal_sentences_in_english():
    run = run_of()
    q = question(run, 1)
    text = reveal_text(q, index_of(run, q, "e", "s"), label(run))
    assert text == "Right! Merge 1 joins e + s, which occurs 9 times."
    text = reveal_text(q, index_of(run, q, "t", "</w>"), label(run))
    assert text == (
        "Tied: t + </w> occurs 9 times, as often as e + s, and the first-seen rule picks e + s "
        "because its first occurrence comes earliest in the corpus. Counted as tied, apart from right and wrong."
    )
    text = reveal_text(q, index_of(run, q, "l", "o"), label(run))
    assert text == "Not this one: l + o occurs 7 times, but merge 1 joins e + s, which occurs 9 times."
    assert reveal_text(q, None, label(run)) == "No pick, not scored. Merge 1 joins e + s, which occurs 9 times."


def test_reveal_names_the_lexical_rule():
    run = run_of(tie="lexical")
    q = question(run, 1)
    text = reveal_text(q, index_of(run, q, "e", "s"), label(run))
    assert text.startswith("Tied: e + s occurs 9 times, as often as t + </w>, and the lexical rule picks t + </w>")
    assert "its pair of strings is the largest in code-point order (a beats Z, b beats a)" in text


def test_a_right_pick_without_a_tie():
    run = run_of(words={"aaab": 3, "cd": 1})  # a + a: twice in aaab, 6; every other pair 3 or 1
    q = question(run, 1)
    assert reveal_text(q, q.answer, label(run)) == "Right! Merge 1 joins a + a, which occurs 6 times."


def test_byte_level_question_offers_byte_tokens():
    # é is the bytes C3 A9: they occur 2 × 2 times in éé and once in né; A9 + C3 twice, n + C3 once.
    run = run_of(variant="byte", words={"éé": 2, "né": 1})
    q = question(run, 1)
    values = [run.token_value(o.left) + run.token_value(o.right) for o in q.options]
    assert all(isinstance(v, bytes) for v in values)
    assert values[q.answer] == "é".encode() and q.count == 5 and q.ties == 1


def test_score():
    # Three tallies: a tied pick is counted apart from right and wrong; no pick is not counted.
    s = score([RIGHT, TIED, WRONG, NO_PICK, RIGHT, TIED, TIED])
    assert s == Score(right=2, tied=3, wrong=1) and s.asked == 6
    assert score([]) == Score(0, 0, 0) and score([NO_PICK]).asked == 0
    assert score_text(s) == "Score: 2 right, 3 tied, 1 wrong"
    assert score_text(Score(0, 0, 1)) == "Score: 0 right, 0 tied, 1 wrong"
    with pytest.raises(ValueError):
        score(["maybe"])


def test_a_tied_pick_on_every_tie_of_the_textbook_run():
    """Each pair tied with the rule's pick grades TIED, every lower one WRONG, on all ten merges."""
    run = run_of()
    for merge in range(1, run.num_steps + 1):
        q = question(run, merge)
        grades = [grade(q, i) for i in range(len(q.options))]
        assert grades.count(RIGHT) == 1
        assert grades.count(TIED) == sum(1 for o in q.options if o.count == q.count) - 1
        assert all(g == WRONG for g, o in zip(grades, q.options) if o.count < q.count)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_reveal_in_chinese_keeps_the_tokens_and_numbers(lang):
    # Before the catalogs carry these messages the English text comes back; either way the placeholders
    # are filled and the tokens and counts are there.
    run = run_of()
    q = question(run, 1)
    tr = translations(lang)
    for pick in (index_of(run, q, "e", "s"), index_of(run, q, "s", "t"), index_of(run, q, "l", "o"), None):
        text = reveal_text(q, pick, label(run), tr)
        assert "{" not in text and "e" in text and "9" in text
    assert "2" in score_text(Score(1, 2, 0), tr)
