"""How long SuperBPE takes against plain BPE (issue 44): pg16457 to 10,000 merges, transition at 5,000.

Usage::

    .venv/bin/python benchmarks/superbpe_speed.py [--merges 10000] [--transition 5000] [--repeat 3]

Both runs start from the text (pre-tokenization included) with the same settings (byte-level, GPT-2's
pre-tokenizer, minimum frequency 2, first-seen ties): plain BPE is ``train(corpus_words(text, cfg), cfg)``, SuperBPE
is :func:`bpe_core.algorithms.superbpe.train_superbpe` with ``transition``. They alternate, ``--repeat`` times
each; each one's best wall-clock time counts (CPU seconds in brackets: on a shared machine the wall clock also
counts other people's work). PASS when SuperBPE's best is at most 3 times plain BPE's. The CPU model is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the library; the helpers shared with the tests

from machine import cpu_model  # noqa: E402

from bpe_core import TrainConfig, corpus_words, train  # noqa: E402
from bpe_core.algorithms.superbpe import train_superbpe, transition_step  # noqa: E402
from tests.corpus_excerpts import ENGLISH, read_corpus  # noqa: E402

LIMIT = 3.0  # SuperBPE may take at most this many times plain BPE's time


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--merges", type=int, default=10_000)
    ap.add_argument("--transition", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    text = read_corpus(ENGLISH)
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=args.merges)
    super_cfg = dataclasses.replace(cfg, transition=args.transition)
    print(f"CPU: {cpu_model()}")
    print(
        f"{ENGLISH}: {len(text.encode('utf-8')):,} bytes; byte-level, gpt2, {args.merges:,} merges; SuperBPE "
        f"transition at {args.transition:,}; alternating, best of {args.repeat}"
    )
    times: dict = {"plain": [], "superbpe": []}
    for _ in range(args.repeat):
        plain, wall, cpu = _timed(lambda: train(corpus_words(text, cfg), cfg))
        times["plain"].append((wall, cpu))
        sup, wall, cpu = _timed(lambda: train_superbpe(text, super_cfg))
        times["superbpe"].append((wall, cpu))
    for name, run in (("plain", plain), ("superbpe", sup)):
        wall, cpu = min(t[0] for t in times[name]), min(t[1] for t in times[name])
        extra = ""
        if name == "superbpe":
            extra = f"; transition step {transition_step(run)}, stage-1 merges left out {len(run.extras['skipped'])}"
        print(f"  {name:9} {wall:6.2f} s ({cpu:.2f} s CPU), {run.num_steps:,} merges{extra}")
    ratio = min(t[0] for t in times["superbpe"]) / min(t[0] for t in times["plain"])
    cpu_ratio = min(t[1] for t in times["superbpe"]) / min(t[1] for t in times["plain"])
    verdict = "PASS" if ratio <= LIMIT else "FAIL"
    print(f"SuperBPE / plain: {ratio:.2f}x wall ({cpu_ratio:.2f}x CPU); limit {LIMIT:.0f}x: {verdict}")


if __name__ == "__main__":
    main()
