"""The BPE merge loop: learn merges one at a time and yield a snapshot after each.

The rules (shown in the app's "How BPE works" page, and in :data:`RULES`):

1. **Counting.** Every adjacent pair of tokens inside every word type is counted, weighted by the
   word's frequency. Overlapping windows all count: ``a a a`` holds the pair ``(a, a)`` twice.
   Pairs never cross pre-token boundaries.
2. **Choosing.** The pair with the highest count wins. Ties are broken by ``tie_break``:

   * ``first-seen`` (default): the pair whose first occurrence is earliest, scanning word types in
     order of first appearance and then positions left to right. This is what the textbook
     ``max(pairs, key=pairs.get)`` loop, tiktoken's ``_educational.bpe_train`` and karpathy/minbpe do
     (Python's ``max`` keeps the first of equal keys in dict insertion order).
   * ``hf``: Hugging Face ``tokenizers``' ``BpeTrainer``: the smallest ``(id_left, id_right)``, where ids
     go to the base alphabet sorted by code point (byte-level: by the code point of each byte's
     GPT-2 alias), then to the end-of-word symbols (``eow``: the separate marker, or the attached
     ``x</w>`` symbols sorted by code point -- Hugging Face also numbers them after the plain
     characters, though among themselves in hash-map order), then to merged tokens in creation order.
   * ``lexical``: subword-nmt's ``learn_bpe``: the lexicographically largest ``(left, right)`` pair of
     strings (byte-level: of byte strings).
3. **Applying.** A merge replaces each occurrence left to right without overlap: ``a a a`` → ``aa a``.
4. **Tokens are strings.** The new token's value is ``left + right``. If two merges make the same string
   (``ab + c`` and ``a + bc``), it is one vocabulary entry with one id, as in Hugging Face
   ``tokenizers`` and tiktoken's trainer; the vocabulary does not grow at the second merge.
5. **Stopping.** Before each merge: stop after ``num_merges`` merges (``"num_merges"``), when the
   vocabulary holds ``vocab_size`` tokens (``"vocab_size"``, base alphabet included), when no pair is
   left (``"no_pairs"``), or when the best count is below ``min_frequency`` (``"min_frequency"``;
   default 2, so a pair seen once is not merged).

The loop is incremental (the "linked symbols + position index" scheme of fast BPE trainers): after the
initial count, one merge costs time proportional to the occurrences of the merged pair and their
neighbours -- never a rescan of the corpus or of a whole long word. Positions index one flat array of
every word type's symbols; each pair keeps the ascending list of positions where it has started
(entries gone stale are skipped when read); a heap with lazy invalidation finds the best pair.
A snapshot holds only what the merge produced anyway (undecoded heap entries, the rewritten
positions), so keeping all 10,000 snapshots of a book costs little time and memory.
"""

from __future__ import annotations

import bisect
import heapq
import struct
from array import array
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from functools import partial
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, and_, eq, gt, itemgetter, mul, ne, setitem, sub

from ..config import TrainConfig
from ..pretokenize import word_counts
from ..teaching.explain import RULES as RULES  # re-exported: the rules and their tie-break wording live in explain
from .run import TrainedRun
from .run_records import _MASK, _SHIFT, MergeStep
from .tiebreak import TIE_BREAKS, TieKey, base_alphabet

__all__ = [
    "RULES",
    "STOP_REASONS",
    "TIE_BREAKS",
    "MergeStep",
    "TrainConfig",
    "Trainer",
    "corpus_words",
    "train",
]

STOP_REASONS = ("num_merges", "vocab_size", "no_pairs", "min_frequency")

# Candidate lists at least this long are merged by Trainer._merge_batch (for shorter ones its set-up
# costs more than the loop).
_BATCH_MIN = 64
_BLOCK = 4096  # candidates per block of Trainer._merge_batch
# A new, empty list of positions (C ints, read back as signed through _view). Unsigned, because an
# array parses a signed item the slow general way when it is written; positions are never negative.
_positions = partial(array, "I")
# One position as packed bytes (a C int), and the first position of packed bytes (as a 1-tuple).
_pack, _unpack_first = struct.Struct("i").pack, struct.Struct("i").unpack_from
# A MergeStep made from a tuple of all its fields in C: its __new__ is a Python function (a hot call).
_new_step = tuple.__new__
_pair_of = itemgetter(2)  # the pair of a heap entry (-count, tie-break value, pair)


def _getter(indices) -> Callable:
    """``itemgetter(*indices)``, which returns a tuple even for one index."""
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    return itemgetter(*indices)


def _scatter(table, positions, values) -> None:
    """``table[p] = v`` for each ``p`` in ``positions`` and ``v`` in ``values``, in C."""
    deque(map(setitem, repeat(table), positions, values), 0)


def _view(packed: bytes) -> memoryview:
    """The positions in a packed candidate list (see ``Trainer._build``), as a sequence of ints."""
    return memoryview(packed).cast("i")


class Trainer:
    """Incremental BPE trainer over the word types of a corpus.

    Args:
        words: ``{word: frequency}`` in first-appearance order (from :func:`corpus_words`).
        config: a :class:`TrainConfig`.

    Use ``for snap in trainer.steps(): ...``; :attr:`run` answers questions about the steps so far
    (see :class:`bpe_core.run.TrainedRun`). Raises ``ValueError`` for bad settings.
    """

    def __init__(self, words: dict[str, int], config: TrainConfig):
        self.config = config.validate()
        self.variant = config.make_variant()
        self.run = TrainedRun(self.variant, config)
        self._build(words)

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
            base_ids = array("i")
            base_ids.extend(b"".join(encoded))  # (array("i", some_bytes) would read them as raw C ints)
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
        self._pos_word = memoryview(array("I", chain.from_iterable(map(repeat, range(len(word_list)), lengths))))
        self._freqs = freqs
        self._corpus_tokens = sum(map(mul, freqs, lengths))

        # Initial pair count: the only full pass over the corpus. ``where[pair]`` lists candidate
        # positions: every position where the pair has occurred. Entries go stale when a neighbouring
        # merge rewrites them and are filtered when read (a pair never comes back to a position it left,
        # because tokens only grow), which is cheaper than deleting them one by one. Each list is kept
        # packed (``bytes`` of C ints, read through :func:`_view`): hundreds of thousands of small
        # lists or arrays would be as many objects for the garbage collector to walk through.
        # The pass runs in C (map, compress): as Python statements, a book's millions of positions take
        # seconds. Inside a word, the pair at p is (tok[p], tok[p + 1]), keyed here by the small int
        # left * width + right (ints below 2**30 are Python's cheapest), and repacked below.
        width = len(values)
        small = compress(map(add, map(mul, islice(tok, n), repeat(width)), islice(tok, 1, None)), inside)
        groups: dict[int, array] = defaultdict(_positions)
        keys = array("Q", small)  # (C ints: a tuple of them would be one more object for the collector to walk)
        # (deque(iterator, 0) runs an iterator to its end in C, keeping nothing: here, appending each position
        # to its pair's group, which the defaultdict finds, or makes.)
        deque(map(array.append, map(groups.__getitem__, keys), compress(range(n), inside)), 0)
        counts = {key: len(ps) for key, ps in groups.items()}
        # A word type seen f times counts f times: add the other copies (a few percent of a book's places).
        # ``keys`` lists the pairs word after word; a word of L symbols has L - 1 of them (none when empty).
        pair_start = array("q", accumulate(map(sub, lengths, map(bool, lengths)), initial=0))
        for i in compress(range(len(freqs)), map(gt, freqs, repeat(1))):
            extra = freqs[i] - 1
            for key in keys[pair_start[i] : pair_start[i + 1]]:
                counts[key] += extra
        count: dict[int, int] = {}
        where: dict[int, bytes] = {}
        for key, ps in groups.items():
            pk = (key // width) << _SHIFT | key % width
            count[pk] = counts[key]
            where[pk] = ps.tobytes()
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
        self._packed_key = None if self.config.tie_break == "first-seen" else self._key.packed(_SHIFT)
        # Only pairs seen at least min_frequency times go to ``_heap``. The others (most pairs of a book,
        # and most pairs a merge creates: seen once) are needed only once too few pairs are left in
        # ``_heap`` to fill a snapshot's top pairs, near the end of a run; until then keeping them in a
        # heap would cost a push per new pair for nothing. So ``_low``, their heap, is made from the
        # counts the first time ``_heap`` runs dry (see _peek), and kept up to date from then on.
        self._min_count = min_count = self.config.min_frequency
        self._heap = [(-c, self._tiebreak(pk), pk) for pk, c in self._count.items() if c >= min_count]
        heapq.heapify(self._heap)
        self._low: list | None = None  # None: not made yet
        self._top: list = []  # the entries _peek returned last, kept out of the heap
        # Pairs whose count or first position the last merge changed (the pairs it took occurrences
        # from; the pairs it created cannot be among the kept top pairs yet, except for a rebuilt token).
        self._touched: dict = {}
        self._exact = self._make_exact()
        run._series_start(len(values), self._corpus_tokens)

    def _tiebreak(self, pk: int):
        """The pair's tie-break value (smaller wins): :class:`~bpe_core.tiebreak.TieKey`'s, except that for
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
        """``_low``, made from the counts the first time it is asked for (see ``_build``). Entries are
        exact but for the first-seen tie-break value, a lower bound as in ``_heap``. A pair that
        ``_peek`` kept aside may be in it too: ``_peek`` skips an entry it already holds."""
        if self._low is None:
            tiebreak, min_count = self._tiebreak, self._min_count
            self._low = [(-c, tiebreak(pk), pk) for pk, c in self._count.items() if c < min_count]
            heapq.heapify(self._low)
        return self._low

    # ------------------------------------------------------------------------------------ the loop
    def steps(self) -> Iterator[MergeStep]:
        """Run the merge loop, yielding one :class:`MergeStep` per merge.

        The last snapshot carries ``stop_reason``; if training stops before any merge,
        nothing is yielded and ``run.stop_reason`` says why.
        """
        cfg = self.config
        run = self.run
        peek, merge = self._peek, self._merge
        num_merges, vocab_size, top_k, max_tied = cfg.num_merges, cfg.vocab_size, cfg.top_k, cfg.max_tied
        pending: MergeStep | None = None
        step = 0
        while True:
            reason = None
            top: list = []
            if num_merges is not None and step >= num_merges:
                reason = "num_merges"
            elif vocab_size is not None and run.vocab_size >= vocab_size:
                reason = "vocab_size"
            else:
                top = peek(top_k, max_tied)
                if not top:
                    reason = "no_pairs"
                elif -top[0][0] < cfg.min_frequency:
                    reason = "min_frequency"
            if reason is not None:
                run.stop_reason = reason
                if pending is not None:
                    pending = pending._replace(stop_reason=reason)
                    run._replace_last(pending)
                    yield pending
                return
            if pending is not None:
                yield pending
            step += 1
            pending = merge(step, top)

    def _merge(self, step: int, top: list) -> MergeStep:
        """Apply merge number ``step`` (the pair of ``top[0]``, from :meth:`_peek`) to every occurrence,
        left to right."""
        neg_best, _, pk = top[0]
        best_count = -neg_best
        a, b = pk >> _SHIFT, pk & _MASK
        run = self.run
        cfg = self.config
        rule = cfg.tie_break
        ties = self._hist.get(best_count, 0)
        # _peek put every tied pair (up to max_tied) first, so both lists are prefixes of ``top``.
        top_entries = tuple(top[: cfg.top_k])
        tied_entries = tuple(top[: min(ties, cfg.max_tied)])
        new_id, is_new = run._add_token(a, b, step)
        if is_new and self._packed_key is not None:  # (the first-seen key is a position: nothing to add)
            self._key.add(run.values[new_id])

        count, where, hist, head = self._count, self._where, self._hist, self._head
        events = run._event_pos  # the positions whose boundary this merge removes, for the run
        events_before = len(events)
        positions = memoryview(where.pop(pk)).cast("i")  # (as _view, inlined: a hot line)
        first = head.pop(pk, 0)  # the candidates before it are known to be stale
        # The pass over the occurrences: one at a time (_merge_loop, the algorithm as it reads), or for a
        # long list the same reads and writes in C loops (_merge_batch), with the same result.
        if is_new and a != b and len(positions) - first >= _BATCH_MIN:
            result = self._merge_batch(a, b, new_id, positions[first:])
        else:
            result = self._merge_loop(a, b, new_id, positions, first)
        loss, gain, added, removed_tokens, words_changed = result

        hist[count.pop(pk)] -= 1
        if is_new:
            count_get = count.get
            for k, d in loss.items():
                old = count_get(k)
                if old is None:
                    # (new, a): in ``x a b a b`` the second occurrence's left neighbour is the token the
                    # first one just made, so this pair was gained a moment ago and is lost again.
                    gain[k] -= d
                    continue
                hist[old] -= 1
                c = old - d
                if c:
                    count[k] = c
                    hist[c] += 1
                else:
                    del count[k]
                    del where[k]
                    head.pop(k, None)
            # The pairs holding a brand-new token are new too; their candidate positions were collected
            # in ascending order, so the first is their first occurrence.
            heap, low, min_count, push = self._heap, self._low, self._min_count, heapq.heappush
            tiebreak = self._packed_key  # None for first-seen: inlined below
            for k, c in gain.items():
                if not c:
                    continue
                ps = where[k] = added[k]
                count[k] = c
                hist[c] += 1
                if c >= min_count:
                    push(heap, (-c, _unpack_first(ps)[0] if tiebreak is None else tiebreak(k), k))
                elif low is not None:  # (else it goes to _low when _low is made)
                    push(low, (-c, _unpack_first(ps)[0] if tiebreak is None else tiebreak(k), k))
            self._touched = loss
        else:
            self._touched = self._apply_rebuilt(loss, gain, added)
        self._corpus_tokens -= removed_tokens
        # The run's per-step data is complete before the snapshot goes in: a reader takes the number of
        # snapshots as the number of finished steps, possibly while training goes on.
        run._event_start.append(len(events))
        # Every field, in order (step, left, right, token, is_new, count, ties, tied_entries, tie_break,
        # top_entries, vocab_size, corpus_tokens, occurrences, words_changed, stop_reason): a hot line.
        snap = _new_step(
            MergeStep,
            (
                step,
                a,
                b,
                new_id,
                is_new,
                best_count,
                ties,
                tied_entries,
                rule,
                top_entries,
                len(run.values),
                self._corpus_tokens,
                len(events) - events_before,
                words_changed,
                None,
            ),
        )
        run.snapshots.append(snap)
        return snap

    def _merge_loop(self, a: int, b: int, new_id: int, positions, first: int) -> tuple:
        """:meth:`_merge`'s pass over the candidate positions of ``(a, b)`` from index ``first``, one
        occurrence at a time, left to right.

        Returns ``(loss, gain, added, removed_tokens, words_changed)``: the count each pair around an
        occurrence loses and each pair holding the new token gains, the positions where the latter start
        (ascending, packed as candidate lists are), the tokens the merge removes (frequency-weighted) and
        the word types it rewrites.
        """
        tok, nxt, prv, pos_word, freqs = self._tok, self._nxt, self._prv, self._pos_word, self._freqs
        pk = (a << _SHIFT) | b
        new_left = new_id << _SHIFT
        events = self.run._event_pos
        # Count changes are summed per pair and applied once after the pass: ``loss`` for the pairs
        # around each occurrence, which hold a or b; ``gain`` for the pairs that now hold the new token.
        # ``added`` packs positions as it goes, as candidate lists are kept. Appending to bytes copies
        # them, which is cheapest for the few positions of most merges; a long pass (an overlapping pair
        # such as (a, a), or a rebuilt token, do not go to _merge_batch) appends in place to a bytearray.
        # Neither is work for the garbage collector.
        loss: dict[int, int] = defaultdict(int)
        gain: dict[int, int] = defaultdict(int)
        added: dict[int, bytes] = defaultdict(bytes if len(positions) - first < _BATCH_MIN else bytearray)
        removed_tokens = 0
        words_changed = 0
        last_word = -1
        for p in islice(positions, first, None):
            if tok[p] != a:
                continue  # stale, or swallowed by the previous occurrence of an overlapping pair (a a a)
            q = nxt[p]
            if tok[q] != b:  # (q == -1, no next symbol, reads the sentinel -1: see _build)
                continue
            w = pos_word[p]
            f = freqs[w]
            o = prv[p]
            r = nxt[q]
            if o >= 0:
                x = tok[o] << _SHIFT
                k = x | a
                if k != pk:
                    loss[k] += f
                k = x | new_id
                gain[k] += f
                added[k] += _pack(o)
            if r >= 0:
                y = tok[r]
                k = (b << _SHIFT) | y
                if k != pk:
                    loss[k] += f
                k = new_left | y
                gain[k] += f
                added[k] += _pack(p)
                prv[r] = p
            tok[p] = new_id
            tok[q] = -1
            nxt[p] = r
            events.append(q)
            removed_tokens += f
            if w != last_word:  # positions ascend, so each word type is entered once
                last_word = w
                words_changed += 1
        return loss, gain, added, removed_tokens, words_changed

    def _merge_batch(self, a: int, b: int, new_id: int, cands) -> tuple:
        """:meth:`_merge_loop` for a long candidate list, done a block of candidates at a time.

        The same reads and writes as the loop, each done for every occurrence of a block by one loop in
        C (``itemgetter`` gathers, ``map`` scatters) instead of a dozen Python statements per occurrence:
        the first merges of a book rewrite hundreds of thousands of places each. Blocks are small enough
        for the places they touch to stay in the processor's cache from one gather to the next, and
        follow each other left to right as the loop does. Only for a brand-new token whose halves differ
        (``a != b``), so that occurrences cannot overlap. Returns what the loop returns.
        """
        tok, nxt, prv, pos_word, word_freq = self._tok, self._nxt, self._prv, self._pos_word, self._freqs
        events = self.run._event_pos
        # Occurrences grouped by their left neighbour's token (listing the neighbours' positions) and by
        # their right neighbour's token (listing the occurrences' own positions): one group per pair
        # lost and gained, its positions ascending, as candidate lists need. A group's count is its
        # size, plus f - 1 for each occurrence in a word type seen f times (``extra``).
        left: dict[int, array] = defaultdict(_positions)
        left[-1] = array("i")  # occurrences with no left neighbour, o == -1 (dropped below)
        right: dict[int, array] = defaultdict(_positions)
        left_extra: dict[int, int] = defaultdict(int)
        right_extra: dict[int, int] = defaultdict(int)
        removed_tokens = 0
        words: set[int] = set()
        for start in range(0, len(cands), _BLOCK):
            block = cands[start : start + _BLOCK]
            # Live candidates: a at p and b at q, the position after it.
            get = _getter(block)
            at_p, q = get(tok), get(nxt)
            at_q = _getter(q)(tok)
            n = len(block)
            if at_p.count(a) != n or at_q.count(b) != n:
                live = list(map(and_, map(eq, at_p, repeat(a)), map(eq, at_q, repeat(b))))
                block = list(compress(block, live))
                q = tuple(compress(q, live))
                n = len(block)
                if not n:
                    continue
                get = _getter(block)
            # Neighbours: o before p, r after q, and their tokens (no neighbour, -1, reads the sentinel -1).
            o, r = get(prv), _getter(q)(nxt)
            x, y = _getter(o)(tok), _getter(r)(tok)
            # Occurrences that touch (x a b a b): the loop, going left to right, has already made the
            # first one when it reaches the second, whose left neighbour is then the new token at the
            # first's p. (Across blocks the tables already say so: the earlier block is written.)
            touching = list(compress(range(1, n), map(eq, r, islice(block, 1, None))))
            if touching:
                o, x = list(o), list(x)
                for i in touching:
                    o[i] = block[i - 1]
                    x[i] = new_id
            deque(map(array.append, _getter(x)(left), o), 0)
            deque(map(array.append, _getter(y)(right), block), 0)

            # The rewrite: p holds the new token, q is gone, p and r become neighbours (r == -1 writes
            # the sentinel's prv, which is never read).
            _scatter(tok, block, repeat(new_id))
            _scatter(tok, q, repeat(-1))
            _scatter(nxt, block, r)
            _scatter(prv, r, block)
            events.extend(q)

            ws = get(pos_word)
            words.update(ws)
            fs = _getter(ws)(word_freq)
            total = sum(fs)
            removed_tokens += total
            if total != n:  # some word types are seen more than once (a few, in a Chinese book)
                for i in compress(range(n), map(ne, fs, repeat(1))):
                    f = fs[i] - 1
                    left_extra[x[i]] += f
                    right_extra[y[i]] += f
        left.pop(-1, None)  # no neighbour: the occurrence starts or ends its word
        right.pop(-1, None)

        # A neighbour's pair with a (or b) loses as many occurrences as its pair with the new token gains.
        loss: dict[int, int] = defaultdict(int)
        gain: dict[int, int] = defaultdict(int)
        added: dict[int, bytes] = {}
        new_left = new_id << _SHIFT
        extra = left_extra.get
        for t, ps in left.items():
            c = len(ps) + extra(t, 0)
            k = t << _SHIFT
            loss[k | a] += c
            k |= new_id
            gain[k] = c
            added[k] = ps.tobytes()
        b_left = b << _SHIFT
        extra = right_extra.get
        for t, ps in right.items():
            c = len(ps) + extra(t, 0)
            loss[b_left | t] += c
            k = new_left | t
            gain[k] = c
            added[k] = ps.tobytes()
        return loss, gain, added, removed_tokens, len(words)

    def _apply_rebuilt(self, loss: dict, gain: dict, added: dict) -> dict:
        """Apply a merge's count changes when its token ``T`` already existed (rule 4). Pairs holding
        ``T`` may already have a count and candidates, and a pair can gain and lose in one merge
        (``a b a b`` → ``T T``: ``(T, a)`` is gained, then lost), so changes are summed per pair first.
        Returns the pairs touched."""
        delta: dict[int, int] = defaultdict(int)
        for k, d in loss.items():
            delta[k] -= d
        for k, d in gain.items():
            delta[k] += d
        count, where, hist, head = self._count, self._where, self._hist, self._head
        for k, d in delta.items():
            old = count.get(k, 0)
            c = old + d
            if old:
                hist[old] -= 1
            if c <= 0:
                count.pop(k, None)
                where.pop(k, None)
                head.pop(k, None)
                continue
            count[k] = c
            hist[c] += 1
            if k in gain:
                # Older candidates may be listed too: merge the lists in order, rescan from the start,
                # re-push.
                ps = added[k]
                if k in where:
                    ps = _positions(sorted(chain(_view(where[k]), _view(ps)))).tobytes()
                where[k] = ps
                head.pop(k, None)
                self._push((-c, self._tiebreak(k), k))
        return delta


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


def corpus_words(text: str, config: TrainConfig) -> dict[str, int]:
    """Pre-tokenize ``text`` with the config's pre-tokenizer: ``{word: frequency}``, first-appearance order."""
    return word_counts(text, config.resolved_pretokenizer, config.pattern)


def train(
    words: dict[str, int],
    config: TrainConfig,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[TrainedRun], None] | None = None,
) -> TrainedRun:
    """Train to the end and return the finished :class:`~bpe_core.run.TrainedRun`.

    Args:
        words: ``{word: frequency}`` (see :func:`corpus_words` and
            :func:`bpe_core.inputs.parse_word_counts`).
        config: the settings.
        progress: called with the number of merges done, every 100 merges and at the end.
        on_start: called with the run once the trainer has built its tables, before merge 1. The run
            then grows while this call trains: another thread reads it through
            :meth:`~bpe_core.run.TrainedRun.view` (the app shows step 1 while the rest trains).
    """
    trainer = Trainer(words, config)
    if on_start is not None:
        on_start(trainer.run)
    done = 0
    for snap in trainer.steps():
        done = snap.step
        if progress is not None and done % 100 == 0:
            progress(done)
    if progress is not None:
        progress(done)
    return trainer.run
