"""``python -m bpe_core compare FILE... --model gpt2,cl100k,o200k[,DIR] [--jsonl]``: what each file costs.

For each FILE (UTF-8; ``-`` reads stdin): its characters (Unicode code points), UTF-8 bytes and tokens under
each model (:mod:`bpe_core.languages.token_tax`). Give the same content in several languages and the token tax can be
read off; the first file is the reference for the tax column of the plain table.

* plain: a table, one row per file, then one line per model: the spread (largest tax over smallest) and
  the Gini coefficient of the taxes when there are two files or more;
* ``--jsonl``: one JSON object per file, ``{"file": ..., "chars": ..., "bytes": ..., "tokens": {"gpt2": ...,
  "cl100k": ..., ...}}`` (keys as given to ``--model``), plus ``"unknown": {model: n}`` for the models that
  have an ``<unk>`` token (character-level ones); nothing else.

A model is a shipped tokenizer name (``gpt2``, ``cl100k``, ``o200k``; counts equal
``len(tiktoken encoding.encode_ordinary(text))``; ``qwen3``, ``deepseek_v3``: counts from ``tokenizers``), a
directory written by ``train --out`` (or holding GPT-2 ``vocab.json`` + ``merges.txt``), or a Hugging Face
``tokenizer.json`` (or a folder holding one; ``tokenizers`` gives its counts); a directory of that name in the current directory wins, as for
``encode``. An ``<unk>`` counts as one token.
"""

from __future__ import annotations

import argparse
import sys

from ..inputs import InputError
from ..models import MODEL_NAMES
from .common import read_input
from .encode import load_tokenizer

NAME = "compare"
#: The rank-file models: they need nothing beyond the library's own dependencies.
DEFAULT_MODELS = "gpt2,cl100k,o200k"


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``compare`` to the sub-parsers ``sub``."""
    cp = sub.add_parser(
        NAME,
        help="characters, UTF-8 bytes and tokens of each file under GPT-2 / GPT-4 / GPT-4o or your model",
        description="Count characters, UTF-8 bytes and tokens of each FILE under each model. Give the same text "
        "in several languages to see the token tax (the first file is the reference).",
    )
    cp.add_argument("files", metavar="FILE", nargs="+", help="UTF-8 text files; - for stdin (once)")
    cp.add_argument(
        "--model",
        default=DEFAULT_MODELS,
        metavar="NAME|DIR|FILE[,...]",
        help=f"comma-separated models: {', '.join(MODEL_NAMES)} (GPT-2, GPT-4, GPT-4o, Qwen3, DeepSeek-V3), a "
        f"directory written by 'train --out', or a tokenizer.json (default: {DEFAULT_MODELS})",
    )
    cp.add_argument("--jsonl", action="store_true", help='one object per file: {"file", "chars", "bytes", "tokens"}')
    return cp


def parse_models(value: str) -> dict:
    """``{name as given: Tokenizer}`` from a comma-separated ``--model`` value (order kept).

    Raises:
        InputError: an empty list, an entry given twice, or an entry that is no model.
    """
    names = [v.strip() for v in value.split(",")]
    if not value.strip() or not all(names):
        raise InputError(f"--model {value!r}: give model names or directories separated by commas.")
    if len(set(names)) != len(names):
        raise InputError(f"--model {value!r}: a model is given twice.")
    return {name: load_tokenizer(name) for name in names}


def run(args, out=None, err=None) -> int:
    """Count each of ``args.files`` under each ``args.model`` and print the table (or JSON lines) to ``out``;
    returns the exit status.

    Raises:
        InputError: a file or model that cannot be used (the CLI prints it on one line, exit status 2).
    """
    # Imported here, not at the top: see cli/train.py.
    from ..formats.snapshots import jsonl_line
    from ..languages.token_tax import count_tokens

    out = out or sys.stdout
    if args.files.count("-") > 1:
        raise InputError("stdin (-) can be read only once.")
    models = parse_models(args.model)
    rows = []
    for path in args.files:
        text = read_input(path)
        counts = {name: count_tokens(tok, text) for name, tok in models.items()}
        rows.append((path, len(text), len(text.encode("utf-8")), counts))
    with_unk = [name for name, tok in models.items() if tok.unk_id is not None]
    if args.jsonl:
        for path, chars, size, counts in rows:
            record = {"file": path, "chars": chars, "bytes": size, "tokens": {m: c.tokens for m, c in counts.items()}}
            if with_unk:
                record["unknown"] = {m: counts[m].unknown for m in with_unk}
            print(jsonl_line(record), file=out)
        return 0
    _table(rows, list(models), with_unk, out)
    return 0


def _table(rows, names, with_unk, out) -> None:
    """The plain table: file, chars, bytes, then per model its tokens (and ``<unk>``), and the tax against the
    first file when it has tokens; spread and Gini lines under it."""
    from ..languages.token_tax import gini, spread

    heads = ["file", "chars", "bytes"]
    for m in names:
        heads += [m] + ([f"{m} <unk>"] if m in with_unk else [])
    ref = rows[0][3]
    show_tax = len(rows) > 1 and all(ref[m].tokens for m in names)
    if show_tax:
        heads += [f"{m} tax" for m in names]
    table = []
    for path, chars, size, counts in rows:
        cells = [path, f"{chars:,}", f"{size:,}"]
        for m in names:
            cells += [f"{counts[m].tokens:,}"] + ([f"{counts[m].unknown:,}"] if m in with_unk else [])
        if show_tax:
            cells += [f"{counts[m].tokens / ref[m].tokens:.2f}" for m in names]
        table.append(cells)
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(heads)]

    def fmt(cells) -> str:  # the file column left-aligned, numbers right-aligned
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    print(fmt(heads).rstrip(), file=out)
    for cells in table:
        print(fmt(cells).rstrip(), file=out)
    if show_tax:
        print(f"# tax = tokens / tokens of {rows[0][0]} (the first file)", file=out)
        for m in names:
            taxes = [counts[m].tokens / ref[m].tokens for *_rest, counts in rows]
            if min(taxes) > 0:
                print(f"# {m}: spread {spread(taxes):.2f} (largest tax / smallest), Gini {gini(taxes):.3f}", file=out)
