"""Encoding text with learned merges, and decoding ids back to text.

Two encoders:

* **By rank** (:meth:`Tokenizer.encode`), as GPT-2's ``bpe()`` does: pre-tokenize, split each pre-token
  into base symbols, then repeatedly pick the adjacent pair with the lowest merge rank and merge *all*
  its occurrences left to right without overlap; stop when no adjacent pair has a rank. This replays
  training on one word, so a word seen in training gets exactly its training segmentation.
  :meth:`Tokenizer.encode_with_trace` returns every merge applied, for a replay.
* **Longest match** (:meth:`Tokenizer.encode_longest_match`), the classic ``</w>`` tutorial's
  ``tokenize_word``: vocabulary tokens sorted by length in base symbols (longest first), then by
  frequency (most frequent first); the first token in that order that occurs in the string splits it at
  each of its (non-overlapping, leftmost) occurrences, and the pieces in between are tokenized the same
  way with the tokens after it; a piece that contains no token becomes one unknown token. It ignores
  the merge order, so it can disagree with the rank encoder (see :meth:`Tokenizer.compare_methods`).

char/eow map a base symbol the vocabulary lacks to ``<unk>`` (id: one after the last vocabulary id);
byte-level never needs one (all 256 bytes are base tokens).

Differences from Hugging Face ``tokenizers`` (only matter when two merges build the same string):
HF applies merges with a priority queue one occurrence at a time; GPT-2 (and this module) merges all
occurrences of the best pair before looking again. A pair merged twice in training keeps its *first*
rank here (GPT-2's and HF's dictionaries keep the last).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from .byte_display import is_complete_utf8
from .pretokenize import PRETOKENIZER_CHOICES, REGEX, check_pattern, pretokenize
from .variants import Variant

UNK_TOKEN = "<unk>"
#: Stands for the end-of-word marker in the longest-match search (a lone surrogate never occurs in text).
_MARKER_UNIT = "\udfff"

_INF = float("inf")


@dataclass(frozen=True)
class TraceStep:
    """One merge rule applied to one pre-token during encoding.

    Attributes:
        rank: the merge's rank, 1-based (= the training step that learned it).
        left, right, token: ids of the pair and of the token it makes.
        positions: indices (into the segmentation *before* this step) where an occurrence started.
        tokens: the segmentation (ids) *after* this step.
    """

    rank: int
    left: int
    right: int
    token: int
    positions: tuple
    tokens: tuple


@dataclass(frozen=True)
class PieceTrace:
    """How one pre-token was encoded: its text, its base-symbol ids, and the merges applied in order."""

    text: str
    start: tuple
    steps: tuple

    @property
    def ids(self) -> tuple:
        """The final ids of the pre-token."""
        return self.steps[-1].tokens if self.steps else self.start


class Tokenizer:
    """A BPE tokenizer: a variant, a pre-tokenizer, merges in rank order and a vocabulary.

    Args:
        variant: a :class:`~bpe_core.variants.Variant` (or just its kind, ``"char"``/``"eow"``/``"byte"``).
        pretokenizer: one of :data:`bpe_core.pretokenize.PRETOKENIZER_CHOICES`.
        merges: ``[(left_value, right_value)]`` in rank order (values are ``str`` for char/eow,
            ``bytes`` for byte-level).
        vocab: ``{value: id}``. It must hold both sides and the result of every merge; byte-level
            must hold all 256 single bytes. For char/eow a ``"<unk>"`` entry, if present and not a
            real token, gives the unknown token's id.
        frequencies: optional ``{id: count}`` (or a callable returning it, called on first need): how
            often each token occurs in the training corpus, used to order equally long tokens in the
            longest-match encoder. Without it, merge rank is used (earlier merge first).
        pattern: the user's pattern, required with the ``"regex"`` pre-tokenizer (and only with it).

    Raises:
        ValueError: a merge side or result missing from the vocabulary, a missing byte, duplicate
            ids, or values of the wrong type; :class:`~bpe_core.pretokenize.PatternError` for a bad pattern.
    """

    #: Pre-tokens remembered by the encoding cache (it is emptied when full).
    CACHE_SIZE = 20_000
    #: Longer pre-tokens are not cached.
    CACHE_MAX_PIECE = 256

    def __init__(
        self,
        variant: Variant | str,
        pretokenizer: str,
        merges: list,
        vocab: dict,
        frequencies: dict | Callable[[], dict] | None = None,
        pattern: str | None = None,
    ):
        if isinstance(variant, str):
            variant = Variant(variant)
        self.variant: Variant = variant
        if pretokenizer not in PRETOKENIZER_CHOICES:
            choices = ", ".join(PRETOKENIZER_CHOICES)
            raise ValueError(f"unknown pre-tokenizer {pretokenizer!r}; choose one of {choices}")
        if pretokenizer == REGEX:
            check_pattern(pattern)
        elif pattern is not None:
            raise ValueError("a pattern is only used by the regex pre-tokenizer")
        self.pretokenizer: str = pretokenizer
        self.pattern: str | None = pattern  #: the user's pattern (``regex`` pre-tokenizer only)
        want = bytes if variant.is_bytes else str
        vocab = dict(vocab)
        values: dict = {}
        for value, tid in vocab.items():
            if not isinstance(value, want):
                raise ValueError(f"vocabulary value {value!r} should be {want.__name__} for the {variant.kind} variant")
            if not isinstance(tid, int) or isinstance(tid, bool) or tid < 0:
                raise ValueError(f"the id of {value!r} must be a non-negative integer, got {tid!r}")
            if tid in values:
                raise ValueError(f"id {tid} is given to both {values[tid]!r} and {value!r}")
            values[tid] = value

        unk = None
        if not variant.is_bytes:
            if UNK_TOKEN in vocab and not _is_real_token(UNK_TOKEN, merges, variant):
                unk = vocab.pop(UNK_TOKEN)
                del values[unk]
            elif UNK_TOKEN in vocab:
                unk = vocab[UNK_TOKEN]
            else:
                unk = max(values) + 1 if values else 0
        self.vocab: dict = vocab
        self.values: dict = values
        self.unk_id: int | None = unk

        self.merges: list = [(left, right) for left, right in merges]
        ranks: dict = {}
        pair_of_rank: list = []
        token_rank: dict = {}
        for rank, (left, right) in enumerate(self.merges):
            for side in (left, right, left + right):
                if side not in vocab:
                    raise ValueError(
                        f"merge {rank + 1} ({self.variant.wire(left)} + {self.variant.wire(right)}): "
                        f"{self.variant.wire(side)!r} is not in the vocabulary"
                    )
            lid, rid, nid = vocab[left], vocab[right], vocab[left + right]
            pair_of_rank.append((lid, rid, nid))
            ranks.setdefault((lid, rid), (rank, nid))
            token_rank.setdefault(nid, rank)
        self._ranks = ranks
        self._pair_of_rank = pair_of_rank
        self._token_rank = token_rank

        if variant.is_bytes:
            missing = [b for b in range(256) if bytes((b,)) not in vocab]
            if missing:
                raise ValueError(
                    f"byte-level vocabulary lacks {len(missing)} of the 256 bytes (first: 0x{missing[0]:02x})"
                )
            self._byte_ids = [vocab[bytes((b,))] for b in range(256)]

        self._frequencies = frequencies
        self._cache: dict = {}
        self._lm = None  # longest-match tables, built on first use
        self._lm_cache: dict = {}

    # ------------------------------------------------------------------------------- construction
    @classmethod
    def from_run(cls, run, step: int | None = None) -> Tokenizer:
        """The tokenizer of a :class:`~bpe_core.run.TrainedRun` after merges 1..``step`` (default: all).

        Ids are the run's ids. Token frequencies for the longest-match encoder are the tokens' counts in
        the run's corpus segmented at that step (computed on first use).
        """
        n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
        merges = [(run.values[left], run.values[right]) for left, right in run.merges(n)]
        vocab = {entry.value: entry.id for entry in run.vocabulary(n)}

        def frequencies() -> dict:
            freq: dict = {}
            for i, f in enumerate(run.freqs):
                for t in run.segmentation(i, n):
                    freq[t] = freq.get(t, 0) + f
            return freq

        tok = cls(run.variant, run.config.resolved_pretokenizer, merges, vocab, frequencies, run.config.pattern)
        tok.step = n
        return tok

    step: int | None = None  #: the run step a tokenizer made by :meth:`from_run` stops at

    # ------------------------------------------------------------------------------------- facts
    @property
    def vocab_size(self) -> int:
        """Vocabulary entries (the unknown token not counted)."""
        return len(self.vocab)

    @property
    def num_merges(self) -> int:
        """Number of merges (ranks)."""
        return len(self.merges)

    def token_value(self, tid: int):
        """The value of a token id (``"<unk>"`` for the unknown token). Raises ``ValueError``."""
        if tid in self.values:
            return self.values[tid]
        if tid == self.unk_id and tid is not None:
            return UNK_TOKEN
        raise ValueError(f"unknown token id {tid!r}")

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """A token as display text: char/eow as themselves; bytes in ``mode`` (utf8, hex, escaped, gpt2)."""
        value = self.token_value(tid)
        if tid == self.unk_id:
            return UNK_TOKEN
        return self.variant.display(value, mode)

    def token_wire(self, tid: int) -> str:
        """The token as written in files and JSON (text for char/eow, GPT-2 alias for bytes)."""
        if tid == self.unk_id and tid is not None:
            return UNK_TOKEN
        return self.variant.wire(self.token_value(tid))

    def frequencies(self) -> dict | None:
        """``{id: count}`` of the training corpus, if known (computed on first call)."""
        if callable(self._frequencies):
            self._frequencies = dict(self._frequencies())
        return self._frequencies

    # ---------------------------------------------------------------------------------- encoding
    def pieces(self, text: str) -> list[str]:
        """The pre-tokens of ``text``."""
        return pretokenize(text, self.pretokenizer, self.pattern)

    def symbol_ids(self, piece: str) -> list[int]:
        """The base-symbol ids of one pre-token (unknown symbols → :attr:`unk_id`)."""
        if self.variant.is_bytes:
            table = self._byte_ids
            return [table[b] for b in piece.encode("utf-8")]
        get, unk = self.vocab.get, self.unk_id
        return [get(s, unk) for s in self.variant.symbols(piece)]

    def encode(self, text: str) -> list[int]:
        """Encode ``text`` by merge rank (GPT-2 ``bpe()``): a list of ids."""
        out: list[int] = []
        for piece in pretokenize(text, self.pretokenizer, self.pattern):
            out.extend(self.encode_piece(piece))
        return out

    def encode_tokens(self, text: str) -> list:
        """Like :meth:`encode` but returns token values (``"<unk>"`` for unknown symbols)."""
        return [self.token_value(t) for t in self.encode(text)]

    def encode_piece(self, piece: str) -> tuple:
        """Encode one pre-token by merge rank (cached)."""
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        ids = self.symbol_ids(piece)
        if len(ids) > 1:
            ids = _bpe_simple(ids, self._ranks) if len(ids) <= 64 else _bpe_heap(ids, self._ranks, self._pair_of_rank)
        result = tuple(ids)
        if len(piece) <= self.CACHE_MAX_PIECE:
            if len(self._cache) >= self.CACHE_SIZE:
                self._cache.clear()
            self._cache[piece] = result
        return result

    def encode_with_trace(self, text: str) -> tuple[list[int], list[PieceTrace]]:
        """Encode by rank and record, per pre-token, each merge rule applied and the segmentation after it.

        Returns:
            ``(ids, traces)``: the same ids as :meth:`encode`, and one :class:`PieceTrace` per pre-token.
        """
        ids: list[int] = []
        traces: list[PieceTrace] = []
        for piece in pretokenize(text, self.pretokenizer, self.pattern):
            trace = self.trace_piece(piece)
            traces.append(trace)
            ids.extend(trace.ids)
        return ids, traces

    def trace_piece(self, piece: str) -> PieceTrace:
        """The :class:`PieceTrace` of one pre-token."""
        start = tuple(self.symbol_ids(piece))
        steps = []
        word = list(start)
        ranks = self._ranks
        while len(word) > 1:
            best = None
            for pair in zip(word, word[1:]):
                r = ranks.get(pair)
                if r is not None and (best is None or r[0] < best[0]):
                    best = r
            if best is None:
                break
            rank, new = best
            a, b = self._pair_of_rank[rank][:2]
            word, positions = _merge_all(word, a, b, new)
            steps.append(TraceStep(rank + 1, a, b, new, tuple(positions), tuple(word)))
        return PieceTrace(piece, start, tuple(steps))

    # ----------------------------------------------------------------------------- longest match
    def symbol_length(self, value) -> int:
        """Length of a token value in base symbols (bytes; characters, the eow marker counting as one)."""
        if self.variant.kind == "eow":
            marker = self.variant.eow_marker
            if value.endswith(marker) and len(value) >= len(marker):
                return len(value) - len(marker) + (1 if self.variant.eow_style == "separate" else 0) or 1
        return len(value)

    def longest_match_order(self) -> list[int]:
        """Token ids in the longest-match encoder's order: longer (in base symbols) first, then more
        frequent in training (or, without frequencies, earlier merge rank; base symbols by id)."""
        return list(self._longest_match_tables()[1])

    def _lm_units(self, value):
        """A token value as the string the longest-match search works on: the eow marker becomes the
        single character :data:`_MARKER_UNIT`, so no token can match part of it."""
        if self.variant.kind == "eow":
            marker = self.variant.eow_marker
            if value.endswith(marker):
                return value[: -len(marker)] + _MARKER_UNIT
        return value

    def _lm_string(self, piece: str):
        if self.variant.is_bytes:
            return piece.encode("utf-8")
        if self.variant.kind == "eow":
            return piece + _MARKER_UNIT
        return piece

    def _longest_match_tables(self):
        if self._lm is None:
            freq = self.frequencies()
            length = {t: self.symbol_length(v) for t, v in self.values.items()}
            if freq is not None:
                order = sorted(self.values, key=lambda t: (-length[t], -freq.get(t, 0), t))
            else:
                order = sorted(self.values, key=lambda t: (-length[t], self._token_rank.get(t, -1), t))
            trie: dict = {}
            units = {}
            for sort_rank, tid in enumerate(order):
                u = units[tid] = self._lm_units(self.values[tid])
                node = trie
                for unit in u:  # str: characters; bytes: ints
                    node = node.setdefault(unit, {})
                node.setdefault(None, sort_rank)
            self._lm = (trie, tuple(order), units)
        return self._lm

    def encode_longest_match(self, text: str) -> list[int]:
        """Encode with the classic tutorial's greedy longest-match algorithm (see the module docstring).

        eow words are matched with their end-of-word marker appended; the marker is one symbol (a
        token never matches part of it, and with the attached style the last character and the marker
        are one symbol). Iterative (no recursion), so arbitrarily long pre-tokens are fine.
        """
        out: list[int] = []
        for piece in pretokenize(text, self.pretokenizer, self.pattern):
            out.extend(self.longest_match_piece(piece))
        return out

    def longest_match_piece(self, piece: str) -> list[int]:
        """Longest-match ids of one pre-token (cached)."""
        cached = self._lm_cache.get(piece)
        if cached is None:
            cached = tuple(self._longest_match(piece))
            if len(piece) <= self.CACHE_MAX_PIECE:
                if len(self._lm_cache) >= self.CACHE_SIZE:
                    self._lm_cache.clear()
                self._lm_cache[piece] = cached
        return list(cached)

    def _longest_match(self, piece: str) -> list[int]:
        trie, order, units = self._longest_match_tables()
        s = self._lm_string(piece)
        n = len(s)
        if n == 0:
            return []
        # With the attached style the last character belongs to the symbol "c</w>": a token without the
        # marker may not end just before it.
        bad_end = n - 1 if (self.variant.kind == "eow" and self.variant.eow_style == "attached") else -1
        # ends[p]: [(end, smallest sort rank of a token s[p:end'] with end' <= end)], ascending end.
        ends: list = [None] * n
        best_at = [_INF] * n
        max_len = 0
        for p in range(n):
            node = trie
            lst = None
            running = _INF
            q = p
            while q < n:
                node = node.get(s[q])
                if node is None:
                    break
                q += 1
                r = node.get(None)
                if r is not None and r < running and q != bad_end:
                    running = r
                    if lst is None:
                        lst = ends[p] = []
                    lst.append((q, r))
            if lst is not None:
                best_at[p] = running
                if lst[-1][0] - p > max_len:
                    max_len = lst[-1][0] - p
        table = _SparseMin(best_at)

        def best_in(a: int, b: int):
            """Smallest sort rank of a token lying entirely inside s[a:b]."""
            core_end = b - max_len  # every token starting before core_end fits
            best = table.query(a, core_end) if core_end > a else _INF
            for p in range(max(a, core_end), b):
                lst = ends[p]
                if lst is None:
                    continue
                for end, r in lst:
                    if end > b:
                        break
                    if r < best:
                        best = r
            return best

        out: list[int] = []
        stack: list = [(0, n)]
        while stack:
            item = stack.pop()
            if isinstance(item, int):
                out.append(item)
                continue
            a, b = item
            if a >= b:
                continue
            r = best_in(a, b)
            if r == _INF:
                if self.unk_id is None:
                    raise ValueError(f"no token covers {s[a:b]!r}")
                out.append(self.unk_id)
                continue
            tid = order[r]
            sub = units[tid]
            width = len(sub)
            parts: list = []
            i = a
            while True:
                j = s.find(sub, i, b)
                if j < 0 or j + width == bad_end:
                    break
                parts.append((i, j))
                parts.append(tid)
                i = j + width
            parts.append((i, b))
            stack.extend(reversed(parts))
        return out

    def compare_methods(self, text: str) -> list[tuple[str, list[int], list[int]]]:
        """``[(pre_token, rank_ids, longest_match_ids)]`` for every pre-token of ``text``, in order."""
        return [
            (piece, list(self.encode_piece(piece)), self.longest_match_piece(piece))
            for piece in pretokenize(text, self.pretokenizer, self.pattern)
        ]

    # ---------------------------------------------------------------------------------- decoding
    def decode(self, ids) -> str:
        """Turn ids back into text.

        byte-level: the bytes joined and decoded as UTF-8 (invalid sequences → U+FFFD).
        eow: token texts joined; the end-of-word marker ends a word, words are separated by one
        space (no trailing space). char: token texts joined. ``<unk>`` stays visible as ``<unk>``.

        Raises:
            ValueError: an id that is not in the vocabulary.
        """
        if self.variant.is_bytes:
            return b"".join(self.token_value(t) for t in ids).decode("utf-8", errors="replace")
        texts = [UNK_TOKEN if t == self.unk_id else self.token_value(t) for t in ids]
        if self.variant.kind != "eow":
            return "".join(texts)
        marker = self.variant.eow_marker
        words = []
        buf: list[str] = []
        for t, text in zip(ids, texts):
            if t != self.unk_id and text.endswith(marker):
                buf.append(text[: -len(marker)])
                words.append("".join(buf))
                buf = []
            else:
                buf.append(text)
        if buf:
            words.append("".join(buf))
        return " ".join(words)

    def decode_detail(self, ids) -> list[tuple[int, str, bool]]:
        """``[(id, text, complete_utf8)]`` per token: byte tokens shown as UTF-8 with ``\\xNN`` for bytes
        that are not whole characters, and whether the token's bytes are complete UTF-8 on their own
        (always True for char/eow)."""
        out = []
        for t in ids:
            value = self.token_value(t)
            if self.variant.is_bytes:
                out.append((t, self.variant.display(value, "utf8"), is_complete_utf8(value)))
            else:
                out.append((t, UNK_TOKEN if t == self.unk_id else value, True))
        return out

    def __repr__(self) -> str:
        return (
            f"Tokenizer(variant={self.variant.kind!r}, pretokenizer={self.pretokenizer!r}, "
            f"merges={len(self.merges)}, vocab={len(self.vocab)})"
        )


# ----------------------------------------------------------------------------------- helpers
def _is_real_token(value: str, merges, variant: Variant) -> bool:
    """True when ``value`` is a merge result or a possible base symbol (so ``<unk>`` would clash)."""
    if variant.kind == "eow" and value == variant.eow_marker:
        return True
    return any(left + right == value for left, right in merges)


def _merge_all(word: list, a: int, b: int, new: int) -> tuple[list, list]:
    """Merge every ``(a, b)`` in ``word`` left to right without overlap; return the new word and the
    indices (in the old word) where merges started."""
    out = []
    positions = []
    i = 0
    n = len(word)
    while i < n:
        if i < n - 1 and word[i] == a and word[i + 1] == b:
            out.append(new)
            positions.append(i)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out, positions


def _bpe_simple(word: list, ranks: dict) -> list:
    """GPT-2's ``bpe()`` on ids: repeatedly merge all occurrences of the lowest-ranked pair."""
    while len(word) > 1:
        best = None
        for pair in zip(word, word[1:]):
            r = ranks.get(pair)
            if r is not None and (best is None or r[0] < best[0]):
                best = r
                best_pair = pair
        if best is None:
            break
        new = best[1]
        a, b = best_pair
        out = []
        i = 0
        n = len(word)
        while i < n:
            if word[i] == a and i < n - 1 and word[i + 1] == b:
                out.append(new)
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
    return word


def _bpe_heap(ids: list, ranks: dict, pair_of_rank: list) -> list:
    """The same result as :func:`_bpe_simple` in O(n log n) for long pre-tokens.

    Linked symbols; ``where[rank]`` holds positions where that pair may start (checked when used);
    a heap of ranks gives the lowest rank present. All occurrences of one rank are merged together,
    left to right, before any other rank -- exactly GPT-2's order.
    """
    n = len(ids)
    tok = list(ids)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    where: dict = {}
    heap: list = []

    def add(rank: int, pos: int) -> None:
        lst = where.get(rank)
        if lst is None:
            where[rank] = [pos]
            heapq.heappush(heap, rank)
        else:
            lst.append(pos)

    for p in range(n - 1):
        r = ranks.get((tok[p], tok[p + 1]))
        if r is not None:
            add(r[0], p)
    while heap:
        rank = heapq.heappop(heap)
        positions = where.pop(rank, None)
        if not positions:
            continue
        a, b, new = pair_of_rank[rank]
        if ranks[(a, b)][0] != rank:  # a later duplicate of an earlier pair: never reached
            continue
        positions.sort()
        for p in positions:
            if tok[p] != a:
                continue
            q = nxt[p]
            if q < 0 or tok[q] != b:
                continue
            r_ = nxt[q]
            tok[p] = new
            tok[q] = -1
            nxt[p] = r_
            if r_ >= 0:
                prv[r_] = p
                x = ranks.get((new, tok[r_]))
                if x is not None:
                    add(x[0], p)
            o = prv[p]
            if o >= 0:
                x = ranks.get((tok[o], new))
                if x is not None:
                    add(x[0], o)
    out = []
    p = 0
    while p >= 0:
        out.append(tok[p])
        p = nxt[p]
    return out


class _SparseMin:
    """Range-minimum queries over a fixed list in O(1) after O(n log n) set-up."""

    def __init__(self, data: list):
        self.levels = [data]
        n = len(data)
        k = 1
        while (1 << k) <= n:
            prev = self.levels[-1]
            half = 1 << (k - 1)
            self.levels.append([min(prev[i], prev[i + half]) for i in range(n - (1 << k) + 1)])
            k += 1

    def query(self, lo: int, hi: int):
        """Minimum of ``data[lo:hi]`` (``lo < hi``)."""
        k = (hi - lo).bit_length() - 1
        level = self.levels[k]
        x, y = level[lo], level[hi - (1 << k)]
        return x if x <= y else y
