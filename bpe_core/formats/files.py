"""Saving and loading models: GPT-2 / Hugging Face files plus a small manifest.

A model directory holds:

* ``merges.txt`` -- ``#version: 0.2`` then one ``left right`` per merge, in rank order (the GPT-2 layout;
  byte-level tokens in GPT-2's ``bytes_to_unicode`` form, so ``Ġthe`` is `` the``).
* ``vocab.json`` -- ``{token: id}`` in the same form; char/eow include ``"<unk>"``.
* ``tokenizer.json`` -- a Hugging Face ``tokenizers`` file, for byte-level runs and eow runs with the
  attached marker style (the layouts HF's BPE model can express). It loads with
  ``tokenizers.Tokenizer.from_file`` and encodes to the same ids.
* ``bpe_explorer.json`` -- the variant, pre-tokenizer and end-of-word settings (the user's pattern under
  ``"pattern"`` for the ``regex`` pre-tokenizer; and, when known, the training frequencies of the tokens), so
  :func:`load_model` rebuilds the same :class:`Tokenizer`.

A ``merges.txt`` line cannot hold a token with whitespace in it (char/eow runs with the gpt2, gpt4, o200k, regex or
none pre-tokenizers); :func:`save_model` then raises ``ValueError`` naming the token, or, with
``strict=False``, skips ``merges.txt`` and keeps the merges in ``bpe_explorer.json`` instead.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..encoding.encoder import UNK_TOKEN, Tokenizer
from ..inputs import InputError
from ..models import gc_paused
from ..pretokenize import PATTERNS, PRETOKENIZER_CHOICES, REGEX, PatternError
from ..pretokenize_words import JIEBA
from ..variants import Variant
from .gpt2_files import (
    ParsedMerges,
    byte_tokenizer,
    byte_vocab,
    joined_merges,
    load_gpt2_files,
    merge_ids,
    parse_merges,
    parse_vocab,
    read_text,
)

MERGES_HEADER = "#version: 0.2"
MANIFEST = "bpe_explorer.json"
FORMAT_NAME = "bpe_explorer"
FORMAT_VERSION = 1


def _as_tokenizer(run_or_tokenizer, step: int | None = None) -> Tokenizer:
    if isinstance(run_or_tokenizer, Tokenizer):
        return run_or_tokenizer
    return Tokenizer.from_run(run_or_tokenizer, step)


# --------------------------------------------------------------------------------------- writing
def merges_txt_problem(run_or_tokenizer, step: int | None = None) -> str | None:
    """Why ``merges.txt`` cannot hold this model (a token with whitespace), or ``None`` when it can."""
    tok = _as_tokenizer(run_or_tokenizer, step)
    for rank, (left, right) in enumerate(tok.merges, start=1):
        for side in (left, right):
            wire = tok.variant.wire(side)
            if not wire or any(c.isspace() for c in wire):
                return (
                    f"merges.txt cannot hold merge {rank}: the token {wire!r} contains whitespace "
                    f"(train with the whitespace pre-tokenizer or the byte variant to get a merges.txt)"
                )
    return None


def merges_txt(run_or_tokenizer, step: int | None = None) -> str:
    """The text of ``merges.txt``. Raises ``ValueError`` when a token contains whitespace."""
    tok = _as_tokenizer(run_or_tokenizer, step)
    problem = merges_txt_problem(tok)
    if problem:
        raise ValueError(problem)
    wire = tok.variant.wire
    lines = [MERGES_HEADER] + [f"{wire(left)} {wire(right)}" for left, right in tok.merges]
    return "\n".join(lines) + "\n"


def vocab_dict(run_or_tokenizer, step: int | None = None) -> dict[str, int]:
    """``{wire_token: id}`` in id order (char/eow: ``"<unk>"`` last)."""
    tok = _as_tokenizer(run_or_tokenizer, step)
    out = {tok.variant.wire(tok.values[i]): i for i in sorted(tok.values)}
    if tok.unk_id is not None and UNK_TOKEN not in out:
        out[UNK_TOKEN] = tok.unk_id
    return out


def vocab_json(run_or_tokenizer, step: int | None = None) -> str:
    """The text of ``vocab.json``."""
    return json.dumps(vocab_dict(run_or_tokenizer, step), ensure_ascii=False)


def _split(pattern: str) -> dict:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def _byte_level(use_regex: bool) -> dict:
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": use_regex}


def _text_splitter(pretokenizer: str, pattern: str | None = None) -> dict | None:
    """The HF pre-tokenizer that splits text as our pre-tokenizer does (before any byte mapping).

    The user's ``regex`` pattern goes into ``Split`` as it is: Hugging Face compiles it with Oniguruma, which
    reads the common syntax (classes, ``\\p{L}``, possessive and lazy repeats, look-around) as ``regex`` does;
    features only ``regex`` has (fuzzy matching, ``\\p{Script=Han}`` spelled that way) may fail to load there.
    """
    if pretokenizer == REGEX:
        return _split(pattern)
    if pretokenizer == "whitespace":
        return {"type": "WhitespaceSplit"}
    if pretokenizer in PATTERNS:
        # Oniguruma (Hugging Face's regex engine) reads ``{1,3}+`` as "one to three, repeated", not as
        # possessive; cl100k's ``\p{N}{1,3}+`` ends its alternative, so dropping the ``+`` keeps the match.
        return _split(PATTERNS[pretokenizer].replace("{1,3}+", "{1,3}"))
    return None


#: Why a model pre-tokenized by the word segmenter has no ``tokenizer.json`` (one line, English).
SEGMENTER_PROBLEM = (
    "tokenizer.json cannot hold the jieba word segmenter: Hugging Face tokenizers has no such pre-tokenizer"
)


def _pretokenizer_of(run_or_tokenizer) -> str:
    tok = run_or_tokenizer
    return tok.pretokenizer if isinstance(tok, Tokenizer) else tok.config.resolved_pretokenizer


def tokenizer_json_supported(run_or_tokenizer) -> bool:
    """True for the models a ``tokenizer.json`` can express: byte-level, and eow with the attached marker,
    pre-tokenized by anything but the word segmenter (``jieba``: see :data:`SEGMENTER_PROBLEM`)."""
    variant = run_or_tokenizer.variant
    if _pretokenizer_of(run_or_tokenizer) == JIEBA:
        return False
    return variant.is_bytes or (variant.kind == "eow" and variant.eow_style == "attached")


def tokenizer_json(run_or_tokenizer, step: int | None = None) -> str:
    """A Hugging Face ``tokenizer.json`` for a byte-level or attached-eow model.

    Byte-level: ``ByteLevel(add_prefix_space=False, use_regex=True)`` for the gpt2 pre-tokenizer; for the
    others a ``Sequence`` of the splitter (``Split`` with the same regex / ``WhitespaceSplit``) and
    ``ByteLevel(use_regex=False)``; ByteLevel decoder. eow attached: BPE with ``end_of_word_suffix`` and
    ``unk_token`` ``<unk>``, the splitter as pre-tokenizer, ``BPEDecoder(suffix)``.

    Raises:
        ValueError: char, or eow with the separate marker (HF's BPE cannot express them), or the ``jieba``
            pre-tokenizer (:data:`SEGMENTER_PROBLEM`).
    """
    tok = _as_tokenizer(run_or_tokenizer, step)
    if tok.pretokenizer == JIEBA:
        raise ValueError(SEGMENTER_PROBLEM)
    variant = tok.variant
    if not tokenizer_json_supported(tok):
        raise ValueError(
            f"tokenizer.json needs the byte variant or eow with the attached marker style "
            f"(this model is {variant.kind}{' ' + variant.eow_style if variant.kind == 'eow' else ''})"
        )
    splitter = _text_splitter(tok.pretokenizer, tok.pattern)
    if variant.is_bytes:
        if tok.pretokenizer == "gpt2":
            pre = _byte_level(True)
        elif splitter is None:
            pre = _byte_level(False)
        else:
            pre = {"type": "Sequence", "pretokenizers": [splitter, _byte_level(False)]}
        decoder = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
        unk, suffix = None, None
    else:
        pre = splitter
        decoder = {"type": "BPEDecoder", "suffix": variant.eow_marker}
        unk, suffix = UNK_TOKEN, variant.eow_marker
    wire = variant.wire
    model = {
        "type": "BPE",
        "dropout": None,
        "unk_token": unk,
        "continuing_subword_prefix": None,
        "end_of_word_suffix": suffix,
        "fuse_unk": False,
        "byte_fallback": False,
        "ignore_merges": False,
        "vocab": vocab_dict(tok),
        "merges": [[wire(left), wire(right)] for left, right in tok.merges],
    }
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pre,
        "post_processor": None,
        "decoder": decoder,
        "model": model,
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


def manifest(run_or_tokenizer, step: int | None = None, merges: bool = False, frequencies: bool = True) -> dict:
    """The ``bpe_explorer.json`` content: variant, pre-tokenizer, eow settings; the token frequencies
    (``[count per id]``) when known; the merges (``[[left, right]]``) only when asked."""
    tok = _as_tokenizer(run_or_tokenizer, step)
    v = tok.variant
    doc = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "variant": v.kind,
        "pretokenizer": tok.pretokenizer,
        **({"pattern": tok.pattern} if tok.pattern is not None else {}),
        "eow_style": v.eow_style,
        "eow_marker": v.eow_marker,
        "num_merges": tok.num_merges,
        "unk_token": UNK_TOKEN if tok.unk_id is not None else None,
    }
    freq = tok.frequencies() if frequencies else None
    if freq is not None:
        doc["frequencies"] = {str(i): int(freq.get(i, 0)) for i in sorted(tok.values)}
    if merges:
        doc["merges"] = [[v.wire(left), v.wire(right)] for left, right in tok.merges]
    return doc


def save_model(run_or_tokenizer, out_dir, step: int | None = None, strict: bool = True) -> list[Path]:
    """Write ``merges.txt``, ``vocab.json``, ``tokenizer.json`` (byte-level / eow attached) and
    ``bpe_explorer.json`` into ``out_dir`` (created if needed).

    Args:
        run_or_tokenizer: a :class:`~bpe_core.algorithms.run.TrainedRun` or a :class:`Tokenizer`.
        step: for a run, save the model after merges 1..``step`` (default: all).
        strict: when ``merges.txt`` cannot hold a token (whitespace inside), raise ``ValueError``
            before writing anything (default), or (``False``) skip ``merges.txt`` and store the merges
            in ``bpe_explorer.json``.

    Returns:
        The paths written.
    """
    tok = _as_tokenizer(run_or_tokenizer, step)
    problem = merges_txt_problem(tok)
    if problem and strict:
        raise ValueError(problem)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write(name: str, text: str) -> None:
        path = out / name
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        written.append(path)

    if problem:
        stale = out / "merges.txt"
        if stale.exists():
            stale.unlink()  # never leave a merges.txt from another model next to this vocab.json
    else:
        write("merges.txt", merges_txt(tok))
    write("vocab.json", vocab_json(tok))
    if tokenizer_json_supported(tok):
        write("tokenizer.json", tokenizer_json(tok))
    else:
        stale = out / "tokenizer.json"
        if stale.exists():
            stale.unlink()
    write(MANIFEST, json.dumps(manifest(tok, merges=bool(problem)), ensure_ascii=False, indent=1))
    return written


# --------------------------------------------------------------------------------------- reading
def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path} does not exist.") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}.") from None
    return read_text(data, path.name)


def load_model(model_dir) -> Tokenizer:
    """Rebuild the :class:`Tokenizer` saved by :func:`save_model` in ``model_dir``.

    A directory with only ``vocab.json`` + ``merges.txt`` (no ``bpe_explorer.json``) is read as GPT-2
    files (:func:`load_gpt2_files`).

    Raises:
        InputError: a missing directory or file, or malformed content (one-line message).
    """
    with gc_paused():
        return _load_model(Path(model_dir))


def _load_model(d: Path) -> Tokenizer:
    if not d.is_dir():
        raise InputError(f"{d} is not a model directory (it does not exist or is not a directory).")
    man_path = d / MANIFEST
    if not man_path.exists():
        if (d / "vocab.json").exists() and (d / "merges.txt").exists():
            return load_gpt2_files(_read(d / "vocab.json"), _read(d / "merges.txt"))
        raise InputError(f"{d} holds neither {MANIFEST} nor a vocab.json + merges.txt pair.")
    try:
        man = json.loads(_read(man_path))
    except json.JSONDecodeError as err:
        raise InputError(f"{MANIFEST} is not valid JSON (line {err.lineno}: {err.msg}).") from None
    if not isinstance(man, dict) or man.get("format") != FORMAT_NAME:
        raise InputError(f"{MANIFEST} is not a BPE Explorer manifest.")
    try:
        variant = Variant(man.get("variant", "byte"), man.get("eow_style", "separate"), man.get("eow_marker", "</w>"))
    except ValueError as err:
        raise InputError(f"{MANIFEST}: {err}.") from None
    pretokenizer = man.get("pretokenizer")
    if pretokenizer not in PRETOKENIZER_CHOICES:
        raise InputError(f"{MANIFEST}: unknown pre-tokenizer {pretokenizer!r}.")
    pattern = man.get("pattern") if pretokenizer == REGEX else None
    if pattern is not None and not isinstance(pattern, str):
        raise InputError(f"{MANIFEST}: the pattern must be a string.")
    vocab_wire = parse_vocab(_read(d / "vocab.json"))
    if (d / "merges.txt").exists():
        merges = parse_merges(_read(d / "merges.txt"))
    elif isinstance(man.get("merges"), list):
        for i, pair in enumerate(man["merges"], start=1):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) and x for x in pair)):
                raise InputError(f"{MANIFEST}: merge {i} is not a [left, right] pair of strings.")
        sides = list(zip(*man["merges"])) or [(), ()]
        merges = ParsedMerges(list(sides[0]), list(sides[1]), range(1, len(man["merges"]) + 1))
    else:
        raise InputError(f"{d} has no merges.txt (and {MANIFEST} holds no merges).")
    ids = merge_ids(merges, vocab_wire)

    if variant.is_bytes:
        try:
            vocab = byte_vocab(vocab_wire, ids)
        except ValueError as err:
            raise InputError(f"vocab.json/merges.txt: {err}.") from None
        text = joined_merges(merges)
        merges = vocab_wire = None  # looked up by now: their memory goes to the tables (as in load_gpt2_files)
    freq = None
    if isinstance(man.get("frequencies"), dict):
        try:
            freq = {int(k): int(v) for k, v in man["frequencies"].items()}
        except (TypeError, ValueError):
            raise InputError(f"{MANIFEST}: frequencies must map ids to counts.") from None
    try:
        if variant.is_bytes:
            return byte_tokenizer(variant, pretokenizer, text, ids, vocab, freq, pattern)
        pairs = list(zip(merges.lefts, merges.rights))
        return Tokenizer(variant, pretokenizer, pairs, dict(vocab_wire), freq, pattern)
    except PatternError as err:
        raise InputError(f"{MANIFEST}: {err}") from None
    except ValueError as err:
        raise InputError(f"{d}: {err}.") from None
