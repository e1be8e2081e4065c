"""The three BPE variants: what the base symbols of a word are, and how a token is shown.

* ``char`` -- symbols are Unicode code points (characters).
* ``eow``  -- characters plus an end-of-word marker (``</w>`` by default), Sennrich et al. 2016:
  ``separate`` style keeps the marker as its own symbol (``l o w </w>``), as the classic tutorial does;
  ``attached`` style glues it to the last character (``l o w</w>``), as GPT-1, subword-nmt and
  Hugging Face's ``end_of_word_suffix`` do.
* ``byte`` -- symbols are the word's UTF-8 bytes; the base vocabulary is all 256 bytes with ids 0-255
  (GPT-2 / Radford et al. 2019, karpathy/minbpe, tiktoken).

Token values are ``str`` for char/eow and ``bytes`` for byte-level; a token is identified by its value.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from operator import add, itemgetter, setitem, sub

from .byte_display import is_complete_utf8, render_bytes, to_gpt2

VARIANTS = ("char", "eow", "byte")
EOW_STYLES = ("separate", "attached")
DEFAULT_PRETOKENIZER = {"char": "whitespace", "eow": "whitespace", "byte": "gpt2"}


@dataclass(frozen=True)
class Variant:
    """A variant and its end-of-word settings.

    Args:
        kind: ``"char"``, ``"eow"`` or ``"byte"``.
        eow_style: ``"separate"`` or ``"attached"`` (only used by ``eow``).
        eow_marker: the end-of-word marker text (only used by ``eow``); must be non-empty
            and contain no whitespace.

    Raises:
        ValueError: an unknown kind or style, or a bad marker.
    """

    kind: str = "byte"
    eow_style: str = "separate"
    eow_marker: str = "</w>"

    def __post_init__(self) -> None:
        if self.kind not in VARIANTS:
            raise ValueError(f"unknown variant {self.kind!r}; choose one of {', '.join(VARIANTS)}")
        if self.eow_style not in EOW_STYLES:
            raise ValueError(f"unknown end-of-word style {self.eow_style!r}; choose separate or attached")
        if not self.eow_marker or any(c.isspace() for c in self.eow_marker):
            raise ValueError("the end-of-word marker must be non-empty and contain no whitespace")

    @property
    def is_bytes(self) -> bool:
        """True for byte-level BPE (token values are ``bytes``)."""
        return self.kind == "byte"

    def symbols(self, word: str) -> list:
        """The base symbols of one pre-token, in order.

        ``"low"`` → ``["l", "o", "w"]`` (char), ``["l", "o", "w", "</w>"]`` (eow separate),
        ``["l", "o", "w</w>"]`` (eow attached), ``[b"l", b"o", b"w"]`` (byte).
        """
        if self.kind == "byte":
            return [bytes((b,)) for b in word.encode("utf-8")]
        chars = list(word)
        if self.kind == "eow" and chars:
            if self.eow_style == "separate":
                chars.append(self.eow_marker)
            else:
                chars[-1] = chars[-1] + self.eow_marker
        return chars

    def corpus_symbols(self, words: list[str]) -> tuple[list, list[int]]:
        """The base symbols of many pre-tokens: every word's :meth:`symbols`, one word after another, and how
        many symbols each word has (``(symbols, lengths)``; a word of no characters has none).

        The same lists as calling :meth:`symbols` word by word, made by a few loops in C (join, ``map``):
        the trainer's set-up reads a book's tens of thousands of word types with it.
        """
        lengths = list(map(len, words))
        if self.kind == "byte" or not all(lengths):  # (an empty word gets no end-of-word marker either)
            per_word = list(map(self.symbols, words))
            return list(chain.from_iterable(per_word)), list(map(len, per_word))
        if self.kind == "eow" and self.eow_style == "separate":
            marker = (self.eow_marker,)
            return list(chain.from_iterable(map(chain, words, repeat(marker)))), list(map(add, lengths, repeat(1)))
        symbols = list("".join(words))
        if self.kind == "eow":  # attached: each word's last character carries the marker
            last = map(sub, accumulate(lengths), repeat(1))
            marked = map(add, map(itemgetter(-1), words), repeat(self.eow_marker))
            deque(map(setitem, repeat(symbols), last, marked), 0)
        return symbols, lengths

    def empty(self):
        """The empty token value (``""`` or ``b""``)."""
        return b"" if self.is_bytes else ""

    def display(self, value, mode: str = "utf8") -> str:
        """A token value as text: char/eow values are themselves; bytes use ``mode``
        (see :mod:`bpe_core.byte_display`)."""
        if isinstance(value, bytes):
            return render_bytes(value, mode)
        return value

    def wire(self, value) -> str:
        """The form used in files and JSON lines: text for char/eow, GPT-2 alias for bytes."""
        return to_gpt2(value) if isinstance(value, bytes) else value

    def hex(self, value) -> str:
        """Lowercase hex of the token's bytes (UTF-8 of the text for char/eow), no spaces."""
        data = value if isinstance(value, bytes) else value.encode("utf-8")
        return data.hex()

    def is_partial(self, value) -> bool:
        """True for a byte-level token whose bytes are not whole UTF-8 characters."""
        return isinstance(value, bytes) and not is_complete_utf8(value)
