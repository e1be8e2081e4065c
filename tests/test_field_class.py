"""A live class on WordPiece and Unigram: the questions (:mod:`bpe_core.teaching.field_class`: every option
well-formed, exactly one right, every tied pair offered, shuffled the same way on every screen) and the class run as
the app (AppTest, the class in a real store file): the teacher asks, a student answers right, the reveal says so with
the numbers behind it, and a student never steps past the teacher."""

from __future__ import annotations

import dataclasses
import re

import pytest
from app_helpers import body_with, flat_text, new_app, no_exception, shown_step

from bpe_core.teaching.field_class import (
    MAX_TIED_OPTIONS,
    UNIGRAM_OPTIONS,
    is_field_run,
    option_text,
    question,
    verdict_text,
)
from bpe_core.teaching.quiz import MAX_OPTIONS, NO_PICK, RIGHT, TIED, WRONG, grade
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.corpus import PRESETS, preset_corpus
from ui.settings import make_config, preset_settings

#: Unigram's class: a chapter of English pruned to 100 tokens (its round 2 has no tie at the cut).
UNIGRAM = {"preset": "pg16457-chapter", "algo": "unigram", "vocab": "100"}


def _run(preset: str, algorithm: str, **extra):
    """The run the field stepper trains (:func:`ui.field_stepper.page`'s settings) of ``preset``."""
    p = PRESETS[preset]
    cfg = make_config(preset_settings(p))
    cfg = dataclasses.replace(
        cfg, algorithm=algorithm, pretokenizer=None, variant="char", min_frequency=1, top_k=10, **extra
    )
    return preset_corpus(p).train(cfg)


@pytest.fixture(scope="module")
def wordpiece():
    return _run("textbook-low", "wordpiece")


@pytest.fixture(scope="module")
def unigram():
    return _run("pg16457-chapter", "unigram", vocab_size=100)


@pytest.fixture
def classes(tmp_path, monkeypatch):
    store = tmp_path / "corpora.sqlite3"
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(store))
    return Classes(CorpusStore(store))


def test_a_wordpiece_question_offers_every_tied_pair_and_one_right(wordpiece):
    assert is_field_run(wordpiece) and wordpiece.num_steps >= 6
    orders = set()
    for k in range(1, wordpiece.num_steps + 1):
        snap, q = wordpiece.snapshot(k), question(wordpiece, k)
        assert q.kind == "wordpiece" and q.merge == k
        assert [o for o in q.options if o.chosen] == [q.options[q.answer]]
        assert q.options[q.answer].tokens == (snap.left, snap.right)
        rows = {(r.left, r.right): r for r in snap.table}
        for o in q.options:  # each option is a row of the step's score table, with its numbers
            r = rows[o.tokens]
            assert (o.value, o.counts) == (r.score, (r.count, r.left_count, r.right_count))
            assert o.tied == (r.score == snap.score and not o.chosen)
        assert len({o.tokens for o in q.options}) == len(q.options) <= max(MAX_OPTIONS, MAX_TIED_OPTIONS)
        tied = [r for r in snap.table if r.score == snap.score]
        assert q.ties == len(tied) == sum(o.chosen or o.tied for o in q.options)  # every tied pair offered
        assert len(q.options) == min(len(snap.table), max(MAX_OPTIONS, len(tied)))
        assert question(wordpiece, k) == q  # every screen rebuilds the same order
        orders.add(q.answer)
    assert len(orders) > 2  # shuffled: the answer is not always in one place
    six = question(wordpiece, 6)
    assert six.ties == 6  # the textbook's merge 6: six pairs score 1/17
    assert option_text(wordpiece, six.options[six.answer]) == "##e + ##r"


def test_a_unigram_question_offers_one_removed_token_among_the_next_kept(unigram):
    orders = set()
    for k in range(1, unigram.num_steps + 1):
        snap, q = unigram.snapshot(k), question(unigram, k)
        assert q.kind == "unigram" and q.removed == len(snap.removed)
        gone = set(snap.removed)
        assert [o.tokens[0] in gone for o in q.options].count(True) == 1  # exactly one removed token offered
        chosen = q.options[q.answer]
        assert chosen.tokens == (snap.removed[-1],)  # the removed token nearest the cut
        kept = snap.candidates[len(gone) : len(gone) + len(q.options) - 1]  # the next lowest increases
        assert {o.tokens[0] for o in q.options if not o.chosen} == {t for t, _ in kept}
        increases = dict(snap.candidates)
        for o in q.options:
            assert o.counts == () and o.value == increases[o.tokens[0]] >= chosen.value
            assert o.tied == (not o.chosen and o.value == chosen.value)
        orders.add(q.answer)
    assert len(orders) > 2
    two = question(unigram, 2)
    assert two.ties == 1 and len(two.options) == UNIGRAM_OPTIONS  # the class's round: no tie at the cut


def test_grades_and_verdicts(wordpiece, unigram):
    six = question(wordpiece, 6)
    tied = next(i for i, o in enumerate(six.options) if o.tied)
    wrong = next(i for i, o in enumerate(six.options) if not o.tied and not o.chosen)
    assert option_grades(six).count(RIGHT) == 1 and option_grades(six).count(TIED) == 5
    assert [grade(six, i) for i in (six.answer, tied, wrong, None)] == [RIGHT, TIED, WRONG, NO_PICK]
    assert verdict_text(wordpiece, six, six.answer).startswith("Right! Merge 6 joins ##e + ##r, whose score 0.05882")
    assert "the pair seen first in the corpus, ##e + ##r" in verdict_text(wordpiece, six, tied)
    assert verdict_text(wordpiece, six, wrong).startswith("Not this one:")
    two = question(unigram, 2)
    token = option_text(unigram, two.options[two.answer])
    right = verdict_text(unigram, two, two.answer)
    assert right.startswith(f"Right! Round 2 removes {token}: without it the loss grows by only")
    other = (two.answer + 1) % len(two.options)
    assert f"removes the {two.removed} tokens with the lowest increases, among them {token}" in verdict_text(
        unigram, two, other
    )
    with pytest.raises(IndexError):
        question(unigram, unigram.num_steps + 1)


def _pick_labels(at) -> list[str]:
    return [b.label for b in at.button if (b.key or "").startswith("class-pick-")]


def _class_round(classes, params: dict, step: int, run):
    """Start a class on ``params`` at ``step``, a student joins, the teacher asks: the teacher, the student, the
    question (rebuilt from ``run``, as the app builds it) and the class's code."""
    code, key = classes.start(params, step=step)
    student = new_app(**{"class": code})
    no_exception(student)
    teacher = new_app(**{"class": code, "teacher": key})
    no_exception(teacher)
    assert not [w for w in (*teacher.warning, *student.warning) if "cannot step" in w.value]
    teacher.button(key="class-ask").click().run()
    no_exception(teacher)
    q = question(run, step + 1)
    assert classes.tally(code, step + 1).grades == option_grades(q)  # the answer key the class stored
    student.run()
    no_exception(student)
    assert f"data-merge='{step + 1}'" in body_with(student, "id='bpe-class-question'")
    labels = _pick_labels(student)
    assert labels == [f"{i + 1}. {option_text(run, o)}" for i, o in enumerate(q.options)]  # no numbers shown
    return teacher, student, q, code


def _reveal(teacher, student, q):
    student.button(key=f"class-pick-{q.answer}").click().run()
    no_exception(student)
    teacher.run()
    teacher.button(key="class-reveal").click().run()
    no_exception(teacher)
    assert "Right 100% · tied 0% · wrong 0% (of 1)" in flat_text(body_with(teacher, "id='bpe-class-shares'"))
    student.run()
    no_exception(student)
    verdict = body_with(student, "id='bpe-quiz-verdict'")
    assert "data-grade='right'" in verdict
    return flat_text(verdict), body_with(student, "id='bpe-quiz-pairs'"), flat_text(body_with(teacher, "bpe-card"))


def test_a_wordpiece_class_asks_which_pair_merges_and_reveals_the_scores(classes, wordpiece):
    teacher, student, q, code = _class_round(classes, {"preset": "textbook-low", "algo": "wordpiece"}, 5, wordpiece)
    assert "highest score" in flat_text(body_with(student, "id='bpe-class-question'"))
    # The projector's table hides the numbers while the question is open; the teacher may show the counts.
    assert re.findall(r"<td class='num count'>([^<]*)</td>", body_with(teacher, "id='bpe-quiz-pairs'")) == ["?"] * 7
    teacher.toggle(key="w.class.show_counts").set_value(True).run()
    student.run()
    shown = [label.split(" · ", 1)[1] for label in _pick_labels(student)]
    assert shown == [f"{o.counts[0]} ÷ ({o.counts[1]} × {o.counts[2]})" for o in q.options]
    teacher.toggle(key="w.class.show_counts").set_value(False).run()
    student.run()
    verdict, table, card = _reveal(teacher, student, q)
    assert verdict.startswith("Right! Merge 6 joins ##e + ##r, whose score 0.05882 is the highest.")
    assert "Your teacher moves the class on." in verdict
    assert "2 ÷ (17 × 2) = 0.05882" in flat_text(table) and table.count("bpe-badge tied") == 5
    assert card.startswith("Merge 6 joins ##e + ##r: score")
    # The student cannot step past the teacher's step (5): Next is disabled there.
    assert student.button(key="stepper.next").disabled
    teacher.button(key="stepper.next").click().run()
    no_exception(teacher)
    student.run()
    no_exception(student)
    assert classes.state(code).step == 6 and shown_step(student).step == 6
    assert student.button(key="stepper.next").disabled


def test_a_unigram_class_asks_which_token_goes_and_reveals_the_loss_increases(classes, unigram):
    teacher, student, q, code = _class_round(classes, UNIGRAM, 1, unigram)
    title = flat_text(body_with(student, "id='bpe-class-question'"))
    assert title.startswith("Which of these tokens does round 2 remove?")
    verdict, table, card = _reveal(teacher, student, q)
    token = option_text(unigram, q.options[q.answer])
    assert verdict.startswith(f"Right! Round 2 removes {token}: without it the loss grows by only")
    increases = re.findall(r"<td class='num count'>([^<]*)</td>", table)
    assert increases == [f"{o.value:+.4g}" for o in q.options]
    assert card.startswith(f"Round 2 removes {q.removed} tokens, {token} among them")
    assert "the next round" in teacher.button(key="class-ask").help
    teacher.button(key="class-end").click().run()
    no_exception(teacher)
    student.run()
    no_exception(student)
    assert "Your score: 1 of 1 right" in flat_text(body_with(student, "id='bpe-class-score'"))
    summary = teacher.dataframe[0].value  # a Unigram class's steps are rounds, not merges
    assert list(summary.columns)[:2] == ["round", "answered"] and list(summary["round"]) == [2]


def test_a_wordpiece_class_at_step_0_does_not_mark_the_first_merge(classes):
    """Outside a class step 0 lists the first merge's pairs with a ✔ on the one merged at step 1: in a class that
    would answer the first question before it is asked."""
    alone = new_app(preset="textbook-low", algo="wordpiece")
    assert any("✔" in list(t.value[""]) for t in alone.table)
    code, key = classes.start({"preset": "textbook-low", "algo": "wordpiece"}, step=0)
    for at in (new_app(**{"class": code}), new_app(**{"class": code, "teacher": key})):
        no_exception(at)
        assert "Starting vocabulary:" in " ".join(h.proto.body for h in at.get("html"))
        assert not any("✔" in list(t.value.get("", [])) for t in at.table)
