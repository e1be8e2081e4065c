"""A shipped ``tokenizer.json``'s merges as ids, written beside it (``qwen3.pairs``), so that its merge tables are
built without parsing 11 MB of JSON: Qwen3's tables took 0.45 s from the JSON and take about 0.1 s from this file.

The file is the ``.pairs`` format of the rank files (:func:`bpe_core.models.write_pairs`) for a ``tokenizer.json``
in GPT-2's layout (ids 0-255 the 256 bytes, merge k from 1 making id 255 + k): a line ``bpe_core pairs 1
sha256=<hex of the tokenizer.json>``, then zlib-compressed little-endian uint32 arrays: the id of each byte 0-255,
the left ids of the merges, their right ids. Each token's bytes are its parts' joined, in merge order. It is used
only for the file whose sha256 it names, and only when every merge joins two lower ids; otherwise the JSON is read.

Public API: :func:`write_hf_pairs`, :func:`read_hf_pairs`, :func:`read_hf_merge_ids`, :func:`small_doc`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from array import array
from operator import lt
from pathlib import Path

from . import _PAIRS_MAGIC
from .hf_json import bpe_merges, read_tokenizer_json


def write_hf_pairs(data: bytes, out: str | Path) -> Path:
    """Write the merges of the ``tokenizer.json`` ``data`` as ids to ``out`` (deterministic).

    Raises:
        InputError: not a byte-level BPE ``tokenizer.json``. ValueError: not in GPT-2's layout.
    """
    tables = bpe_merges(read_tokenizer_json(data))
    byte_ids = [tables.vocab[bytes((b,))] for b in range(256)]
    if sorted(byte_ids) != list(range(256)) or any(c != 256 + k for k, (_a, _b, c) in enumerate(tables.pairs)):
        raise ValueError("not GPT-2's layout (ids 0-255 the bytes, merge k making id 255 + k)")
    ids = array("I", byte_ids + [a for a, _b, _c in tables.pairs] + [b for _a, b, _c in tables.pairs])
    if sys.byteorder != "little":
        ids.byteswap()
    out = Path(out)
    out.write_bytes(_PAIRS_MAGIC + hashlib.sha256(data).hexdigest().encode() + b"\n" + zlib.compress(ids.tobytes(), 9))
    return out


def read_hf_pairs(path: Path, sha256: str, vocab_size: int) -> tuple[list[bytes], list, list[int]] | None:
    """``(values, pairs, byte_ids)`` from the pairs file ``path`` of the ``tokenizer.json`` whose sha256 is
    ``sha256`` and whose model has ``vocab_size`` tokens: each id's bytes (index = id), ``[(left, right, new)]`` in
    merge order, the id of each byte. None when the file is missing, made from other bytes, or not consistent."""
    got = _read_ids(path, sha256, vocab_size)
    if got is None:
        return None
    byte_ids, lefts, rights = got
    values: list = [b""] * 256
    for b, tid in enumerate(byte_ids):
        values[tid] = bytes((b,))
    append = values.append
    for a, b in zip(lefts, rights):
        append(values[a] + values[b])
    return values, list(zip(lefts, rights, range(256, 256 + len(lefts)))), byte_ids


def read_hf_merge_ids(path: Path, sha256: str, vocab_size: int) -> list | None:
    """The ``pairs`` of :func:`read_hf_pairs` alone, without each token's bytes (what merge numbers need);
    None as there."""
    got = _read_ids(path, sha256, vocab_size)
    return None if got is None else list(zip(got[1], got[2], range(256, 256 + len(got[1]))))


def _read_ids(path: Path, sha256: str, vocab_size: int) -> tuple[list[int], list[int], list[int]] | None:
    """``(byte_ids, lefts, rights)`` of a pairs file, checked as :func:`read_hf_pairs` says; None when unusable."""
    try:
        head, _, body = path.read_bytes().partition(b"\n")
        if head != _PAIRS_MAGIC + sha256.encode():
            return None
        ids = array("I")
        ids.frombytes(zlib.decompress(body))
    except (OSError, zlib.error, ValueError):
        return None
    if sys.byteorder != "little":
        ids.byteswap()
    m = (len(ids) - 256) // 2
    byte_ids, lefts, rights = ids[:256].tolist(), ids[256 : 256 + m].tolist(), ids[256 + m :].tolist()
    made = range(256, 256 + m)
    if len(ids) != 256 + 2 * m or 256 + m != vocab_size or sorted(byte_ids) != list(range(256)):
        return None
    if not (all(map(lt, lefts, made)) and all(map(lt, rights, made))):
        return None
    return byte_ids, lefts, rights


def small_doc(hf) -> dict:
    """The parts of a ``tokenizer.json`` other than its model's vocabulary and merges, from the ``tokenizers``
    object that read it: the normalizer, pre-tokenizer and decoder (their own JSON), the added tokens, and the
    model's type and ``ignore_merges``. What :class:`~bpe_core.models.hf_json.HFPieces` needs."""

    def part(step):
        return json.loads(step.__getstate__()) if step is not None else None

    added = hf.get_added_tokens_decoder()
    return {
        "normalizer": part(hf.normalizer),
        "pre_tokenizer": part(hf.pre_tokenizer),
        "decoder": part(hf.decoder),
        "added_tokens": [{"id": tid, "content": t.content, "special": t.special} for tid, t in sorted(added.items())],
        "model": {"type": "BPE", "ignore_merges": bool(hf.model.ignore_merges)},
    }
