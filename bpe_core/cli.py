"""Command line: ``python -m bpe_core train|encode``.

::

    python -m bpe_core train FILE [--variant char|eow|byte] [--pretokenizer whitespace|gpt2|gpt4|o200k|none]
        [--pretokenizer regex --pattern PATTERN]
        [--merges N | --vocab-size V] [--min-frequency F] [--tie-break first-seen|hf|lexical]
        [--eow-style separate|attached] [--eow-marker '</w>'] [--out DIR] [--jsonl]
    python -m bpe_core encode --model DIR|gpt2|cl100k|o200k [FILE] [--jsonl] [--dropout P] [--seed S]
    python -m bpe_core handout FILE [the train options] [--merges N] [--lang en|zh-Hans|zh-Hant] [--out FILE.html]
    python -m bpe_core compare FILE... --model gpt2,cl100k,o200k[,DIR] [--jsonl]

FILE ``-`` (or, for ``encode``, no FILE) reads stdin. Input must be UTF-8 (a BOM is fine); anything
else is a one-line ``bpe_core: ...`` message on stderr and exit status 2. A file whose every line is
``word count`` is read as a word-frequency list. ``--jsonl`` prints one JSON object per merge and a
final ``{"stop": reason, "merges": n}`` line. ``--pretokenizer regex --pattern PATTERN`` splits with your own
pattern (the ``regex`` package's syntax; text between matches is kept as pieces too); the pattern is saved
with the model, so ``encode --model DIR`` splits the same way.

``encode --model`` takes a directory written by ``train --out`` (or GPT-2 ``vocab.json`` + ``merges.txt``), or the
name of a shipped tokenizer: ``gpt2`` (GPT-2), ``cl100k`` (GPT-4), ``o200k`` (GPT-4o). When a directory with
that name exists in the current directory, the directory wins (write ``./gpt2`` to be explicit either way).
``--dropout P`` samples a BPE-dropout segmentation (each merge candidate skipped with probability P);
``--seed S`` makes it repeatable.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .cli_compare import add_parser as add_compare_parser
from .cli_compare import cmd_compare
from .encoder import Tokenizer
from .files import load_model, merges_txt_problem, save_model
from .inputs import InputError, decode_bytes, format_size, looks_like_word_counts, max_input_bytes, parse_word_counts
from .models import MODEL_NAMES, load_gpt
from .pretokenize import PRETOKENIZER_CHOICES, REGEX
from .snapshots import jsonl_line, merge_record
from .trainer import TIE_BREAKS, TrainConfig, Trainer, corpus_words
from .variants import EOW_STYLES, VARIANTS

PROG = "bpe_core"


class UsageError(Exception):
    """Bad command-line settings (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser(prog: str = f"python -m {PROG}", with_app: bool = False) -> argparse.ArgumentParser:
    """The argument parser (``train``, ``encode`` and ``handout`` sub-commands; ``app`` too with ``with_app``, for
    the ``bpe-explorer`` console script, which hands ``app``'s arguments to Streamlit unparsed)."""
    parser = _Parser(
        prog=prog,
        description="Byte-Pair Encoding, one merge at a time: train merges on a text file, or encode with a saved model.",
    )
    commands = "{app,train,encode,handout,compare}" if with_app else "{train,encode,handout,compare}"
    sub = parser.add_subparsers(dest="command", metavar=commands, parser_class=_Parser)
    sub.required = True
    if with_app:
        sub.add_parser(
            "app",
            help="run the Streamlit app (pip install '.[app]' from a clone); arguments go to 'streamlit run'",
        )

    tr = sub.add_parser(
        "train",
        help="learn merges from a UTF-8 text file (or a 'word count' list)",
        description="Learn BPE merges from FILE (UTF-8 text, or one 'word count' per line).",
    )
    tr.add_argument("file", metavar="FILE", help="input file; - for stdin")
    add_train_options(tr)
    tr.add_argument(
        "--out",
        metavar="DIR",
        help="write merges.txt, vocab.json, tokenizer.json (byte, eow attached) and bpe_explorer.json to DIR",
    )
    tr.add_argument("--jsonl", action="store_true", help="one JSON object per merge, then a stop line")

    en = sub.add_parser(
        "encode",
        help="encode a UTF-8 text file with a saved model or GPT-2 / GPT-4 / GPT-4o",
        description="Encode FILE (default: stdin) with the model saved in DIR (or a GPT-2 vocab.json + merges.txt), "
        f"or with a shipped tokenizer ({', '.join(MODEL_NAMES)}).",
    )
    en.add_argument(
        "--model",
        required=True,
        metavar="DIR|NAME",
        help="directory written by 'train --out' (or holding GPT-2 vocab.json + merges.txt), or "
        f"{'|'.join(MODEL_NAMES)} (GPT-2, GPT-4, GPT-4o); an existing directory of that name wins",
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
    _add_handout_parser(sub)
    add_compare_parser(sub)
    return parser


def add_train_options(p: argparse.ArgumentParser) -> None:
    """The training settings (``--variant`` ... ``--eow-marker``), shared by ``train`` and ``handout``."""
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        default="byte",
        help="base symbols: characters, characters + end-of-word marker, or UTF-8 bytes (default: byte)",
    )
    p.add_argument(
        "--pretokenizer",
        choices=PRETOKENIZER_CHOICES,
        default=None,
        help="how text is split into words (default: whitespace for char/eow, gpt2 for byte; regex: --pattern)",
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
        default=2,
        metavar="F",
        help="stop when the best pair occurs fewer than F times (default: 2)",
    )
    p.add_argument(
        "--tie-break",
        choices=TIE_BREAKS,
        default="first-seen",
        help="which of equally frequent pairs wins (default: first-seen)",
    )
    p.add_argument(
        "--eow-style",
        choices=EOW_STYLES,
        default="separate",
        help="eow marker as its own symbol or attached to the last character (default: separate)",
    )
    p.add_argument("--eow-marker", default="</w>", metavar="MARKER", help="end-of-word marker (default: </w>)")


def config_from_args(args, **overrides) -> TrainConfig:
    """The validated :class:`TrainConfig` of parsed training options. Raises :class:`UsageError`."""
    if args.pattern is not None and args.pretokenizer != REGEX:
        raise UsageError("--pattern is only used with --pretokenizer regex")
    if args.pretokenizer == REGEX and args.pattern is None:
        raise UsageError("--pretokenizer regex needs --pattern PATTERN")
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
    )
    fields.update(overrides)
    try:
        return TrainConfig(**fields).validate()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def read_words(path: str, cfg: TrainConfig) -> tuple[dict[str, int], str]:
    """``({word: count}, source)`` from FILE: a 'word count' list as it is, else text pre-tokenized by
    ``cfg``; ``source`` names which. Raises :class:`InputError` (unreadable or empty input)."""
    text = read_input(path)
    if not text.strip():
        what = "empty" if not text else "empty (only whitespace)"
        raise InputError(f"the input is {what}: there is nothing to train on")
    if looks_like_word_counts(text):
        return parse_word_counts(text), "word-frequency list"
    return corpus_words(text, cfg), "text"


# ------------------------------------------------------------------------------------------ input
def read_input(path: str) -> str:
    """Read FILE (``-``: stdin) as UTF-8 text. Raises :class:`InputError` with a one-line message."""
    limit = max_input_bytes()
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
            if total > limit:
                raise InputError(
                    f"The input is more than {format_size(limit)}, the limit (set BPE_EXPLORER_MAX_BYTES to change it)."
                )
        data = b"".join(chunks)
    else:
        try:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
                if len(data) > limit:
                    import os

                    size = os.fstat(fh.fileno()).st_size
                    raise InputError(
                        f"{path} is {format_size(max(size, len(data)))}; the limit is {format_size(limit)} "
                        "(set BPE_EXPLORER_MAX_BYTES to change it)."
                    )
        except FileNotFoundError:
            raise InputError(f"{path}: no such file.") from None
        except IsADirectoryError:
            raise InputError(f"{path} is a directory, not a file.") from None
        except PermissionError:
            raise InputError(f"{path}: permission denied.") from None
        except OSError as err:
            raise InputError(f"cannot read {path}: {err.strerror or err}.") from None
    try:
        return decode_bytes(data, limit)
    except InputError as err:
        name = "stdin" if path == "-" else path
        raise InputError(f"{name}: {err}") from None


# ------------------------------------------------------------------------------------------ output
#: Merge lines go out in batches, one write at most every this many seconds. A reader of the pipe still
#: sees the run as it trains, and an unbuffered stdout (``python -u``, ``PYTHONUNBUFFERED``) no longer makes
#: a system call, and wakes the reader, for every merge: that cost 0.4 s on 10,000 merges.
LINE_BATCH_SECONDS = 0.1


def _readable(value) -> str:
    """A token for the plain-text output: GPT-2 alias for bytes; text quoted when it has whitespace."""
    if isinstance(value, bytes):
        from .byte_display import to_gpt2

        return to_gpt2(value)
    if not value or any(c.isspace() or not c.isprintable() for c in value):
        return json.dumps(value, ensure_ascii=False)
    return value


def _progress(total: int | None):
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, file=sys.stderr, unit="merge", desc="training", leave=False, dynamic_ncols=True)


# ---------------------------------------------------------------------------------------- commands
def cmd_train(args, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    cfg = config_from_args(args)
    words, source = read_words(args.file, cfg)
    trainer = Trainer(words, cfg)
    run = trainer.run
    if not args.jsonl:
        print(
            f"# {len(words)} word types from the {source}, {run.num_base} base symbols; variant {cfg.variant}, "
            f"pre-tokenizer {cfg.resolved_pretokenizer}{f' (pattern {cfg.pattern})' if cfg.pattern else ''}, "
            f"tie-break {cfg.tie_break}, min frequency {cfg.min_frequency}",
            file=out,
        )
    total = cfg.num_merges
    if cfg.vocab_size is not None:
        total = max(0, cfg.vocab_size - run.num_base)
    bar = _progress(total)
    shown: dict[int, str] = {}  # each token's text, made once: a token is printed at every merge it takes part in

    def text(tid: int) -> str:
        s = shown.get(tid)
        if s is None:
            s = shown[tid] = _readable(run.token_value(tid))
        return s

    batch: list[str] = []
    due = time.monotonic() + LINE_BATCH_SECONDS
    try:
        for snap in trainer.steps():
            if args.jsonl:
                batch.append(jsonl_line(merge_record(run, snap)) + "\n")
            else:
                batch.append(
                    f"{snap.step}  {text(snap.left)} + {text(snap.right)} -> {text(snap.token)}  ({snap.count})\n"
                )
            if bar is not None:
                bar.update(1)
            if time.monotonic() >= due:
                out.write("".join(batch))
                out.flush()
                batch.clear()
                due = time.monotonic() + LINE_BATCH_SECONDS
    finally:
        if bar is not None:
            bar.close()
        if batch:  # also when interrupted: every merge made is printed
            out.write("".join(batch))
    n = run.num_steps
    if args.jsonl:
        print(jsonl_line({"stop": run.stop_reason, "merges": n}), file=out)
    else:
        print(
            f"# stopped: {run.stop_reason} after {n} merge{'s' if n != 1 else ''}; vocabulary {run.vocab_size} tokens; "
            f"corpus {run.corpus_tokens(n)} tokens (was {run.corpus_tokens(0)})",
            file=out,
        )
    out.flush()
    if args.out:
        _save(run, args.out, out if not args.jsonl else err, err)
    return 0


def _save(run, out_dir: str, info, err) -> None:
    tok = Tokenizer.from_run(run)
    problem = merges_txt_problem(tok)
    if problem:
        print(f"{PROG}: {problem}; writing the other files", file=err)
    try:
        paths = save_model(tok, out_dir, strict=False)
    except OSError as exc:
        raise InputError(f"cannot write to {out_dir}: {exc.strerror or exc}.") from None
    print(f"# wrote {', '.join(str(p) for p in paths)}", file=info)


def cmd_encode(args, out=None, err=None) -> int:
    out = out or sys.stdout
    if not 0.0 <= args.dropout <= 1.0:
        raise UsageError(f"--dropout must be between 0 and 1, got {args.dropout}")
    if args.model in MODEL_NAMES and not os.path.isdir(args.model):
        tok = load_gpt(args.model)
    elif not os.path.exists(args.model):
        raise InputError(
            f"{args.model} is not a model directory (it does not exist) nor a shipped tokenizer "
            f"({', '.join(MODEL_NAMES)})."
        )
    else:
        tok = load_model(args.model)
    text = read_input(args.file)
    ids = tok.encode(text, dropout=args.dropout, seed=args.seed)
    distinct = dict.fromkeys(ids)  # each token is spelled once, however often it occurs
    if args.jsonl:
        wire = {i: tok.token_wire(i) for i in distinct}
        print(jsonl_line({"ids": ids, "tokens": list(map(wire.__getitem__, ids))}), file=out)
    else:
        shown = {i: _readable(tok.token_value(i)) if i != tok.unk_id else "<unk>" for i in distinct}
        print(" ".join(map(shown.__getitem__, ids)), file=out)
        print(" ".join(map(str, ids)), file=out)
    return 0


# ---------------------------------------------------------------------------------------- handout
#: Merges a handout may hold: about two pages each, so a few hundred already make a book.
HANDOUT_MAX_MERGES = 200
HANDOUT_LANGUAGES = ("en", "zh-Hans", "zh-Hant")


def _add_handout_parser(sub) -> None:
    ho = sub.add_parser(
        "handout",
        help="write a print-ready HTML handout (A4) of the first merges",
        description="Train on FILE and write one self-contained HTML file (A4, print it to PDF from a browser): "
        "the corpus, then for each of the first N merges the top pairs, the chosen pair and why, and the words "
        "it changed.",
    )
    ho.add_argument("file", metavar="FILE", help="input file; - for stdin")
    add_train_options(ho)  # --merges N: the merges the handout shows (default 10)
    ho.add_argument("--lang", choices=HANDOUT_LANGUAGES, default="en", help="language of the handout (default: en)")
    ho.add_argument("--out", metavar="FILE.html", default="-", help="file to write (default: - for stdout)")


def _handout_translations(lang: str):
    """The translations for ``--lang`` (``None`` for English). Raises :class:`UsageError` when the
    catalogs are not installed."""
    if lang == "en":
        return None
    try:
        from .i18n import translations
    except ImportError:
        raise UsageError(f"--lang {lang}: this installation has no translation catalogs (bpe_core.i18n)") from None
    return translations(lang)


def cmd_handout(args, out=None, err=None) -> int:
    out = out or sys.stdout
    from .handout import handout_html

    merges = 10 if args.merges is None else args.merges
    if not 1 <= merges <= HANDOUT_MAX_MERGES:
        raise UsageError(f"--merges must be between 1 and {HANDOUT_MAX_MERGES} for a handout")
    tr = _handout_translations(args.lang)
    cfg = config_from_args(args, num_merges=merges)
    words, _source = read_words(args.file, cfg)
    trainer = Trainer(words, cfg)
    for _snap in trainer.steps():
        pass
    page = handout_html(trainer.run, merges, tr=tr, lang=args.lang)
    if args.out == "-":
        out.write(page)
        out.flush()
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as exc:
        raise InputError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    n = trainer.run.num_steps
    print(f"# wrote {args.out}: {n} merge{'s' if n != 1 else ''}", file=err or sys.stderr)
    return 0


def main(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input or settings, 1 unexpected error)."""
    for stream, errors in ((sys.stdout, "strict"), (sys.stderr, "backslashreplace")):
        try:  # JSON lines and tokens are UTF-8 whatever the locale says
            stream.reconfigure(encoding="utf-8", errors=errors)
        except (AttributeError, ValueError, OSError):
            pass
    parser = parser or build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "train":
            return cmd_train(args)
        if args.command == "handout":
            return cmd_handout(args)
        if args.command == "compare":
            return cmd_compare(args, read_input)
        return cmd_encode(args)
    except UsageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, and keep Python from complaining at exit.
        import os

        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback
        print(f"{PROG}: unexpected error ({type(exc).__name__}): {exc}", file=sys.stderr)
        return 1


def console_main(argv: list[str] | None = None) -> int:
    """The ``bpe-explorer`` console script: ``app [streamlit args]``, or ``train`` / ``encode`` exactly as
    ``python -m bpe_core``. Returns the exit status (``app``: Streamlit's; 2 when the app is not available)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["app"]:
        return run_app(argv[1:])
    return main(argv, build_parser(prog="bpe-explorer", with_app=True))


def run_app(streamlit_args: list[str]) -> int:
    """Run ``python -m streamlit run app.py`` with ``streamlit_args``. ``app.py`` is the repository's: next
    to this package (a clone, or an editable install), else in the current directory when that is a clone.
    Without Streamlit or without ``app.py`` (an installed library only): a one-line message on stderr and
    exit status 2."""
    import importlib.util
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent
    apps = [d / "app.py" for d in (here, Path.cwd()) if (d / "app.py").is_file() and (d / "bpe_core").is_dir()]
    if importlib.util.find_spec("streamlit") is None or not apps:
        missing = "Streamlit is not installed" if apps else "no app.py here or next to the bpe_core package"
        print(
            f"bpe-explorer: the app is not available ({missing}); "
            "run pip install '.[app]' in a clone of the repository, and bpe-explorer app there.",
            file=sys.stderr,
        )
        return 2
    return subprocess.call([sys.executable, "-m", "streamlit", "run", str(apps[0]), *streamlit_args])
