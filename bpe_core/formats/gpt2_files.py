"""Reading GPT-2-style model files: ``vocab.json`` (``{token: id}``) and ``merges.txt`` (``left right`` per
line, in merge order, after an optional ``#version`` line), as Hugging Face and OpenAI's GPT-2 write them.

Byte-level tokens are written in GPT-2's ``bytes_to_unicode`` alphabet (``Ġthe`` is `` the``). A file of
GPT-2's size (50,000 merges) is checked and turned into tables with C-speed operations over whole
lists (``map``, ``str.translate``, ``dict(zip(...))``); a Python loop goes through the entries only when a
quick check fails, to name the first bad line in the message. :func:`bpe_core.formats.files.load_model` reads a
model directory with these.
"""

from __future__ import annotations

import json
from itertools import islice
from operator import add, eq
from typing import NamedTuple

from ..byte_display import from_gpt2, from_gpt2_many
from ..encoding.encoder import Tokenizer
from ..encoding.encoder_tables import first_ranks
from ..inputs import InputError
from ..models import mark_known_merges
from ..pretokenize import REGEX, check_pattern
from ..variants import Variant


class ParsedMerges(NamedTuple):
    """Merges read from a file: ``lefts[k]`` and ``rights[k]`` (as written) of merge ``k``, on line ``lines[k]``;
    ``text``, when the file had nothing else, is the merges as ``left right`` lines joined by newlines."""

    lefts: list
    rights: list
    lines: list | range
    text: str | None = None


def read_text(data, name: str) -> str:
    """``data`` (bytes or str) as text, without a byte-order mark. Raises ``InputError`` for bytes that are not UTF-8."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise InputError(f"{name} is not valid UTF-8 (byte {err.start}).") from None
    return data[1:] if data.startswith("\ufeff") else data


def parse_vocab(vocab_text, name: str = "vocab.json") -> dict[str, int]:
    """``{token: id}`` from a vocab.json text. Raises ``InputError``: bad JSON, not an object, an id that is not
    a non-negative integer, or one id given twice."""
    text = read_text(vocab_text, name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{name} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}).") from None
    if not isinstance(data, dict):
        raise InputError(f"{name} must be a JSON object {{token: id}}, got {type(data).__name__}.")
    ids = data.values()
    if set(map(type, ids)) <= {int} and (not data or min(ids) >= 0) and len(set(ids)) == len(data):
        return data  # the usual file, checked at C speed (type int: a bool is not an id)
    seen: dict[int, str] = {}
    for token, tid in data.items():
        if not isinstance(tid, int) or isinstance(tid, bool) or tid < 0:
            raise InputError(f"{name}: the id of {token!r} must be a non-negative integer, got {tid!r}.")
        if tid in seen:
            raise InputError(f"{name}: id {tid} is given to both {seen[tid]!r} and {token!r}.")
        seen[tid] = token
    return data


def parse_merges(merges_text, name: str = "merges.txt") -> ParsedMerges:
    """The merges of a merges.txt text (CRLF and blank lines allowed). Raises ``InputError`` for a line that
    is not two non-empty tokens and one space."""
    text = read_text(merges_text, name).replace("\r\n", "\n")
    first = 1
    if text.startswith("#version"):
        text = text.partition("\n")[2]
        first = 2
    body = text.removesuffix("\n")
    # The usual file, split at once: it is exactly "left right" lines if they join back into the same text
    # (rebuilt by slice assignment, "left", " ", "right", "\n", ..., without a call per line).
    words = body.split()
    lefts, rights = words[0::2], words[1::2]
    n = len(lefts)
    if body and n == len(rights):
        pieces = [" "] * (4 * n - 1)
        pieces[0::4], pieces[2::4], pieces[3::4] = lefts, rights, ["\n"] * (n - 1)
        if "".join(pieces) == body:
            return ParsedMerges(lefts, rights, range(first, first + n), body)
    lefts, rights, numbers = [], [], []
    for lineno, line in enumerate(body.split("\n"), start=first):
        if not line.strip():
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise InputError(
                f"{name} line {lineno}: expected 'left right' (two tokens and one space), got {line[:60]!r}."
            )
        lefts.append(parts[0])
        rights.append(parts[1])
        numbers.append(lineno)
    return ParsedMerges(lefts, rights, numbers)


def merge_ids(merges: ParsedMerges, vocab: dict[str, int], name: str = "merges.txt") -> tuple[list, list, list | range]:
    """``(left_ids, right_ids, new_ids)`` of the merges, looked up in ``vocab``; ``new_ids`` is a ``range`` when
    the file has GPT-2's layout (the result of merge ``k`` is entry ``256 + k``, id ``256 + k``, counting from 0).

    Raises:
        InputError: naming the first merge whose tokens or result are not in ``vocab``.
    """
    get, lefts, rights = vocab.__getitem__, merges.lefts, merges.rights
    # GPT-2's layout (vocab.json in id order, the 256 bytes first, then the token of merge k at 256 + k):
    # the results are checked by comparing strings in order, without looking each one up.
    first, last = 256, 256 + len(lefts)
    layout = len(vocab) >= last and list(islice(vocab.values(), first, last)) == list(range(first, last))
    if layout and merges.text is not None:
        # The file's own "left right" lines without their spaces are the results, one per line, so one
        # comparison of two joined strings does it. No token holds a newline (the lines were cut at them), so
        # the entries joined by newlines match only if each entry is its own line's result.
        layout = "\n".join(islice(vocab, first, last)) == merges.text.replace(" ", "")
    elif layout:  # each joined result compared and dropped at once (a list of them is only more memory)
        layout = all(map(eq, map(add, lefts, rights), islice(vocab, first, last)))
    try:
        if layout:
            return list(map(get, lefts)), list(map(get, rights)), range(first, last)
        return list(map(get, lefts)), list(map(get, rights)), list(map(get, map(add, lefts, rights)))
    except KeyError:
        pass  # named below
    for lineno, left, right in zip(merges.lines, lefts, rights):
        for side in (left, right, left + right):
            if side not in vocab:
                what = "result" if side == left + right else "token"
                raise InputError(
                    f"{name} line {lineno}: the merge {left} {right} has a {what} {side!r} that is not in vocab.json."
                )
    raise AssertionError("unreachable: a missing id has a missing side")


def layout_vocab(vocab_wire: dict[str, int], ids: tuple[list, list, list | range]) -> dict[bytes, int] | None:
    """The vocabulary as ``{bytes: id}`` for a file in GPT-2's layout, or None when it is not (the caller then
    converts every entry with :func:`~bpe_core.byte_display.from_gpt2_many`).

    Args:
        vocab_wire: ``{token: id}`` as read from vocab.json, tokens in GPT-2's byte alphabet.
        ids: :func:`merge_ids` of the merges; the layout is a ``range`` of new ids from 256.

    The layout: entries 0..255 have ids 0..255, entry ``256 + k`` is the result of merge ``k``, every merge
    uses tokens made before it, every entry is in the byte alphabet. Only the 256 first entries (and any after
    the last merge, such as ``<|endoftext|>``) are converted from the alphabet; each merge's bytes are its
    sides' bytes joined, which is what converting its written string gives, as the alphabet maps one
    character to one byte.
    """
    lids, rids, nids = ids
    if not isinstance(nids, range) or list(islice(vocab_wire.values(), 256)) != list(range(256)):
        return None
    try:
        values = list(map(from_gpt2, islice(vocab_wire, 256)))
        grow = values.append
        for left, right in zip(lids, rids):
            grow(values[left] + values[right])  # IndexError: a side made later (or not made): not the layout
    except (ValueError, IndexError):
        return None
    vocab = dict(zip(values, vocab_wire.values()))  # ids 0, 1, ... in the layout (the file's own int objects)
    try:  # entries after the merges (<|endoftext|>): an entry outside the alphabet is for the caller to judge
        vocab.update(
            zip(map(from_gpt2, islice(vocab_wire, len(values), None)), islice(vocab_wire.values(), len(values), None))
        )
    except ValueError:
        return None
    # Distinct strings in the alphabet stand for distinct bytes (one character, one byte): no two entries clash.
    return vocab


def byte_vocab(vocab_wire: dict[str, int], ids: tuple[list, list, list | range]) -> dict[bytes, int]:
    """The vocabulary as ``{bytes: id}``, every entry read as written in GPT-2's byte alphabet: by
    :func:`layout_vocab` when the file has GPT-2's layout, else entry by entry.

    Raises:
        ValueError: an entry with a character outside the alphabet (named).
    """
    vocab = layout_vocab(vocab_wire, ids)
    if vocab is None:
        vocab = dict(zip(from_gpt2_many(list(vocab_wire)), vocab_wire.values()))
    return vocab


def load_gpt2_files(vocab_json_text, merges_text) -> Tokenizer:
    """A byte-level :class:`Tokenizer` (gpt2 pre-tokenizer) from a GPT-2-style ``vocab.json`` + ``merges.txt``.

    Ids are those of ``vocab.json``. Entries that are not ``bytes_to_unicode`` strings (special tokens such
    as ``<|endoftext|>`` are, harmlessly) are kept as their UTF-8 bytes; no merge may use them.

    Raises:
        InputError: bad JSON, a bad merges line, a merge whose sides or result are not in the vocabulary,
            a missing byte, or two entries for the same bytes (a one-line message naming the line).
    """
    vocab_wire = parse_vocab(vocab_json_text)
    merges = parse_merges(merges_text)
    ids = merge_ids(merges, vocab_wire)
    try:  # the usual file: every entry in the byte alphabet (so are the merges, whose sides are entries)
        vocab = byte_vocab(vocab_wire, ids)
    except ValueError:
        vocab = {}
    if len(vocab) < len(vocab_wire):  # a special token, or two entries for the same bytes
        vocab, alias_ok = {}, set()
        for wire, tid in vocab_wire.items():
            try:
                value = from_gpt2(wire)
                alias_ok.add(wire)
            except ValueError:
                value = wire.encode("utf-8")
            if value in vocab:
                raise InputError(f"vocab.json: {wire!r} and another entry stand for the same bytes {value!r}.")
            vocab[value] = tid
        for lineno, left, right in zip(merges.lines, merges.lefts, merges.rights):
            for side in (left, right):
                if side not in alias_ok:
                    raise InputError(
                        f"merges.txt line {lineno}: {side!r} is not written in GPT-2's byte alphabet (bytes_to_unicode)."
                    )
    text = joined_merges(merges)
    # The 100,000 side strings and vocab.json's dict are looked up by now. Let go before the tables are built, their
    # memory holds the tables' objects instead of pages the process has not touched yet.
    del merges, vocab_wire
    try:
        return byte_tokenizer(Variant("byte"), "gpt2", text, ids, vocab)
    except ValueError as err:
        raise InputError(f"vocab.json/merges.txt: {err}.") from None


def joined_merges(merges: ParsedMerges) -> str:
    """The merges as ``left right`` lines joined by newlines (no header, no final newline): the file's own text
    when it had nothing else, else joined from the sides."""
    if merges.text is not None:
        return merges.text
    return "\n".join(map(" ".join, zip(merges.lefts, merges.rights)))


def byte_tokenizer(
    variant: Variant,
    pretokenizer: str,
    text: str,
    ids: tuple[list, list, list],
    vocab: dict[bytes, int],
    frequencies: dict | None = None,
    pattern: str | None = None,
) -> Tokenizer:
    """A byte-level :class:`Tokenizer` from checked file contents: the merges' text in GPT-2's byte alphabet
    (:func:`joined_merges`), their ids (:func:`merge_ids`) and the vocabulary as ``{bytes: id}``.

    The tables are made from the ids, with none of the per-merge Python work of ``Tokenizer(...)``. A
    shipped GPT merge list also gets the whole-token short cut (:func:`bpe_core.models.mark_known_merges`).

    Raises:
        ValueError: one of the 256 single bytes missing from the vocabulary.
        PatternError: a bad ``regex`` pattern.
    """
    missing = [b for b in range(256) if bytes((b,)) not in vocab]
    if missing:
        raise ValueError(f"byte-level vocabulary lacks {len(missing)} of the 256 bytes (first: 0x{missing[0]:02x})")
    if pretokenizer == REGEX:
        check_pattern(pattern)
    lids, rids, nids = ids
    ranks = first_ranks(list(zip(lids, rids)))
    values = dict(zip(vocab.values(), vocab))
    pair_of_rank = list(zip(lids, rids, nids))
    tok = Tokenizer._from_trusted_byte_tables(pretokenizer, values, vocab, ranks, pair_of_rank, frequencies, pattern)
    tok.variant = variant
    mark_known_merges(tok, text, nids)
    return tok
