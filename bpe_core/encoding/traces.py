"""What merges did: a pre-token's trace, a replay of the merges that fire on a text, a token's merge tree.

A trace records each merge applied to one pre-token (lowest merge number first, GPT-2's ``bpe()``); a
:class:`Replay` gathers the traces of a whole text into one list of merges in that order, each with
how many times it applies there, and gives the text's ids after the first *k* of them -- the steps of
replaying a tokenizer's training on the user's text. :class:`MergeGraph` holds a merge list's trees both ways:
which merges built a token (its :class:`MergeTree`, down to base symbols) and which tokens were made from it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from operator import itemgetter

from .apply_merges import merge_all


@dataclass(frozen=True)
class TraceStep:
    """One merge rule applied to one pre-token during encoding.

    Attributes:
        merge_number: the merge's number k, from 1 (= the training step that learned it; the app's one
            numbering, :mod:`bpe_core.teaching.facts`).
        left, right, token: ids of the pair and of the token it makes.
        positions: indices (into the segmentation *before* this step) where an occurrence started.
        tokens: the segmentation (ids) *after* this step.
    """

    merge_number: int
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


def trace_piece(piece: str, start: tuple, ranks: dict, pair_of_rank: list) -> PieceTrace:
    """The :class:`PieceTrace` of one pre-token.

    Args:
        piece: the pre-token's text.
        start: its base-symbol ids.
        ranks: ``{(left_id, right_id): index}``, a merge's 0-based index in the merge list (its number - 1).
        pair_of_rank: ``[(left_id, right_id, new_id)]`` by that index.
    """
    steps = []
    word = list(start)
    while len(word) > 1:
        best = None
        for pair in zip(word, word[1:]):
            r = ranks.get(pair)
            if r is not None and (best is None or r < best):
                best = r
        if best is None:
            break
        a, b, new = pair_of_rank[best]
        word, positions = merge_all(word, a, b, new)
        steps.append(TraceStep(best + 1, a, b, new, tuple(positions), tuple(word)))
    return PieceTrace(piece, tuple(start), tuple(steps))


@dataclass(frozen=True)
class ReplayStep:
    """One merge that fires on a text.

    Attributes:
        merge_number: the merge's number k, from 1 (for the rank-file models its new token's tiktoken rank and id
            is ``255 + k``: :func:`bpe_core.teaching.facts.rank_of_merge`).
        left, right, token: ids of the pair and of the token it makes.
        count: how many times it applies in the whole text (each occurrence in each pre-token).
    """

    merge_number: int
    left: int
    right: int
    token: int
    count: int


class Replay:
    """The merges that fire on a text, lowest merge number first, and the text's ids after any number of them.

    Built by :meth:`bpe_core.encoding.encoder.Tokenizer.replay`. ``steps[k - 1]`` is the k-th merge that fires;
    :meth:`ids_at` ``(k)`` gives the ids after it (``ids_at(0)``: base symbols; ``ids_at(len(steps))``
    equals :meth:`~bpe_core.encoding.encoder.Tokenizer.encode`).
    """

    def __init__(self, pieces: list[str], traces: dict):
        self.pieces = pieces  #: the text's pre-tokens in order
        self.traces = traces  #: ``{pre-token: PieceTrace}``, one per distinct pre-token
        counts: dict = {}
        for piece in pieces:
            for st in traces[piece].steps:
                c = counts.get(st.merge_number)
                if c is None:
                    counts[st.merge_number] = [st, len(st.positions)]
                else:
                    c[1] += len(st.positions)
        self.steps: tuple = tuple(
            ReplayStep(number, st.left, st.right, st.token, n) for number, (st, n) in sorted(counts.items())
        )
        self._piece_numbers = {p: [st.merge_number for st in t.steps] for p, t in traces.items()}

    def __len__(self) -> int:
        return len(self.steps)

    def ids_at(self, k: int) -> list[int]:
        """The text's ids after the first ``k`` merges of :attr:`steps` (0 <= k <= len(steps))."""
        if not 0 <= k <= len(self.steps):
            raise ValueError(f"step {k} is outside 0..{len(self.steps)}")
        limit = self.steps[k - 1].merge_number if k else 0
        out: list[int] = []
        for piece in self.pieces:
            trace = self.traces[piece]
            done = bisect_right(self._piece_numbers[piece], limit)
            out.extend(trace.steps[done - 1].tokens if done else trace.start)
        return out


@dataclass(frozen=True)
class MergeTree:
    """How a token was built: a base symbol (``merge_number`` None, no children), or a merge of two trees.

    Attributes:
        token: the token's id.
        merge_number: the number k (from 1) of the merge that made it (for a :class:`~bpe_core.TrainedRun`: the step
            that first made it), or None for a base symbol.
        left, right: the trees of the merged pair (None for a base symbol).
    """

    token: int
    merge_number: int | None = None
    left: MergeTree | None = None
    right: MergeTree | None = None

    def nodes(self, depth: int = 0):
        """``(depth, node)`` of every node, the root first, then the left tree, then the right (pre-order)."""
        stack = [(depth, self)]
        while stack:
            d, node = stack.pop()
            yield d, node
            if node.merge_number is not None:
                stack.append((d + 1, node.right))
                stack.append((d + 1, node.left))

    def merge_numbers(self) -> list[int]:
        """Every merge number in the tree, in the order the merges were applied (ascending)."""
        out: list[int] = []
        stack = [self]
        while stack:
            node = stack.pop()
            if node.merge_number is not None:
                out.append(node.merge_number)
                stack.extend((node.left, node.right))
        return sorted(out)


def token_ranks(pair_of_rank: list) -> dict:
    """``{new_id: index}`` (0-based) of a merge list ``[(left_id, right_id, new_id)]``: the first merge making a
    token counts. Built backwards, so that index is written last, all in C (200,000 merges in a few ms)."""
    news = list(map(itemgetter(2), pair_of_rank))
    return dict(zip(reversed(news), range(len(news) - 1, -1, -1)))


def merge_tree(token: int, token_rank: dict, pair_of_rank: list) -> MergeTree:
    """The :class:`MergeTree` of a token id.

    Args:
        token: a token id.
        token_rank: ``{new_id: index}`` (0-based index: merge number - 1) of the merges that made tokens.
        pair_of_rank: ``[(left_id, right_id, new_id)]`` by that index.
    """
    index = token_rank.get(token)
    if index is None:
        return MergeTree(token)
    left, right, _ = pair_of_rank[index]
    return MergeTree(
        token, index + 1, merge_tree(left, token_rank, pair_of_rank), merge_tree(right, token_rank, pair_of_rank)
    )


class MergeGraph:
    """A merge list's trees both ways: each token's parts (down to base symbols) and the tokens made from it.

    A token's ``parts`` are the pair of the first merge that made it; its ``children`` are the tokens whose
    parts include it, so going down from a child always comes back to the token. Built from any merge list
    (a training run's, a rank file's, a tokenizer.json's): nothing here knows about bytes or characters.

    Args:
        pair_of_rank: ``[(left_id, right_id, new_id)]`` in merge order (index = merge number - 1).
        token_rank: ``{new_id: index}`` of the first merge making each token, when the caller has it already.
    """

    def __init__(self, pair_of_rank: list, token_rank: dict | None = None):
        self._pairs = pair_of_rank
        self._rank = token_ranks(pair_of_rank) if token_rank is None else token_rank
        self._children: dict | None = None  # built by _index when many tokens are asked about
        self._columns: tuple | None = None  # (left ids, right ids) by rank, for one token's children

    def one_merge_per_token(self) -> bool:
        """Whether no token is made by two merges (true of the GPT rank files; a run that rebuilds a string is not)."""
        return len(self._rank) == len(self._pairs)

    def merge_number(self, tid: int) -> int | None:
        """The number (from 1) of the first merge that made ``tid``; None for a base symbol."""
        rank = self._rank.get(tid)
        return None if rank is None else rank + 1

    def parts(self, tid: int) -> tuple[int, int] | None:
        """The two ids ``tid`` was first merged from; None for a base symbol."""
        rank = self._rank.get(tid)
        return None if rank is None else self._pairs[rank][:2]

    def children(self, tid: int) -> tuple:
        """The ids of every token made directly from ``tid`` (``tid`` is one of its parts), by merge number."""
        if self._children is not None:
            return tuple(self._children.get(tid, ()))
        if self._columns is None:
            self._columns = (list(map(itemgetter(0), self._pairs)), list(map(itemgetter(1), self._pairs)))
        # One C-level search per column (a few ms for 200,000 merges), so a first tree needs no index.
        ranks = sorted(set(_indices(self._columns[0], tid)).union(_indices(self._columns[1], tid)))
        pairs, first = self._pairs, self._rank
        return tuple(pairs[r][2] for r in ranks if first.get(pairs[r][2]) == r)

    def _index(self) -> dict:
        """``{id: [child ids by merge number]}`` of every token, built once (about 0.1 s for 200,000 merges)."""
        if self._children is None:
            children: dict = {}
            pairs = self._pairs
            for new, rank in sorted(self._rank.items(), key=itemgetter(1)):
                left, right, _ = pairs[rank]
                children.setdefault(left, []).append(new)
                if right != left:
                    children.setdefault(right, []).append(new)
            self._children = children
        return self._children

    def descendants(self, tid: int) -> list[int]:
        """Every token whose tree holds ``tid`` (children, their children, ...), by merge number."""
        self._index()
        seen: set = set()
        todo = [tid]
        while todo:
            for child in self.children(todo.pop()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return sorted(seen, key=self._rank.__getitem__)

    def tree(self, tid: int) -> MergeTree:
        """The :class:`MergeTree` of ``tid`` (down to base symbols)."""
        return merge_tree(tid, self._rank, self._pairs)

    def record(self, tid: int) -> dict:
        """``{"id", "merge", "parts", "children"}`` of ``tid`` (``merge`` and ``parts`` None for a base symbol;
        ``parts`` a two-id list): the CLI's ``tree`` lines and the app's tree read it."""
        parts = self.parts(tid)
        return {
            "id": tid,
            "merge": self.merge_number(tid),
            "parts": None if parts is None else list(parts),
            "children": list(self.children(tid)),
        }


def _indices(column: list, value: int) -> list[int]:
    """The positions of ``value`` in ``column``, by ``list.index`` (a search in C) from each hit on."""
    out: list[int] = []
    at = -1
    try:
        while True:
            at = column.index(value, at + 1)
            out.append(at)
    except ValueError:
        return out
