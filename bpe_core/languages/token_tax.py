"""The token tax: what the same content costs in tokens, language by language.

Given parallel texts (the same meaning in several languages) and tokenizers, for each text and
tokenizer: the tokens, the ``<unk>`` tokens among them, the *tax* (its tokens over the reference
text's tokens under the same tokenizer, so the reference pays 1.0) and UTF-8 bytes per token. Across
the texts, per tokenizer: the *spread* (largest tax over smallest) and the Gini coefficient of the
taxes (0: every language pays the same; towards 1: one language pays for everything).

The measure is Petrov, La Malfa, Torr & Bibi (2023), "Language Model Tokenizers Introduce Unfairness
Between Languages" (NeurIPS), who call the tax *tokenization premium* and measure it on parallel text
(FLORES-200) against English. Units: ``chars`` are Unicode code points (``len(text)``), ``bytes`` are
UTF-8 bytes, ``tokens`` are what :meth:`bpe_core.encoding.encoder.Tokenizer.encode` returns -- for the shipped GPT
tokenizers exactly ``len(tiktoken encoding.encode_ordinary(text))``. An ``<unk>`` (character-level
tokenizers meet characters they never saw) is one token, and counted apart so a low tax that is only
``<unk>`` can be seen for what it is; byte-level tokenizers never produce one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Count:
    """One text under one tokenizer: ``tokens`` (``<unk>`` included, one each) and ``unknown`` (the
    ``<unk>`` among them)."""

    tokens: int
    unknown: int


def count_tokens(tok, text: str) -> Count:
    """Encode ``text`` (str) with ``tok`` (a :class:`bpe_core.encoding.encoder.Tokenizer`) and count.

    Raises:
        ValueError: as :meth:`~bpe_core.encoding.encoder.Tokenizer.encode` (never for byte-level tokenizers).
    """
    return count_ids(tok, tok.encode(text))


def count_ids(tok, ids: list[int]) -> Count:
    """Count ``ids``, token ids ``tok`` already gave (a :class:`bpe_core.encoding.encoder.Tokenizer`): for a view
    that draws the ids too, without encoding the text a second time."""
    unk = tok.unk_id
    return Count(len(ids), 0 if unk is None else ids.count(unk))


@dataclass(frozen=True)
class Row:
    """One text: its ``name``, ``chars`` (code points), ``bytes`` (UTF-8) and ``counts``
    (``{tokenizer name: Count}``), with ``tax`` and ``bytes_per_token`` per tokenizer name."""

    name: str
    chars: int
    bytes: int
    counts: dict
    tax: dict
    bytes_per_token: dict


@dataclass(frozen=True)
class TaxTable:
    """Parallel texts measured under several tokenizers.

    Attributes:
        rows: one :class:`Row` per text, in the order given (the reference first or not).
        models: the tokenizer names, in the order given.
        reference: the name of the reference text (its tax is 1.0 under every tokenizer).
    """

    rows: tuple
    models: tuple
    reference: str

    def taxes(self, model: str) -> list[float]:
        """The tax of every text under ``model``, in row order."""
        return [row.tax[model] for row in self.rows]

    def spread(self, model: str) -> float:
        """Largest tax over smallest under ``model`` (1.0: all texts cost the same)."""
        return spread(self.taxes(model))

    def gini(self, model: str) -> float:
        """Gini coefficient of the taxes under ``model`` (:func:`gini`)."""
        return gini(self.taxes(model))

    def unknown(self, model: str) -> int:
        """``<unk>`` tokens over all texts under ``model``."""
        return sum(row.counts[model].unknown for row in self.rows)


def tax_table(texts: dict, tokenizers: dict, reference: str | None = None) -> TaxTable:
    """Measure ``texts`` under ``tokenizers``.

    Args:
        texts: ``{name: text}``, parallel texts (the same content), at least one.
        tokenizers: ``{name: Tokenizer}`` (anything with ``encode(text) -> ids`` and ``unk_id``).
        reference: the name of the reference text; default: the first of ``texts``.

    Raises:
        ValueError: no texts, an unknown reference, or a text with no tokens (an empty text has no tax).
    """
    if not texts:
        raise ValueError("give at least one text")
    names = list(texts)
    reference = names[0] if reference is None else reference
    if reference not in texts:
        raise ValueError(f"the reference {reference!r} is not one of the texts")
    counts = {}
    for name, text in texts.items():
        counts[name] = {m: count_tokens(tok, text) for m, tok in tokenizers.items()}
        if tokenizers and not any(c.tokens for c in counts[name].values()):
            raise ValueError(f"the text {name!r} is empty: it has no tokens, so no tax")
    ref = counts[reference]
    rows = []
    for name, text in texts.items():
        size = len(text.encode("utf-8"))
        c = counts[name]
        rows.append(
            Row(
                name=name,
                chars=len(text),
                bytes=size,
                counts=c,
                tax={m: c[m].tokens / ref[m].tokens for m in tokenizers},
                bytes_per_token={m: size / c[m].tokens if c[m].tokens else 0.0 for m in tokenizers},
            )
        )
    return TaxTable(tuple(rows), tuple(tokenizers), reference)


def spread(values) -> float:
    """``max(values) / min(values)`` of positive numbers (1.0 for equal values).

    Raises:
        ValueError: no values, or a value that is not positive.
    """
    values = list(values)
    if not values or min(values) <= 0:
        raise ValueError("the spread needs positive values")
    return max(values) / min(values)


def gini(values) -> float:
    """The Gini coefficient of non-negative numbers: the mean absolute difference of all ordered pairs
    over twice the mean, ``sum_i sum_j |x_i - x_j| / (2 n^2 mean)`` (0 when all are equal; at most
    ``1 - 1/n``). Scale-free, so the Gini of the taxes equals the Gini of the token counts. Computed
    from the sorted values in O(n log n): ``sum_i (2i - n - 1) x_(i) / (n^2 mean)``, i = 1..n.

    Raises:
        ValueError: no values, a negative value, or all zero.
    """
    xs = sorted(values)
    n = len(xs)
    if not n or xs[0] < 0 or not sum(xs):
        raise ValueError("the Gini coefficient needs non-negative values, not all zero")
    total = sum(xs)
    return sum((2 * i - n - 1) * x for i, x in enumerate(xs, 1)) / (n * total)
