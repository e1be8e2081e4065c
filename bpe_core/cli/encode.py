"""``encode --model DIR|FILE|NAME [FILE]``: the tokens and ids of a text under a saved model, a Hugging Face
``tokenizer.json`` (ids from ``tokenizers``, the ``[app]`` extra) or a shipped tokenizer (``--dropout P`` samples a
BPE-dropout segmentation)."""

from __future__ import annotations

import os
import sys

from ..inputs import InputError
from ..models import MODEL_NAMES, load_gpt
from .common import UsageError, read_input, readable

NAME = "encode"


def add_parser(sub) -> None:
    """Add ``encode`` to the sub-parsers ``sub``."""
    en = sub.add_parser(
        NAME,
        help="encode a UTF-8 text file with a saved model, a tokenizer.json or GPT-2 / GPT-4 / GPT-4o / Qwen3",
        description="Encode FILE (default: stdin) with the model saved in DIR (or a GPT-2 vocab.json + merges.txt), "
        f"a Hugging Face tokenizer.json (or a folder holding one), or a shipped tokenizer ({', '.join(MODEL_NAMES)}).",
    )
    en.add_argument(
        "--model",
        required=True,
        metavar="DIR|FILE|NAME",
        help="directory written by 'train --out' (or holding GPT-2 vocab.json + merges.txt), a tokenizer.json or a "
        f"folder holding one, or {'|'.join(MODEL_NAMES)} (GPT-2, GPT-4, GPT-4o, Qwen3, DeepSeek-V3); an existing "
        "directory of that name wins",
    )
    en.add_argument("file", metavar="FILE", nargs="?", default="-", help="input file; - or absent for stdin")
    en.add_argument("--jsonl", action="store_true", help='print {"ids": [...], "tokens": [...]}')
    en.add_argument(
        "--dropout",
        type=float,
        default=0.0,
        metavar="P",
        help="BPE-dropout: skip each merge candidate with probability P, 0..1 (default: 0, deterministic)",
    )
    en.add_argument("--seed", type=int, default=None, metavar="S", help="random seed for --dropout")


def load_tokenizer(model: str):
    """The tokenizer ``--model`` names: a shipped one (unless a directory of that name exists), a
    ``tokenizer.json`` file, a folder holding a ``tokenizer.json`` and no model of ours (no manifest, no
    vocab.json + merges.txt), else the model directory. Raises :class:`InputError` when it is none of these, or
    when a tokenizer.json needs ``tokenizers`` and it is not installed (the message names the extra)."""
    if model in MODEL_NAMES and not os.path.isdir(model):
        return load_gpt(model)
    if not os.path.exists(model):
        raise InputError(
            f"{model} is not a model directory nor a tokenizer.json (it does not exist) nor a shipped tokenizer "
            f"({', '.join(MODEL_NAMES)})."
        )
    if os.path.isdir(model):  # a WordPiece or Unigram tokenizer.json of ours (train --algorithm wordpiece|unigram)
        from ..algorithms.boundless_encode import load_boundless_model  # (imported when used: see cli/train.py)
        from ..formats.field_models import load_field_model

        boundless = load_boundless_model(model)  # a BoundlessBPE folder (train --boundless --out DIR)
        if boundless is not None:
            return boundless

        field = load_field_model(model)
        if field is not None:
            return field
    if _is_tokenizer_json(model):
        from ..models.hf_model import load_tokenizer_json  # imported when used: it needs tokenizers

        return load_tokenizer_json(model)
    from ..formats.files import load_model  # (imported when used: see cli/train.py)

    return load_model(model)


def _is_tokenizer_json(model: str) -> bool:
    """A file (any name: ours are folders), or a folder with a tokenizer.json and no model of ours."""
    if os.path.isfile(model):
        return True
    ours = ("bpe_explorer.json", "vocab.json")  # the manifest of a saved model, a GPT-2 folder
    return os.path.isfile(os.path.join(model, "tokenizer.json")) and not any(
        os.path.isfile(os.path.join(model, name)) for name in ours
    )


def run(args, out=None, err=None) -> int:
    """Encode ``args.file`` and print tokens then ids (or one JSON line) to ``out``; returns the exit status."""
    out = out or sys.stdout
    if not 0.0 <= args.dropout <= 1.0:
        raise UsageError(f"--dropout must be between 0 and 1, got {args.dropout}")
    tok = load_tokenizer(args.model)
    text = read_input(args.file)
    ids = tok.encode(text, dropout=args.dropout, seed=args.seed)
    distinct = list(dict.fromkeys(ids))  # each token is spelled once, however often it occurs
    if args.jsonl:
        from ..formats.snapshots import jsonl_line

        wire = dict(zip(distinct, tok.token_wires(distinct)))
        print(jsonl_line({"ids": ids, "tokens": list(map(wire.__getitem__, ids))}), file=out)
    else:
        own_unk = hasattr(tok, "hf")  # a tokenizer.json names its own unknown token ([UNK], <unk>)
        shown = {i: readable(tok.token_value(i)) if i != tok.unk_id or own_unk else "<unk>" for i in distinct}
        print(" ".join(map(shown.__getitem__, ids)), file=out)
        print(" ".join(map(str, ids)), file=out)
    return 0
