"""``handout FILE [train options] [--lang L] [--out FILE.html]``: a print-ready A4 HTML handout of the first
merges (:func:`bpe_core.teaching.handout.handout_html` writes the page)."""

from __future__ import annotations

import sys

from ..inputs import InputError
from .common import UsageError, add_train_options, bpe_only, config_from_args, read_words

NAME = "handout"

#: Merges a handout may hold: about two pages each, so a few hundred already make a book.
HANDOUT_MAX_MERGES = 200
HANDOUT_LANGUAGES = ("en", "zh-Hans", "zh-Hant")


def add_parser(sub) -> None:
    """Add ``handout`` to the sub-parsers ``sub``."""
    ho = sub.add_parser(
        NAME,
        help="write a print-ready HTML handout (A4) of the first merges",
        description="Train on FILE and write one self-contained HTML file (A4, print it to PDF from a browser): "
        "the corpus, then for each of the first N merges the top pairs, the chosen pair and why, and the words "
        "it changed.",
    )
    ho.add_argument("file", metavar="FILE", help="input file; - for stdin")
    add_train_options(ho)  # --merges N: the merges the handout shows (default 10)
    ho.add_argument("--lang", choices=HANDOUT_LANGUAGES, default="en", help="language of the handout (default: en)")
    ho.add_argument("--out", metavar="FILE.html", default="-", help="file to write (default: - for stdout)")


def _translations(lang: str):
    """The translations for ``--lang`` (``None`` for English). Raises :class:`UsageError` when the
    catalogs are not installed."""
    if lang == "en":
        return None
    try:
        from ..i18n import translations
    except ImportError:
        raise UsageError(f"--lang {lang}: this installation has no translation catalogs (bpe_core.i18n)") from None
    return translations(lang)


def run(args, out=None, err=None) -> int:
    """Train the first ``--merges`` merges of ``args.file`` and write the handout; returns the exit status."""
    out = out or sys.stdout
    from ..algorithms.seam import train  # (the trainer is imported when used: see cli/train.py)
    from ..teaching.handout import handout_html

    merges = 10 if args.merges is None else args.merges
    if not 1 <= merges <= HANDOUT_MAX_MERGES:
        raise UsageError(f"--merges must be between 1 and {HANDOUT_MAX_MERGES} for a handout")
    tr = _translations(args.lang)
    cfg = bpe_only(config_from_args(args, num_merges=merges), NAME)
    words, _source = read_words(args.file, cfg)
    run = train(words, cfg)
    page = handout_html(run, merges, tr=tr, lang=args.lang)
    if args.out == "-":
        out.write(page)
        out.flush()
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as exc:
        raise InputError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    n = run.num_steps
    print(f"# wrote {args.out}: {n} merge{'s' if n != 1 else ''}", file=err or sys.stderr)
    return 0
