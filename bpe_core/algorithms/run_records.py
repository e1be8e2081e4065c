"""The values a :class:`~bpe_core.algorithms.run.TrainedRun` hands out: one merge (:class:`MergeStep`), one vocabulary
entry (:class:`VocabEntry`), one word type at a step (:class:`WordRow`). Token fields are token ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

_SHIFT = 32  # the trainer stores a pair (left, right) as the int left << 32 | right (faster to hash than a tuple)
_MASK = (1 << _SHIFT) - 1


class MergeStep(NamedTuple):
    """One merge: what the app shows for step ``step``. Immutable (a named tuple: cheap to make,
    compared by value, so a replayed run's snapshots compare equal).

    Token fields are token ids; turn them into text with :meth:`~bpe_core.algorithms.run.TrainedRun.token_text`, and ask the
    run for the word types a step changed (:meth:`~bpe_core.algorithms.run.TrainedRun.changed_words`).

    Attributes:
        step: 1-based merge number (also the rank of the merge, counting from 1).
        left, right: the merged pair (token ids).
        token: id of the resulting token; ``is_new`` is False when that string already existed.
        count: the pair's count (frequency-weighted occurrences) when chosen.
        ties: how many pairs had that count (exact); ``tie_break`` names the rule that chose.
        tied (property): the first ``max_tied`` tied pairs ``(left, right)`` in tie-break order, the
            chosen pair first.
        top_pairs (property): the top-K ``(left, right, count)`` before the merge, in tie-break order.
        tied_entries, top_entries: what ``tied`` and ``top_pairs`` are decoded from: the trainer's heap
            entries ``(-count, tie-break value, left << 32 | right)``. They are kept as they are because
            decoding them at every merge took about a sixth of the training time on a book: twenty
            small tuples per step, kept alive by the run, also made the garbage collector rescan the
            heap and the candidate lists every few thousand merges.
        vocab_size: vocabulary size after the merge; corpus_tokens: tokens in the whole corpus after it
            (each word type's token count times its frequency); occurrences: positions rewritten
            (unweighted); words_changed: word types rewritten.
        stop_reason: on the last snapshot, why training stopped; ``None`` otherwise.
        kind (property): ``"merge"``, the kind of step (renderers dispatch on it when algorithms with other
            kinds of step come).
    """

    step: int
    left: int
    right: int
    token: int
    is_new: bool
    count: int
    ties: int
    tied_entries: tuple
    tie_break: str
    top_entries: tuple
    vocab_size: int
    corpus_tokens: int
    occurrences: int
    words_changed: int
    stop_reason: str | None = None

    @property
    def kind(self) -> str:
        """What the step does: ``"merge"`` (see :data:`bpe_core.algorithms.seam.STEP_KINDS`)."""
        return "merge"

    @property
    def tied(self) -> tuple:
        """The tied pairs listed (at most ``max_tied``): ``((left, right), ...)``, the chosen pair first."""
        return tuple([(k >> _SHIFT, k & _MASK) for _, _, k in self.tied_entries])

    @property
    def top_pairs(self) -> tuple:
        """The pair-frequency table before the merge, top ``top_k``: ``((left, right, count), ...)``."""
        return tuple([(k >> _SHIFT, k & _MASK, -c) for c, _, k in self.top_entries])

    def _repr_html_(self) -> str:
        """A small HTML table of this step, for notebooks (see :func:`bpe_core.teaching.notebook.step_html`)."""
        from ..teaching.notebook import step_html

        return step_html(self)


@dataclass(frozen=True)
class VocabEntry:
    """A vocabulary entry: ``id``, its ``value`` (str or bytes), the ``step`` that created it (0 for the
    base alphabet) and the ``left``/``right`` ids it was merged from (``None`` for base symbols)."""

    id: int
    value: object
    step: int
    left: int | None
    right: int | None


@dataclass(frozen=True)
class WordRow:
    """One word type at a step: its index, text, frequency, token ids after the step, and whether this
    step changed it (``before`` holds its ids before the step when it did). ``tokens`` and ``before``
    may be cut (see :meth:`~bpe_core.algorithms.run.TrainedRun.corpus_view`'s ``max_tokens``); ``num_tokens`` and
    ``num_before`` count them all."""

    index: int
    word: str
    freq: int
    tokens: list
    changed: bool
    before: list | None = None
    num_tokens: int = 0
    num_before: int | None = None
