"""The tables a :class:`~bpe_core.encoding.encoder.Tokenizer` encodes with, built and checked from a vocabulary
``{value: id}`` and a merge list ``[(left_value, right_value)]`` in merge order.

* ``values``: ``{id: value}``, the vocabulary turned round (ids must be distinct non-negative integers).
* ``ranks``: ``{(left_id, right_id): index}``, the merge's 0-based index in the list (merge number - 1,
  :mod:`bpe_core.teaching.facts`). A pair merged twice keeps its *first* index.
* ``pair_of_rank``: ``[(left_id, right_id, new_id)]`` by that index.

Each check is first made for the whole table at once with C-speed maps (``map``, ``set``, ``dict``):
GPT-2's 50,000 merges load in a few hundredths of a second that way, where a Python loop over them
takes ten times as long. Only when the quick check fails does a Python loop go through the entries
again, to name the first bad one in the error message.
"""

from __future__ import annotations

from itertools import repeat
from operator import add, itemgetter

from ..variants import Variant


def id_table(vocab: dict, variant: Variant) -> dict:
    """``{id: value}`` of a vocabulary ``{value: id}``.

    Raises:
        ValueError: a value of the wrong type (``bytes`` for byte-level, ``str`` otherwise), an id that is
            not a non-negative integer, or one id given to two values.
    """
    want = bytes if variant.is_bytes else str
    ids = vocab.values()
    if (
        all(map(isinstance, vocab, repeat(want)))
        and set(map(type, ids)) <= {int}  # int itself: bool (a subclass) is not an id
        and (not vocab or min(ids) >= 0)
        and len(set(ids)) == len(vocab)
    ):
        return dict(zip(ids, vocab))
    values: dict = {}
    for value, tid in vocab.items():
        if not isinstance(value, want):
            raise ValueError(f"vocabulary value {value!r} should be {want.__name__} for the {variant.kind} variant")
        if not isinstance(tid, int) or isinstance(tid, bool) or tid < 0:
            raise ValueError(f"the id of {value!r} must be a non-negative integer, got {tid!r}")
        if tid in values:
            raise ValueError(f"id {tid} is given to both {values[tid]!r} and {value!r}")
        values[tid] = value
    return values


def merge_tables(merges: list, vocab: dict, variant: Variant) -> tuple[dict, list]:
    """``(ranks, pair_of_rank)`` of a merge list (see the module docstring).

    Args:
        merges: ``[(left_value, right_value)]`` in merge order.
        vocab: ``{value: id}``; it must hold both sides and the result of every merge.
        variant: used to write a value in an error message.

    Raises:
        ValueError: a merge side or result missing from the vocabulary.
    """
    lefts = [left for left, _ in merges]
    rights = [right for _, right in merges]
    get = vocab.__getitem__
    try:
        pair_of_rank = list(zip(map(get, lefts), map(get, rights), map(get, map(add, lefts, rights))))
    except (KeyError, TypeError):
        _name_missing_side(merges, vocab, variant)
        raise
    return first_ranks(list(map(itemgetter(0, 1), pair_of_rank))), pair_of_rank


def first_ranks(pairs: list) -> dict:
    """``{pair: index}`` of pairs listed in merge order; a pair listed twice keeps its first index."""
    ranks = dict(zip(pairs, range(len(pairs))))
    if len(ranks) < len(pairs):  # a pair merged twice: dict() kept its last index
        ranks = {}
        for index, pair in enumerate(pairs):
            ranks.setdefault(pair, index)
    return ranks


def _name_missing_side(merges: list, vocab: dict, variant: Variant) -> None:
    """Raise ``ValueError`` naming the first merge whose side or result is not in ``vocab``."""
    for index, (left, right) in enumerate(merges):
        for side in (left, right, left + right):
            if side not in vocab:
                raise ValueError(
                    f"merge {index + 1} ({variant.wire(left)} + {variant.wire(right)}): "
                    f"{variant.wire(side)!r} is not in the vocabulary"
                )


def is_real_token(value: str, merges, variant: Variant) -> bool:
    """True when ``value`` is a merge result or a possible base symbol (so ``<unk>`` would clash)."""
    if variant.kind == "eow" and value == variant.eow_marker:
        return True
    return any(left + right == value for left, right in merges)
