"""Check an encoder: where a student's token ids for a text first differ from a tokenizer's, and which
merge order explains the tokenizer's answer there.

An encoder applies a tokenizer's merges to each pre-token by rank: the lowest-ranked pair present first,
every occurrence left to right, then again (GPT-2's ``bpe()``; :meth:`bpe_core.encoding.encoder.Tokenizer.encode_with_trace`
records each merge). The first differing position falls in one pre-token; that pre-token's trace is the
merge order the student's encoder should have followed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..encoding.replay import parse_ids
from ..inputs import InputError


@dataclass
class EncoderReport:
    """What :func:`check_encoding` found.

    Attributes:
        identical: the ids are equal.
        expected / yours: the tokenizer's ids and the student's (token ids).
        position: the first token index (0-based) where they differ, else ``None``.
        piece: the pre-token (text) the expected token at ``position`` falls in (the last one when the
            student's list is longer), else ``None``.
        piece_index: its index among the text's pre-tokens; ``piece_start``: the token index where it starts.
        expected_piece / yours_piece: the expected ids of that pre-token, and the student's ids from
            ``piece_start`` on, as many as decode to the same number of characters (at most twice as many).
        merges: the merges the tokenizer applies to that pre-token, in order: ``[(merge_number, left, right, token)]``
            (ids; merge numbers from 1, lowest first; each one rewrites every occurrence left to right).
        longest_match: the student's ids for the pre-token are what greedy longest-match would give.
    """

    identical: bool
    expected: list
    yours: list
    position: int | None = None
    piece: str | None = None
    piece_index: int | None = None
    piece_start: int | None = None
    expected_piece: list = field(default_factory=list)
    yours_piece: list = field(default_factory=list)
    merges: list = field(default_factory=list)
    longest_match: bool = False


def parse_tokens_or_ids(tok, text: str) -> list[int]:
    """A student's encoding as ids: whole numbers (``12, 5 7`` / ``[12, 5, 7]``), or tokens as written in
    files (a JSON list of strings, or tokens separated by spaces; byte-level tokens in GPT-2's alias form,
    ``Ġthe``). Raises :class:`~bpe_core.inputs.InputError` naming the first item it cannot read."""
    text = text.strip()
    if not text:
        raise InputError("Nothing to check: paste token ids (12, 5, 7) or tokens.")
    try:
        return parse_ids(text)
    except InputError:
        pass
    tokens = None
    if text.startswith("["):
        try:
            tokens = json.loads(text)
        except json.JSONDecodeError:
            tokens = None
        if not (isinstance(tokens, list) and all(isinstance(t, str) for t in tokens)):
            raise InputError("A list in brackets must hold token ids or token strings in quotes.")
    if tokens is None:
        tokens = text.split()
    ids = []
    for t in tokens:
        tid = _wire_ids(tok).get(t)
        if tid is None:
            raise InputError(f"{t[:30]!r} is not a token of this tokenizer.")
        ids.append(tid)
    return ids


def _wire_ids(tok) -> dict:
    index = getattr(tok, "_check_wire_index", None)
    if index is None:
        index = {}
        for tid in sorted(tok.values):
            index.setdefault(tok.token_wire(tid), tid)
        tok._check_wire_index = index
    return index


def check_encoding(tok, text: str, yours: list[int]) -> EncoderReport:
    """Compare a student's ids for ``text`` with ``tok``'s (a :class:`~bpe_core.encoding.encoder.Tokenizer`: a run's,
    a loaded model, or GPT-2 / GPT-4 / GPT-4o from :func:`bpe_core.models.load_gpt`)."""
    expected, traces = tok.encode_with_trace(text)
    yours = list(yours)
    report = EncoderReport(expected == yours, expected, yours)
    if report.identical:
        return report
    pos = next((i for i, (a, b) in enumerate(zip(expected, yours)) if a != b), min(len(expected), len(yours)))
    report.position = pos
    if not traces:
        return report
    start = 0
    for index, trace in enumerate(traces):
        if pos < start + len(trace.ids) or index == len(traces) - 1:
            break
        start += len(trace.ids)
    report.piece, report.piece_index, report.piece_start = trace.text, index, start
    report.expected_piece = list(trace.ids)
    report.merges = [(s.merge_number, s.left, s.right, s.token) for s in trace.steps]
    report.yours_piece = _student_piece(tok, yours[start:], trace.text)
    longest = tok.longest_match_piece(trace.text)
    report.longest_match = report.yours_piece == list(longest) and report.yours_piece != report.expected_piece
    return report


def _student_piece(tok, ids: list, piece: str) -> list:
    """The student's ids that spell ``piece`` (or the fewest that reach its length), from the start of ``ids``."""
    want = len(piece.encode("utf-8")) if tok.variant.is_bytes else len(piece)
    out, have = [], 0
    for tid in ids[: 2 * max(1, want)]:
        if have >= want:
            break
        try:
            value = tok.token_value(tid)
        except ValueError:
            value = ""
        if not isinstance(value, bytes):
            value = value.removesuffix(tok.variant.eow_marker) if tok.variant.kind == "eow" else value
        out.append(tid)
        have += len(value) or 1
    return out
