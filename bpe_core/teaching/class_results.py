"""A live class's results as numbers: the shares of each question, every student's score, the hardest merges, the
ranking and the tallies as CSV.

Plain values computed from what a class stores (each question's grades and pick counts, every pick, every student);
the server reads those rows (:mod:`bpe_server.live_class`) and the page draws the results. Standard library only.

Each option of a question has one grade, fixed when the question opens: :data:`RIGHT` (the pair the run's tie-break
rule merges), :data:`TIED` (another pair at the top count) or :data:`WRONG`. They are the grades of
:func:`bpe_core.teaching.quiz.grade` (the same strings; a test keeps them equal).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

RIGHT, TIED, WRONG = "right", "tied", "wrong"
GRADES = (RIGHT, TIED, WRONG)
#: The most merges :func:`hardest` names.
HARDEST_SHOWN = 3
#: The header row of :func:`tallies_csv`.
CSV_COLUMNS = (
    "merge",
    "answered",
    "right",
    "tied",
    "wrong",
    "right_share",
    "tied_share",
    "wrong_share",
    "option_picks",
    "option_grades",
)


@dataclass(frozen=True)
class Tally:
    """The picks of one question: ``counts[i]`` students picked option ``i`` (in the order shown), whose grade is
    ``grades[i]``; ``state`` is the question's (``"open"``, ``"closed"`` or ``"revealed"``)."""

    merge: int
    state: str
    grades: tuple[str, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, merge: int, state: str, grades: Sequence[str], picked: Mapping[int, int]) -> Tally:
        """The tally from ``picked`` (``{option: students who picked it}``; an option nobody picked may be
        missing: it counts 0; keys outside ``range(len(grades))`` are ignored)."""
        return cls(merge, state, tuple(grades), tuple(picked.get(i, 0) for i in range(len(grades))))

    @property
    def answered(self) -> int:
        """Students who picked an option."""
        return sum(self.counts)

    def graded(self, grade: str) -> int:
        """Picks graded ``grade``."""
        return sum(c for c, g in zip(self.counts, self.grades, strict=True) if g == grade)

    def share(self, grade: str) -> float:
        """The share (0..1) of the answers graded ``grade``; 0 when nobody answered."""
        return self.graded(grade) / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class StudentScore:
    """One student's picks over the revealed questions: ``right`` and ``tied`` of ``answered``."""

    number: int
    nickname: str
    right: int
    tied: int
    answered: int


@dataclass(frozen=True)
class Summary:
    """The end of a class: every revealed question's tally (by merge), the hardest merges (:func:`hardest`) and
    every student's score (by number)."""

    rounds: tuple[Tally, ...]
    hardest: tuple[Tally, ...]
    students: tuple[StudentScore, ...]


def hardest(tallies: Iterable[Tally], shown: int = HARDEST_SHOWN) -> tuple[Tally, ...]:
    """The questions the class found hardest: lowest share right first, then highest share wrong, then the earlier
    merge; only questions someone answered; at most ``shown``."""
    answered = [t for t in tallies if t.answered]
    return tuple(sorted(answered, key=lambda t: (t.share(RIGHT), -t.share(WRONG), t.merge))[:shown])


def student_scores(
    grades: Mapping[int, Sequence[str]],
    picks: Iterable[tuple[int, str, int]],
    students: Iterable[tuple[str, int, str]],
) -> tuple[StudentScore, ...]:
    """Every student's score.

    Args:
        grades: ``{merge: the grade of each option}`` of the questions that count (the revealed ones).
        picks: ``(merge, student id, option)`` of every pick; a pick on a merge not in ``grades`` is not counted.
        students: ``(student id, number, nickname)`` of every student, in the order wanted (a student without a
            pick scores 0 of 0).

    Raises:
        IndexError: a pick's option outside its question's grades.
    """
    tallies: dict[str, list[int]] = {}
    for merge, student, option in picks:
        if merge in grades:
            grade = grades[merge][option]
            counted = tallies.setdefault(student, [0, 0, 0])
            counted[0] += grade == RIGHT
            counted[1] += grade == TIED
            counted[2] += 1
    return tuple(StudentScore(number, nick, *tallies.get(sid, (0, 0, 0))) for sid, number, nick in students)


def summarize(
    tallies: Iterable[Tally], picks: Iterable[tuple[int, str, int]], students: Iterable[tuple[str, int, str]]
) -> Summary:
    """The :class:`Summary` of a class from its revealed questions' ``tallies`` (by merge) and every pick and
    student (as :func:`student_scores` takes them)."""
    rounds = tuple(tallies)
    scores = student_scores({t.merge: t.grades for t in rounds}, picks, students)
    return Summary(rounds, hardest(rounds), scores)


def ranking(scores: Iterable[StudentScore]) -> list[StudentScore]:
    """The public ranking: most right first; equal scores by student number."""
    return sorted(scores, key=lambda s: (-s.right, s.number))


def tallies_csv(tallies: Iterable[Tally]) -> str:
    """The tallies as CSV (a header row, :data:`CSV_COLUMNS`, then one row per tally, ``\\n`` line ends): merge,
    answered, right, tied, wrong, their shares (0..1, 3 decimals) and the picks and grades of each option in the
    order shown (``;``-separated)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in tallies:
        counted = [t.graded(g) for g in GRADES]
        shares = [f"{t.share(g):.3f}" for g in GRADES]
        writer.writerow([t.merge, t.answered, *counted, *shares, ";".join(map(str, t.counts)), ";".join(t.grades)])
    return out.getvalue()
