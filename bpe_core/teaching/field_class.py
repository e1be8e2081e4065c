"""A live class's single-answer questions about WordPiece and Unigram steps, without a user interface.

A class round stores a step number and the grade of each option in the order shown
(:func:`bpe_server.live_class.option_grades`, exactly one :data:`~bpe_core.teaching.quiz.RIGHT`), and every screen
rebuilds the options from the run and the step: so the options must depend on nothing else, and are shuffled with the
step as seed (in the table's order the answer would always come first), as BPE's question is
(:func:`bpe_core.teaching.quiz.question`).

* **WordPiece**, "which pair does merge k join?": every pair tied with the best score (the run's table holds them
  all) and the next best, :data:`~bpe_core.teaching.quiz.MAX_OPTIONS` at least and :data:`MAX_TIED_OPTIONS` at most
  (the chosen pair always among them). Right: the pair the first-seen rule chose; tied: another pair with its score
  (scores are compared as the trainer compares them, equal floats), graded apart as BPE's ties are.
* **Unigram**, "which of these tokens does round k remove?": one token the round removes (the removed one nearest the
  cut: the highest loss increase removed) and the kept tokens with the next lowest increases, so that the answer is
  not the obvious one. Right: the removed token; tied: a kept token whose increase equals it (the round removes equal
  increases in vocabulary order).

Both give a :class:`FieldQuestion`, which grades with :func:`bpe_core.teaching.quiz.grade` like BPE's, and a verdict
sentence (:func:`verdict_text`).
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable
from dataclasses import dataclass

from .quiz import MAX_OPTIONS, NO_PICK, RIGHT, TIED, grade

_ENGLISH = gettext.NullTranslations()

#: The algorithms whose steps these questions ask about (``TrainConfig.algorithm``).
FIELD_ALGORITHMS = ("wordpiece", "unigram")
#: Most options a WordPiece question offers when more pairs than :data:`~bpe_core.teaching.quiz.MAX_OPTIONS` tie:
#: every one of them is a button on a phone's first screen (two columns), and more would not fit.
MAX_TIED_OPTIONS = 16
#: Options of a Unigram question: two columns of four buttons on a phone's first screen.
UNIGRAM_OPTIONS = 8


@dataclass(frozen=True)
class FieldOption:
    """One option: ``tokens`` (a WordPiece pair's two ids, or one Unigram token's id); ``value`` its score
    (count ÷ (first × second)) or its loss increase; ``counts`` a pair's count and its parts' counts (WordPiece; ``()``
    for Unigram); ``chosen`` the right answer, ``tied`` another option with the chosen one's value."""

    tokens: tuple[int, ...]
    value: float
    counts: tuple[int, ...]
    chosen: bool
    tied: bool


@dataclass(frozen=True)
class FieldQuestion:
    """The question on step ``merge`` (1-based; the name the class's rounds use for the step asked about) of a
    ``kind`` (``"wordpiece"`` or ``"unigram"``) run: ``options`` in the order shown, exactly one ``chosen``;
    ``removed``: how many tokens the Unigram round removes (0 for WordPiece); ``ties``: options tied with the chosen
    one, itself included."""

    merge: int
    kind: str
    options: tuple[FieldOption, ...]
    removed: int
    ties: int

    @property
    def answer(self) -> int:
        """The index (0-based) of the chosen option."""
        return next(i for i, o in enumerate(self.options) if o.chosen)


def is_field_run(run) -> bool:
    """Whether ``run`` is a WordPiece or Unigram run (asked with :func:`question`, not the BPE quiz's)."""
    return getattr(run.config, "algorithm", "bpe") in FIELD_ALGORITHMS


def question(run, merge: int, size: int | None = None) -> FieldQuestion | None:
    """The question on step ``merge`` (1..``run.num_steps``) of a WordPiece or Unigram run, offering ``size``
    options (default :data:`~bpe_core.teaching.quiz.MAX_OPTIONS` for WordPiece, more when more pairs tie, up to
    :data:`MAX_TIED_OPTIONS`; :data:`UNIGRAM_OPTIONS` for Unigram), or ``None`` when the step leaves nothing to ask
    (a Unigram round that removed nothing). Raises ``IndexError`` for a step outside the run and ``ValueError`` for
    ``size`` below 2 or a run of another algorithm."""
    if not 1 <= merge <= run.num_steps:
        raise IndexError(f"step {merge} is outside 1..{run.num_steps}")
    if size is not None and size < 2:
        raise ValueError("a question offers at least two options")
    kind = getattr(run.config, "algorithm", "bpe")
    if kind == "wordpiece":
        return _wordpiece(run, merge, size or MAX_OPTIONS)
    if kind == "unigram":
        return _unigram(run, merge, size or UNIGRAM_OPTIONS)
    raise ValueError(f"not a WordPiece or Unigram run: {kind}")


def _wordpiece(run, merge: int, size: int) -> FieldQuestion:
    snap = run.snapshot(merge)
    chosen = (snap.left, snap.right)
    rows = list(snap.table)  # best first, every pair tied with the best in it, the chosen pair first
    tied = sum(1 for r in rows if r.score == snap.score)
    rows = rows[: min(max(size, tied), MAX_TIED_OPTIONS)]
    random.Random(merge).shuffle(rows)
    options = tuple(
        FieldOption(
            (r.left, r.right),
            r.score,
            (r.count, r.left_count, r.right_count),
            chosen=(r.left, r.right) == chosen,
            tied=r.score == snap.score and (r.left, r.right) != chosen,
        )
        for r in rows
    )
    return FieldQuestion(merge, "wordpiece", options, 0, sum(1 for o in options if o.chosen or o.tied))


def _unigram(run, merge: int, size: int) -> FieldQuestion | None:
    snap = run.snapshot(merge)
    n = len(snap.removed)
    if not n:
        return None
    cut, increase = snap.candidates[n - 1]  # the removed token nearest the cut
    rows = [(cut, increase, True), *((t, inc, False) for t, inc in snap.candidates[n : n + size - 1])]
    random.Random(merge).shuffle(rows)
    options = tuple(
        FieldOption((t,), inc, (), chosen=chosen, tied=not chosen and inc == increase) for t, inc, chosen in rows
    )
    return FieldQuestion(merge, "unigram", options, n, sum(1 for o in options if o.chosen or o.tied))


def option_text(run, option: FieldOption, tr: gettext.NullTranslations | None = None) -> str:
    """An option as the reader sees it (plain text): ``"a + ##b"`` or the token."""
    tr = tr or _ENGLISH
    if len(option.tokens) == 2:
        left, right = option.tokens
        return tr.gettext("{left} + {right}").format(left=run.token_text(left), right=run.token_text(right))
    return run.token_text(option.tokens[0])


def counts_text(option: FieldOption, tr: gettext.NullTranslations | None = None) -> str:
    """How a WordPiece pair's score is reckoned (plain text): ``"2 ÷ (17 × 2)"``, its count over its parts'."""
    tr = tr or _ENGLISH
    count, first, second = option.counts
    return tr.gettext("{count} ÷ ({first} × {second})").format(
        count=f"{count:,}", first=f"{first:,}", second=f"{second:,}"
    )


def number_text(q: FieldQuestion, option: FieldOption) -> str:
    """An option's number alone: a WordPiece pair's score, ``"0.05882"``, or a Unigram token's loss increase,
    ``"+3.42"``."""
    return f"{option.value:.4g}" if q.kind == "wordpiece" else f"{option.value:+.4g}"


def value_text(q: FieldQuestion, option: FieldOption, tr: gettext.NullTranslations | None = None) -> str:
    """An option's number as the reveal's table shows it (plain text): a WordPiece pair's score with how it is
    reckoned, ``"2 ÷ (17 × 2) = 0.05882"``, or a Unigram token's loss increase, ``"+3.42"``."""
    if q.kind == "wordpiece":
        return f"{counts_text(option, tr)} = {number_text(q, option)}"
    return number_text(q, option)


def verdict_text(
    run, q: FieldQuestion, pick: int | None, label: Callable | None = None, tr: gettext.NullTranslations | None = None
) -> str:
    """The verdict on option ``pick`` (an index, ``None``: no pick) as one or two sentences (plain text, not
    escaped). ``label`` shows an option (default :func:`option_text`). Raises ``IndexError`` for an index outside
    the options."""
    tr = tr or _ENGLISH
    label = label or (lambda o: option_text(run, o, tr))
    verdict = grade(q, pick)
    chosen = q.options[q.answer]
    picked = q.options[pick] if pick is not None else None
    step, value = f"{q.merge:,}", f"{chosen.value:.4g}"
    if q.kind == "wordpiece":
        if verdict == RIGHT:
            return tr.gettext("Right! Merge {merge} joins {pair}, whose score {score} is the highest.").format(
                merge=step, pair=label(chosen), score=value
            )
        if verdict == TIED:
            return tr.gettext(
                "Tied: {picked} has the same score as {chosen}, {score}, and WordPiece merges the pair seen first in "
                "the corpus, {chosen}. Counted as tied, apart from right and wrong."
            ).format(picked=label(picked), chosen=label(chosen), score=value)
        if verdict == NO_PICK:
            return tr.gettext("No pick, not scored. Merge {merge} joins {pair}, whose score is {score}.").format(
                merge=step, pair=label(chosen), score=value
            )
        return tr.gettext(
            "Not this one: {picked} scores {picked_score}, but merge {merge} joins {chosen}, which scores {score}."
        ).format(
            picked=label(picked), picked_score=f"{picked.value:.4g}", merge=step, chosen=label(chosen), score=value
        )
    if verdict == RIGHT:
        return tr.gettext("Right! Round {round} removes {token}: without it the loss grows by only {increase}.").format(
            round=step, token=label(chosen), increase=value
        )
    if verdict == TIED:
        return tr.gettext(
            "Tied: without {picked} the loss grows by as little as without {token}, {increase}, and the round "
            "removes the one earlier in the vocabulary, {token}. Counted as tied, apart from right and wrong."
        ).format(picked=label(picked), token=label(chosen), increase=value)
    if verdict == NO_PICK:
        return tr.gettext("No pick, not scored. Round {round} removes {token}: the loss grows by {increase}.").format(
            round=step, token=label(chosen), increase=value
        )
    return tr.ngettext(
        "Not this one: without {picked} the loss grows by {picked_increase}; round {round} removes only the token "
        "with the lowest increase, {token} ({increase}).",
        "Not this one: without {picked} the loss grows by {picked_increase}; round {round} removes the {n} tokens "
        "with the lowest increases, among them {token} ({increase}).",
        q.removed,
    ).format(
        picked=label(picked),
        picked_increase=f"{picked.value:.4g}",
        round=step,
        n=f"{q.removed:,}",
        token=label(chosen),
        increase=value,
    )
