"""Seconds for merge trees and intermediate tokens (issue 43), each against its limit (PASS/FAIL):

* ``tree``: a GPT-4o token's record and tree (``MergeGraph.record`` + ``tree``) after the model is loaded, the first
  one (which builds the graph's tables) and the slowest of 200 random ones after it (limit 50 ms each);
* ``intermediate``: the made / output counts of the whole Declaration (20 languages) under each GPT model (limit 2 s);
* ``picky``: PickyBPE (T = 0.9) on pg16457 to 10,000 merges against plain BPE's training (limit: twice plain's),
  the best of three runs of each, alternating.

Usage::

    .venv/bin/python benchmarks/trees_speed.py

Wall-clock numbers on a shared machine are noisy: run it on a quiet one. Exit status 1 when a limit fails.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from machine import cpu_model  # noqa: E402  (tests/machine.py)

from bpe_core import load_gpt  # noqa: E402
from bpe_core.encoding.intermediate import token_uses  # noqa: E402
from bpe_core.languages import declaration as decl  # noqa: E402


def main() -> int:
    print(cpu_model())
    failed = False

    def report(name: str, seconds: float, limit: float) -> None:
        nonlocal failed
        ok = seconds <= limit
        failed |= not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name:<44} {seconds * 1000:8.1f} ms  (limit {limit * 1000:.0f} ms)")

    tok = load_gpt("o200k")
    start = time.perf_counter()
    graph = tok.merge_graph()
    graph.record(150_000), graph.tree(150_000)
    report("tree: first GPT-4o token", time.perf_counter() - start, 0.05)
    worst = 0.0
    for tid in random.Random(43).sample(range(len(tok.vocab)), 200):
        start = time.perf_counter()
        graph.record(tid), graph.tree(tid)
        worst = max(worst, time.perf_counter() - start)
    report("tree: slowest of 200 GPT-4o tokens", worst, 0.05)

    text = "\n".join(decl.texts().values())
    for name in ("gpt2", "cl100k", "o200k"):
        model = load_gpt(name)
        model.merge_graph()
        start = time.perf_counter()
        token_uses(model, text)
        report(f"intermediate: the Declaration under {name}", time.perf_counter() - start, 2.0)

    from bpe_core import TrainConfig, train
    from bpe_core.algorithms.picky import PickyTrainer
    from bpe_core.algorithms.trainer import corpus_words

    book = (REPO / "presets" / "pg16457.txt").read_text(encoding="utf-8")
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=10_000)
    words = corpus_words(book, cfg)
    # Plain and picky runs alternate and each keeps its best time, so a burst of other work on a shared machine
    # slows both alike rather than one of them.
    plain = picky = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        train(words, cfg)
        plain = min(plain, time.perf_counter() - start)
        start = time.perf_counter()
        PickyTrainer(words, 0.9, num_merges=10_000).train()
        picky = min(picky, time.perf_counter() - start)
    report(f"picky: pg16457, 10,000 merges (plain {plain:.2f} s)", picky, 2 * plain)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
