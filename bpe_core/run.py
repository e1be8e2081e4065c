"""A training run, read-only: everything the app asks about step ``k`` of a run.

Per-step data is kept as deltas, never as a copy of the corpus per step:

* ``removed_at[q]`` -- for every symbol position ``q`` of the flat corpus, the step at which the token
  boundary in front of ``q`` disappeared (0: never). A word's segmentation after step ``k`` is its
  positions split at every boundary still present, so any step is answered in time linear in the word.
* the positions rewritten at each step (to find the word types a step changed);
* one :class:`MergeStep` per step (the chart series are read from them).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from .tiebreak import TieKey

_SHIFT = 32  # the trainer stores a pair (left, right) as the int left << 32 | right (faster to hash than a tuple)
_MASK = (1 << _SHIFT) - 1


class MergeStep(NamedTuple):
    """One merge: what the app shows for step ``step``. Immutable (a named tuple: cheap to make,
    compared by value, so a replayed run's snapshots compare equal).

    Token fields are token ids; turn them into text with :meth:`TrainedRun.token_text`, and ask the
    run for the word types a step changed (:meth:`TrainedRun.changed_words`).

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
    def tied(self) -> tuple:
        """The tied pairs listed (at most ``max_tied``): ``((left, right), ...)``, the chosen pair first."""
        return tuple([(k >> _SHIFT, k & _MASK) for _, _, k in self.tied_entries])

    @property
    def top_pairs(self) -> tuple:
        """The pair-frequency table before the merge, top ``top_k``: ``((left, right, count), ...)``."""
        return tuple([(k >> _SHIFT, k & _MASK, -c) for c, _, k in self.top_entries])

    def _repr_html_(self) -> str:
        """A small HTML table of this step, for notebooks (see :func:`bpe_core.notebook.step_html`)."""
        from .notebook import step_html

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
    step changed it (``before`` holds its ids before the step when it did)."""

    index: int
    word: str
    freq: int
    tokens: list
    changed: bool
    before: list | None = None


class TrainedRun:
    """The state of a run, filled by :class:`~bpe_core.trainer.Trainer` and read by the app.

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

    # ------------------------------------------------------------------------- filled by the trainer
    def _init_corpus(self, words, freqs, word_start, values, base_ids) -> None:
        self.words = words
        self.freqs = freqs
        self._word_start = word_start
        self._base = array("i", base_ids)
        self.values = list(values)
        self.value_to_id = {v: i for i, v in enumerate(self.values)}
        self.num_base = len(self.values)
        self.created_step = [0] * self.num_base
        self.created_from = [None] * self.num_base
        self._removed_at = array("i", bytes(4 * len(base_ids)))
        self._removed_upto = 0  # steps whose events are already written into _removed_at
        self._event_pos = array("q")
        self._event_start = array("q", [0, 0])  # step k's positions: _event_pos[_event_start[k]:_event_start[k+1]]

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
        """The :class:`~bpe_core.trainer.MergeStep` of ``step`` (1-based). Raises ``IndexError``."""
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
        n = 0
        stack = [tid]
        while stack:
            t = stack.pop()
            src = self.created_from[t]
            if src is None:
                n += 1
            else:
                stack.extend(src)
        return n

    # ---------------------------------------------------------------------------------- corpus
    def word(self, index: int) -> tuple[str, int]:
        """``(word, frequency)`` of word type ``index`` (first-appearance order)."""
        return self.words[index], self.freqs[index]

    def find_word(self, word: str) -> int | None:
        """Index of a word type, or ``None``."""
        if not hasattr(self, "_word_index"):
            self._word_index = {w: i for i, w in enumerate(self.words)}
        return self._word_index.get(word)

    def _sync_removed(self) -> None:
        # The trainer only logs each step's positions; boundary steps are written here, on first read.
        n = len(self.snapshots)
        if self._removed_upto < n:
            removed, events, starts = self._removed_at, self._event_pos, self._event_start
            for k in range(self._removed_upto + 1, n + 1):
                for q in events[starts[k] : starts[k + 1]]:
                    removed[q] = k
            self._removed_upto = n

    def segmentation(self, index: int, step: int) -> list[int]:
        """Token ids of word type ``index`` after ``step`` merges (step 0: base symbols)."""
        step = self._clamp(step)
        self._sync_removed()
        s, e = self._word_start[index], self._word_start[index + 1]
        removed, base, values, ids = self._removed_at, self._base, self.values, self.value_to_id
        is_bytes = self.variant.is_bytes
        out = []
        i = s
        while i < e:
            j = i + 1
            while j < e and 0 < removed[j] <= step:
                j += 1
            if j == i + 1:
                out.append(base[i])
            elif is_bytes:  # base ids are the byte values
                out.append(ids[bytes(base[i:j].tolist())])
            else:  # joined in C: a token can be a megabyte long (merges of a run of one character)
                out.append(ids["".join(map(values.__getitem__, base[i:j]))])
            i = j
        return out

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

    def corpus_view(self, step: int, offset: int = 0, limit: int = 50, changed_first: bool = False) -> list[WordRow]:
        """A page of word types at ``step``: ``limit`` rows from ``offset`` (first-appearance order).

        With ``changed_first`` the word types this step changed come first.
        """
        step = self._clamp(step)
        changed = self.changed_word_indices(step) if step else []
        changed_set = set(changed)
        if changed_first:
            order = changed + [i for i in range(len(self.words)) if i not in changed_set]
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
                    tokens=self.segmentation(i, step),
                    changed=is_changed,
                    before=self.segmentation(i, step - 1) if is_changed else None,
                )
            )
        return rows

    def corpus_tokens(self, step: int) -> int:
        """Tokens in the whole corpus after ``step`` (frequency-weighted)."""
        step = self._clamp(step)
        return self.snapshots[step - 1].corpus_tokens if step else self._tokens0

    # ------------------------------------------------------------------------------------ pairs
    def tie_key(self) -> TieKey:
        """The run's tie-break rule as a :class:`~bpe_core.tiebreak.TieKey` over its token ids so far."""
        key = self.__dict__.get("_key")
        if key is None:
            key = self._key = TieKey(self.config.tie_break, self.values[: self.num_base])
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

    def merge_tree(self, tid: int) -> dict:
        """How a token was built: ``{"id", "step", "children": [left_tree, right_tree]}``.

        Base symbols have ``step`` 0 and no children; ``step`` is the merge that first made the token.
        """
        src = self.created_from[tid]
        if src is None:
            return {"id": tid, "step": 0, "children": []}
        return {
            "id": tid,
            "step": self.created_step[tid],
            "children": [self.merge_tree(src[0]), self.merge_tree(src[1])],
        }

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
        """A :class:`~bpe_core.encoder.Tokenizer` with the merges of steps 1..``step`` (default: all)."""
        from .encoder import Tokenizer

        return Tokenizer.from_run(self, step)

    def _repr_html_(self) -> str:
        """A small HTML summary for notebooks: settings, totals, the first merges (escaped)."""
        from .notebook import run_html

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
