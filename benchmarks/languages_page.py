"""How long the Languages page takes: its first view (the Declaration's 20 languages counted under GPT-2, GPT-4
and GPT-4o, the models already loaded, nothing cached) and a second view (from the caches).

Printed, in seconds:

1. **model loading** (not part of the goal, printed for context): ``load_gpt`` for the three models, a tiny
   encode each (which compiles their pre-tokenizer patterns), and their chip sources.
2. **first-view counts** (bpe_core alone): ``token_tax.tax_table`` over the 20 whole texts and the 3 models,
   with the encoders' caches cold. Goal: <= 2 s.
3. **first view / second view (AppTest)**: the whole page script (sidebar, the sidebar's own small run, the
   tables, the chart, the chips of one language under four tokenizers) through ``streamlit.testing.v1.AppTest``
   in this process, the models loaded before. The second view reruns the page: every count comes from the
   caches. AppTest's own parsing is inside the timing, so this is an upper bound on server time. Goal for the
   second view: <= 0.3 s.

The machine is shared (two cores): wall-clock numbers are noisy; the load average is printed with them, and
beside each wall-clock time the process's CPU time (``time.process_time``, all its threads), which a busy
machine inflates much less: on an idle machine the wall-clock time is close to it.

Usage::

    .venv/bin/python benchmarks/languages_page.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="second views to time (default 3)")
    args = parser.parse_args()
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    from machine import cpu_model

    from bpe_core import load_gpt
    from bpe_core.languages import declaration as decl
    from bpe_core.languages.token_tax import tax_table

    print(f"CPU: {cpu_model()}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    tokenizers = {name: load_gpt(name) for name in ("gpt2", "cl100k", "o200k")}
    for tok in tokenizers.values():
        tok.encode("warm up: a pattern, 一个 模式.")
    from ui.real_tokenizers import gpt_tokens

    for name in tokenizers:
        gpt_tokens(name)
    print(f"model loading (3 models + chip sources):        {time.perf_counter() - t0:6.2f} s")

    texts = decl.texts()
    t0, c0 = time.perf_counter(), time.process_time()
    table = tax_table(texts, tokenizers)
    first_counts, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"first-view counts, 20 languages x 3 models:      {first_counts:6.2f} s wall, {cpu:5.2f} s CPU   (goal <= 2 s)"
    )
    print(f"  spread: {', '.join(f'{m} {table.spread(m):.2f}' for m in table.models)}")

    from app_helpers import new_app, no_exception

    at = new_app()
    no_exception(at)
    at.switch_page("app_pages/7_Languages.py")
    t0, c0 = time.perf_counter(), time.process_time()
    at.run()
    first_view, cpu = time.perf_counter() - t0, time.process_time() - c0
    no_exception(at)
    print(
        f"first view of the page (AppTest; the encoders' caches are warm from 2): {first_view:6.2f} s wall, "
        f"{cpu:5.2f} s CPU"
    )
    seconds, cpus = [], []
    for _ in range(args.rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        seconds.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        no_exception(at)
    print(
        f"second view (AppTest rerun), median of {len(seconds)}:      {statistics.median(seconds):6.2f} s wall, "
        f"{statistics.median(cpus):5.2f} s CPU   (goal <= 0.3 s; min {min(seconds):.2f} s wall)"
    )
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
