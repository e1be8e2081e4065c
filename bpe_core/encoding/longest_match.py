"""The classic ``</w>`` tutorial's greedy longest-match encoder (``tokenize_word``), as a search.

Vocabulary tokens are sorted by length in base symbols (longest first), then by frequency; the first
token in that order that occurs in a string splits it at each of its (non-overlapping, leftmost)
occurrences, and the pieces in between are tokenized the same way with the tokens after it; a piece
that contains no token becomes one unknown token. :meth:`bpe_core.encoding.encoder.Tokenizer.encode_longest_match`
uses it.

Instead of trying tokens one by one, a trie finds every token starting at every position once, and a
sparse table answers "the first token in sort order lying inside s[a:b]" in O(1) for each piece.
"""

from __future__ import annotations

from ..pretokenize import pretokenize

_INF = float("inf")
#: Stands for the end-of-word marker in the longest-match search (a lone surrogate never occurs in text).
_MARKER_UNIT = "\udfff"


class LongestMatchEncoder:
    """The longest-match methods of :class:`bpe_core.encoding.encoder.Tokenizer` (a mix-in: it uses the tokenizer's
    ``variant``, ``values``, ``unk_id``, ``pretokenizer``, ``frequencies()`` and merge ranks)."""

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
                order = sorted(self.values, key=lambda t: (-length[t], self._token_ranks().get(t, -1), t))
            units = {tid: self._lm_units(self.values[tid]) for tid in order}
            trie = build_trie(order, units)
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
        # With the attached style the last character belongs to the symbol "c</w>": a token without the
        # marker may not end just before it.
        bad_end = len(s) - 1 if (self.variant.kind == "eow" and self.variant.eow_style == "attached") else -1
        return longest_match(s, trie, order, units, bad_end, self.unk_id)


def build_trie(order: list, units: dict) -> dict:
    """A trie over token strings: ``{unit: child, ..., None: sort_rank}``.

    Args:
        order: token ids in the encoder's sort order.
        units: ``{id: str | bytes}``: each token as the string searched for.
    """
    trie: dict = {}
    for sort_rank, tid in enumerate(order):
        node = trie
        for unit in units[tid]:  # str: characters; bytes: ints
            node = node.setdefault(unit, {})
        node.setdefault(None, sort_rank)
    return trie


def longest_match(s, trie: dict, order: tuple, units: dict, bad_end: int, unk_id: int | None) -> list[int]:
    """Longest-match ids of one string (iterative: arbitrarily long strings are fine).

    Args:
        s: the pre-token as searched (``str``, or ``bytes`` for byte-level).
        trie, order, units: from :func:`build_trie` and its arguments.
        bad_end: an index where no token may end (the attached end-of-word style: the last character and
            the marker are one symbol), or -1.
        unk_id: the id for a piece no token covers.

    Raises:
        ValueError: a piece no token covers and no unknown id.
    """
    n = len(s)
    if n == 0:
        return []
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
    table = SparseMin(best_at)

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
            if unk_id is None:
                raise ValueError(f"no token covers {s[a:b]!r}")
            out.append(unk_id)
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


class SparseMin:
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
