"""``train FILE --algorithm wordpiece|unigram``: print each WordPiece merge (its score) or Unigram round (its loss
and the tokens removed), as text or ``--jsonl``, then a stop line; ``--out DIR`` writes ``DIR/tokenizer.json``
(:mod:`bpe_core.formats.field_models`)."""

from __future__ import annotations

import json
from pathlib import Path

from ..inputs import InputError
from .common import readable

#: The algorithms this module trains.
FIELD_ALGORITHMS = ("wordpiece", "unigram")


def record(run, snap) -> dict:
    """The JSON object of one step: a WordPiece merge or a Unigram round."""
    text = run.token_text
    if snap.kind == "prune":
        return {
            "step": snap.step,
            "kind": snap.kind,
            "loss": snap.loss,
            "loss_after": snap.loss_after,
            "removed": [text(t) for t in snap.removed],
            "scores": [snap_score for _, snap_score in snap.candidates[: len(snap.removed)]],
            "vocab_size": snap.vocab_size,
        }
    return {
        "step": snap.step,
        "kind": snap.kind,
        "left": text(snap.left),
        "right": text(snap.right),
        "token": text(snap.token),
        "count": snap.count,
        "left_count": snap.left_count,
        "right_count": snap.right_count,
        "score": snap.score,
        "ties": snap.ties,
        "vocab_size": snap.vocab_size,
    }


def _line(run, snap) -> str:
    text = run.token_text
    if snap.kind == "prune":
        removed = " ".join(readable(text(t)) for t in snap.removed)
        return f"{snap.step}  loss {snap.loss:.4f}  removed {len(snap.removed)}: {removed}  (vocabulary {snap.vocab_size})\n"
    return (
        f"{snap.step}  {readable(text(snap.left))} + {readable(text(snap.right))} -> {readable(text(snap.token))}  "
        f"(score {snap.score:.6g} = {snap.count} / ({snap.left_count} × {snap.right_count}))\n"
    )


def run_field(args, cfg, words, source, out, err) -> int:
    """Train ``words`` with the WordPiece or Unigram settings ``cfg`` and print the steps to ``out``; returns 0.
    Raises :class:`InputError` for settings the algorithm refuses (a message, exit status 2)."""
    from ..algorithms.seam import get_algorithm
    from ..formats.snapshots import jsonl_line

    try:
        training = get_algorithm(cfg.algorithm).start(words, cfg)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    run = training.run
    if not args.jsonl:
        extra = f", seed {cfg.seed_size}, shrink {cfg.shrink}" if cfg.algorithm == "unigram" else ""
        print(
            f"# {len(words)} word types from the {source}, {run.num_base} tokens to start; algorithm {cfg.algorithm}, "
            f"pre-tokenizer {cfg.resolved_pretokenizer}{extra}",
            file=out,
        )
    for snap in training.steps():
        out.write(jsonl_line(record(run, snap)) + "\n" if args.jsonl else _line(run, snap))
    n = run.num_steps
    if args.jsonl:
        print(jsonl_line({"stop": run.stop_reason, "steps": n, "vocab_size": run.vocab_size}), file=out)
    else:
        print(f"# stopped: {run.stop_reason} after {n} steps; vocabulary {run.vocab_size} tokens", file=out)
    out.flush()
    if args.out:
        from ..formats.field_models import tokenizer_json

        path = Path(args.out) / "tokenizer.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(tokenizer_json(run), ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write to {args.out}: {exc.strerror or exc}.") from None
        print(f"# wrote {path}", file=out if not args.jsonl else err)
    return 0
