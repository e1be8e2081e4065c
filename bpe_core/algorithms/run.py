"""A training run, read-only: everything the app asks about step ``k`` of a run.

Per-step data is kept as deltas, never as a copy of the corpus per step:

* ``removed_at[q]`` -- for every symbol position ``q`` of the flat corpus, the step at which the token
  boundary in front of ``q`` disappeared (0: never). A word's segmentation after step ``k`` is its
  positions split at every boundary still present, so any step is answered in time linear in the word.
* the positions rewritten at each step (to find the word types a step changed);
* one :class:`~bpe_core.algorithms.run_records.MergeStep` per step (the chart series are read from them).

A run can be read while it is still training (the app shows step 1 while the rest trains): the trainer
writes everything of step ``k`` before it appends step ``k``'s snapshot, so the first
``len(snapshots)`` steps are always complete, and :meth:`TrainedRun.view` freezes a reader's copy at
that many steps.
"""

from __future__ import annotations

import copy
import threading
from array import array
from bisect import bisect_right
from itertools import chain, islice

from ..encoding.traces import MergeGraph, MergeTree
from .run_pairs import PairQueries
from .run_records import VocabEntry, WordRow


class TrainedRun(PairQueries):
    """The state of a run, filled by :class:`~bpe_core.algorithms.trainer.Trainer` and read by the app (the pair
    queries, :meth:`pair_table` and :meth:`pair_windows`, are in :mod:`bpe_core.algorithms.run_pairs`).

    Steps are numbered from 1; "step k" means after merges 1..k, and step 0 is the starting
    segmentation. All token arguments and results are token ids unless a name says otherwise.
    """

    def __init__(self, variant, config):
        self.variant = variant
        self.config = config
        self.snapshots: list = []
        self.stop_reason: str | None = None
        self.values: list = []
        self.value_to_id: dict = {}
        self.created_step: list[int] = []
        self.created_from: list = []
        self.view_of: TrainedRun | None = None  # the run a view was cut from (see view)
        # What belongs to the algorithm that made the run alone (e.g. the language mix's rule and the language
        # each merge served: bpe_core.algorithms.fair_bpe), in one mapping; empty for plain BPE.
        self.extras: dict = {}
        # The algorithm object that made the run when it is not the one registered as config.algorithm (see
        # bpe_core.algorithms.seam.step_why); None for a registered one.
        self.algorithm = None

    # ------------------------------------------------------------------------- filled by the trainer
    def _init_corpus(self, words, freqs, word_start, values, base_ids) -> None:
        self.words = words
        self.freqs = freqs
        self._word_start = word_start
        # A copy of the trainer's base ids (an array("i")): a slice copies the C ints at once, where
        # array("i", base_ids) would convert them one by one.
        self._base = base_ids[:]
        self.values = list(values)
        self.value_to_id = {v: i for i, v in enumerate(self.values)}
        self.num_base = len(self.values)
        self.created_step = [0] * self.num_base
        self.created_from = [None] * self.num_base
        self._removed_at = array("i", bytes(4 * len(base_ids)))
        # Built on first read and shared with every view of the run (a list and a dict, so that a view's
        # copy of the attribute is the same object): steps already written into _removed_at, the word
        # index, the tie-break key.
        self._removed_upto = [0]
        self._lazy: dict = {}
        self._lazy_lock = threading.Lock()
        # Unsigned (positions and counts are never negative): the trainer appends every rewritten
        # position, and an array parses a signed item the slow general way (PyArg_Parse) when it is written.
        self._event_pos = array("Q")
        self._event_start = array("Q", [0, 0])  # step k's positions: _event_pos[_event_start[k]:_event_start[k+1]]

    def _series_start(self, vocab_size: int, corpus_tokens: int) -> None:
        # Step 0's values; later steps read theirs from the snapshots.
        self._vocab0 = vocab_size
        self._tokens0 = corpus_tokens

    def _add_token(self, left: int, right: int, step: int) -> tuple[int, bool]:
        value = self.values[left] + self.values[right]
        tid = self.value_to_id.get(value)
        if tid is not None:
            return tid, False
        tid = len(self.values)
        self.values.append(value)
        self.value_to_id[value] = tid
        self.created_step.append(step)
        self.created_from.append((left, right))
        return tid, True

    def _replace_last(self, snap) -> None:
        self.snapshots[-1] = snap

    # --------------------------------------------------------------------------------- streaming
    def view(self, steps: int | None = None) -> TrainedRun:
        """A copy of this run that ends after ``steps`` merges (default: every merge done so far), safe to
        read while the trainer goes on in another thread.

        The copy shares the per-step arrays (they only grow) and slices the lists that the trainer
        appends to, so its answers never change: ``num_steps``, the vocabulary, the chart series and
        every ``step`` argument stop at ``steps``. Its ``stop_reason`` is ``None`` unless it ends where
        the finished run ends, and its ``view_of`` is the run it was cut from. Costs time linear in the
        merges and the vocabulary, not in the corpus.
        """
        snaps = self.snapshots[: len(self.snapshots) if steps is None else max(0, int(steps))]
        out = copy.copy(self)
        out.snapshots = snaps
        vocab = snaps[-1].vocab_size if snaps else self.num_base
        out.values = self.values[:vocab]
        out.value_to_id = {v: i for i, v in enumerate(out.values)}
        out.created_step = self.created_step[:vocab]
        out.created_from = self.created_from[:vocab]
        finished = self.stop_reason is not None and len(snaps) == len(self.snapshots)
        out.stop_reason = self.stop_reason if finished else None
        out.view_of = self.view_of or self
        return out

    # ---------------------------------------------------------------------------------- basic facts
    @property
    def vocab_size(self) -> int:
        """Tokens in the vocabulary now (base alphabet included)."""
        return len(self.values)

    @property
    def num_steps(self) -> int:
        """Merges done so far."""
        return len(self.snapshots)

    @property
    def num_words(self) -> int:
        """Number of word types."""
        return len(self.words)

    def snapshot(self, step: int):
        """The :class:`~bpe_core.algorithms.trainer.MergeStep` of ``step`` (1-based). Raises ``IndexError``."""
        if not 1 <= step <= len(self.snapshots):
            raise IndexError(f"step {step} is outside 1..{len(self.snapshots)}")
        return self.snapshots[step - 1]

    def _clamp(self, step: int) -> int:
        return max(0, min(int(step), len(self.snapshots)))

    # ------------------------------------------------------------------------------------- tokens
    def token_value(self, tid: int):
        """The token's value: ``str`` (char/eow) or ``bytes`` (byte)."""
        return self.values[tid]

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """The token as display text (byte tokens in ``mode``: utf8, hex, escaped or gpt2)."""
        return self.variant.display(self.values[tid], mode)

    def token_wire(self, tid: int) -> str:
        """The token as written in files and JSON lines (GPT-2 alias for bytes)."""
        return self.variant.wire(self.values[tid])

    def token_hex(self, tid: int) -> str:
        """The token's bytes in lowercase hex (UTF-8 of the text for char/eow)."""
        return self.variant.hex(self.values[tid])

    def is_partial(self, tid: int) -> bool:
        """True for a byte-level token that is not a whole number of UTF-8 characters."""
        return self.variant.is_partial(self.values[tid])

    def symbol_length(self, tid: int) -> int:
        """How many base symbols make up the token (bytes for byte-level, characters + marker else)."""
        return self._symbol_lengths()[tid]

    # ---------------------------------------------------------------------------------- corpus
    def word(self, index: int) -> tuple[str, int]:
        """``(word, frequency)`` of word type ``index`` (first-appearance order)."""
        return self.words[index], self.freqs[index]

    def find_word(self, word: str) -> int | None:
        """Index of a word type, or ``None``."""
        index = self._lazy.get("word_index")
        if index is None:
            index = self._lazy["word_index"] = {w: i for i, w in enumerate(self.words)}
        return index.get(word)

    def _sync_removed(self) -> None:
        # The trainer only logs each step's positions; boundary steps are written here, on first read.
        # Readers in several threads may write the same steps at once: the writes are identical.
        n = len(self.snapshots)
        done = self._removed_upto[0]
        if done < n:
            removed, events, starts = self._removed_at, self._event_pos, self._event_start
            for k in range(done + 1, n + 1):
                for q in events[starts[k] : starts[k + 1]]:
                    removed[q] = k
            self._removed_upto[0] = max(n, self._removed_upto[0])

    def segmentation(self, index: int, step: int, limit: int | None = None) -> list[int]:
        """Token ids of word type ``index`` after ``step`` merges (step 0: base symbols).

        With ``limit``, only the first ``limit`` tokens: the time is then linear in the symbols they
        cover, not in the word (a text without spaces can be one word of a megabyte; the app draws only
        its first tokens). :meth:`token_count` counts them all."""
        step = self._clamp(step)
        self._sync_removed()
        s, e = self._word_start[index], self._word_start[index + 1]
        removed, base, snaps = self._removed_at, self._base, self.snapshots
        width = self._symbol_lengths()
        out = []
        if limit is not None and limit <= 0:
            return out
        i = s
        while i < e:
            # Find the end of the token starting at i without walking its symbols: a boundary j removed at
            # merge m <= step joined the token before it to merge m's right token, which starts at j, so
            # the next boundary to look at is right after that one. The walk follows the merge tree's
            # spine (about log2(length) jumps for a run of one character), and the latest merge it meets
            # is the one that made the token.
            j = i + 1
            last = 0
            while j < e:
                m = removed[j]
                if m == 0 or m > step:
                    break
                if m > last:
                    last = m
                j += width[snaps[m - 1].right]
            out.append(snaps[last - 1].token if last else base[i])
            if limit is not None and len(out) >= limit:
                break
            i = j
        return out

    def _symbol_lengths(self) -> list[int]:
        """Base symbols per token id, grown as tokens are made (shared with every view of the run)."""
        with self._lazy_lock:
            width = self._lazy.get("widths")
            if width is None:
                width = self._lazy["widths"] = []
            made = self.created_from
            for tid in range(len(width), len(made)):
                src = made[tid]
                width.append(1 if src is None else width[src[0]] + width[src[1]])
        return width

    #: Words up to this many symbols are counted by segmenting them; longer ones through a sorted copy
    #: of their boundary steps, made once per word (and again when a longer view of the run asks).
    COUNT_BY_SEGMENTING = 256

    def token_count(self, index: int, step: int) -> int:
        """Number of tokens of word type ``index`` after ``step`` merges: its symbols minus the token
        boundaries that merges 1..``step`` removed. For a long word the first call costs time linear in
        the word, later calls (any step) a binary search."""
        step = self._clamp(step)
        s, e = self._word_start[index], self._word_start[index + 1]
        if e - s <= self.COUNT_BY_SEGMENTING:
            return len(self.segmentation(index, step))
        self._sync_removed()
        built = self._lazy.get(("boundary steps", index))
        if built is None or built[0] < step:
            # Valid up to the steps synced now: a boundary removed later still reads 0 in the copy.
            built = (self._removed_upto[0], array("i", sorted(self._removed_at[s + 1 : e])))
            self._lazy[("boundary steps", index)] = built
        steps = built[1]
        return (e - s) - (bisect_right(steps, step) - bisect_right(steps, 0))

    def changed_word_indices(self, step: int) -> list[int]:
        """Indices of the word types that merge ``step`` rewrote, in order."""
        if not 1 <= step <= len(self.snapshots):
            return []
        lo, hi = self._event_start[step], self._event_start[step + 1]
        ws = self._word_start
        out = []
        end = -1
        for q in self._event_pos[lo:hi]:
            if q >= end:
                wi = bisect_right(ws, q) - 1
                end = ws[wi + 1]
                out.append(wi)
        return out

    def changed_words(self, step: int, limit: int | None = None) -> list[tuple]:
        """``[(index, word, freq, before_ids, after_ids)]`` for the word types merge ``step`` changed."""
        idx = self.changed_word_indices(step)
        if limit is not None:
            idx = idx[:limit]
        return [
            (i, self.words[i], self.freqs[i], self.segmentation(i, step - 1), self.segmentation(i, step)) for i in idx
        ]

    def corpus_view(
        self, step: int, offset: int = 0, limit: int = 50, changed_first: bool = False, max_tokens: int | None = None
    ) -> list[WordRow]:
        """A page of word types at ``step``: ``limit`` rows from ``offset`` (first-appearance order).

        With ``changed_first`` the word types this step changed come first. With ``max_tokens``, each
        row's segmentations hold at most that many tokens (the counts are whole): the time then grows
        with the rows and tokens asked for, not with the corpus or the length of a word.
        """
        step = self._clamp(step)
        changed = self.changed_word_indices(step) if step else []
        changed_set = set(changed)
        if changed_first:
            # The rest in order, skipping the changed ones, generated only as far as the page needs.
            rest = (i for i in range(len(self.words)) if i not in changed_set)
            order = list(islice(chain(changed, rest), offset + limit))
        else:
            order = range(len(self.words))
        rows = []
        for i in order[offset : offset + limit]:
            is_changed = i in changed_set
            rows.append(
                WordRow(
                    index=i,
                    word=self.words[i],
                    freq=self.freqs[i],
                    tokens=self.segmentation(i, step, max_tokens),
                    changed=is_changed,
                    before=self.segmentation(i, step - 1, max_tokens) if is_changed else None,
                    num_tokens=self.token_count(i, step),
                    num_before=self.token_count(i, step - 1) if is_changed else None,
                )
            )
        return rows

    def corpus_tokens(self, step: int) -> int:
        """Tokens in the whole corpus after ``step`` (frequency-weighted)."""
        step = self._clamp(step)
        return self.snapshots[step - 1].corpus_tokens if step else self._tokens0

    # ------------------------------------------------------------------------------- vocabulary
    def vocabulary(self, step: int | None = None) -> list[VocabEntry]:
        """The vocabulary after ``step`` merges (default: all), in id order."""
        step = len(self.snapshots) if step is None else self._clamp(step)
        out = []
        for tid, value in enumerate(self.values):
            made = self.created_step[tid]
            if made > step:
                continue
            src = self.created_from[tid]
            out.append(VocabEntry(tid, value, made, src[0] if src else None, src[1] if src else None))
        return out

    def vocab_size_at(self, step: int) -> int:
        """Vocabulary size after ``step`` merges."""
        step = self._clamp(step)
        return self.snapshots[step - 1].vocab_size if step else self._vocab0

    def merges(self, step: int | None = None) -> list[tuple[int, int]]:
        """The merged pairs of steps 1..``step`` (default: all), in rank order."""
        snaps = self.snapshots if step is None else self.snapshots[: self._clamp(step)]
        return [(s.left, s.right) for s in snaps]

    def merge_tree(self, tid: int) -> MergeTree:
        """How token ``tid`` was built (:class:`~bpe_core.encoding.traces.MergeTree`, the one tree type of
        ``bpe_core``): a base symbol has ``rank`` None and no children; a merged token has ``rank`` = the
        step whose merge first made it, and the trees of that merge's pair. Raises ``IndexError`` for an id
        outside the vocabulary."""
        src = self.created_from[tid]
        if src is None:
            return MergeTree(tid)
        return MergeTree(tid, self.created_step[tid], self.merge_tree(src[0]), self.merge_tree(src[1]))

    def merge_graph(self, step: int | None = None):
        """The merge trees both ways after steps 1..``step`` (default: all):
        :class:`~bpe_core.encoding.traces.MergeGraph` (parts, children, merge numbers = steps)."""
        snaps = self.snapshots if step is None else self.snapshots[: self._clamp(step)]
        made = self.created_step
        # A merge that rebuilds a base symbol's string (rule 4) leaves it a base symbol, as merge_tree does.
        first = {t: made[t] - 1 for t in range(self.num_base, len(made)) if made[t] <= len(snaps)}
        return MergeGraph([(s.left, s.right, s.token) for s in snaps], first)

    def series(self) -> dict[str, list[int]]:
        """Chart data for steps 0..n: ``step``, ``vocab_size``, ``corpus_tokens`` and ``count`` (the count of
        the merge made at that step; 0 at step 0)."""
        snaps = self.snapshots
        return {
            "step": list(range(len(snaps) + 1)),
            "vocab_size": [self._vocab0] + [s.vocab_size for s in snaps],
            "corpus_tokens": [self._tokens0] + [s.corpus_tokens for s in snaps],
            "count": [0] + [s.count for s in snaps],
        }

    def tokenizer(self, step: int | None = None):
        """A :class:`~bpe_core.encoding.encoder.Tokenizer` with the merges of steps 1..``step`` (default: all)."""
        from ..encoding.encoder import Tokenizer

        return Tokenizer.from_run(self, step)

    def _repr_html_(self) -> str:
        """A small HTML summary for notebooks: settings, totals, the first merges (escaped)."""
        from ..teaching.notebook import run_html

        return run_html(self)

    def memory_bytes(self) -> int:
        """Rough size of the per-step data (arrays and snapshots), for the benchmarks."""
        import sys

        total = sum(a.itemsize * len(a) for a in (self._removed_at, self._event_pos, self._event_start, self._base))
        seen: set = set()  # heap entries are shared by the snapshots of consecutive steps
        for s in self.snapshots:
            total += sys.getsizeof(s) + sys.getsizeof(s.tied_entries) + sys.getsizeof(s.top_entries)
            for e in (*s.tied_entries, *s.top_entries):
                if id(e) not in seen:
                    seen.add(id(e))
                    total += sys.getsizeof(e) + sys.getsizeof(e[1])
        return total
