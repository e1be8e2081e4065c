"""bpe_core.teaching.class_results: a live class's shares, scores, hardest merges, ranking and CSV, from plain values
(no store, no Streamlit)."""

from __future__ import annotations

import ast
import csv
import io
import sys
from pathlib import Path

import pytest

from bpe_core.teaching import class_results as cr
from bpe_core.teaching import quiz
from bpe_core.teaching.class_results import (
    RIGHT,
    TIED,
    WRONG,
    StudentScore,
    Tally,
    hardest,
    ranking,
    student_scores,
    summarize,
    tallies_csv,
)

R, T, W = RIGHT, TIED, WRONG


def test_the_grades_are_the_quizs():
    assert (RIGHT, TIED, WRONG) == (quiz.RIGHT, quiz.TIED, quiz.WRONG)


def test_the_module_imports_only_the_standard_library():
    tree = ast.parse(Path(cr.__file__).read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert all(n.split(".")[0] in sys.stdlib_module_names for n in names), names


# ------------------------------------------------------------------------------------------------ one tally
def test_a_tally_counts_shares_and_grades():
    t = Tally(4, "revealed", (W, R, T, W), (1, 2, 0, 3))
    assert t.answered == 6
    assert (t.graded(R), t.graded(T), t.graded(W)) == (2, 0, 4)
    assert t.share(R) == pytest.approx(2 / 6) and t.share(W) == pytest.approx(4 / 6) and t.share(T) == 0.0


def test_a_tally_nobody_answered_has_no_share():
    t = Tally(1, "open", (R, W), (0, 0))
    assert t.answered == 0 and t.share(R) == t.share(W) == 0.0


def test_a_tally_of_stored_counts_fills_the_options_nobody_picked():
    t = Tally.of(2, "closed", [W, R, T], {1: 5, 7: 9})  # option 7 is not an option of this question
    assert t == Tally(2, "closed", (W, R, T), (0, 5, 0))


# ------------------------------------------------------------------------------------------------ hardest
def test_hardest_lowest_share_right_then_highest_share_wrong_then_earlier_merge():
    tallies = [
        Tally(1, "revealed", (R, W), (3, 1)),  # 75 % right
        Tally(2, "revealed", (R, T, W), (1, 2, 1)),  # 25 % right, 25 % wrong
        Tally(3, "revealed", (R, W), (1, 3)),  # 25 % right, 75 % wrong: harder than 2
        Tally(4, "revealed", (R, W), (0, 0)),  # nobody answered: never named
        Tally(5, "revealed", (R, W), (2, 6)),  # 25 % right, 75 % wrong: as hard as 3, later
    ]
    assert [t.merge for t in hardest(tallies)] == [3, 5, 2]
    assert [t.merge for t in hardest(tallies, shown=5)] == [3, 5, 2, 1]
    assert hardest([]) == ()


# ------------------------------------------------------------------------------------------------ scores
STUDENTS = [("s-ann", 1, "Ann"), ("s-bo", 2, ""), ("s-cy", 3, "Cy")]


def test_scores_count_picks_on_the_questions_given_only():
    grades = {1: (R, T, W), 2: (W, R)}
    picks = [(1, "s-ann", 0), (2, "s-ann", 1), (1, "s-bo", 1), (2, "s-bo", 0), (3, "s-bo", 0), (3, "s-cy", 2)]
    got = student_scores(grades, picks, STUDENTS)
    assert got == (
        StudentScore(1, "Ann", 2, 0, 2),
        StudentScore(2, "", 0, 1, 2),  # merge 3 is not revealed: not counted
        StudentScore(3, "Cy", 0, 0, 0),  # no pick that counts
    )


def test_a_pick_outside_its_question_raises():
    with pytest.raises(IndexError):
        student_scores({1: (R, W)}, [(1, "s-ann", 5)], STUDENTS)


def test_summary_of_a_class():
    rounds = [Tally(1, "revealed", (R, W), (1, 1)), Tally(2, "revealed", (W, R), (2, 0))]
    picks = [(1, "s-ann", 0), (1, "s-bo", 1), (2, "s-ann", 0), (2, "s-bo", 0)]
    got = summarize(iter(rounds), picks, STUDENTS)
    assert got.rounds == tuple(rounds)
    assert [t.merge for t in got.hardest] == [2, 1]
    assert [(s.number, s.right, s.answered) for s in got.students] == [(1, 1, 2), (2, 0, 2), (3, 0, 0)]


def test_ranking_most_right_first_then_by_number():
    scores = [StudentScore(1, "", 1, 0, 3), StudentScore(2, "", 3, 0, 3), StudentScore(3, "", 1, 2, 3)]
    assert [s.number for s in ranking(scores)] == [2, 1, 3]


# ------------------------------------------------------------------------------------------------ CSV
def test_tallies_csv():
    text = tallies_csv([Tally(1, "revealed", (W, R, T), (1, 2, 0)), Tally(3, "revealed", (R, W), (0, 0))])
    assert text == (
        "merge,answered,right,tied,wrong,right_share,tied_share,wrong_share,option_picks,option_grades\n"
        "1,3,2,0,1,0.667,0.000,0.333,1;2;0,wrong;right;tied\n"
        "3,0,0,0,0,0.000,0.000,0.000,0;0,right;wrong\n"
    )
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["right_share"] == "0.667" and rows[1]["option_grades"] == "right;wrong"
    assert tallies_csv([]) == ",".join(cr.CSV_COLUMNS) + "\n"
