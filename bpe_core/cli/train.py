"""``train FILE [options]``: learn merges and print each one as it is made (text, or ``--jsonl``); ``--out DIR``
saves the model."""

from __future__ import annotations

import sys
import time

from ..inputs import InputError
from . import boundless, picky
from .common import PROG, UsageError, add_train_options, config_from_args, read_input, read_words, readable
from .train_field import FIELD_ALGORITHMS, run_field

NAME = "train"

#: Merge lines go out in batches, one write at most every this many seconds. A reader of the pipe still
#: sees the run as it trains, and an unbuffered stdout (``python -u``, ``PYTHONUNBUFFERED``) no longer makes
#: a system call, and wakes the reader, for every merge: that cost 0.4 s on 10,000 merges.
LINE_BATCH_SECONDS = 0.1


def add_parser(sub) -> None:
    """Add ``train`` to the sub-parsers ``sub``."""
    tr = sub.add_parser(
        NAME,
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
    tr.add_argument(
        "--transition",
        type=int,
        default=None,
        metavar="T",
        help="SuperBPE (byte-level): after merge T, go on training on the text cut by SuperBPE's stage-2 pattern, "
        "so merges may cross spaces; T at most --merges (T = --merges: plain BPE); --out writes its tokenizer.json",
    )
    picky.add_options(tr)
    boundless.add_options(tr)


def _progress(total: int | None):
    """A tqdm bar on stderr when stderr is a terminal (a pipe or a log gets none)."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, file=sys.stderr, unit="merge", desc="training", leave=False, dynamic_ncols=True)


def run(args, out=None, err=None) -> int:
    """Train on ``args.file`` and print the merges to ``out`` (default stdout); returns the exit status."""
    # Imported here, not at the top: building the parser imports every command's module, and the other
    # commands start faster without the trainer (start-up is most of a short command's time).
    from ..algorithms.seam import get_algorithm
    from ..formats.snapshots import jsonl_line, merge_record

    out = out or sys.stdout
    err = err or sys.stderr
    tau = boundless.check(args)  # (before the defaults fill in the options left out)
    if args.picky is not None:
        if args.transition is not None:
            raise UsageError("--transition (SuperBPE) and --picky do not combine: leave one out")
        picky.check(args)
    cfg = config_from_args(args)
    if args.boundless:
        return boundless.run(args, cfg, tau, read_input(args.file), out, out if not args.jsonl else err, jsonl_line)
    words, source = read_words(args.file, cfg)
    if args.picky is not None:
        picky.run(args, words, out, jsonl_line)
        return 0
    if cfg.algorithm in FIELD_ALGORITHMS:
        return run_field(args, cfg, words, source, out, err)
    training = get_algorithm(cfg.algorithm).start(words, cfg)
    run = training.run
    if not args.jsonl:
        print(
            f"# {len(words)} word types from the {source}, {run.num_base} base symbols; variant {cfg.variant}, "
            f"pre-tokenizer {cfg.resolved_pretokenizer}{f' (pattern {cfg.pattern})' if cfg.pattern else ''}, "
            f"tie-break {cfg.tie_break}, min frequency {cfg.min_frequency}",
            file=out,
        )
        if run.extras.get("transition") is not None:
            print(
                f"# SuperBPE: stage 1 made merges 1..{cfg.transition}; stage 2 replays them on the text cut by "
                f"{run.config.pattern} ({len(run.words)} pieces), then goes on across spaces",
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
            s = shown[tid] = readable(run.token_value(tid))
        return s

    batch: list[str] = []
    due = time.monotonic() + LINE_BATCH_SECONDS
    try:
        for snap in training.steps():
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
    if run.extras.get("transition") is not None and not args.jsonl:
        from ..algorithms.superbpe import transition_step

        left_out = len(run.extras["skipped"])
        print(
            f"# transition step: {transition_step(run) or 'not reached'}; stage-1 merges left out (their pair no "
            f"longer occurs in the stage-2 pieces): {left_out}",
            file=out,
        )
    out.flush()
    if args.out:
        return _save(run, args.out, out if not args.jsonl else err, err)
    return 0


def _save(run, out_dir: str, info, err) -> int:
    """Write the model files to ``out_dir``; the ``# wrote ...`` line goes to ``info``, a merges.txt problem to ``err``.
    Returns the exit status: 2 when the ``tokenizer.json`` asked for cannot be written (the jieba pre-tokenizer:
    one line on ``err``; the other files are written), else 0."""
    from ..encoding.encoder import Tokenizer
    from ..formats.files import SEGMENTER_PROBLEM, merges_txt_problem, save_model
    from ..pretokenize_words import JIEBA

    tok = Tokenizer.from_run(run)
    problem = merges_txt_problem(tok)
    if problem:
        print(f"{PROG}: {problem}; writing the other files", file=err)
    try:
        paths = save_model(tok, out_dir, strict=False)
    except OSError as exc:
        raise InputError(f"cannot write to {out_dir}: {exc.strerror or exc}.") from None
    print(f"# wrote {', '.join(str(p) for p in paths)}", file=info)
    if tok.pretokenizer == JIEBA:
        print(f"{PROG}: {SEGMENTER_PROBLEM}; not written (the other files were)", file=err)
        return 2
    return 0
