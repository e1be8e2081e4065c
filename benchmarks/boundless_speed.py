"""BoundlessBPE's training time against our plain BPE on the same text and settings.

Usage::

    .venv/bin/python benchmarks/boundless_speed.py [--kb 200] [--merges 2000] [--tau 0.9] [--repeat 3]

The text: the first ``--kb`` kB of pg16457 (whole lines, English, CRLF), one document. Both train byte-level BPE
under GPT-2's pattern to ``--merges`` merges with min frequency 1 (the BoundlessBPE reference has no minimum):
plain BPE (``bpe_core.train``, first-seen ties), PickyBPE (``PickyTrainer``: BoundlessBPE's word side alone, for
scale) and BoundlessBPE (``BoundlessTrainer``, removals at ``tau``,
supermerges across pre-tokens). Each time is pre-tokenization + counting + training, the text already in memory,
the best of ``--repeat`` rounds taken in turns (plain, picky, boundless, plain, ...) so that a busy machine slows both
alike. The issue sets no limit: the ratio is printed, and what the BoundlessBPE run did (merges inside pre-tokens,
supermerges, removals) and the held-out bytes per token of both, on the next 50 kB of the book.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the library; the helpers shared with the tests


def plain(text: str, merges: int):
    from bpe_core import TrainConfig, corpus_words, train

    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=merges, min_frequency=1)
    t0 = time.perf_counter()
    run = train(corpus_words(text, cfg), cfg)
    return time.perf_counter() - t0, run


def picky(text: str, merges: int, tau: float):
    from bpe_core import TrainConfig, corpus_words
    from bpe_core.algorithms.picky import PickyTrainer

    t0 = time.perf_counter()
    words = corpus_words(text, TrainConfig(variant="byte", pretokenizer="gpt2"))
    PickyTrainer(words, tau, num_merges=merges, min_frequency=1, ties="smallest").train()
    return time.perf_counter() - t0


def boundless(text: str, merges: int, tau: float):
    from bpe_core.algorithms.boundless import BoundlessTrainer, document_pieces

    t0 = time.perf_counter()
    trainer = BoundlessTrainer(document_pieces([text]), tau, num_merges=merges)
    trainer.train()
    return time.perf_counter() - t0, trainer


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kb", type=int, default=200)
    ap.add_argument("--merges", type=int, default=2000)
    ap.add_argument("--tau", type=float, default=0.9)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from corpus_excerpts import ENGLISH, excerpt

    from bpe_core import Tokenizer
    from bpe_core.algorithms.boundless_encode import BoundlessModel

    text = excerpt(ENGLISH, args.kb * 1000)
    held_out = excerpt(ENGLISH, 50_000, len(text))
    times = {"plain": [], "picky": [], "boundless": []}
    for _ in range(args.repeat):
        seconds, run = plain(text, args.merges)
        times["plain"].append(seconds)
        times["picky"].append(picky(text, args.merges, args.tau))
        seconds, trainer = boundless(text, args.merges, args.tau)
        times["boundless"].append(seconds)
    best = {name: min(ts) for name, ts in times.items()}
    events = trainer.events
    supers = sum(e.supermerge for e in events)
    removals = sum(e.kind == "removal" for e in events)
    n_bytes = len(held_out.encode("utf-8"))
    plain_tokens = len(Tokenizer.from_run(run).encode(held_out))
    boundless_tokens = len(BoundlessModel.from_events(events, tau=args.tau).tokens(held_out))
    print(f"pg16457, first {len(text.encode('utf-8')):,} bytes, byte-level, GPT-2 pattern, {args.merges:,} merges")
    print(f"  plain BPE     {best['plain']:7.2f} s   ({', '.join(f'{t:.2f}' for t in times['plain'])})")
    print(f"  PickyBPE      {best['picky']:7.2f} s   ({', '.join(f'{t:.2f}' for t in times['picky'])})")
    print(f"  BoundlessBPE  {best['boundless']:7.2f} s   ({', '.join(f'{t:.2f}' for t in times['boundless'])})")
    print(
        f"  ratio         {best['boundless'] / best['plain']:7.2f} x plain BPE, "
        f"{best['boundless'] / best['picky']:.2f} x PickyBPE (its word side)"
    )
    print(
        f"  BoundlessBPE made {trainer.merges - supers:,} merges inside pre-tokens, {supers:,} supermerges and "
        f"{removals:,} removals (tau {args.tau}); stop: {trainer.stop_reason}"
    )
    print(
        f"  held-out bytes per token ({n_bytes:,} bytes): plain {n_bytes / plain_tokens:.3f}, "
        f"BoundlessBPE {n_bytes / boundless_tokens:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
