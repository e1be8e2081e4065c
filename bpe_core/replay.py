"""Looking at an encoding step by step: the merges it applied (lowest merge number first), the ids after each one,
token ids typed by a user, the symbols a character-level model cannot encode, and finding a token
by the way it is shown.

``traces`` are the per-pre-token traces of :meth:`bpe_core.encoder.Tokenizer.encode_with_trace`
(each with ``start`` ids and ``steps`` carrying ``merge_number``, ``left``, ``right``, ``token``,
``positions`` and ``tokens``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .inputs import InputError


def replay_merges(traces) -> list[tuple[int, int, int, int, int]]:
    """The merges an encoding applied, lowest merge number first: ``[(merge_number, left, right, token, places)]``
    (merge numbers from 1, :mod:`bpe_core.facts`; token ids; ``places``: occurrences rewritten, over all pre-tokens)."""
    found: dict = {}
    for trace in traces:
        for s in trace.steps:
            entry = found.get(s.merge_number)
            if entry is None:
                found[s.merge_number] = [s.merge_number, s.left, s.right, s.token, len(s.positions)]
            else:
                entry[4] += len(s.positions)
    return [tuple(found[r]) for r in sorted(found)]


def replay_ids(traces, upto_merge: int) -> list[int]:
    """The whole text's ids once every merge numbered <= ``upto_merge`` was applied (0: base symbols)."""
    out: list[int] = []
    for trace in traces:
        ids = trace.start
        for s in trace.steps:
            if s.merge_number > upto_merge:
                break
            ids = s.tokens
        out.extend(ids)
    return out


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
