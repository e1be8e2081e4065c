"""``train FILE --picky T``: PickyBPE (:mod:`bpe_core.algorithms.picky`) on the command line.

Plain output: one line per merge, ``k  a + b -> ab  (count; IoS a, b)``, and below it one line per token the merge
made the trainer remove, ``   removed ab  (IoS x; vocabulary V)``. ``--jsonl``: one object per merge, ``{"step",
"left", "right", "token", "count", "ios": [left, right], "vocab_size", "removed": [{"token", "ios", "count",
"vocab_size"}]}`` (``removed`` empty when nothing went), then ``{"stop": reason, "merges": n, "removals": r}``.
``--merges N`` counts merges (the shared reference's ``vocab_size`` is 256 + N); ``--vocab-size V`` counts the
live vocabulary (removed tokens left out).
"""

from __future__ import annotations

import argparse

from ..byte_display import to_gpt2
from .common import UsageError, readable

RULES = "PickyBPE rules: bpe_core.algorithms.picky"


def add_options(p: argparse.ArgumentParser) -> None:
    """``--picky T`` and ``--picky-ties`` (for ``train``)."""
    p.add_argument(
        "--picky",
        type=float,
        default=None,
        metavar="T",
        help="PickyBPE: after each merge, remove a part whose IoS (the share of its occurrences the merge took) "
        "is at least T, 0 < T <= 1 (byte-level; default: plain BPE)",
    )
    p.add_argument(
        "--picky-ties",
        choices=("lexical", "smallest"),
        default=None,  # (None: not given, lexical; --boundless refuses it given)
        help="PickyBPE's tie rule: lexical (the largest pair, as --tie-break lexical) or smallest (the "
        "BoundlessBPE reference's) (default: lexical)",
    )


def check(args) -> None:
    """Raise :class:`UsageError` for settings PickyBPE cannot train with."""
    if not 0.0 < args.picky <= 1.0:
        raise UsageError(f"--picky must be above 0 and at most 1, got {args.picky}")
    if args.variant not in (None, "byte"):  # (None: not given, byte-level by default)
        raise UsageError("--picky trains byte-level BPE: use --variant byte")
    if args.algorithm != "bpe":
        raise UsageError("--picky is a variant of BPE: leave --algorithm out")
    if args.out:
        raise UsageError("--out does not save PickyBPE models yet: leave it out")


def run(args, words: dict, out, jsonl_line) -> None:
    """Train ``words`` with PickyBPE as ``args`` say and print each step to ``out``."""
    args.picky_ties = args.picky_ties or "lexical"
    from ..algorithms.picky import PickyTrainer

    trainer = PickyTrainer(
        words,
        args.picky,
        num_merges=args.merges,
        vocab_size=args.vocab_size,
        min_frequency=args.min_frequency,
        ties=args.picky_ties,
    )
    if not args.jsonl:
        print(
            f"# {len(words)} word types, PickyBPE with IoS threshold {args.picky}, ties {args.picky_ties}, "
            f"min frequency {args.min_frequency}",
            file=out,
        )
    removals = print_events(trainer.steps(), args.jsonl, out, jsonl_line)
    if args.jsonl:
        print(jsonl_line({"stop": trainer.stop_reason, "merges": trainer.merges, "removals": removals}), file=out)
    else:
        print(
            f"# stopped: {trainer.stop_reason} after {trainer.merges} merges and {removals} removals; "
            f"vocabulary {trainer.live} tokens",
            file=out,
        )


def print_events(events, jsonl: bool, out, jsonl_line) -> int:
    """Print PickyBPE (or BoundlessBPE) events to ``out`` as the module's docstring says (a BoundlessBPE merge
    also says ``"supermerge"`` in JSON, `` ++ `` in text); the number of removals."""
    pending: dict | None = None
    removals = 0
    for event in events:
        if event.kind == "merge":
            across = getattr(event, "supermerge", None)
            if jsonl:
                if pending is not None:
                    print(jsonl_line(pending), file=out)
                pending = {
                    "step": event.merges,
                    "left": to_gpt2(event.left),
                    "right": to_gpt2(event.right),
                    "token": to_gpt2(event.token),
                    "count": event.count,
                    "ios": [round(x, 6) for x in event.ios],
                    "vocab_size": event.vocab_size,
                    "removed": [],
                }
                if across is not None:  # a BoundlessBPE training: say which merges joined two pre-tokens
                    pending["supermerge"] = across
            else:
                a, b, ab = readable(event.left), readable(event.right), readable(event.token)
                ios = f"IoS {event.ios[0]:.3f}, {event.ios[1]:.3f}"
                plus = " ++ " if across else " + "  # ++: a BoundlessBPE supermerge of two pre-tokens
                print(f"{event.merges}  {a}{plus}{b} -> {ab}  ({event.count}; {ios})", file=out)
        else:
            removals += 1
            if jsonl:
                pending["removed"].append(
                    {
                        "token": to_gpt2(event.token),
                        "ios": round(event.ios[0], 6),
                        "count": event.count,
                        "vocab_size": event.vocab_size,
                    }
                )
            else:
                print(
                    f"   removed {readable(event.token)}  (IoS {event.ios[0]:.3f}; vocabulary {event.vocab_size})",
                    file=out,
                )
    if jsonl and pending is not None:
        print(jsonl_line(pending), file=out)
    return removals
