"""Pre-tokenizers: split text into the pieces ("words") that merges never cross.

* ``whitespace`` -- Python's ``str.split()``: runs of whitespace separate words and are dropped
  (the classic ``</w>`` tutorial and subword-nmt).
* ``gpt2``       -- GPT-2's regex (openai/gpt-2 ``encoder.py``; also tiktoken's ``gpt2`` and
  Hugging Face's ``ByteLevel(use_regex=True)``). Spaces stay attached to the following word.
* ``gpt4``       -- the ``cl100k_base`` pattern from tiktoken.
* ``none``       -- the whole text is one piece (karpathy/minbpe's ``BasicTokenizer``).
"""

from __future__ import annotations

from collections import Counter

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)
PRETOKENIZERS = ("whitespace", "gpt2", "gpt4", "none")

_COMPILED = {
    "gpt2": regex.compile(GPT2_PATTERN),
    "gpt4": regex.compile(GPT4_PATTERN),
}


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
