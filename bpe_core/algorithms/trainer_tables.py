"""The trainer's set-up: the per-position tables of the flat corpus, the initial pair count, and how
candidate positions are packed (see :mod:`bpe_core.algorithms.trainer` for the algorithm as a whole).

:class:`_Tables` is one part of :class:`~bpe_core.algorithms.trainer.Trainer` (with the best pairs of
:mod:`.trainer_heap` and the merge of :mod:`.trainer_merge`); it holds ``_build``, run once per training.
The helpers below are module-level functions and constants, not methods, because the merge's hot loops
read them as globals (one dictionary lookup) or bind them to locals.
"""

from __future__ import annotations

import heapq
import struct
import sys
from array import array
from collections import defaultdict, deque
from collections.abc import Callable
from functools import partial
from itertools import accumulate, compress, islice, repeat
from operator import add, floordiv, ge, gt, itemgetter, lshift, mod, mul, neg, or_, setitem, sub

from .run_records import _SHIFT
from .tiebreak import TieKey, base_alphabet

# A new, empty list of positions (C ints, read back as signed through _view). Unsigned, because an
# array parses a signed item the slow general way when it is written; positions are never negative.
_positions = partial(array, "I")
# One position as packed bytes (a C int), and the first position of packed bytes (as a 1-tuple).
_pack, _unpack_first = struct.Struct("i").pack, struct.Struct("i").unpack_from
_pack_unsigned = struct.Struct("I").pack


def _getter(indices) -> Callable:
    """``itemgetter(*indices)``, which returns a tuple even for one index."""
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    return itemgetter(*indices)


def _scatter(table, positions, values) -> None:
    """``table[p] = v`` for each ``p`` in ``positions`` and ``v`` in ``values``, in C."""
    deque(map(setitem, repeat(table), positions, values), 0)


def _byte_ids(data: bytes) -> array:
    """The bytes of ``data`` as an ``array("i")`` of their values (0..255), made in C: each byte written into the
    low byte of a zeroed C int (``array.extend(data)`` converts them one by one, ten times slower; ``array("i",
    data)`` would read the bytes as raw C ints)."""
    size = _INT_SIZE
    spread = bytearray(size * len(data))
    spread[0 if sys.byteorder == "little" else size - 1 :: size] = data
    out = array("i")
    out.frombytes(spread)
    return out


_INT_SIZE = array("i").itemsize


def _view(packed: bytes) -> memoryview:
    """The positions in a packed candidate list (see ``_Tables._build``), as a sequence of ints."""
    return memoryview(packed).cast("i")


class _Tables:
    """The trainer's tables, built from the word list (``_build``), which ends by making the heap of pairs with the
    tie-break values and the ``exact`` check of :class:`~.trainer_heap._BestPairs`."""

    # ----------------------------------------------------------------------------------------- set-up
    def _build(self, words: dict[str, int]) -> None:
        run = self.run
        variant = self.variant
        word_list = list(words)
        freqs = list(map(int, words.values()))
        if min(freqs, default=1) <= 0:
            raise ValueError("word frequencies must be positive")
        if variant.is_bytes:
            values: list = [bytes((b,)) for b in range(256)]
            encoded = list(map(str.encode, word_list))
            lengths = list(map(len, encoded))
            base_ids = _byte_ids(b"".join(encoded))
        else:
            symbols, lengths = variant.corpus_symbols(word_list)
            values = base_alphabet(symbols, variant)
            index = {v: i for i, v in enumerate(values)}
            # (Filled as unsigned, the fast way for an array to take ints (see _positions), then read as
            # the same C ints.)
            base_ids = array("i", array("I", map(index.__getitem__, symbols)).tobytes())
            del symbols  # (a list as long as the corpus: gone before the collector next walks what is new)
        n = len(base_ids)
        if n >= 2**31 - 1:
            raise ValueError(f"the corpus has {n:,} symbols; the trainer handles fewer than 2**31")
        word_start = array("q", accumulate(lengths, initial=0))
        run._init_corpus(word_list, freqs, word_start, values, base_ids)

        # Per-position tables, indexed by the position of a symbol in the flat corpus (word types in
        # order, each word's symbols in order): its token (-1 once merged into the token on its left),
        # the next and previous live positions of its word (-1: none), its word type (whose frequency is
        # ``freqs[word]``). They are arrays of C ints, read and written through memoryviews. A list would
        # hold an int object per position (88 bytes a position for the four tables, against 16), and the
        # merges read and write positions all over the corpus: through a list, each access also touches
        # that object somewhere else in memory. On a book (pg16457: 107,000 positions) the merges run
        # about 7% faster on arrays, and the garbage collector has no list to walk through. A
        # memoryview writes an item the quick way; an array's own setitem parses a signed item the slow
        # general way (PyArg_Parse), which is also why the tables are filled as unsigned ("I") arrays.
        # tok, nxt and prv have one more entry, at index n: a sentinel token -1 that no pair holds, so a
        # neighbour -1 reads as tok[-1], the sentinel, with no test for the word's edges.
        tok = base_ids + array("i", (-1,))
        nxt = array("i", array("I", range(1, n + 2)).tobytes())
        nxt[n] = -1
        prv = (array("i", (-1, 0)) + nxt[: max(n - 1, 0)])[: n + 1]  # i - 1 at i, copied from nxt
        tok, nxt, prv = self._tok, self._nxt, self._prv = memoryview(tok), memoryview(nxt), memoryview(prv)
        inside = bytearray(b"\x01") * n  # 0 where a word ends: no pair starts there
        # A word of no symbols (``lengths`` 0) has no edges to mark.
        last = list(compress(map(sub, islice(word_start, 1, None), repeat(1)), lengths))
        _scatter(nxt, last, repeat(-1))
        _scatter(inside, last, repeat(0))
        _scatter(prv, compress(word_start, lengths), repeat(-1))
        # (Each word's index packed once and repeated over its symbols, in C: no int per position.)
        pos_word = array("I")
        pos_word.frombytes(b"".join(map(mul, map(_pack_unsigned, range(len(word_list))), lengths)))
        self._pos_word = memoryview(pos_word)
        self._freqs = freqs
        self._corpus_tokens = tokens0 = sum(map(mul, freqs, lengths))
        if self._replayed is not None:  # (SuperBPE's stage 2) the merges replayed before the pairs are counted
            from .superbpe_replay import lay_out

            width, keys, starts, pair_start = lay_out(self, self._replayed, b"".join(encoded), word_start)
        else:
            width = len(values)
            keys = starts = pair_start = None

        # Initial pair count: the only full pass over the corpus. ``where[pair]`` lists candidate
        # positions: every position where the pair has occurred. Entries go stale when a neighbouring
        # merge rewrites them and are filtered when read (a pair never comes back to a position it left,
        # because tokens only grow), which is cheaper than deleting them one by one. Each list is kept
        # packed (``bytes`` of C ints, read through :func:`_view`): hundreds of thousands of small
        # lists or arrays would be as many objects for the garbage collector to walk through.
        # The pass runs in C (map, compress): as Python statements, a book's millions of positions take
        # seconds. Inside a word, the pair at p is (tok[p], tok[p + 1]), keyed here by the small int
        # left * width + right (ints below 2**30 are Python's cheapest), and repacked below.
        groups: dict[int, array] = defaultdict(_positions)
        if keys is None:
            small = compress(map(add, map(mul, islice(tok, n), repeat(width)), islice(tok, 1, None)), inside)
            keys = array("Q", small)  # (C ints: a tuple of them would be one more object for the collector to walk)
            starts = compress(range(n), inside)
        # (deque(iterator, 0) runs an iterator to its end in C, keeping nothing: here, appending each position
        # to its pair's group, which the defaultdict finds, or makes.)
        deque(map(array.append, map(groups.__getitem__, keys), starts), 0)
        counts = dict(zip(groups, map(len, groups.values())))
        # A word type seen f times counts f times: add the other copies (a few percent of a book's places).
        # ``keys`` lists the pairs word after word; a word of L symbols has L - 1 of them (none when empty).
        if pair_start is None:
            pair_start = array("q", accumulate(map(sub, lengths, map(bool, lengths)), initial=0))
        for i in compress(range(len(freqs)), map(gt, freqs, repeat(1))):
            extra = freqs[i] - 1
            for key in keys[pair_start[i] : pair_start[i + 1]]:
                counts[key] += extra
        # Repacked in C (SuperBPE's stage 2 starts with tens of thousands of pairs); ``counts`` is in ``groups``' order.
        packed = list(
            map(or_, map(lshift, map(floordiv, groups, repeat(width)), repeat(_SHIFT)), map(mod, groups, repeat(width)))
        )
        count = dict(zip(packed, counts.values()))
        where = dict(zip(packed, map(array.tobytes, groups.values())))
        self._count, self._where = count, where
        # For first-seen, ``head[pair]`` indexes the first candidate not yet known to be stale, so the
        # pair's first occurrence (positions are ordered by word type, then offset) is found by
        # skipping stale candidates once each.
        self._head: dict[int, int] = {}
        hist: dict[int, int] = defaultdict(int)
        for c in self._count.values():
            hist[c] += 1
        self._hist = hist

        # The tie-break key of each pair (grown as merges add tokens).
        self._key = TieKey(self.config.tie_break, values)
        for value in run.values[len(values) :]:  # (tokens the replayed merges made)
            self._key.add(value)
        self._packed_key = None if self.config.tie_break == "first-seen" else self._key.packed(_SHIFT)
        # Only pairs seen at least min_frequency times go to ``_heap``. The others (most pairs of a book,
        # and most pairs a merge creates: seen once) are needed only once too few pairs are left in
        # ``_heap`` to fill a snapshot's top pairs, near the end of a run; until then keeping them in a
        # heap would cost a push per new pair for nothing. So ``_low``, their heap, is made from the
        # counts the first time ``_heap`` runs dry (see _peek), and kept up to date from then on.
        self._min_count = min_count = self.config.min_frequency
        # (The tie-break value as _tiebreak gives it, inlined: no candidate is known to be stale yet, so a first-seen
        # value is the first candidate position.)
        if self._packed_key is None:  # (in C: SuperBPE's stage 2 starts with tens of thousands of pairs)
            pks = list(compress(count, map(ge, count.values(), repeat(min_count))))
            firsts = map(itemgetter(0), map(_unpack_first, map(where.__getitem__, pks)))
            self._heap = list(zip(map(neg, map(count.__getitem__, pks)), firsts, pks))
        else:
            key = self._packed_key
            self._heap = [(-c, key(pk), pk) for pk, c in count.items() if c >= min_count]
        heapq.heapify(self._heap)
        self._low: list | None = None  # None: not made yet
        self._top: list = []  # the entries _peek returned last, kept out of the heap
        # Pairs whose count or first position the last merge changed (the pairs it took occurrences
        # from; the pairs it created cannot be among the kept top pairs yet, except for a rebuilt token).
        self._touched: dict = {}
        self._exact = self._make_exact()
        run._series_start(len(values), tokens0)
