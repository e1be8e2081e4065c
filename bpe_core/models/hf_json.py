"""Reading a Hugging Face ``tokenizer.json`` with the standard library: its model's vocabulary and merges, its
added tokens, and its normalizer and pre-tokenizer as our own code can show them.

The ids of a text always come from ``tokenizers`` itself (:mod:`bpe_core.models.hf_model`); what is read here
is what the app shows: the pre-tokens, and for a byte-level BPE model the merges that build each token.

Public API: :func:`read_tokenizer_json` (the parsed file), :func:`bpe_merges` (the BPE merges and
vocabulary of a byte-level ``tokenizer.json``, as bytes and ids: what merge trees and replays need),
:func:`bpe_pairs` (its merges as ids alone),
:class:`HFPieces` (the pre-tokens of a text, or why they cannot be shown).
"""

from __future__ import annotations

import json
import unicodedata
from functools import cached_property
from itertools import repeat
from operator import add, itemgetter
from typing import NamedTuple

import regex

from ..byte_display import from_gpt2, from_gpt2_many
from ..inputs import InputError
from ..pretokenize import GPT2_PATTERN

#: The model types ``tokenizers`` reads (``model.type``).
MODEL_TYPES = ("BPE", "WordPiece", "Unigram", "WordLevel")
#: Normalizers our own code applies (the others are named as unsupported; the ids still come from ``tokenizers``).
_NORMAL_FORMS = {"NFC", "NFD", "NFKC", "NFKD"}


def read_tokenizer_json(data: bytes | str, name: str = "tokenizer.json") -> dict:
    """The parsed ``tokenizer.json``.

    Raises:
        InputError: not UTF-8, not JSON (a truncated file), or JSON without a ``model`` of a known type.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise InputError(f"{name} is not valid UTF-8 (byte {err.start}).") from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as err:
        # A string still open at the end is a cut file too (json names where that string starts).
        cut = err.pos >= len(data.rstrip()) or err.msg.startswith("Unterminated string")
        where = "it ends too early (truncated?)" if cut else f"line {err.lineno}"
        raise InputError(f"{name} is not a tokenizer.json: not valid JSON, {where}: {err.msg}.") from None
    model = doc.get("model") if isinstance(doc, dict) else None
    if not isinstance(model, dict) or not isinstance(model.get("vocab"), (dict, list)):
        raise InputError(f"{name} is not a tokenizer.json: it has no model with a vocabulary.")
    kind = model.get("type") or ("BPE" if "merges" in model else None)
    if kind not in MODEL_TYPES:
        raise InputError(f"{name}: model type {kind!r} is not one that tokenizers reads ({', '.join(MODEL_TYPES)}).")
    model["type"] = kind
    return doc


def model_type(doc: dict) -> str:
    """``"BPE"``, ``"WordPiece"``, ``"Unigram"`` or ``"WordLevel"``."""
    return doc["model"]["type"]


def _steps(node: dict | None, key: str) -> list[dict]:
    """A normalizer or pre-tokenizer as its list of steps (a ``Sequence`` flattened, ``None`` as no step)."""
    if not node:
        return []
    if node.get("type") == "Sequence":
        return [step for child in node.get(key, []) for step in _steps(child, key)]
    return [node]


def is_byte_level(doc: dict) -> bool:
    """A BPE model over GPT-2's byte alphabet (GPT-2, Qwen, DeepSeek, Llama 3): its pre-tokenizer or decoder
    is ``ByteLevel``."""
    if model_type(doc) != "BPE":
        return False
    steps = _steps(doc.get("pre_tokenizer"), "pretokenizers") + _steps(doc.get("decoder"), "decoders")
    return any(step.get("type") == "ByteLevel" for step in steps)


class AddedToken(NamedTuple):
    """A token of ``added_tokens``: matched in plain text before the model (``tokenizers`` does so), ``special``
    as the file marks it (``<|im_start|>``), else an added word."""

    id: int
    content: str
    special: bool


def added_tokens(doc: dict) -> list[AddedToken]:
    """The file's added tokens, in its order."""
    out = []
    for entry in doc.get("added_tokens") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), int) and entry.get("content"):
            out.append(AddedToken(entry["id"], entry["content"], bool(entry.get("special"))))
    return out


def _merge_pair(item) -> tuple[str, str]:
    """A merge as written: ``"a b"`` (tokenizers < 0.20) or ``["a", "b"]``."""
    if isinstance(item, str):
        left, sep, right = item.partition(" ")
        if sep and left and right:
            return left, right
    elif isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) and s for s in item):
        return item[0], item[1]
    raise ValueError(f"a merge must be 'left right' or [left, right], got {item!r}")


class BpeTables(NamedTuple):
    """The BPE merges and vocabulary of a byte-level ``tokenizer.json``.

    Attributes:
        values: ``{id: bytes}`` of every token, added tokens as their UTF-8 bytes.
        vocab: ``{bytes: id}`` of the model's own vocabulary (written in GPT-2's byte alphabet).
        pairs: ``[(left_id, right_id, new_id)]`` in merge order (merge k, from 1, is ``pairs[k - 1]``).
        added: the :class:`AddedToken` list.
    """

    values: dict
    vocab: dict
    pairs: list
    added: list


def bpe_merges(doc: dict, name: str = "tokenizer.json") -> BpeTables:
    """The BPE merges and vocabulary of a byte-level ``tokenizer.json`` (:func:`read_tokenizer_json`'s result),
    as bytes and ids (:class:`BpeTables`): what a merge tree or a merge-by-merge replay needs.

    Raises:
        InputError: not a byte-level BPE model, a merge not written as two tokens, a merge side or result
            missing from the vocabulary, or a missing byte.
    """
    if not is_byte_level(doc):
        raise InputError(f"{name}: not a byte-level BPE model (model {model_type(doc)}, no ByteLevel step).")
    model = doc["model"]
    wire = model["vocab"]
    if not isinstance(wire, dict):
        raise InputError(f"{name}: a BPE model's vocab must be an object {{token: id}}.")
    added = added_tokens(doc)
    try:  # the usual file: every entry in the byte alphabet, converted as one string (C speed)
        vocab = dict(zip(from_gpt2_many(list(wire)), wire.values()))
        values = dict(zip(wire.values(), vocab))
        if len(vocab) != len(wire):
            raise ValueError("two entries for the same bytes")
    except ValueError:
        values, vocab = {}, {}
        for token, tid in wire.items():
            try:
                value = from_gpt2(token)
            except ValueError:  # a special token kept in the vocabulary, outside the byte alphabet
                values[tid] = token.encode("utf-8")
                continue
            values[tid] = value
            vocab[value] = tid
    for tok in added:
        values.setdefault(tok.id, tok.content.encode("utf-8"))
    missing = [b for b in range(256) if bytes((b,)) not in vocab]
    if missing:
        raise InputError(f"{name}: the vocabulary lacks {len(missing)} of the 256 bytes (first 0x{missing[0]:02x}).")
    return BpeTables(values, vocab, bpe_pairs(doc, name), added)


def bpe_pairs(doc: dict, name: str = "tokenizer.json") -> list[tuple[int, int, int]]:
    """The merges of a BPE ``tokenizer.json`` (:func:`read_tokenizer_json`'s result) as ids,
    ``[(left_id, right_id, new_id)]`` in merge order, without the tokens' bytes: what merge numbers need.

    Raises:
        InputError: a vocabulary that is not an object, a merge not written as two tokens, or a merge side or
            result missing from the vocabulary.
    """
    model = doc["model"]
    wire = model["vocab"]
    if not isinstance(wire, dict):
        raise InputError(f"{name}: a BPE model's vocab must be an object {{token: id}}.")
    merges = model.get("merges") or []
    sides = _merge_sides(merges)
    if sides is not None:  # the usual file: every merge looked up with whole-list C operations
        get = wire.get
        lefts, rights = sides
        a, b, c = list(map(get, lefts)), list(map(get, rights)), list(map(get, map(add, lefts, rights)))
        if None not in a and None not in b and None not in c:
            return list(zip(a, b, c))
    return _merge_ids(merges, wire, name)


def _merge_sides(merges: list) -> tuple[list, list] | None:
    """``(lefts, rights)`` of merges all written alike and well (``"a b"`` or ``["a", "b"]``), taken apart in C;
    None when any is not (:func:`_merge_ids` then finds which)."""
    kinds = set(map(type, merges))
    if kinds == {list}:
        if set(map(len, merges)) != {2}:
            return None
        lefts, rights = list(map(itemgetter(0), merges)), list(map(itemgetter(1), merges))
    elif kinds == {str}:
        parts = list(map(str.partition, merges, repeat(" ", len(merges))))
        if set(map(itemgetter(1), parts)) != {" "}:
            return None
        lefts, rights = list(map(itemgetter(0), parts)), list(map(itemgetter(2), parts))
    else:
        return None
    if set(map(type, lefts)) | set(map(type, rights)) != {str} or "" in lefts or "" in rights:
        return None
    return lefts, rights


def _merge_ids(merges: list, wire: dict, name: str) -> list[tuple[int, int, int]]:
    """The ``(left_id, right_id, new_id)`` of each merge, one by one, so that a bad one is named.

    Raises:
        InputError: the first merge not written as two tokens, or with a side or result not in ``wire``.
    """
    pairs = []
    get = wire.get
    for k, item in enumerate(merges, start=1):
        try:
            left, right = _merge_pair(item)
        except ValueError as err:
            raise InputError(f"{name}: merge {k}: {err}.") from None
        a, b, c = get(left), get(right), get(left + right)
        if a is None or b is None or c is None:
            raise InputError(f"{name}: merge {k} ({left} {right}) has a side or result not in the vocabulary.")
        pairs.append((a, b, c))
    return pairs


class HFPieces:
    """The pre-tokens of a text as a ``tokenizer.json`` cuts it, by our own code: added tokens first (matched
    in the plain text), then the normalizer, then each ``Split`` and ``ByteLevel`` step.

    ``unsupported`` names the first step our code cannot show (``None`` when all can): the pre-tokens are then
    unknown, and only ``tokenizers``' ids are shown.
    """

    def __init__(self, doc: dict):
        self.unsupported: str | None = None
        self._normal: list[str] = []
        for step in _steps(doc.get("normalizer"), "normalizers"):
            kind = step.get("type")
            if kind in _NORMAL_FORMS:
                self._normal.append(kind)
            else:
                self.unsupported = self.unsupported or f"normalizer {kind}"
        self._splits: list[regex.Pattern] = []
        for step in _steps(doc.get("pre_tokenizer"), "pretokenizers"):
            kind = step.get("type")
            if kind == "Split":
                pattern = step.get("pattern") or {}
                source = pattern.get("Regex") if "Regex" in pattern else regex.escape(pattern.get("String", ""))
                if step.get("behavior") != "Isolated" or step.get("invert") or not source:
                    self.unsupported = self.unsupported or f"pre-tokenizer Split ({step.get('behavior')})"
                    continue
                try:
                    self._splits.append(regex.compile(source))
                except regex.error:
                    self.unsupported = self.unsupported or "pre-tokenizer Split (its pattern)"
            elif kind == "ByteLevel":
                if step.get("add_prefix_space"):
                    self.unsupported = self.unsupported or "pre-tokenizer ByteLevel with add_prefix_space"
                if step.get("use_regex", True):
                    self._splits.append(regex.compile(GPT2_PATTERN))
            else:
                self.unsupported = self.unsupported or f"pre-tokenizer {kind}"
        added = sorted(added_tokens(doc), key=lambda t: -len(t.content))
        self.added: dict[str, int] = {t.content: t.id for t in added}
        self.special: set[int] = {t.id for t in added if t.special}

    @cached_property
    def added_re(self) -> regex.Pattern | None:
        """The added tokens as one pattern, longest first (None when there are none); compiled on first use, as
        DeepSeek-V3's 800 take a tenth of a second and a page that shows only ``tokenizers``' ids needs none."""
        return regex.compile("|".join(map(regex.escape, self.added))) if self.added else None

    def __call__(self, text: str) -> list[str]:
        """The pre-tokens of ``text``; an added token is one pre-token of its own."""
        if self.added_re is None:
            return self._plain(text)
        out: list[str] = []
        at = 0
        for m in self.added_re.finditer(text):
            out.extend(self._plain(text[at : m.start()]))
            out.append(m.group())
            at = m.end()
        out.extend(self._plain(text[at:]))
        return out

    def _plain(self, text: str) -> list[str]:
        for form in self._normal:
            text = unicodedata.normalize(form, text)
        pieces = [text] if text else []
        for pattern in self._splits:
            pieces = [p for piece in pieces for p in _isolated(pattern, piece)]
        return pieces


def _isolated(pattern: regex.Pattern, text: str) -> list[str]:
    """``Split`` with the ``Isolated`` behaviour: every match, and every stretch between matches, is a piece."""
    out, at = [], 0
    for m in pattern.finditer(text):
        if m.start() == m.end():
            continue
        if m.start() > at:
            out.append(text[at : m.start()])
        out.append(m.group())
        at = m.end()
    if at < len(text):
        out.append(text[at:])
    return out
