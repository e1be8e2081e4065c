"""What merges did: a pre-token's trace, a replay of the merges that fire on a text, a token's merge tree.

A trace records each merge applied to one pre-token (lowest merge number first, GPT-2's ``bpe()``); a
:class:`Replay` gathers the traces of a whole text into one list of merges in that order, each with
how many times it applies there, and gives the text's ids after the first *k* of them -- the steps of
replaying a tokenizer's training on the user's text. :func:`merge_tree` says which merges built a token.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

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
