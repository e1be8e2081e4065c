"""Predict the next merge: the quiz's questions, grading, reveal sentences and score, without a user interface.

A question asks which pair merge ``k`` joins. The class sees the corpus after merge ``k - 1`` and up to
nine pairs of the pair table before merge ``k`` (the counts the trainer chose from), in a shuffled order:
in count order the answer would always be the first row.

The tie rule decides: exactly one pair is right, the one the run's tie-break rule chose. A pick of another
pair with the same count is graded ``"tied"`` ("tied, but the rule chose X"): it is not counted right,
and the reveal says which rule chose and why (the wording of :data:`bpe_core.explain.TIE_RULES`).
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass

from .explain import TIE_RULES, rule_name

_ENGLISH = gettext.NullTranslations()

#: Most pairs a question offers: the number keys 1-9 pick them.
MAX_OPTIONS = 9

#: The grades of a pick: the rule's pair, another pair at the top count, a pair with a lower count,
#: and no pick (the answer was revealed without one; not scored).
RIGHT, TIED, WRONG, NO_PICK = "right", "tied", "wrong", "none"


@dataclass(frozen=True)
class Option:
    """One pair a question offers (token ids; ``count`` frequency-weighted, before the merge)."""

    left: int
    right: int
    count: int
    chosen: bool
    tied: bool


@dataclass(frozen=True)
class Question:
    """Which pair does merge ``merge`` join?

    Attributes:
        merge: the merge asked about (1-based); the class sees the corpus after ``merge - 1`` merges.
        options: the pairs offered, in the order shown (row 1 first); exactly one is ``chosen``.
        count: the chosen pair's count.
        ties: how many pairs had that count in the whole table (the chosen one included).
        tie_break: the run's tie-break rule (a :data:`bpe_core.TIE_BREAKS` name).
    """

    merge: int
    options: tuple[Option, ...]
    count: int
    ties: int
    tie_break: str

    @property
    def answer(self) -> int:
        """The index (0-based) of the chosen pair in :attr:`options`."""
        return next(i for i, o in enumerate(self.options) if o.chosen)


def question(run, merge: int, size: int = MAX_OPTIONS) -> Question:
    """The question for merge ``merge`` (1..``run.num_steps``) of a finished run.

    Offers the first ``size`` (at most :data:`MAX_OPTIONS`) pairs of the snapshot's pair table, which
    lists every tied pair first, so the chosen pair is always offered. The order is shuffled with a
    seed of ``merge``: the same for every session and every rerun. Raises ``IndexError`` for a merge
    outside the run and ``ValueError`` for a ``size`` below 1.
    """
    if not 1 <= merge <= run.num_steps:
        raise IndexError(f"merge {merge} is outside 1..{run.num_steps}")
    if size < 1:
        raise ValueError("a question offers at least one pair")
    snap = run.snapshot(merge)
    rows = list(snap.top_pairs[: min(size, MAX_OPTIONS)])
    random.Random(merge).shuffle(rows)
    options = tuple(
        Option(
            a,
            b,
            c,
            chosen=(a, b) == (snap.left, snap.right),
            tied=c == snap.count and (a, b) != (snap.left, snap.right),
        )
        for a, b, c in rows
    )
    return Question(merge, options, snap.count, snap.ties, snap.tie_break)


def grade(q: Question, pick: int | None) -> str:
    """:data:`RIGHT`, :data:`TIED`, :data:`WRONG` or :data:`NO_PICK` for the option index ``pick``
    (0-based, ``None``: no pick). Raises ``IndexError`` for an index outside the options."""
    if pick is None:
        return NO_PICK
    if not 0 <= pick < len(q.options):
        raise IndexError(f"option {pick} is outside 0..{len(q.options) - 1}")
    option = q.options[pick]
    return RIGHT if option.chosen else TIED if option.tied else WRONG


@dataclass(frozen=True)
class Score:
    """Picks graded right, out of the questions answered with a pick."""

    right: int = 0
    asked: int = 0


def score(grades) -> Score:
    """The :class:`Score` of an iterable of grades (:data:`NO_PICK` is not counted as asked)."""
    grades = [g for g in grades if g != NO_PICK]
    return Score(sum(1 for g in grades if g == RIGHT), len(grades))


def score_text(s: Score, tr: gettext.NullTranslations | None = None) -> str:
    """``"Score: 2 of 3 right"`` (plain text)."""
    tr = tr or _ENGLISH
    return tr.ngettext("Score: {right} of {asked} right", "Score: {right} of {asked} right", s.asked).format(
        right=f"{s.right:,}", asked=f"{s.asked:,}"
    )


def reveal_text(
    q: Question,
    pick: int | None,
    label: Callable[[int], str],
    tr: gettext.NullTranslations | None = None,
) -> str:
    """The verdict on ``pick`` (an option index, ``None``: none) as one or two sentences (plain text,
    not escaped). ``label`` shows a token id as the reader sees it. Show it with the full reason for
    the merge, :func:`bpe_core.explain.merge_text` (the words holding the count, the tied pairs and
    the rule that chose); a tied pick's verdict names the rule itself.

    E.g. ``"Tied, but the rule chose e + s: s + t also occurs 9 times, and the first-seen rule picks
    e + s because its first occurrence comes earliest in the corpus. Not counted as right."``
    """
    tr = tr or _ENGLISH
    chosen = q.options[q.answer]

    def pair(o: Option) -> str:
        return tr.gettext("{left} + {right}").format(left=label(o.left), right=label(o.right))

    n = q.count
    verdict = grade(q, pick)
    if verdict == RIGHT:  # the tie and its rule, if any, are in the merge explanation that follows
        return tr.ngettext(
            "Right! Merge {merge} joins {pair}, which occurs {count} time.",
            "Right! Merge {merge} joins {pair}, which occurs {count} times.",
            n,
        ).format(merge=f"{q.merge:,}", pair=pair(chosen), count=f"{n:,}")
    if verdict == TIED:
        return tr.ngettext(
            "Tied, but the rule chose {chosen}: {picked} also occurs {count} time, and the {rule} rule picks "
            "{chosen} because {why}. Not counted as right.",
            "Tied, but the rule chose {chosen}: {picked} also occurs {count} times, and the {rule} rule picks "
            "{chosen} because {why}. Not counted as right.",
            n,
        ).format(chosen=pair(chosen), picked=pair(q.options[pick]), count=f"{n:,}", rule=rule_name(q.tie_break, tr),
                 why=_why(q.tie_break, tr))  # fmt: skip
    if verdict == WRONG:
        picked = q.options[pick]
        return tr.ngettext(
            "Not this one: {picked} occurs {picked_count} time, but merge {merge} joins {chosen}, which occurs {count} "
            "times.",
            "Not this one: {picked} occurs {picked_count} times, but merge {merge} joins {chosen}, which occurs "
            "{count} times.",
            picked.count,
        ).format(picked=pair(picked), picked_count=f"{picked.count:,}", merge=f"{q.merge:,}", chosen=pair(chosen),
                 count=f"{n:,}")  # fmt: skip
    return tr.ngettext(
        "No pick, not scored. Merge {merge} joins {pair}, which occurs {count} time.",
        "No pick, not scored. Merge {merge} joins {pair}, which occurs {count} times.",
        n,
    ).format(merge=f"{q.merge:,}", pair=pair(chosen), count=f"{n:,}")


def _why(rule: str, tr: gettext.NullTranslations) -> str:
    tie = TIE_RULES.get(rule)
    return tr.gettext(tie.why) if tie else ""
