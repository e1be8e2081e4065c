"""How long ``check_merges`` takes (issue 27): a student's list with one known mistake, on real English.

Usage::

    .venv/bin/python benchmarks/check_speed.py [--size 60000] [--merges 300] [--repeat 3]

The student's lists come from ``tests/student_trainers.py`` (made once, not timed). Each check trains the
reference three times (one per tie-break rule) and replays the shared merges under each alternative rule;
the time is the best of ``--repeat`` wall-clock runs (the median in brackets), so a busy shared machine
inflates it. The CPU model is printed with the results.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the library; the helpers shared with the tests

from machine import cpu_model  # noqa: E402

from bpe_core.algorithms.trainer import corpus_words  # noqa: E402
from bpe_core.checking.check import check_merges  # noqa: E402
from bpe_core.config import TrainConfig  # noqa: E402
from tests.corpus_excerpts import named_excerpt  # noqa: E402
from tests.student_trainers import MISTAKES, Settings, train_correct  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=60_000, help="bytes of the English excerpt")
    ap.add_argument("--merges", type=int, default=300, help="merges in each student's list")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    text = named_excerpt("english", args.size)
    settings = Settings("byte", "gpt2")
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2")
    words = corpus_words(text, cfg)
    print(f"CPU: {cpu_model()}")
    print(f"English excerpt: {len(text.encode()):,} bytes, {len(words):,} word types; byte-level, gpt2; "
          f"{args.merges} merges per list; best of {args.repeat} (median)")  # fmt: skip
    lists = {"correct": train_correct(text, settings, args.merges)}
    lists.update({cause: MISTAKES[cause](text, settings, args.merges) for cause in ("tie-break", "word-frequency")})
    for name, yours in lists.items():
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            report = check_merges(words, cfg, yours, text)
            times.append(time.perf_counter() - t0)
        print(f"  {name:15} -> {report.cause:15} step {report.step!s:>4}: "
              f"{min(times):.2f} s ({statistics.median(times):.2f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
