"""``python -m bpe_core check CORPUS YOURS [the train options] [--jsonl]``: where a student's merges part
from the reference trained on CORPUS, and why (:mod:`bpe_core.checking.check`).

YOURS is read in any format :mod:`bpe_core.formats.merge_lists` knows (merges.txt, tokenizer.json, a minbpe
``.model``, a JSON list of pairs, ``train --jsonl`` output). The reference trains as many merges as YOURS
holds unless ``--merges N`` or ``--vocab-size V`` says otherwise. Exit status: 0 identical, 1 parted
(a settings mismatch included), 2 bad input (one line on stderr).
"""

from __future__ import annotations

import json
import sys

from ..inputs import InputError, looks_like_word_counts, parse_word_counts
from .common import UsageError, add_train_options, bpe_only, config_from_args, read_bytes, read_input

NAME = "check"

#: One line per cause for the plain-text report (the app words them at length, in three languages).
CAUSE_LINES = {
    "settings": "the alphabet or end-of-word marker differs (bytes vs characters, </w> attached vs separate)",
    "tie-break": "the two pairs tie: your code breaks ties by another rule",
    "overlap-counting": "overlapping pairs (a a a) counted once instead of once per position",
    "word-frequency": "each word type counted once instead of once per occurrence",
    "pre-tokenization": "your pair comes from another pre-tokenizer (or crosses a word boundary)",
    "application-order": "merges applied right to left, or overlapping",
    "stop-rule": "the same merges, but one list stops earlier",
    "unknown": "none of the known mistakes gives your pair",
}


def add_parser(sub) -> None:
    """Add ``check`` to the sub-parsers ``sub``."""
    ck = sub.add_parser(
        NAME,
        help="find the first merge where your own trainer's merges part from the reference, and why",
        description="Train the reference on CORPUS (under each tie-break rule) and compare YOURS with it: the "
        "first merge where they part, both pairs with their counts, and the cause. Exit status 0 identical, "
        "1 parted, 2 bad input.",
    )
    ck.add_argument("corpus", metavar="CORPUS", help="the corpus (UTF-8 text or a 'word count' list); - for stdin")
    ck.add_argument(
        "yours",
        metavar="YOURS",
        help="your merges: merges.txt, tokenizer.json, a minbpe .model, a JSON list of pairs, or train --jsonl output",
    )
    add_train_options(ck)
    ck.add_argument("--jsonl", action="store_true", help="print one JSON object with the result")


def _read_yours(path: str) -> list:
    from ..formats.merge_lists import read_merge_list  # (imported when used: see cli/train.py)

    data = read_bytes(path)  # no size limit: a model's tokenizer.json can be larger than a corpus may be
    name = "stdin" if path == "-" else path
    return read_merge_list(data, name).pairs


def run(args, out=None, err=None) -> int:
    """Check ``args.yours`` against the reference trained on ``args.corpus``; returns 0 (identical) or 1
    (parted). Raises :class:`UsageError` (bad settings) or :class:`InputError` (bad input)."""
    # Imported here, not at the top: see cli/train.py.
    from ..algorithms.trainer import corpus_words
    from ..checking.check import check_merges
    from ..formats.snapshots import jsonl_line

    out = out or sys.stdout
    if args.corpus == "-" and args.yours == "-":
        raise UsageError("CORPUS and YOURS cannot both be - (stdin)")
    cfg = bpe_only(config_from_args(args), NAME)
    yours = _read_yours(args.yours)
    text = read_input(args.corpus)
    if not text.strip():
        raise InputError("the corpus is empty: there is nothing to train on")
    if looks_like_word_counts(text):
        words, text = parse_word_counts(text), None
    else:
        words = corpus_words(text, cfg)
    report = check_merges(words, cfg, yours, text)
    if args.jsonl:
        print(jsonl_line(report.as_json()), file=out)
    elif report.identical:
        print(
            f"identical: all {report.merges} merges agree with the reference (tie-break {report.tie_break})", file=out
        )
    else:
        print(_plain(report), file=out)
    return 0 if report.identical else 1


def _side(pair, count) -> str:
    if pair is None:
        return "(none: the list ends here)"
    return f"{json.dumps(pair[0], ensure_ascii=False)} + {json.dumps(pair[1], ensure_ascii=False)}  (count {count})"


def _plain(report) -> str:
    lines = [
        f"parted at merge {report.step}: {report.agree} of {report.merges} merges agree "
        f"(reference tie-break {report.tie_break})",
        f"  yours:     {_side(report.yours, report.yours_count)}",
        f"  reference: {_side(report.reference, report.reference_count)}",
        f"  cause: {report.cause}: {CAUSE_LINES[report.cause]}"
        + (f" {json.dumps(report.detail, ensure_ascii=False)}" if report.detail else ""),
    ]
    if report.also:
        lines.append(f"  also possible: {', '.join(report.also)}")
    if report.words:
        shown = ", ".join(f"{w} ×{f}" for w, f, *_rest in report.words)
        lines.append(f"  words: {shown}")
    return "\n".join(lines)
