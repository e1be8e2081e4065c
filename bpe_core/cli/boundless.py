"""``train FILE --boundless [--tau T] [--out DIR]``: BoundlessBPE (:mod:`bpe_core.algorithms.boundless`) on the
command line.

Output as ``train --picky`` prints it (:func:`bpe_core.cli.picky.print_events`): a supermerge, a merge of two
neighbouring pre-tokens, is written ``a ++ b`` and has ``"supermerge": true`` in ``--jsonl``. ``--out DIR`` writes
the model folder (``DIR/boundless.json``, :mod:`bpe_core.algorithms.boundless_encode`) that ``encode --model DIR``
reads; it cannot be a ``tokenizer.json``. The file is one document (its pre-tokens in order: supermerges need the
neighbours, so a 'word count' list will not do).

Every message goes through the catalogs (``tr``: a ``gettext.NullTranslations``, ``None`` for English).
"""

from __future__ import annotations

import argparse
import gettext

from ..algorithms.boundless_run import PRETOKENIZERS  # (the app's stepper uses the same list)
from ..inputs import InputError
from .common import UsageError

RULES = "BoundlessBPE rules: bpe_core.algorithms.boundless"
DEFAULT_TAU = 0.9  # the paper's


def add_options(p: argparse.ArgumentParser) -> None:
    """``--boundless`` and ``--tau`` (for ``train``)."""
    p.add_argument(
        "--boundless",
        action="store_true",
        help="BoundlessBPE: byte-level BPE that also merges two neighbouring pre-tokens once each is one token, "
        "and removes tokens the PickyBPE way (--tau); --out DIR writes its own model format",
    )
    p.add_argument(
        "--tau",
        default=None,
        metavar="T",
        help=f"with --boundless: remove a merged part whose IoS is at least T, 0 < T <= 1, or 'none' for no "
        f"removals (default: {DEFAULT_TAU})",
    )


def _tr(tr):
    return tr or gettext.NullTranslations()


def parse_tau(value: str | None, tr=None) -> float | None:
    """The ``--tau`` value (``None`` given: the default; ``'none'``: no removals). Raises :class:`UsageError`."""
    if value is None:
        return DEFAULT_TAU
    if value.strip().lower() == "none":
        return None
    try:
        tau = float(value)
    except ValueError:
        tau = float("nan")
    if not 0.0 < tau <= 1.0:  # (nan fails too)
        raise UsageError(
            _tr(tr).gettext("--tau must be above 0 and at most 1 (or none), got {value}").format(value=value)
        )
    return tau


def check(args, tr=None) -> float | None:
    """Raise :class:`UsageError` for settings BoundlessBPE cannot train with; the ``tau`` to train with.
    Runs before the training defaults are filled in (an option left out is ``None``)."""
    t = _tr(tr)
    if args.algorithm in ("picky", "boundless"):  # the app's stepper names them; the trainers' options are here
        option = "--picky T" if args.algorithm == "picky" else "--boundless"
        raise UsageError(
            t.gettext(
                "--algorithm {name} names the app's stepper of it; on the command line train it with {option}"
            ).format(name=args.algorithm, option=option)
        )
    if not args.boundless:
        if args.tau is not None:
            raise UsageError(t.gettext("--tau applies to --boundless only"))
        return None
    if args.picky is not None:
        raise UsageError(t.gettext("--boundless already removes tokens the PickyBPE way (--tau): leave --picky out"))
    if args.variant not in (None, "byte"):
        raise UsageError(t.gettext("--boundless trains byte-level BPE: use --variant byte"))
    if args.algorithm != "bpe":
        raise UsageError(t.gettext("--boundless is a variant of BPE: leave --algorithm out"))
    if args.pretokenizer not in (None, *PRETOKENIZERS):
        raise UsageError(
            t.gettext(
                "--boundless needs a pre-tokenizer that keeps the whole text in order, neighbour after neighbour: "
                "{choices} (got {name})"
            ).format(choices=", ".join(PRETOKENIZERS), name=args.pretokenizer)
        )
    if args.tie_break is not None:
        raise UsageError(
            t.gettext(
                "--tie-break does not apply to --boundless: it breaks ties by the smallest pair, as its reference does"
            )
        )
    for option, value in (
        ("--transition", getattr(args, "transition", None)),
        ("--eow-style", args.eow_style),
        ("--eow-marker", args.eow_marker),
        ("--picky-ties", args.picky_ties),
    ):
        if value is not None:
            raise UsageError(t.gettext("{option} does not apply to --boundless").format(option=option))
    if args.out and args.out.lower().endswith(".json"):
        raise UsageError(no_tokenizer_json(t))
    return parse_tau(args.tau, tr)


def no_tokenizer_json(tr=None) -> str:
    """Why a BoundlessBPE model is not written as a ``tokenizer.json``, and what to do instead."""
    return _tr(tr).gettext(
        "A BoundlessBPE model cannot be written as a tokenizer.json (Hugging Face tokenizers has no merges "
        "across pre-tokens and no removals): give --out a folder; it gets boundless.json, which encode --model "
        "reads."
    )


def not_for_tree(tr=None) -> str:
    """Why ``tree`` does not draw a BoundlessBPE model."""
    return _tr(tr).gettext(
        "tree draws the merges of a BPE model; a BoundlessBPE model also merges across pre-tokens and removes "
        "tokens: encode --model shows its tokens."
    )


def read_documents(text: str, tr=None) -> list[str]:
    """The training documents of FILE's text (one). Raises :class:`InputError` for a 'word count' list."""
    from ..inputs import looks_like_word_counts

    if not text.strip():
        raise InputError(_tr(tr).gettext("The input is empty: there is nothing to train on."))
    if looks_like_word_counts(text):
        raise InputError(
            _tr(tr).gettext(
                "BoundlessBPE learns from running text (it merges neighbouring words): give a text, not a "
                "'word count' list."
            )
        )
    return [text]


def run(args, cfg, tau: float | None, text: str, out, info, jsonl_line) -> int:
    """Train BoundlessBPE on ``text`` as ``args`` / ``cfg`` say, print each step to ``out``, and write the
    model folder for ``--out`` (its ``# wrote`` line to ``info``); the exit status."""
    from ..algorithms.boundless import BoundlessTrainer, document_pieces
    from ..algorithms.boundless_encode import BoundlessModel
    from .picky import print_events

    pre, pattern = cfg.resolved_pretokenizer, cfg.pattern
    documents = document_pieces(read_documents(text), pre, pattern)
    trainer = BoundlessTrainer(
        documents, tau, num_merges=args.merges, vocab_size=args.vocab_size, min_frequency=cfg.min_frequency
    )
    if not args.jsonl:
        print(
            f"# {sum(map(len, documents))} pre-tokens, BoundlessBPE with tau {tau}, pre-tokenizer {pre}"
            f"{f' (pattern {pattern})' if pattern else ''}, min frequency {cfg.min_frequency}",
            file=out,
        )
    removals = print_events(trainer.steps(), args.jsonl, out, jsonl_line)
    supers = sum(e.supermerge for e in trainer.events)
    if args.jsonl:
        stop = {"stop": trainer.stop_reason, "merges": trainer.merges, "supermerges": supers, "removals": removals}
        print(jsonl_line(stop), file=out)
    else:
        print(
            f"# stopped: {trainer.stop_reason} after {trainer.merges} merges ({supers} across pre-tokens) and "
            f"{removals} removals; vocabulary {trainer.live} tokens",
            file=out,
        )
    out.flush()
    if not args.out:
        return 0
    model = BoundlessModel.from_events(trainer.events, pre, pattern, tau)
    try:
        path = model.save(args.out)
    except OSError as exc:
        raise InputError(f"cannot write to {args.out}: {exc.strerror or exc}.") from None
    print(f"# wrote {path} (BoundlessBPE's own format: no tokenizer.json can hold it)", file=info)
    return 0
