"""One step of a run as a plain value: what every picture of a step shows, computed once.

The stepper's panels (HTML), the steps drawn ahead in the browser, the PNG/GIF pictures and the handout
all draw a step from the values here, so they agree on its numbers: the merge (pair, new token, count,
ties, the tie-break rule, new or existing token, the corpus and vocabulary sizes), the pair rows before it
with their ranks and the chosen and tied ones marked, the words it changed (before → after, as token ids)
and, at step 0, the corpus it starts from.

The values hold numbers and token ids, no words: each renderer words them in its own language and draws
a token id in its own way (a chip, a box, a label). Every value is immutable: the aggregates are frozen
dataclasses; the small values a step holds many of (pair rows, chips, changed words) and the merge card are
named tuples, as :class:`~bpe_core.algorithms.run.MergeStep` is, because they are made for every step drawn and a frozen
dataclass takes five times as long to make (about 2 µs against 0.4 µs each).

A step is an event of a ``kind`` (:data:`MERGE` for every step of a BPE run, :data:`START` for step 0; an
algorithm adds its own kinds, e.g. a ``"removal"``). This module is the one place that turns a run's step record
into a view: :func:`step_view` reads the record's ``kind`` and calls the builder registered for it
(:func:`register_view`). Every view also carries parts every renderer can draw whatever the kind:
:attr:`StepView.headline` (the tokens involved, the token made or removed), :attr:`StepView.numbers` (numbers
with their meaning), :attr:`StepView.candidates` (an optional table of candidates with their scores) and the
words changed. A renderer dispatches on the kind in one table and draws a kind it has no drawing of from these
parts (see docs/API.md, "Step events"), so a new algorithm adds an event kind, not a renderer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..i18n import N_
from ..measures import total_words

#: The kind of every step of a BPE run: a pair merged into a token; and of step 0, the corpus it starts from.
MERGE, START = "merge", "start"

#: The meanings of a merge's :attr:`StepView.numbers` (message ids of the catalogs).
_COUNT, _VOCABULARY, _TOKENS = N_("Count"), N_("Vocabulary"), N_("Tokens")

#: Marks of a pair row: the pair the merge chose (or, at step 0, chooses next), a pair tied with it, a
#: pair the caller asked to mark (``marks`` of :func:`pair_rows`), or none.
CHOSEN, TIED, MARKED, NONE = "chosen", "tied", "marked", ""


class Chips(NamedTuple):
    """A word's segmentation as token chips: ``ids`` (the first ones when cut), ``total`` tokens in all,
    and ``new``, the token to highlight (the one the merge made), or ``None``."""

    ids: tuple[int, ...]
    total: int
    new: int | None = None


class PairRow(NamedTuple):
    """One row of a pair table: ``rank`` (1 = the best pair; ``None`` for a marked pair that is not in the
    table), the pair ``left``, ``right`` (token ids), its ``count`` (frequency-weighted) and ``mark``
    (:data:`CHOSEN`, :data:`TIED`, :data:`MARKED` or :data:`NONE`)."""

    rank: int | None
    left: int
    right: int
    count: int
    mark: str

    @property
    def tokens(self) -> tuple[int, int]:
        """The pair as a candidate's tokens (see :class:`Candidate`)."""
        return self.left, self.right


class Candidate(NamedTuple):
    """One row of a table of candidates of any kind of step (a :class:`PairRow` is one too): ``rank`` (1 = the
    best; ``None``: unranked), the ``tokens`` it is about (ids), its ``count`` (the score the step chose by) and
    ``mark`` (:data:`CHOSEN`, :data:`TIED`, :data:`MARKED` or :data:`NONE`)."""

    rank: int | None
    tokens: tuple[int, ...]
    count: int
    mark: str


class Headline(NamedTuple):
    """What a step did, in one line: the ``tokens`` involved (ids, in order), the token ``made`` and the token
    ``removed`` (ids; ``None``: none). A merge: ``((left, right), token, None)``; step 0: ``((), None, None)``."""

    tokens: tuple[int, ...]
    made: int | None = None
    removed: int | None = None


class Number(NamedTuple):
    """A number a step reports: its meaning ``label`` (an English message id of the catalogs, which a renderer
    translates; an algorithm adds its labels to the catalogs) and its ``value``."""

    label: str
    value: int


@dataclass(frozen=True, slots=True)
class PairRows:
    """The most frequent pairs before merge ``max(1, step)`` (at step 0: those the first merge chooses
    from), best first in the run's tie-break order. Another kind of step holds its candidates in one, as
    :class:`Candidate` rows (:attr:`StepView.candidates`).

    Attributes:
        rows: the rows shown.
        best: the highest count; ``ties``: how many pairs have it (all of them, shown or not).
        more_tied: tied pairs not among ``rows``.
        scale: the largest count among ``rows`` (at least 1), for bars.
    """

    rows: tuple[PairRow, ...]
    best: int
    ties: int
    more_tied: int
    scale: int


class MergeCard(NamedTuple):
    """What merge ``step`` did.

    Attributes:
        kind: :data:`MERGE`.
        step: the merge's number (1-based).
        left, right, token: the pair and the token it became (ids); ``is_new``: False when that token was
            already in the vocabulary, made at step ``made_at`` (``made_at == step`` for a new one).
        count: the pair's count when chosen; ``ties``: pairs with that count; ``tie_break``: the rule that
            chose among them (a key of :data:`bpe_core.teaching.explain.TIE_RULES`).
        occurrences: places rewritten; ``words_changed``: word types rewritten.
        corpus_tokens, corpus_tokens_before: tokens in the corpus after and before the merge.
        vocab_size: the vocabulary's size after it.
    """

    kind: str
    step: int
    left: int
    right: int
    token: int
    is_new: bool
    made_at: int
    count: int
    ties: int
    tie_break: str
    occurrences: int
    words_changed: int
    corpus_tokens: int
    corpus_tokens_before: int
    vocab_size: int


@dataclass(frozen=True, slots=True)
class StartView:
    """The corpus before the first merge: ``is_bytes`` (split into bytes, else characters), ``word_types``,
    ``words`` (with their frequencies), ``corpus_tokens`` and ``base_symbols`` (the starting vocabulary)."""

    is_bytes: bool
    word_types: int
    words: int
    corpus_tokens: int
    base_symbols: int


class WordView(NamedTuple):
    """A word type at a step: its ``index`` in the run, text, frequency, its tokens ``after`` the step and,
    when the step changed it, ``before`` it (else ``None``)."""

    index: int
    word: str
    freq: int
    before: Chips | None
    after: Chips


@dataclass(frozen=True, slots=True)
class StepView:
    """Step ``step`` of a run of ``num_steps`` steps (0 = the starting segmentation).

    Attributes:
        kind: the step's event kind (:data:`MERGE`; :data:`START` at step 0; another algorithm's own kind).
        start: at step 0, the corpus it starts from; else ``None``.
        merge: the merge of this step (``None`` at step 0).
        next: at step 0, the first merge, if there is one; else ``None``.
        pairs: the pair rows before the merge (:func:`pair_rows`); ``None`` when the run has no merge.
        changed: the first word types the merge changed (as many as asked for); ``words_changed``: all of them.
        stop_reason: why training stopped, when this is the last step of a finished run; else ``None``.
        headline, numbers, candidates: the parts any renderer can draw of a step of any kind (see the module
            doc): a :class:`Headline`, :class:`Number` values and a :class:`PairRows` of :class:`Candidate` rows
            (or ``None``); a merge's candidates are its ``pairs``.
    """

    kind: str
    step: int
    num_steps: int
    start: StartView | None
    merge: MergeCard | None
    next: MergeCard | None
    pairs: PairRows | None
    changed: tuple[WordView, ...]
    words_changed: int
    stop_reason: str | None
    headline: Headline = Headline(())
    numbers: tuple[Number, ...] = ()
    candidates: PairRows | None = None


#: ``build(run, step, pairs, words, max_tokens) -> StepView`` for a step (>= 1) of each kind (see step_view).
ViewBuilder = Callable[..., StepView]


def merge_card(run, step: int) -> MergeCard:
    """Merge ``step`` (``1..run.num_steps``) of ``run`` as a :class:`MergeCard`. Raises IndexError outside."""
    snap = run.snapshot(step)
    return MergeCard(
        kind=MERGE,
        step=step,
        left=snap.left,
        right=snap.right,
        token=snap.token,
        is_new=snap.is_new,
        made_at=run.created_step[snap.token],
        count=snap.count,
        ties=snap.ties,
        tie_break=snap.tie_break,
        occurrences=snap.occurrences,
        words_changed=snap.words_changed,
        corpus_tokens=snap.corpus_tokens,
        corpus_tokens_before=run.corpus_tokens(step - 1),
        vocab_size=snap.vocab_size,
    )


def start_view(run) -> StartView:
    """The corpus of ``run`` before its first merge."""
    return StartView(
        is_bytes=run.variant.is_bytes,
        word_types=run.num_words,
        words=total_words(run),
        corpus_tokens=run.corpus_tokens(0),
        base_symbols=run.vocab_size_at(0),
    )


def pair_rows(run, step: int, limit: int = 10, marks=(), exact: bool = False) -> PairRows:
    """The top ``limit`` pairs before merge ``max(1, step)`` of ``run`` (``step`` in ``0..run.num_steps``).

    By default they are read from the merge's snapshot (the run keeps its top ``config.top_k``), the first
    one marked :data:`CHOSEN` and the others with its count :data:`TIED`; the run must have a merge.
    With ``marks`` (pairs ``(left_id, right_id)``) or ``exact``, they are counted again over the corpus
    after step ``max(0, step - 1)`` (the whole table, also for a run without merges): nothing is marked
    chosen, a pair of ``marks`` is :data:`MARKED` (and added with its rank when it is beyond ``limit``, with
    rank ``None`` and count 0 when it is not in the table), the others with the best count :data:`TIED`.
    """
    if marks or exact:
        table = run.pair_table(max(0, step - 1))
        best = table[0][2] if table else 0
        ties = sum(1 for row in table if row[2] == best)
        ranked = list(enumerate(table, start=1))
        picked = ranked[:limit] + [r for r in ranked[limit:] if (r[1][0], r[1][1]) in marks]
        known = {(a, b) for a, b, _c in table}
        picked += [(None, (a, b, 0)) for a, b in marks if (a, b) not in known]
        rows = tuple(
            PairRow(rank, a, b, c, MARKED if (a, b) in marks else TIED if c == best else NONE)
            for rank, (a, b, c) in picked
        )
    else:
        snap = run.snapshot(max(1, step))
        best, ties = snap.count, snap.ties
        rows = tuple(
            PairRow(rank, a, b, c, CHOSEN if rank == 1 else TIED if c == best else NONE)
            for rank, (a, b, c) in enumerate(snap.top_pairs[:limit], start=1)
        )
    shown_tied = sum(1 for row in rows if row.count == best)
    scale = max((row.count for row in rows), default=1) or 1
    return PairRows(rows, best, ties, ties - shown_tied, scale)


def changed_words(run, step: int, limit: int | None = None, max_tokens: int | None = None, segment=None):
    """The first ``limit`` word types merge ``step`` changed (all with ``None``), in corpus order, as a tuple
    of :class:`WordView` with the merge's token to highlight; ``()`` at step 0.

    ``max_tokens``: the most tokens kept of each segmentation (``total`` counts them all).
    ``segment(index, step)``: the token ids of a word type at a step, when the caller keeps them
    (default: ``run.segmentation``); only without ``max_tokens``."""
    if step < 1:
        return ()
    new = run.snapshot(step).token
    indices = run.changed_word_indices(step)[:limit]
    return tuple(
        WordView(
            i,
            run.words[i],
            run.freqs[i],
            _chips(run, i, step - 1, max_tokens, None, segment),
            _chips(run, i, step, max_tokens, new, segment),
        )
        for i in indices
    )


def word_views(run, step: int, indices, changed=frozenset(), segment=None) -> tuple[WordView, ...]:
    """The word types ``indices`` of ``run`` at ``step`` as :class:`WordView`; those in ``changed`` (indices the
    merge changed) with their tokens before it and the merge's token highlighted. ``segment`` as in
    :func:`changed_words`."""
    new = run.snapshot(step).token if step >= 1 else None
    return tuple(
        WordView(
            i,
            run.words[i],
            run.freqs[i],
            _chips(run, i, step - 1, None, None, segment) if i in changed else None,
            _chips(run, i, step, None, new if i in changed else None, segment),
        )
        for i in indices
    )


def _chips(run, index: int, step: int, max_tokens: int | None, new: int | None, segment) -> Chips:
    if max_tokens is None:
        ids = (segment or run.segmentation)(index, step)
        return Chips(tuple(ids), len(ids), new)
    return Chips(tuple(run.segmentation(index, step, max_tokens)), run.token_count(index, step), new)


def step_view(run, step: int, pairs: int = 10, words: int = 0, max_tokens: int | None = None) -> StepView:
    """Step ``step`` (``0..run.num_steps``) of ``run`` as a :class:`StepView`, made by the builder registered for
    the kind of the step's record (:func:`register_view`).

    Args:
        run: a :class:`~bpe_core.algorithms.run.TrainedRun` (or a view of one still training).
        pairs: pair rows kept (at most the run's ``config.top_k``).
        words: changed word types kept (their count is whole); ``max_tokens``: tokens kept of each.

    Raises:
        IndexError: ``step`` beyond the run's steps.
        ValueError: a step of a kind no builder is registered for.
    """
    n = run.num_steps
    if not 0 <= step <= n:
        raise IndexError(f"step {step} is outside 0..{n}")
    kind = run.snapshot(step).kind if step else START
    # Step 0 is the algorithm's own starting state; a run of no registered algorithm starts as BPE's does.
    build = (
        _VIEWS.get(kind) if step else _STARTS.get(getattr(getattr(run, "config", None), "algorithm", ""), _merge_view)
    )
    if build is None:
        raise ValueError(f"no step view for steps of kind {kind!r}: register one (register_view)")
    return build(run, step, pairs, words, max_tokens)


def _merge_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """The view of a merge, and of step 0 (the corpus before the first merge, and that merge next)."""
    n = run.num_steps
    merge = merge_card(run, step) if step >= 1 else None
    rows = pair_rows(run, step, pairs) if n else None
    return StepView(
        kind=MERGE if step >= 1 else START,
        step=step,
        num_steps=n,
        start=start_view(run) if step == 0 else None,
        merge=merge,
        next=merge_card(run, 1) if step == 0 and n else None,
        pairs=rows,
        changed=changed_words(run, step, words, max_tokens) if words else (),
        words_changed=merge.words_changed if merge else 0,
        stop_reason=run.stop_reason if step == n else None,
        headline=Headline((merge.left, merge.right), merge.token) if merge else Headline(()),
        numbers=(
            (Number(_COUNT, merge.count), Number(_VOCABULARY, merge.vocab_size), Number(_TOKENS, merge.corpus_tokens))
            if merge
            else ()
        ),
        candidates=rows,
    )


#: The view builder of each kind of step (:func:`register_view`).
_VIEWS: dict[str, ViewBuilder] = {START: _merge_view, MERGE: _merge_view}


def register_view(kind: str, build: ViewBuilder) -> None:
    """Make :func:`step_view` build the view of a step whose record's ``kind`` is ``kind`` with
    ``build(run, step, pairs, words, max_tokens)`` (the arguments of :func:`step_view`; ``step >= 1``), which returns
    a :class:`StepView` of that kind with its headline, numbers, candidates and changed words filled. An algorithm
    with a new kind of step registers its builder; a kind registered again is replaced."""
    _VIEWS[kind] = build


#: The view builder of step 0 of each algorithm other than BPE (:func:`register_start`).
_STARTS: dict[str, ViewBuilder] = {}


def register_start(algorithm: str, build: ViewBuilder) -> None:
    """Make :func:`step_view` build step 0 of a run of ``algorithm`` (its ``config.algorithm``) with ``build``
    (called as :func:`register_view`'s, with ``step == 0``), which returns a :class:`StepView` of kind
    :data:`START`: the algorithm's starting state in its ``start``, headline, numbers and candidates. Without
    one, step 0 is BPE's (the corpus split into its base symbols, the pairs the first merge chooses from)."""
    _STARTS[algorithm] = build
