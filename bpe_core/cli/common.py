"""What the sub-commands share: the one-line error, the training options, reading the input, showing a token.

Every message a user sees is one line ``bpe_core: ...`` on stderr (:func:`bpe_core.cli.main` prints it):
a sub-command raises :class:`UsageError` for bad settings and :class:`bpe_core.inputs.InputError` for bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..algorithms.seam import algorithm_names
from ..algorithms.tiebreak import TIE_BREAKS
from ..config import TrainConfig
from ..inputs import InputError, decode_bytes, format_size, looks_like_word_counts, max_input_bytes, parse_word_counts
from ..pretokenize import PRETOKENIZER_CHOICES, REGEX
from ..pretokenize_field import FIELD_PRETOKENIZERS
from ..variants import EOW_STYLES, VARIANTS

PROG = "bpe_core"


class UsageError(Exception):
    """Bad command-line settings (exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage dump): it raises :class:`UsageError`."""

    def error(self, message: str):
        raise UsageError(f"{message} (see {self.prog} --help)")


# ------------------------------------------------------------------------------------------ training options
def add_train_options(p: argparse.ArgumentParser) -> None:
    """The training settings (``--variant`` ... ``--eow-marker``, ``--algorithm``), shared by ``train``, ``handout``
    and ``check``."""
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        default=None,
        help="base symbols: characters, characters + end-of-word marker, or UTF-8 bytes (default: byte)",
    )
    p.add_argument(
        "--pretokenizer",
        choices=(*PRETOKENIZER_CHOICES, *FIELD_PRETOKENIZERS),
        default=None,
        help="how text is split into words (default: whitespace for char/eow, gpt2 for byte, bert for wordpiece, "
        "metaspace for unigram; regex: --pattern)",
    )
    p.add_argument(
        "--pattern",
        default=None,
        metavar="PATTERN",
        help="with --pretokenizer regex: your pre-tokenizer pattern (regex package syntax); matches and the "
        "text between them become words",
    )
    stop = p.add_mutually_exclusive_group()
    stop.add_argument("--merges", type=int, metavar="N", help="stop after N merges")
    stop.add_argument(
        "--vocab-size",
        type=int,
        metavar="V",
        help="stop when the vocabulary holds V tokens (base alphabet included; 256 bytes for byte)",
    )
    p.add_argument(
        "--min-frequency",
        type=int,
        default=None,
        metavar="F",
        help="stop when the best pair occurs fewer than F times (default: 2)",
    )
    p.add_argument(
        "--tie-break",
        choices=TIE_BREAKS,
        default=None,
        help="which of equally frequent pairs wins (default: first-seen)",
    )
    p.add_argument(
        "--eow-style",
        choices=EOW_STYLES,
        default=None,
        help="eow marker as its own symbol or attached to the last character (default: separate)",
    )
    p.add_argument("--eow-marker", default=None, metavar="MARKER", help="end-of-word marker (default: </w>)")
    p.add_argument(
        "--algorithm",
        default="bpe",
        metavar="NAME",
        help=f"the training algorithm, by registered name: {', '.join(algorithm_names())} (default: bpe)",
    )
    p.add_argument(
        "--seed-size", type=int, default=None, metavar="S", help="unigram: the seed vocabulary (default: 300)"
    )
    p.add_argument(
        "--shrink",
        type=float,
        default=None,
        metavar="F",
        help="unigram: share of the vocabulary each round removes (default: 0.1)",
    )


#: The options each algorithm other than BPE refuses (its options do not apply), with their argparse names.
_NOT_FOR = {
    "wordpiece": ("variant", "min_frequency", "tie_break", "eow_style", "eow_marker", "seed_size", "shrink"),
    "unigram": ("variant", "min_frequency", "tie_break", "eow_style", "eow_marker", "merges"),
}
#: The defaults of the options left unset (``None`` marks an option not given, so that it can be refused).
_DEFAULTS = {
    "variant": "byte",
    "min_frequency": 2,
    "tie_break": "first-seen",
    "eow_style": "separate",
    "eow_marker": "</w>",
}


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def config_from_args(args, **overrides) -> TrainConfig:
    """The validated :class:`TrainConfig` of parsed training options. Raises :class:`UsageError`."""
    if args.pattern is not None and args.pretokenizer != REGEX:
        raise UsageError("--pattern is only used with --pretokenizer regex")
    if args.pretokenizer == REGEX and args.pattern is None:
        raise UsageError("--pretokenizer regex needs --pattern PATTERN")
    given = {name for name in (*_DEFAULTS, "seed_size", "shrink", "merges") if getattr(args, name, None) is not None}
    refused = _NOT_FOR.get(args.algorithm, ("seed_size", "shrink"))
    for name in refused:
        if name in given:
            raise UsageError(f"{_option(name)} does not apply to --algorithm {args.algorithm}")
    unset = {name: value for name, value in _DEFAULTS.items() if getattr(args, name) is None}
    if args.algorithm in _NOT_FOR:
        unset["variant"] = "char"  # (WordPiece and Unigram work on characters)
        unset["min_frequency"] = 1
    fields = dict(
        variant=args.variant,
        pretokenizer=args.pretokenizer,
        num_merges=args.merges,
        vocab_size=args.vocab_size,
        min_frequency=args.min_frequency,
        tie_break=args.tie_break,
        eow_style=args.eow_style,
        eow_marker=args.eow_marker,
        pattern=args.pattern,
        algorithm=args.algorithm,
        transition=getattr(args, "transition", None),  # (train's --transition only)
        **{k: v for k, v in (("seed_size", args.seed_size), ("shrink", args.shrink)) if v is not None},
    )
    fields.update(unset)
    for name, value in unset.items():  # the defaults, for a command that reads args after this (picky)
        setattr(args, name, value)
    fields.update(overrides)
    try:
        return TrainConfig(**fields).validate()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def bpe_only(cfg: TrainConfig, command: str) -> TrainConfig:
    """``cfg`` when it trains merges (BPE); raises :class:`UsageError` for WordPiece and Unigram, which only the
    ``train`` command trains."""
    if cfg.algorithm in _NOT_FOR:
        raise UsageError(
            f"{command} works with BPE merges; --algorithm {cfg.algorithm} is for train (and encode --model)"
        )
    return cfg


# ------------------------------------------------------------------------------------------ input
def read_words(path: str, cfg: TrainConfig) -> tuple[dict[str, int], str]:
    """``({word: count}, source)`` from FILE: a 'word count' list as it is, else text pre-tokenized by
    ``cfg``; ``source`` names which. Raises :class:`InputError` (unreadable or empty input)."""
    text = read_input(path)
    if not text.strip():
        what = "empty" if not text else "empty (only whitespace)"
        raise InputError(f"the input is {what}: there is nothing to train on")
    if looks_like_word_counts(text):
        return parse_word_counts(text), "word-frequency list"
    from ..algorithms.trainer import corpus_words  # (imported when used: see cli/train.py)

    return corpus_words(text, cfg), "text"


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """The bytes of FILE (``-``: stdin), at most ``limit`` bytes (``None``: no limit). Raises
    :class:`InputError` with a one-line message (a missing file, a folder, no permission, over the limit)."""
    if path == "-":
        stream = sys.stdin.buffer
        chunks = []
        total = 0
        while True:
            chunk = stream.read(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:
                raise InputError(
                    f"The input is more than {format_size(limit)}, the limit (set BPE_EXPLORER_MAX_BYTES to change it)."
                )
        return b"".join(chunks)
    try:
        with open(path, "rb") as fh:
            if limit is None:
                return fh.read()
            data = fh.read(limit + 1)
            if len(data) > limit:
                size = os.fstat(fh.fileno()).st_size
                raise InputError(
                    f"{path} is {format_size(max(size, len(data)))}; the limit is {format_size(limit)} "
                    "(set BPE_EXPLORER_MAX_BYTES to change it)."
                )
            return data
    except FileNotFoundError:
        raise InputError(f"{path}: no such file.") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a file.") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied.") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}.") from None


def read_input(path: str) -> str:
    """Read FILE (``-``: stdin) as UTF-8 text, at most ``BPE_EXPLORER_MAX_BYTES`` bytes. Raises
    :class:`InputError` with a one-line message."""
    limit = max_input_bytes()
    data = read_bytes(path, limit)
    try:
        return decode_bytes(data, limit)
    except InputError as err:
        name = "stdin" if path == "-" else path
        raise InputError(f"{name}: {err}") from None


# ------------------------------------------------------------------------------------------ output
def readable(value) -> str:
    """A token for the plain-text output: GPT-2 alias for bytes; text quoted (JSON) when it has whitespace
    or an unprintable character, or is empty."""
    if isinstance(value, bytes):
        from ..byte_display import to_gpt2

        return to_gpt2(value)
    if not value or any(c.isspace() or not c.isprintable() for c in value):
        return json.dumps(value, ensure_ascii=False)
    return value
