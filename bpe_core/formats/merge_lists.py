"""Reading a list of merges someone else's trainer wrote, whatever the file format.

Five formats are recognised by their content (never by the file name):

* ``minbpe`` -- a karpathy/minbpe ``.model`` file: ``minbpe v1``, the split pattern, the number of special
  tokens and one ``token id`` line each, then one ``id1 id2`` line per merge. Ids 0-255 are the bytes;
  merge ``i`` (0-based) makes id ``256 + i`` (minbpe's ``base.py`` ``save``/``load``).
* ``tokenizer.json`` -- a Hugging Face file: ``model.merges`` holds ``"a b"`` strings (tokenizers < 0.20)
  or ``["a", "b"]`` lists (0.20 and later).
* ``jsonl`` -- what ``python -m bpe_core train --jsonl`` prints: one ``{"step", "left", "right", ...}``
  object per merge, then a ``{"stop", "merges"}`` line.
* ``json`` -- a JSON list of pairs: ``[["a", "b"], ...]`` (strings), or ``[[97, 98], ...]`` (ids, read as
  minbpe's: 0-255 bytes, then 256 + i for merge i); a ``bpe_explorer.json`` manifest's ``merges`` too.
* ``merges.txt`` -- GPT-2 / Hugging Face: an optional ``#version`` first line, then ``left right`` per line
  (read by :mod:`bpe_core.formats.gpt2_files`).

Every reader returns the merges as ``(left, right)`` pairs of *wire* strings, the spelling
``train --jsonl`` and ``merges.txt`` use: text for char/eow, GPT-2 ``bytes_to_unicode`` aliases for bytes
(so minbpe's byte ids come out as ``Ġ``-style strings, comparable with a byte-level run).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from ..byte_display import to_gpt2
from ..inputs import InputError
from .gpt2_files import parse_merges, read_text

FORMATS = ("minbpe", "tokenizer.json", "jsonl", "json", "merges.txt")
MINBPE_HEADER = "minbpe v1"


class MergeList(NamedTuple):
    """Merges read from a file: ``pairs`` (``[(left, right)]`` wire strings, rank order) and the
    ``format`` recognised (one of :data:`FORMATS`)."""

    pairs: list
    format: str


def read_merge_list(data: bytes | str, name: str = "the file") -> MergeList:
    """Recognise the format of ``data`` and read its merges.

    Args:
        data: the file's content (UTF-8 bytes, a BOM allowed, or text).
        name: how messages name the file.

    Raises:
        InputError: not UTF-8, empty, no recognisable format, no merges, or an entry that is not a pair
            (a one-line message naming the line or entry).
    """
    text = read_text(data, name)
    if not text.strip():
        raise InputError(f"{name} is empty: it holds no merges.")
    found = _read(text, name)
    if not found.pairs:
        raise InputError(f"{name} holds no merges ({found.format} with an empty list).")
    return found


def _read(text: str, name: str) -> MergeList:
    head = text.lstrip()
    if head.startswith(MINBPE_HEADER):
        return MergeList(_minbpe(text, name), "minbpe")
    if head[:1] in "[{":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            doc = None
            if head[:1] == "[":
                raise InputError(f"{name} starts like JSON but is not valid JSON.") from None
        if doc is not None:
            return _from_json(doc, name)
        return MergeList(_jsonl(text, name), "jsonl")
    parsed = parse_merges(text, name)
    return MergeList(list(zip(parsed.lefts, parsed.rights)), "merges.txt")


# ------------------------------------------------------------------------------------------ minbpe
def _ids_to_pairs(id_pairs: list, name: str) -> list:
    """minbpe id pairs ``[(where, id1, id2)]`` -> wire pairs: ids 0-255 are bytes, the merge at index ``i``
    makes ``256 + i``; ``where`` names the entry in messages (``"line 5"``)."""
    values = [bytes((b,)) for b in range(256)]
    pairs = []
    for where, a, b in id_pairs:
        for tid in (a, b):
            if not 0 <= tid < len(values):
                raise InputError(
                    f"{name} {where}: id {tid} is not a byte (0-255) nor a token made by an earlier merge."
                )
        values.append(values[a] + values[b])
        pairs.append((to_gpt2(values[a]), to_gpt2(values[b])))
    return pairs


def _minbpe(text: str, name: str) -> list:
    lines = text.splitlines()
    if len(lines) < 3:
        raise InputError(f"{name}: a minbpe model needs a version, a pattern and a count of special tokens.")
    try:
        n_special = int(lines[2])
    except ValueError:
        raise InputError(f"{name} line 3: expected the number of special tokens, got {lines[2][:40]!r}.") from None
    id_pairs = []
    for lineno in range(3 + n_special, len(lines)):
        line = lines[lineno].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InputError(f"{name} line {lineno + 1}: expected two token ids, got {line[:40]!r}.")
        id_pairs.append((f"line {lineno + 1}", int(parts[0]), int(parts[1])))
    return _ids_to_pairs(id_pairs, name)


# -------------------------------------------------------------------------------------------- JSON
def _pair_of(item, name: str, i: int):
    """One JSON entry as a pair: ``"a b"``, ``["a", "b"]`` or ``[id, id]``."""
    if isinstance(item, str):
        parts = item.split(" ")
        if len(parts) == 2 and all(parts):
            return tuple(parts)
    elif isinstance(item, list) and len(item) == 2:
        if all(isinstance(x, str) and x for x in item):
            return tuple(item)
        if all(isinstance(x, int) and not isinstance(x, bool) for x in item):
            return tuple(item)
    raise InputError(f"{name}: merge {i} is not a pair of tokens, got {json.dumps(item, ensure_ascii=False)[:60]}.")


def _pairs_from_list(items: list, name: str) -> list:
    pairs = [_pair_of(item, name, i) for i, item in enumerate(items, start=1)]
    ints = [isinstance(p[0], int) for p in pairs]
    if all(ints):
        return _ids_to_pairs([(f"merge {i}", a, b) for i, (a, b) in enumerate(pairs, start=1)], name)
    if any(ints):
        raise InputError(f"{name}: merges mix token ids and token strings.")
    return pairs


def _from_json(doc, name: str) -> MergeList:
    if isinstance(doc, list):
        return MergeList(_pairs_from_list(doc, name), "json")
    if isinstance(doc, dict):
        model = doc.get("model")
        if isinstance(model, dict) and isinstance(model.get("merges"), list):
            return MergeList(_pairs_from_list(model["merges"], name), "tokenizer.json")
        if isinstance(doc.get("merges"), list):
            return MergeList(_pairs_from_list(doc["merges"], name), "json")
        if "left" in doc and "right" in doc:  # a one-merge --jsonl file
            return MergeList(_jsonl(json.dumps(doc), name), "jsonl")
    raise InputError(f"{name} is JSON but holds no list of merges (expected a list of pairs or a tokenizer.json).")


def _jsonl(text: str, name: str) -> list:
    pairs = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            raise InputError(f"{name} line {lineno}: not a JSON object (expected train --jsonl output).") from None
        if not isinstance(obj, dict):
            raise InputError(f"{name} line {lineno}: not a JSON object (expected train --jsonl output).")
        if "stop" in obj:
            continue
        left, right = obj.get("left"), obj.get("right")
        if not (isinstance(left, str) and left and isinstance(right, str) and right):
            raise InputError(f'{name} line {lineno}: a merge line needs "left" and "right" tokens.')
        pairs.append((left, right))
    return pairs
