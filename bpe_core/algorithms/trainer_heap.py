"""The trainer's choice of the best pair: a heap of pair counts with lazy invalidation, read by ``_peek``
(see :mod:`bpe_core.algorithms.trainer` for the algorithm as a whole).

:class:`_BestPairs` is one part of :class:`~bpe_core.algorithms.trainer.Trainer`. ``_peek_given`` is the
choice when the caller gives the merges (the trainer's ``merges`` argument): the given pair first, then the
best pairs as ``_peek`` finds them, so the snapshot's pair table is the same as any run's.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable
from operator import itemgetter

from .run_records import _MASK, _SHIFT
from .trainer_tables import _view

_pair_of = itemgetter(2)  # the pair of a heap entry (-count, tie-break value, pair)


class _BestPairs:
    """The best pairs of the trainer's counts (``_peek``), kept in ``_heap`` and ``_low``."""

    def _tiebreak(self, pk: int):
        """The pair's tie-break value (smaller wins): :class:`~bpe_core.algorithms.tiebreak.TieKey`'s, except that for
        first-seen it is read here from the candidate positions: the first candidate not known to be
        stale, a lower bound of the first live position (exact when nothing before it has gone stale)."""
        if self._packed_key is None:
            return _view(self._where[pk])[self._head.get(pk, 0)]
        return self._packed_key(pk)

    def _make_exact(self) -> Callable[[tuple], tuple | None]:
        """``exact(entry)``: the true heap entry ``(-count, tie-break value, pair)`` of a heap entry's pair
        (``entry`` itself when it is still true), or ``None`` if the pair is gone. A closure over the tables
        (no attribute lookups): it is the loop's most frequent call."""
        count_get = self._count.get
        if self._packed_key is not None:
            tiebreak = self._packed_key

            def exact(entry: tuple):
                pk = entry[2]
                c = count_get(pk, 0)
                if c <= 0:
                    return None
                return entry if -entry[0] == c else (-c, tiebreak(pk), pk)  # (the key never changes)

            return exact
        tok, nxt, where, head = self._tok, self._nxt, self._where, self._head

        def exact_first_seen(entry: tuple):
            neg_count, p, pk = entry
            c = count_get(pk, 0)
            if c <= 0:
                return None
            a, b = pk >> _SHIFT, pk & _MASK
            # An entry's position was the pair's first occurrence when it was made; while the pair is still
            # there, nothing before it can be (a pair never comes back to a position it left).
            if -neg_count == c and tok[p] == a and tok[nxt[p]] == b:  # (no next: nxt -1 reads the sentinel)
                return entry
            # The first live position: skip candidates gone stale (each only once, thanks to ``head``).
            lst = _view(where[pk])
            i = head.get(pk, 0)
            while True:
                p = lst[i]
                if tok[p] == a and tok[nxt[p]] == b:
                    break
                i += 1
            head[pk] = i
            return (-c, p, pk)

        return exact_first_seen

    # ------------------------------------------------------------------------------------ best pairs
    def _peek(self, want: int, max_tied: int) -> list:
        """The best pairs now as exact heap entries ``[(-count, tie-break value, pair)]``, best first -- at
        least ``want`` of them (if there are that many) and every pair tied with the best up to ``max_tied``.

        Heap entries may be stale: a pair's count only falls between pushes and it is re-pushed whenever
        it gains occurrences, so a stale entry is never better than the truth; when one surfaces it is
        corrected and pushed again. The pairs returned last time are kept aside (``_top``) rather than
        pushed back, because most of them are still on top; only those the last merge touched are
        re-checked, then only heap entries that could beat the selection are popped.
        """
        heap = self._heap
        pop = heapq.heappop
        low = self._low
        exact = self._exact
        touched = self._touched
        cands = self._top[1:]  # _top[0] is the pair the last merge removed; the rest are still sorted
        if not touched.keys().isdisjoint(map(_pair_of, cands)):
            fresh = (exact(e) if e[2] in touched else e for e in cands)
            cands = sorted(e for e in fresh if e is not None)
        cut = _cut(cands, want, max_tied)
        while True:
            # Every entry of ``heap`` has a count of at least min_count, every one of ``low`` less: ``low``
            # is read only once ``heap`` is empty.
            if not heap and low is None:
                low = self._low_heap()
            src = heap or low
            if not src or (cut >= 0 and not src[0] < cands[cut]):
                break
            entry = pop(src)
            true = exact(entry)
            if true is None:
                continue
            if true != entry:
                self._push(true)
                continue
            # Exact entries of one pair are equal, so a pair already among the candidates (a rebuilt
            # token re-pushed it, rule 4, or _low was made from the counts) is found next to its
            # insertion point.
            i = bisect.bisect_left(cands, entry)
            if i < len(cands) and cands[i] == entry:
                continue
            cands.insert(i, entry)
            cut = _cut(cands, want, max_tied)
        if cut >= 0:
            for entry in cands[cut + 1 :]:
                self._push(entry)
            del cands[cut + 1 :]
        self._top = cands
        return cands

    def _push(self, entry: tuple) -> None:
        """Push a heap entry ``(-count, tie-break value, pair)`` to ``_heap`` or ``_low`` by its count (to
        nowhere while ``_low`` is not made: its pair will be in it when it is)."""
        if -entry[0] >= self._min_count:
            heapq.heappush(self._heap, entry)
        elif self._low is not None:
            heapq.heappush(self._low, entry)

    def _low_heap(self) -> list:
        """``_low``, made from the counts the first time it is asked for (see ``_Tables._build``). Entries are
        exact but for the first-seen tie-break value, a lower bound as in ``_heap``. A pair that
        ``_peek`` kept aside may be in it too: ``_peek`` skips an entry it already holds."""
        if self._low is None:
            tiebreak, min_count = self._tiebreak, self._min_count
            self._low = [(-c, tiebreak(pk), pk) for pk, c in self._count.items() if c < min_count]
            heapq.heapify(self._low)
        return self._low

    def _peek_given(self, want: int, max_tied: int) -> list:
        """:meth:`_peek` when the merges are given (see ``Trainer``): the given pair of this step first, as an
        exact heap entry, then the best pairs, without it; once the given merges are used up, :meth:`_peek`.
        An empty list (training stops as ``"no_pairs"``) when the given pair does not occur, unless the trainer
        resumes (``resume``): then that pair is skipped and the next given one is tried."""
        top = self._peek(want, max_tied)
        given, skipped = self._given, self.skipped
        ids = self.run.value_to_id
        k = self.run.num_steps + len(skipped)
        self._replaying = False
        while k < len(given):
            left, right = given[k]
            entry = None
            if left in ids and right in ids:
                # (0, 0, pair): a placeholder the exact count and tie-break value replace (None: the pair is absent).
                entry = self._exact((0, 0, ids[left] << _SHIFT | ids[right]))
            if entry is not None:
                self._replaying = self._resume
                self._top = [entry, *(e for e in top if e[2] != entry[2])]  # _peek's next call drops _top[0]
                return self._top
            if not self._resume:
                self._top = []
                return []
            skipped.append((left, right))
            k += 1
        return top


def _cut(cands: list, want: int, max_tied: int) -> int:
    """Index of the last entry :meth:`Trainer._peek` must keep from the sorted ``cands``: the shortest
    prefix with ``want`` entries that also ends the run of ties with the best (or holds ``max_tied`` of
    them); -1 if ``cands`` is too short to tell, so more must come from the heap."""
    n = len(cands)
    if n < want:
        return -1
    best = cands[0][0]
    # The cut is the first index i >= want - 1 whose entry is not tied with the best, or where
    # max_tied tied entries have been seen (at once when max_tied <= want, as with the defaults 10 and 10).
    i = want - 1
    limit = max_tied - 1
    while i < n:
        if cands[i][0] != best or i >= limit:
            return i
        i += 1
    return -1
