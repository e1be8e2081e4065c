r"""Pre-tokenizers: split text into the pieces ("words") that merges never cross.

* ``whitespace`` -- Python's ``str.split()``: runs of whitespace separate words and are dropped
  (the classic ``</w>`` tutorial and subword-nmt).
* ``gpt2``       -- GPT-2's pattern in tiktoken's form (``r50k_pat_str`` in ``tiktoken_ext/openai_public.py``),
  which tiktoken documents as equivalent to openai/gpt-2's ``encoder.py`` regex (and Hugging Face's
  ``ByteLevel(use_regex=True)``) but faster. Spaces stay attached to the following word.
* ``gpt4``       -- tiktoken's current ``cl100k_base`` pattern (GPT-3.5 / GPT-4). It tries ``\s++$`` before
  ``\s*[\r\n]``, so whitespace ending the input stays one piece: ``'x\n  '`` -> ``['x', '\n  ']``.
* ``o200k``      -- tiktoken's ``o200k_base`` pattern (GPT-4o): letters split at case changes
  (``CamelCase`` -> ``Camel``, ``Case``), contractions joined to their word, ``/`` after punctuation kept.
* ``none``       -- the whole text is one piece (karpathy/minbpe's ``BasicTokenizer``).

The patterns need the ``regex`` package (possessive quantifiers, ``\p{..}`` classes).
"""

from __future__ import annotations

from collections import Counter

import regex

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
PRETOKENIZERS = ("whitespace", "gpt2", "gpt4", "o200k", "none")
#: The regex of each pattern pre-tokenizer (``tokenizer.json`` writes the same one as a ``Split``).
PATTERNS = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "o200k": O200K_PATTERN}

_COMPILED = {name: regex.compile(pattern) for name, pattern in PATTERNS.items()}


def pretokenize(text: str, name: str) -> list[str]:
    """Split ``text`` into pieces with the named pre-tokenizer.

    Args:
        text: the input, a ``str`` (characters, not bytes).
        name: one of :data:`PRETOKENIZERS`.

    Returns:
        The pieces in text order; empty pieces never appear.

    Raises:
        ValueError: unknown pre-tokenizer name.
    """
    if name == "whitespace":
        return text.split()
    if name == "none":
        return [text] if text else []
    if name in _COMPILED:
        return _COMPILED[name].findall(text)
    raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {', '.join(PRETOKENIZERS)}")


def word_counts(text: str, name: str) -> dict[str, int]:
    """Count word types: ``{piece: frequency}`` in order of first appearance."""
    return dict(Counter(pretokenize(text, name)))
