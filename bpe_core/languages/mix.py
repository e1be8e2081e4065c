"""A language mix of the Declaration: which languages a training reads and with what weights, the mix as text (the
spec a link keeps), its training texts and words, and which language the fair rule's merges served.

The Languages page trains byte-level BPE on the Declaration's preamble and articles 1-20 (:data:`TRAIN_SECTIONS`)
in a chosen mix, with the plain or the parity-aware merge rule (:mod:`bpe_core.algorithms.fair_bpe`), and measures it on
articles 21-30 (:data:`HELD_OUT`). A mix's weights are per Declaration key (:data:`bpe_core.languages.declaration.KEYS`);
the equal mix gives every language the same share of UTF-8 bytes (:func:`bpe_core.algorithms.fair_bpe.byte_share_weights`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable

from bpe_core import corpus_words
from bpe_core.algorithms.fair_bpe import RULES, byte_share_weights
from bpe_core.languages import declaration as decl

#: Trained on the preamble and articles 1-20, measured on 21-30 (held out).
TRAIN_SECTIONS = tuple(range(0, 21))
HELD_OUT = tuple(range(21, 31))


def equal_shares() -> dict:
    """``{key: weight}`` giving every Declaration language the same share of UTF-8 bytes in the training articles."""
    return byte_share_weights(decl.texts(TRAIN_SECTIONS))


def mix_weights(mix: str, own: dict | None = None) -> dict:
    """``{key: weight}`` for every Declaration key, for a mix choice.

    Args:
        mix: a Declaration key (that language alone, weight 1.0, the others 0.0), ``"equal"`` (equal UTF-8 byte
            shares, :func:`equal_shares`) or anything else: ``own`` weights.
        own: ``{key: weight}`` as a learner typed them (1 = an equal byte share, 0 or missing = left out; negative
            counts as 0), scaled by :func:`equal_shares`, so weight 1 everywhere is the equal mix.
    """
    if mix in decl.LOCALES:
        return {k: (1.0 if k == mix else 0.0) for k in decl.KEYS}
    shares = equal_shares()
    if mix == "equal":
        return shares
    own = own or {}
    return {k: shares[k] * max(0.0, float(own.get(k, 0.0))) for k in decl.KEYS}


def mix_spec(rule: str, weights: dict) -> str:
    """A language-mix training as text, kept in the corpus store for its link (``?corpus=<id>``): a line
    ``rule <plain|fair>``, then ``<key> <weight>`` per language with a positive weight, in the Declaration's
    order (``weights``: ``{key: weight}``; a weight is written as Python's ``repr`` of the float, so it reads back
    the same)."""
    lines = [f"rule {rule}"] + [f"{k} {float(weights[k])!r}" for k in decl.KEYS if weights.get(k, 0) > 0]
    return "\n".join(lines)


def parse_mix_spec(spec: str) -> tuple[str, dict]:
    """``(rule, {key: weight})`` of :func:`mix_spec`'s text. Raises ``ValueError`` for anything else: another
    first line or rule, an unknown key, a weight that is not a positive finite number, no language."""
    lines = spec.strip().splitlines()
    head = lines[0].split() if lines else []
    if len(head) != 2 or head[0] != "rule" or head[1] not in RULES:
        raise ValueError("not a language mix")
    weights = {}
    for line in lines[1:]:
        key, _sep, value = line.partition(" ")
        weight = float(value)  # ValueError when not a number
        if key not in decl.KEYS or not weight > 0 or weight == float("inf"):
            raise ValueError("not a language mix")
        weights[key] = weight
    if not weights:
        raise ValueError("not a language mix")
    return head[1], weights


@functools.cache
def default_mix() -> str:
    """The spec of the fair rule on all 20 languages in equal shares of UTF-8 bytes."""
    return mix_spec("fair", equal_shares())


@functools.lru_cache(maxsize=16)
def training_texts(keys: tuple) -> tuple[dict, int]:
    """The training articles (:data:`TRAIN_SECTIONS`) of languages ``keys`` (Declaration keys), ``{key: text}``,
    and their size in UTF-8 bytes (once per process)."""
    texts = decl.texts(TRAIN_SECTIONS, keys)
    return texts, sum(len(t.encode("utf-8")) for t in texts.values())


def summed_words(texts: dict, config) -> dict[str, int]:
    """The words of every text of ``texts`` (``{key: text}``) pre-tokenized by ``config`` (a
    :class:`bpe_core.TrainConfig`), their frequencies summed: ``{word: frequency}``, first-appearance order."""
    out: dict[str, int] = {}
    for text in texts.values():
        for word, f in corpus_words(text, config).items():
            out[word] = out.get(word, 0) + f
    return out


def served_counts(served: Iterable[str]) -> dict[str, int]:
    """How many merges served each language: ``served`` is a fair training's language per merge
    (:attr:`bpe_core.algorithms.fair_bpe.FairRun.served`); ``{key: merges}`` in the order the languages were first served."""
    return dict(Counter(served))
