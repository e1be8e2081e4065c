"""Seconds on large inputs: the time limits the tests used to assert, measured here instead.

The tests check what holds on any machine (the same merges, one training reused, a step drawing no more
for a larger corpus); how long it takes depends on the machine and on what else runs on it, so it is
measured here and printed with the CPU model, each against its limit (PASS/FAIL):

* ``trainer``: ``train`` on 100 KB of ``a`` (the overlapping-pair worst case; limit 15 s) and on a
  100 KB 红楼梦 word without spaces, 200 merges (limit 10 s), both ``char`` and ``byte``
  (tests/test_trainer.py checks their merges);
* ``paste``: 1 MB pasted into the app through Streamlit's AppTest (one word of random letters, and one
  character repeated; 30 merges): from the paste to the whole run on screen (limit 30 s), then Next,
  Last and Prev (limit 3 s each: the script thread holds the GIL meanwhile, so every student's click
  waits behind it) (tests/test_robust_app.py checks one training and what a step draws);
* ``pages``: the whole book (preset ``pg16457-book``) on *Side by side*: Next, Last, Prev (limit 2 s
  each) and a switch to each other page (limit 4 s) (tests/test_pages.py checks that nothing retrains).

Usage::

    .venv/bin/python benchmarks/big_inputs.py [--only trainer paste pages]

Wall-clock numbers on a shared machine are noisy: run it on a quiet one. Exit status 1 when a limit fails.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]  # the library; the helpers shared with the tests

from machine import cpu_model  # noqa: E402  (tests/machine.py)

CORPORA = REPO.parent / "shared" / "corpora"
results: list[tuple[str, float, float]] = []


def report(name: str, seconds: float, limit: float) -> None:
    results.append((name, seconds, limit))
    print(f"{'PASS' if seconds <= limit else 'FAIL'}  {name}: {seconds:.2f} s (limit {limit:g} s)", flush=True)


def bench_trainer() -> None:
    from bpe_core import TrainConfig, corpus_words, train

    han = "".join(CORPORA.joinpath("hongloumeng.txt").read_text(encoding="utf-8")[3000:].split())
    han = han.encode("utf-8")[:100_000].decode("utf-8", errors="ignore")
    for variant in ("char", "byte"):
        for name, text, cfg, limit in (
            ("100 KB of 'a'", "a" * 100_000, TrainConfig(variant=variant), 15),
            ("100 KB Chinese word, 200 merges", han, TrainConfig(variant=variant, pretokenizer="none", num_merges=200), 10),
        ):  # fmt: skip
            words = corpus_words(text, cfg)
            t0 = time.perf_counter()
            train(words, cfg)
            report(f"train {name} ({variant})", time.perf_counter() - t0, limit)


#: The 1 MB scenario in a fresh interpreter (a cold cache, as a new server has): seconds as JSON.
PASTE = """
import json, random, sys, time
from streamlit.testing.v1 import AppTest
text, variant = json.loads(sys.stdin.read())
at = AppTest.from_file("app.py", default_timeout=600)
at.query_params["variant"] = variant
at.run()
at.number_input(key="w.minf").set_value(1).run()
at.number_input(key="w.merges").set_value(30).run()
at.radio(key="w.source").set_value("paste").run()
times = {}
t = time.perf_counter()
at.text_area(key="w.paste").input(text).run()
while any("so far" in h.proto.body for h in at.get("html")):  # the page shows the first merges early
    time.sleep(0.1)
    at.run()
times["paste"] = time.perf_counter() - t
for name in ("next", "last", "prev"):
    t = time.perf_counter()
    at.button(key="stepper." + name).click().run()
    times[name] = time.perf_counter() - t
assert not at.exception and not at.error
print(json.dumps(times))
"""


def bench_paste() -> None:
    texts = {"one word": "".join(random.Random(0).choices("abcdefghij", k=1_000_000)), "one character": "a" * 1_000_000}
    for kind, text in texts.items():
        for variant in ("char", "byte"):
            proc = subprocess.run(
                [sys.executable, "-c", PASTE],
                input=json.dumps([text, variant]),
                capture_output=True,
                text=True,
                cwd=REPO,
            )
            if proc.returncode:
                sys.exit(f"1 MB paste ({kind}, {variant}) failed:\n{proc.stderr[-3000:]}")
            times = json.loads(proc.stdout.strip().splitlines()[-1])
            report(f"1 MB paste, {kind} ({variant}): paste to the whole run", times.pop("paste"), 30)
            for name, seconds in times.items():
                report(f"1 MB paste, {kind} ({variant}): {name}", seconds, 3)


def bench_pages() -> None:
    from app_helpers import PAGES, open_page

    t0 = time.perf_counter()
    at = open_page("side", preset="pg16457-book")
    print(f"      the book's three runs trained in {time.perf_counter() - t0:.1f} s", flush=True)
    for button in ("sbs.next", "sbs.last", "sbs.prev"):
        t0 = time.perf_counter()
        at.button(key=button).click().run()
        report(f"book, Side by side: {button}", time.perf_counter() - t0, 2)
    for name in ("bbpe", "encode", "files", "how"):
        t0 = time.perf_counter()
        at.switch_page(PAGES[name]).run()
        report(f"book: switch to {name}", time.perf_counter() - t0, 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", nargs="+", choices=("trainer", "paste", "pages"), default=("trainer", "paste", "pages")
    )
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}; Python {sys.version.split()[0]}", flush=True)
    for part in args.only:
        {"trainer": bench_trainer, "paste": bench_paste, "pages": bench_pages}[part]()
    failed = [name for name, seconds, limit in results if seconds > limit]
    print(f"\n{len(results) - len(failed)}/{len(results)} within their limits; CPU: {cpu_model()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
