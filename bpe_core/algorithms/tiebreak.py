"""Tie-breaking: which of several equally frequent pairs a merge picks (rule 2 of :mod:`bpe_core.algorithms.trainer`).

This module is the one definition of the three rules. The trainer, :meth:`bpe_core.algorithms.run.TrainedRun.pair_table`
and the reference trainer (:mod:`bpe_core.algorithms.reference`) all order pairs by ``(-count, key)``, smaller first,
with ``key`` from :class:`TieKey`:

* ``first-seen`` -- the pair's first position in the corpus (word types in order of first appearance,
  then left to right). Python's ``max(pairs, key=pairs.get)`` over an insertion-ordered dict does this;
  so do tiktoken's ``_educational.bpe_train`` and karpathy/minbpe.
* ``hf`` -- ``(id_left, id_right)`` in Hugging Face ``tokenizers``' numbering (``BpeTrainer``): the base
  alphabet sorted by code point (byte-level: by the code point of each byte's GPT-2 alias), the
  end-of-word symbols after the plain characters, then merged tokens in creation order.
* ``lexical`` -- the lexicographically *largest* ``(left, right)`` pair of strings (byte-level: of byte
  strings), as subword-nmt's ``learn_bpe`` does with ``max(stats, key=lambda x: (stats[x], x))``.

The trainer's inner loop inlines the ``first-seen`` key (a candidate position list it keeps anyway);
``tests/test_tiebreak.py`` checks that copy against :class:`TieKey`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from ..byte_display import bytes_to_unicode
from ..variants import Variant

TIE_BREAKS = ("first-seen", "hf", "lexical")

SHIFT = 32  # the hf key packs (id_left, id_right) as id_left << 32 | id_right: one int compares faster


def rev_key(value) -> tuple:
    """Ascending sort key for *descending* lexicographic order of a ``str`` or ``bytes`` value.

    Code units (code points, or byte values) are negated; a final sentinel larger than any negated
    unit makes ``"abc"`` sort before its prefix ``"ab"``, as ``"abc" > "ab"`` in plain string order.
    """
    units = value if isinstance(value, bytes) else map(ord, value)
    return tuple(-u for u in units) + (1,)


@lru_cache(maxsize=1)
def _hf_byte_ranks() -> tuple:
    alias = bytes_to_unicode()
    ranks = [0] * 256
    for rank, b in enumerate(sorted(range(256), key=lambda b: alias[b])):
        ranks[b] = rank
    return tuple(ranks)


def hf_base_ranks() -> list[int]:
    """Hugging Face's id for each byte 0..255: bytes ordered by the code point of their GPT-2 alias."""
    return list(_hf_byte_ranks())


def base_alphabet(symbols: Iterable, variant: Variant) -> list:
    """The base vocabulary in token-id order.

    Args:
        symbols: every base symbol of the corpus (from :meth:`Variant.symbols`), repeats allowed.
        variant: the variant the symbols come from.

    Returns:
        Byte-level: all 256 one-byte values, id = byte value. Otherwise the distinct symbols, plain
        characters by code point, then the end-of-word symbols (the separate marker; or the attached
        ``x</w>`` symbols by code point). For char and eow this is also Hugging Face's numbering, so
        there a token's id is its ``hf`` rank.
    """
    if variant.is_bytes:
        return [bytes((b,)) for b in range(256)]
    seen = set(symbols)
    if variant.kind != "eow":
        return sorted(seen)
    marker = variant.eow_marker
    if variant.eow_style == "separate":
        return sorted(seen - {marker}) + ([marker] if marker in seen else [])
    # Plain symbols are one code point; an attached symbol is a character plus the marker, so longer.
    return sorted(seen, key=lambda s: (len(s) > 1 and s.endswith(marker), s))


class TieKey:
    """The tie-break key of a pair of token ids under one rule: ``key(left, right, first)``, smaller wins.

    Args:
        rule: one of :data:`TIE_BREAKS`.
        base: the base alphabet in id order (:func:`base_alphabet`); byte-level: the 256 bytes.

    Call :meth:`add` with each new token's value in creation order (a merge that rebuilds an existing
    string adds nothing). Raises ``ValueError`` for an unknown rule.
    """

    def __init__(self, rule: str, base: list):
        if rule not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {rule!r}; choose one of {', '.join(TIE_BREAKS)}")
        self.rule = rule
        is_bytes = bool(base) and isinstance(base[0], bytes)
        # hf: the Hugging Face id of every token; lexical: each value's descending-order key.
        self.hf_id: list[int] = hf_base_ranks() if is_bytes else list(range(len(base)))
        self.lex: list[tuple] = [rev_key(v) for v in base] if rule == "lexical" else []

    def add(self, value) -> None:
        """Register the next new token (its id is the number of tokens so far)."""
        self.hf_id.append(len(self.hf_id))
        if self.rule == "lexical":
            self.lex.append(rev_key(value))

    def __call__(self, left: int, right: int, first: int = 0):
        """The key of pair ``(left, right)`` (token ids); ``first`` is the pair's first position in the
        corpus (any increasing numbering of (word type, offset)), read only by ``first-seen``."""
        if self.rule == "first-seen":
            return first
        if self.rule == "hf":
            return (self.hf_id[left] << SHIFT) | self.hf_id[right]
        return (self.lex[left], self.lex[right])

    def packed(self, shift: int) -> Callable[[int], object]:
        """The same key for ``hf`` and ``lexical`` as a function of one int, the pair packed as
        ``left << shift | right`` (the trainer's form; it calls this in its inner loop, so the rule is
        resolved once here). It follows later :meth:`add` calls. Raises ``ValueError`` for first-seen,
        whose key is a position the trainer reads from its own tables."""
        mask = (1 << shift) - 1
        if self.rule == "hf":
            hf_id = self.hf_id
            return lambda pk: (hf_id[pk >> shift] << SHIFT) | hf_id[pk & mask]
        if self.rule == "lexical":
            lex = self.lex
            return lambda pk: (lex[pk >> shift], lex[pk & mask])
        raise ValueError("the first-seen key is a position, not a function of the pair")
