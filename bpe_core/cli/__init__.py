"""Command line: ``python -m bpe_core train|encode|handout|check|compare|tree`` (and ``bpe-explorer``, which adds ``app``).

::

    python -m bpe_core train FILE [--variant char|eow|byte] [--pretokenizer whitespace|gpt2|gpt4|o200k|none|jieba]
        [--pretokenizer regex --pattern PATTERN]
        [--merges N | --vocab-size V] [--min-frequency F] [--tie-break first-seen|hf|lexical]
        [--eow-style separate|attached] [--eow-marker '</w>'] [--algorithm NAME] [--out DIR] [--jsonl]
        [--picky T [--picky-ties lexical|smallest]]
    python -m bpe_core train FILE --algorithm wordpiece|unigram [--pretokenizer bert|metaspace] --vocab-size V
        [--seed-size S --shrink F (unigram)] [--out DIR (writes DIR/tokenizer.json)] [--jsonl]
    python -m bpe_core encode --model DIR|gpt2|cl100k|o200k [FILE] [--jsonl] [--dropout P] [--seed S]
    python -m bpe_core handout FILE [the train options] [--merges N] [--lang en|zh-Hans|zh-Hant] [--out FILE.html]
    python -m bpe_core check CORPUS YOURS [the train options] [--jsonl]
    python -m bpe_core compare FILE... --model gpt2,cl100k,o200k[,DIR] [--jsonl]
    python -m bpe_core tree --model DIR|gpt2|cl100k|o200k ID|TOKEN [--token] [--jsonl]

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

The package holds one module per sub-command, plus :mod:`.common` (the one-line errors, the training options,
reading the input) and :mod:`.app` (``bpe-explorer app``). A sub-command module ``bpe_core/cli/NAME.py`` has

* ``NAME``: the sub-command's name, as typed;
* ``add_parser(sub)``: adds its parser to ``sub`` (an ``argparse`` sub-parsers object);
* ``run(args, out=None, err=None) -> int``: does the work and returns the exit status; bad settings raise
  :class:`~bpe_core.cli.common.UsageError`, bad input :class:`~bpe_core.inputs.InputError` (both become one
  ``bpe_core: ...`` line on stderr and exit status 2).

**To add a sub-command**, write that module and add its name to :data:`COMMANDS` (one line). ``--help`` lists
the sub-commands in that order.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..inputs import InputError
from .app import HELP as APP_HELP
from .app import NAME as APP
from .app import run_app
from .common import PROG, Parser, UsageError

#: The sub-commands of ``python -m bpe_core`` and ``bpe-explorer``, in ``--help`` order: each names a module
#: of this package (see above). One line each.
COMMANDS = (
    "train",
    "encode",
    "handout",
    "check",
    "compare",
    "tree",
)


def command(name: str):
    """The module of sub-command ``name`` (one of :data:`COMMANDS`)."""
    return importlib.import_module(f"{__name__}.{name}")


def build_parser(prog: str = f"python -m {PROG}", with_app: bool = False) -> argparse.ArgumentParser:
    """The argument parser (the :data:`COMMANDS`; ``app`` too with ``with_app``, for the ``bpe-explorer``
    console script, which hands ``app``'s arguments to Streamlit unparsed)."""
    parser = Parser(
        prog=prog,
        description="Byte-Pair Encoding, one merge at a time: train merges on a text file, or encode with a saved model.",
    )
    names = ((APP,) if with_app else ()) + COMMANDS
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(names) + "}", parser_class=Parser)
    sub.required = True
    if with_app:
        sub.add_parser(APP, help=APP_HELP)
    for name in COMMANDS:
        command(name).add_parser(sub)
    return parser


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
        return command(args.command).run(args)
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
    """The ``bpe-explorer`` console script: ``app [streamlit args]``, or any of :data:`COMMANDS` exactly as
    ``python -m bpe_core``. Returns the exit status (``app``: Streamlit's; 2 when the app is not available)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == [APP]:
        return run_app(argv[1:])
    return main(argv, build_parser(prog="bpe-explorer", with_app=True))
