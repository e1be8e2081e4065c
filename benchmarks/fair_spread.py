"""Plain vs parity-aware ("fair") BPE on the Declaration: the held-out spread and Gini of every tokenizer, and how long
each training takes.

Trained on the preamble and articles 1-20 of all 20 languages in equal shares of UTF-8 bytes (GPT-2's pre-tokenizer,
byte-level), measured on articles 21-30; GPT-2, GPT-4 and GPT-4o on the same held-out text for comparison.

Usage::

    .venv/bin/python benchmarks/fair_spread.py [--merges 2000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=2000)
    args = parser.parse_args()
    from machine import cpu_model

    from bpe_core import load_gpt
    from bpe_core.algorithms.fair_bpe import byte_share_weights, train_mix
    from bpe_core.languages import declaration as decl
    from bpe_core.languages.token_tax import tax_table

    print(f"CPU: {cpu_model()}; load average {os.getloadavg()[0]:.1f}")
    train = decl.texts(range(0, 21))
    held = decl.texts(range(21, 31))
    weights = byte_share_weights(train)
    tokenizers = {}
    for rule in ("plain", "fair"):
        t0, c0 = time.perf_counter(), time.process_time()
        run = train_mix(train, args.merges, rule, weights)
        print(
            f"{rule:>6}: {len(run.merges):,} merges in {time.perf_counter() - t0:.1f} s wall, "
            f"{time.process_time() - c0:.1f} s CPU"
        )
        tokenizers[rule] = run.tokenizer()
    for name in ("gpt2", "cl100k", "o200k"):
        tokenizers[name] = load_gpt(name)
    table = tax_table(held, tokenizers)
    print("held-out articles 21-30, tax = tokens / English tokens")
    for name in tokenizers:
        taxes = table.taxes(name)
        print(f"  {name:>6}: spread {table.spread(name):5.2f}  Gini {table.gini(name):.3f}  max tax {max(taxes):.2f}")


if __name__ == "__main__":
    main()
