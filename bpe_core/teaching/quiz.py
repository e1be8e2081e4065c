"""Predict the next merge: the quiz's questions, grading, reveal sentences and score, without a user interface.

A question is asked about a step whose kind has one (:data:`_ASKS`): of a merge, which pair merge ``k`` joins.
A step of another kind (a removal, a pruning round) has no question and is skipped: :func:`question` gives
``None``. So does a merge that SuperBPE's stage 2 replays from stage 1 (before the transition point): stage 1 chose
it on its own words, by their counts, and the most frequent pair of the text shown need not be it; grading that
pick wrong would be unfair, so nothing is asked and :func:`not_asked` says why. The class sees the corpus after merge ``k - 1`` and up to
nine pairs of the pair table before merge ``k`` (the counts the trainer chose from), in a shuffled order:
in count order the answer would always be the first row.

The tie rule decides: exactly one pair is right, the one the run's tie-break rule chose. A pick of another
pair with the same count is graded ``"tied"``: as frequent as the rule's pick, which another tie-break rule
could have chosen, so it is counted apart, neither right nor wrong; the reveal says which rule chose and
why (the wording of :data:`bpe_core.teaching.explain.TIE_RULES`). Three grades, one :class:`Score` of three
tallies: the stepper's quiz and a live class's tallies both grade with :func:`grade` and add up with
:func:`score`.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..algorithms.superbpe import replayed_step
from .explain import TIE_RULES, rule_name
from .step_view import MERGE, StepView, step_view

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


def question(run, merge: int, size: int = MAX_OPTIONS) -> Question | None:
    """The question for step ``merge`` (1..``run.num_steps``) of a finished run, or ``None`` when the step's kind
    has no question (the step is skipped: nothing is asked about it).

    Of a merge: offers the first ``size`` (at most :data:`MAX_OPTIONS`) pairs of the step view's pair rows (the
    snapshot's pair table), which list every tied pair first, so the chosen pair is always offered. The order is
    shuffled with a seed of ``merge``: the same for every session and every rerun. Raises ``IndexError`` for a
    merge outside the run and ``ValueError`` for a ``size`` below 1.
    """
    if not 1 <= merge <= run.num_steps:
        raise IndexError(f"merge {merge} is outside 1..{run.num_steps}")
    if size < 1:
        raise ValueError("a question offers at least one pair")
    if replayed_step(run, merge):
        return None
    view = step_view(run, merge, pairs=min(size, MAX_OPTIONS))
    ask = _ASKS.get(view.kind)
    return None if ask is None else ask(view)


def not_asked(run, merge: int, tr: gettext.NullTranslations | None = None) -> str | None:
    """Why no question is asked about ``merge`` although it is a merge (one sentence through ``tr``; ``None``:
    English), or ``None`` when one is asked (or the step's kind has none: nothing to explain)."""
    if not replayed_step(run, merge):
        return None
    first = run.extras["transition_step"]
    return (
        (tr or _ENGLISH)
        .gettext(
            "No question on merge {merge}: SuperBPE's stage 1 chose merges 1 to {last} on its own words, by their "
            "counts there, so the most frequent pair of this text need not be the one merged. The quiz asks again "
            "from the transition point, merge {first}."
        )
        .format(merge=f"{merge:,}", last=f"{first - 1:,}", first=f"{first:,}")
    )


def _merge_question(view: StepView) -> Question:
    """Which pair does merge ``view.step`` join? (see :func:`question`)."""
    card = view.merge
    chosen = (card.left, card.right)
    rows = list(view.pairs.rows)
    random.Random(view.step).shuffle(rows)
    options = tuple(
        Option(r.left, r.right, r.count, chosen=r.tokens == chosen, tied=r.count == card.count and r.tokens != chosen)
        for r in rows
    )
    return Question(view.step, options, card.count, card.ties, card.tie_break)


#: The question asked about a step of each kind; a kind not here has none (its steps are skipped).
_ASKS = {MERGE: _merge_question}


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
    """The picks graded :data:`RIGHT`, :data:`TIED` and :data:`WRONG` (questions revealed without a
    pick are not counted)."""

    right: int = 0
    tied: int = 0
    wrong: int = 0

    @property
    def asked(self) -> int:
        """Questions answered with a pick."""
        return self.right + self.tied + self.wrong


def score(grades) -> Score:
    """The :class:`Score` of an iterable of grades (:data:`NO_PICK` is not counted). Raises
    ``ValueError`` for a value that is not a grade."""
    tally = {RIGHT: 0, TIED: 0, WRONG: 0, NO_PICK: 0}
    for g in grades:
        if g not in tally:
            raise ValueError(f"not a grade: {g!r}")
        tally[g] += 1
    return Score(tally[RIGHT], tally[TIED], tally[WRONG])


def score_text(s: Score, tr: gettext.NullTranslations | None = None) -> str:
    """``"Score: 2 right, 1 tied, 0 wrong"`` (plain text): tied picks counted apart from right and wrong."""
    tr = tr or _ENGLISH
    return tr.gettext("Score: {right} right, {tied} tied, {wrong} wrong").format(
        right=f"{s.right:,}", tied=f"{s.tied:,}", wrong=f"{s.wrong:,}"
    )


def reveal_text(
    q: Question,
    pick: int | None,
    label: Callable[[int], str],
    tr: gettext.NullTranslations | None = None,
) -> str:
    """The verdict on ``pick`` (an option index, ``None``: none) as one or two sentences (plain text,
    not escaped). ``label`` shows a token id as the reader sees it. Show it with the full reason for
    the merge, :func:`bpe_core.teaching.explain.merge_text` (the words holding the count, the tied pairs and
    the rule that chose); a tied pick's verdict names the rule itself.

    E.g. ``"Tied: s + t occurs 9 times, as often as e + s, and the first-seen rule picks e + s because its
    first occurrence comes earliest in the corpus. Counted as tied, apart from right and wrong."``
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
            "Tied: {picked} occurs {count} time, as often as {chosen}, and the {rule} rule picks {chosen} "
            "because {why}. Counted as tied, apart from right and wrong.",
            "Tied: {picked} occurs {count} times, as often as {chosen}, and the {rule} rule picks {chosen} "
            "because {why}. Counted as tied, apart from right and wrong.",
            n,
        ).format(
            chosen=pair(chosen),
            picked=pair(q.options[pick]),
            count=f"{n:,}",
            rule=rule_name(q.tie_break, tr),
            why=_why(q.tie_break, tr),
        )
    if verdict == WRONG:
        picked = q.options[pick]
        return tr.ngettext(
            "Not this one: {picked} occurs {picked_count} time, but merge {merge} joins {chosen}, which occurs {count} "
            "times.",
            "Not this one: {picked} occurs {picked_count} times, but merge {merge} joins {chosen}, which occurs "
            "{count} times.",
            picked.count,
        ).format(
            picked=pair(picked),
            picked_count=f"{picked.count:,}",
            merge=f"{q.merge:,}",
            chosen=pair(chosen),
            count=f"{n:,}",
        )
    return tr.ngettext(
        "No pick, not scored. Merge {merge} joins {pair}, which occurs {count} time.",
        "No pick, not scored. Merge {merge} joins {pair}, which occurs {count} times.",
        n,
    ).format(merge=f"{q.merge:,}", pair=pair(chosen), count=f"{n:,}")


def _why(rule: str, tr: gettext.NullTranslations) -> str:
    tie = TIE_RULES.get(rule)
    return tr.gettext(tie.why) if tie else ""
