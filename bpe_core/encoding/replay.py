"""Looking at an encoding: what it amounts to (characters per token, ``<unk>``), the words the two
encoders split differently, token ids typed by a user and whether they decode back to the text, the
symbols a character-level model cannot encode, and finding a token by the way it is shown.

The merges an encoding applies, one at a time, are :meth:`bpe_core.encoding.encoder.Tokenizer.replay`
(:class:`bpe_core.encoding.traces.Replay`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..inputs import InputError


@dataclass(frozen=True)
class EncodingSummary:
    """What an encoding of a text amounts to.

    Attributes:
        chars: the text's length in characters (code points, not bytes).
        tokens: how many token ids it became.
        unknown: how many of those ids are ``<unk>`` (character and end-of-word models only).
    """

    chars: int
    tokens: int
    unknown: int

    @property
    def chars_per_token(self) -> float:
        """Characters per token (0.0 for no tokens): higher means a tighter encoding."""
        return self.chars / self.tokens if self.tokens else 0.0


def encoding_summary(tok, text: str, ids: list[int]) -> EncodingSummary:
    """The :class:`EncodingSummary` of ``ids``, the encoding of ``text`` by ``tok`` (a
    :class:`bpe_core.encoding.encoder.Tokenizer`)."""
    unk = tok.unk_id
    return EncodingSummary(len(text), len(ids), 0 if unk is None else sum(1 for t in ids if t == unk))


def split_differences(tok, text: str) -> list[tuple[str, list[int], list[int]]]:
    """The pre-tokens of ``text`` that the two encoders split differently, each once, in the order they
    first occur: ``[(pre_token, rank_ids, longest_match_ids)]`` (see
    :meth:`bpe_core.encoding.encoder.Tokenizer.compare_methods`: GPT-2's merge order against the classic
    tutorial's longest match first)."""
    seen: set[str] = set()
    out = []
    for piece, by_rank, longest in tok.compare_methods(text):
        if by_rank != longest and piece not in seen:
            seen.add(piece)
            out.append((piece, by_rank, longest))
    return out


#: Why decoding a text's own ids may not give the text back (:attr:`RoundTrip.reasons`):
#: the whitespace pre-tokenizer drops whitespace; with the end-of-word marker one space comes back
#: between words; ``<unk>`` cannot become the character it replaced.
WHITESPACE_DROPPED, WHITESPACE_ONE_SPACE, UNK_LOST = "whitespace", "whitespace-eow", "unk"


@dataclass(frozen=True)
class RoundTrip:
    """Decoding ids typed by a user, measured against the text they came from.

    Attributes:
        decoded: the text the ids decode to (:meth:`bpe_core.encoding.encoder.Tokenizer.decode`).
        same_ids: the ids are exactly the text's own encoding.
        exact: ``same_ids`` and decoding gives the text back, character for character.
        reasons: when ``same_ids`` and not ``exact``, why (:data:`WHITESPACE_ONE_SPACE` or
            :data:`WHITESPACE_DROPPED`, then :data:`UNK_LOST`); may be empty.
    """

    decoded: str
    same_ids: bool
    exact: bool
    reasons: tuple[str, ...] = ()


def round_trip(tok, text: str, ids: list[int], wanted: list[int]) -> RoundTrip:
    """Decode ``wanted`` with ``tok`` and compare it with ``text`` (whose encoding is ``ids``).
    Raises ``ValueError`` for an id outside the vocabulary."""
    decoded = tok.decode(wanted)
    if wanted != ids:
        return RoundTrip(decoded, False, False)
    if decoded == text:
        return RoundTrip(decoded, True, True)
    reasons = []
    if tok.pretokenizer == "whitespace":
        reasons.append(WHITESPACE_ONE_SPACE if tok.variant.kind == "eow" else WHITESPACE_DROPPED)
    if encoding_summary(tok, text, ids).unknown:
        reasons.append(UNK_LOST)
    return RoundTrip(decoded, True, False, tuple(reasons))


_ID_SEPARATORS = re.compile(r"[\s,;\[\]]+")
_ID = re.compile(r"\d{1,9}")


def parse_ids(text: str) -> list[int]:
    """Token ids from ``"12, 5 7"`` / ``"[12, 5, 7]"`` (spaces, commas, semicolons and brackets
    separate). Raises :class:`bpe_core.InputError` naming the first item that is not an id."""
    out = []
    for item in (x for x in _ID_SEPARATORS.split(text.strip()) if x):
        if not _ID.fullmatch(item):
            raise InputError(f"{item[:20]!r} is not a token id (ids are whole numbers ≥ 0, e.g. 12, 5, 7).")
        out.append(int(item))
    return out


def unknown_symbols(tok, text: str) -> list[str]:
    """The base symbols of ``text`` that the tokenizer ``tok`` maps to ``<unk>``, in order
    (character and end-of-word models only; byte-level models have none)."""
    if tok.variant.is_bytes:
        return []
    vocab = tok.vocab
    return [s for piece in tok.pieces(text) for s in tok.variant.symbols(piece) if s not in vocab]


def token_index(run, label: Callable[[int], str]) -> dict[str, int]:
    """``{label(id): id}`` over the run's whole vocabulary (the lowest id wins a shared label)."""
    index: dict[str, int] = {}
    for tid in range(len(run.values)):
        index.setdefault(label(tid), tid)
    return index


def find_token(run, text: str, index: dict[str, int], step: int | None = None) -> int | None:
    """The id of the token shown as ``text`` (a key of ``index``, see :func:`token_index`) or whose
    raw value is ``text``, if it exists at ``step`` (default: any step); else ``None``."""
    tid = index.get(text)
    if tid is None:
        value = text.encode("utf-8") if run.variant.is_bytes else text
        tid = run.value_to_id.get(value)
    if tid is None or (step is not None and run.created_step[tid] > step):
        return None
    return tid
