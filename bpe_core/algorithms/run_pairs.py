"""The pair queries of a :class:`~bpe_core.algorithms.run.TrainedRun`: every pair's count at a step, in the run's
tie-break order (:meth:`PairQueries.pair_table`), and how many windows of a merged pair each word held
(:meth:`PairQueries.pair_windows`, read from the positions the merge rewrote).

:class:`PairQueries` is a part of :class:`~bpe_core.algorithms.run.TrainedRun` kept in its own module: it reads the
run's corpus tables (``_word_start``, ``_base``, ``_removed_at``, the rewritten positions ``_event_pos`` /
``_event_start``) and its segmentations, and counts the way the trainer does (:mod:`bpe_core.algorithms.trainer`: every
window counts, overlapping ones too; pairs never cross a word's edge).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict

from .tiebreak import TieKey


class PairQueries:
    """Pair counts of a run at a step (mixed into :class:`~bpe_core.algorithms.run.TrainedRun`)."""

    def tie_key(self) -> TieKey:
        """The run's tie-break rule as a :class:`~bpe_core.algorithms.tiebreak.TieKey` over its token ids so far."""
        with self._lazy_lock:  # shared by the views of a run, which threads read at once
            key = self._lazy.get("key")
            if key is None:
                key = self._lazy["key"] = TieKey(self.config.tie_break, self.values[: self.num_base])
            while len(key.hf_id) < len(self.values):  # tokens made since the last call, in creation order
                key.add(self.values[len(key.hf_id)])
        return key

    def pair_table(self, step: int, limit: int | None = None) -> list[tuple[int, int, int]]:
        """Every pair present after ``step`` merges: ``[(left, right, count)]``, best first in the run's
        tie-break order (so row 0 is the merge ``step + 1`` chooses, min frequency aside).
        Computed on demand with one pass over the corpus."""
        step = self._clamp(step)
        counts: dict = defaultdict(int)
        firsts: dict = {}
        pos = 0
        for i, f in enumerate(self.freqs):
            seg = self.segmentation(i, step)
            for pair in zip(seg, seg[1:]):
                counts[pair] += f
                if pair not in firsts:
                    firsts[pair] = pos
                pos += 1
        key = self.tie_key()
        rows = sorted(counts.items(), key=lambda kv: (-kv[1], key(kv[0][0], kv[0][1], firsts[kv[0]])))
        if limit is not None:
            rows = rows[:limit]
        return [(a, b, c) for (a, b), c in rows]

    def pair_windows(self, step: int) -> dict[int, int]:
        """``{word type index: windows}`` for merge ``step``: how many (overlapping) windows of its pair
        each word type it changed held before the merge, read from the positions the merge rewrote
        (time linear in them, not in the words).

        For ``left != right`` each window was merged, so windows = rewrites. For a pair of one token
        ``a`` with itself, a run of ``m`` a's holds ``m - 1`` windows and was rewritten ``m // 2`` times,
        left to right, at positions ``2·len(a)`` symbols apart; so each run is found from its rewrites,
        and its windows are ``2·rewrites - 1``, plus 1 when one more ``a`` follows (``m`` odd).
        """
        if not 1 <= step <= len(self.snapshots):
            return {}
        snap = self.snapshots[step - 1]
        lo, hi = self._event_start[step], self._event_start[step + 1]
        events = self._event_pos[lo:hi]
        ws = self._word_start
        out: dict[int, int] = {}
        same = snap.left == snap.right
        width = self.symbol_length(snap.left) if same else 0
        end = -1
        wi = -1
        k = 0
        while k < len(events):
            q = events[k]
            if q >= end:
                wi = bisect_right(ws, q) - 1
                end = ws[wi + 1]
            if not same:  # every window was rewritten: count the word's rewrites at once
                nxt = bisect_left(events, end, k)
                out[wi] = nxt - k
                k = nxt
                continue
            rewrites = 1
            while k + rewrites < len(events):
                nxt = events[k + rewrites]
                if nxt != q + 2 * width * rewrites or nxt >= end:  # a run never crosses into the next word
                    break
                rewrites += 1
            after = q + 2 * width * (rewrites - 1) + width  # the symbol after the run's last rewrite
            extra = 1 if self._token_is(after, end, step - 1, snap.left, width) else 0
            out[wi] = out.get(wi, 0) + 2 * rewrites - 1 + extra
            k += rewrites
        return out

    def _token_is(self, start: int, end: int, step: int, tid: int, width: int) -> bool:
        """Whether the token starting at symbol ``start`` (a token boundary) of a word ending at ``end``
        is ``tid`` (``width`` symbols long) after ``step`` merges."""
        if start + width > end:
            return False
        self._sync_removed()
        removed = self._removed_at
        j = start + 1
        while j < end and 0 < removed[j] <= step:
            j += 1
        if j - start != width:
            return False
        if self.variant.is_bytes:
            return bytes(self._base[start:j].tolist()) == self.values[tid]
        return "".join(map(self.values.__getitem__, self._base[start:j])) == self.values[tid]
