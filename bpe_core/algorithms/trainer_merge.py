"""The trainer's merge: one merge applied to every occurrence of its pair, left to right, and the pair
counts, candidate lists and heap updated to match (see :mod:`bpe_core.algorithms.trainer` for the algorithm
as a whole).

:class:`_Merging` is one part of :class:`~bpe_core.algorithms.trainer.Trainer`. The pass over the occurrences is
written twice with the same result: one occurrence at a time (``_merge_loop``, the algorithm as it reads) and,
for a long candidate list, a block of occurrences at a time in C loops (``_merge_batch``).
"""

from __future__ import annotations

import heapq
from array import array
from collections import defaultdict, deque
from itertools import chain, compress, islice, repeat
from operator import and_, eq, ne

from .run_records import _MASK, _SHIFT, MergeStep
from .trainer_tables import _getter, _pack, _positions, _scatter, _unpack_first, _view

# Candidate lists at least this long are merged by _Merging._merge_batch (for shorter ones its set-up
# costs more than the loop).
_BATCH_MIN = 64
_BLOCK = 4096  # candidates per block of _Merging._merge_batch
# A MergeStep made from a tuple of all its fields in C: its __new__ is a Python function (a hot call).
_new_step = tuple.__new__


class _Merging:
    """Merge application (``_merge``) and the count updates that follow it."""

    def _merge(self, step: int, top: list) -> MergeStep:
        """Apply merge number ``step`` (the pair of ``top[0]``, from :meth:`_peek`) to every occurrence,
        left to right."""
        neg_best, _, pk = top[0]
        best_count = -neg_best
        a, b = pk >> _SHIFT, pk & _MASK
        run = self.run
        cfg = self.config
        rule = cfg.tie_break
        given = self._given
        if given is not None and step + len(self.skipped) <= len(given):
            ties = 1  # the pair was given (chosen by the caller's rule), not picked among equal counts
        else:
            ties = self._hist.get(best_count, 0)
            if self._resume and "transition_step" not in run.extras:  # the first merge after the given ones
                run.extras["transition_step"] = step
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
            if tok[q] != b:  # (q == -1, no next symbol, reads the sentinel -1: see _Tables._build)
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
