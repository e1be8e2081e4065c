"""Encoder speed targets: loading GPT-2 (the shipped rank file with ``load_gpt``, and a GPT-2 model folder,
``vocab.json`` + ``merges.txt``, with ``load_model``) and GPT-4o, encoding 200 KB of held-out English against
tiktoken with the same merges, and ``python -m bpe_core encode --model DIR FILE --jsonl`` as a whole process.

Usage::

    .venv/bin/python benchmarks/encode_speed.py [--repeat 5]

Everything is measured in this one run, and the sides alternate (tiktoken, ours, tiktoken, ...; one kind of
load, the next, ...) so that a busy machine slows them alike. Times are the best of ``--repeat`` (the median
in brackets); each target is printed with PASS or FAIL. Fresh processes report their CPU time too (user +
system), which other processes on a shared machine disturb less than wall time.

* load, fresh process (import excluded, printed apart): ``load_gpt("gpt2")`` and ``load_gpt("o200k")``; and
  ``load_model(DIR)`` on a GPT-2 folder -- 50,000 merges, ``vocab.json`` with ``<|endoftext|>`` as 50256, as
  OpenAI and Hugging Face publish GPT-2 (written here from the shipped rank file: the same tokens, ids and
  merges).
* encode: each round loads the folder's model afresh (not timed), so its piece cache is empty and every
  distinct pre-token is encoded anew, as for a text never seen; tiktoken has no such cache. Timed in this
  process's CPU time (``time.process_time``); wall time beside it. The same text again on the warm cache, the
  shipped model, and the ``regex`` split (what a text with characters beyond U+FFFF gets) are printed too
  (informational).
* CLI: ``python -m bpe_core encode --model DIR FILE --jsonl`` on the same 200 KB, wall time of the whole
  process (interpreter start, imports, load, encode, output), with bpe_core's bytecode compiled once
  beforehand (as an installed package has it); ``--model gpt2`` beside it (informational).

Ratios move between machines; the CPU model is printed with the results.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
# The library; the helpers shared with the tests; the other benchmarks (compile_bytecode).
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

LOAD_SNIPPET = """
import json, sys, time
t0 = time.perf_counter()
from bpe_core.formats.files import load_model
from bpe_core.models import load_gpt
t1, c1 = time.perf_counter(), time.process_time()
load_model(sys.argv[2]) if sys.argv[1] == "folder" else load_gpt(sys.argv[1])
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "cpu": c2 - c1}))
"""

#: What is loaded (``folder``: the GPT-2 folder with load_model), the merges, and the most seconds allowed.
LOADS = (("folder", "50,000", 0.15), ("gpt2", "50,000", 0.15), ("o200k", "199,742", 1.0))
ENCODE_RATIO = 3.0
CLI_SECONDS = 0.5


from machine import cpu_model  # noqa: E402  (tests/machine.py, shared with the other benchmarks)


def english_200k() -> str:
    """The last 200,000 bytes of pg16457 (English, CRLF), cut at a character boundary."""
    data = (CORPORA / "pg16457.txt").read_bytes()[-200_000:]
    return data.decode("utf-8", errors="ignore")


def write_gpt2_folder(path: Path) -> Path:
    """GPT-2 as a model folder: ``vocab.json`` (with ``<|endoftext|>`` as 50256) and ``merges.txt``."""
    from bpe_core.formats.files import merges_txt, vocab_dict
    from bpe_core.models import load_gpt

    tok = load_gpt("gpt2")
    path.mkdir(parents=True, exist_ok=True)
    vocab = {**vocab_dict(tok), "<|endoftext|>": 50256}
    (path / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (path / "merges.txt").write_text(merges_txt(tok), encoding="utf-8")
    return path


def time_loads(folder: Path, repeat: int) -> dict:
    """``{name: {"load": [...], "cpu": [...], "import": [...]}}``, the kinds of load taking turns."""
    out: dict = {name: {"load": [], "cpu": [], "import": []} for name, _, _ in LOADS}
    for _ in range(repeat):
        for name, _, _ in LOADS:
            proc = subprocess.run(
                [sys.executable, "-c", LOAD_SNIPPET, name, str(folder)],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=True,
            )
            for key, value in json.loads(proc.stdout).items():
                out[name][key].append(value)
    return out


def time_encode(text: str, folder: Path, repeat: int) -> dict:
    import importlib

    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    from bpe_core.formats.files import load_model
    from bpe_core.models import HERE, MODELS, load_gpt

    pre = importlib.import_module("bpe_core.pretokenize")
    stem, pretokenizer, _ = MODELS["gpt2"]
    ref = tiktoken.Encoding(
        stem,
        pat_str=pre.PATTERNS[pretokenizer],
        mergeable_ranks=load_tiktoken_bpe(str(HERE / f"{stem}.tiktoken")),
        special_tokens={},
    )
    expected = ref.encode_ordinary(text)  # (also warms both: the split patterns are compiled once per process)
    same = expected == load_model(folder).encode(text) == load_gpt("gpt2").encode(text)
    shipped = load_gpt("gpt2")
    keys = ("tiktoken", "cold", "warm", "shipped cold", "cold regex", "tiktoken wall", "cold wall")
    times: dict = {key: [] for key in keys}

    def timed(key: str, fn) -> None:
        w, c = time.perf_counter(), time.process_time()
        fn()
        times[key].append(time.process_time() - c)
        if f"{key} wall" in times:
            times[f"{key} wall"].append(time.perf_counter() - w)

    def cold_with_regex_split() -> None:
        fresh = load_model(folder)
        pre._STDLIB_SPLITS = False
        try:
            timed("cold regex", lambda: fresh.encode(text))
        finally:
            pre._STDLIB_SPLITS = True

    for _ in range(repeat):
        tok = load_model(folder)  # a fresh model: its piece cache is empty (loading is not timed)
        timed("tiktoken", lambda: ref.encode_ordinary(text))
        timed("cold", partial(tok.encode, text))
        timed("warm", partial(tok.encode, text))
        shipped._cache.clear()
        timed("shipped cold", lambda: shipped.encode(text))
        cold_with_regex_split()
    split = "re" if pre._STDLIB_SPLITS and pre._within_bmp(text) else "regex"
    return {**times, "same_ids": same, "tokens": len(expected), "split": split}


def time_cli(text: str, folder: Path, repeat: int) -> dict:
    """Wall and CPU seconds of ``encode --model DIR FILE --jsonl`` (and ``--model gpt2``), taking turns."""
    from train_speed import compile_bytecode

    for made in compile_bytecode():  # leave the checkout as it was, even after an error
        atexit.register(shutil.rmtree, made, ignore_errors=True)
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as fh:
        fh.write(text.encode("utf-8"))
        path = fh.name
    commands = {"dir": ["--model", str(folder), path, "--jsonl"], "gpt2": ["--model", "gpt2", path, "--jsonl"]}
    out: dict = {f"{name} {kind}": [] for name in commands for kind in ("wall", "cpu")}
    try:
        for _ in range(repeat):
            for name, args in commands.items():
                t = time.perf_counter()
                proc = subprocess.Popen(
                    [sys.executable, "-m", "bpe_core", "encode", *args], cwd=ROOT, stdout=subprocess.DEVNULL
                )
                _, status, usage = os.wait4(proc.pid, 0)  # this child's own CPU time, too
                out[f"{name} wall"].append(time.perf_counter() - t)
                out[f"{name} cpu"].append(usage.ru_utime + usage.ru_stime)
                if os.waitstatus_to_exitcode(status) != 0:
                    raise RuntimeError(f"encode {' '.join(args)} failed")
    finally:
        Path(path).unlink()
    return out


def fmt(times: list[float]) -> str:
    return f"{min(times) * 1000:7.1f} ms (median {statistics.median(times) * 1000:.1f})"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (default: 5)")
    args = parser.parse_args()
    text = english_200k()
    print(f"CPU: {cpu_model()}; Python {sys.version.split()[0]}; best of {args.repeat}, the sides taking turns")
    targets = []  # (what, target, measured, ok)
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_gpt2_folder(Path(tmp) / "gpt2")

        loads = time_loads(folder, args.repeat)
        for name, merges, limit in LOADS:
            r = loads[name]
            what = "load_model(GPT-2 folder)" if name == "folder" else f"load_gpt({name!r})"
            print(
                f"{what:<26} ({merges} merges), fresh process: {fmt(r['load'])}; CPU {fmt(r['cpu'])}   "
                f"(imports: {fmt(r['import'])})"
            )
            targets.append(
                (f"{what}, {merges} merges", f"<= {limit:.2f} s", f"{min(r['load']):.3f} s", min(r["load"]) <= limit)
            )

        res = time_encode(text, folder, args.repeat)
        ratio = min(res["cold"]) / min(res["tiktoken"])
        wall_ratio = min(res["cold wall"]) / min(res["tiktoken wall"])
        print(
            f"encode 200 KB English with the GPT-2 folder's model ({res['tokens']:,} tokens; same ids as tiktoken: "
            f"{res['same_ids']}; split by {res['split']})"
        )
        print(f"    tiktoken encode_ordinary    : {fmt(res['tiktoken'])} CPU;  wall {fmt(res['tiktoken wall'])}")
        print(f"    bpe_core, fresh model       : {fmt(res['cold'])} CPU;  wall {fmt(res['cold wall'])}")
        print(f"        ratio {ratio:.2f}x CPU ({wall_ratio:.2f}x wall)")
        for key, label in (
            ("warm", "warm cache          "),
            ("shipped cold", "load_gpt, cold cache"),
            ("cold regex", "fresh, by regex     "),
        ):
            print(f"    bpe_core, {label}: {fmt(res[key])} CPU;  ratio {min(res[key]) / min(res['tiktoken']):.2f}x")
        targets.append(
            (
                "encode 200 KB English vs tiktoken (CPU)",
                f"<= {ENCODE_RATIO:.0f}x",
                f"{ratio:.2f}x",
                ratio <= ENCODE_RATIO and res["same_ids"],
            )
        )

        cli = time_cli(text, folder, args.repeat)
        for name, label in (("dir", "--model DIR FILE --jsonl "), ("gpt2", "--model gpt2 FILE --jsonl")):
            print(
                f"python -m bpe_core encode {label} (200 KB), whole process: {fmt(cli[f'{name} wall'])}; CPU {fmt(cli[f'{name} cpu'])}"
            )
        best = min(cli["dir wall"])
        targets.append(
            (
                "encode --model DIR --jsonl, whole process",
                f"<= {CLI_SECONDS:.2f} s",
                f"{best:.3f} s",
                best <= CLI_SECONDS,
            )
        )

    print(f"targets, CPU: {cpu_model()} (wall-clock times: a busy machine reads slower)")
    for what, target, measured, ok in targets:
        print(f"  {what:<42} {target:<9} measured {measured:>8}   {verdict(ok)}")
    return 0 if all(ok for *_, ok in targets) else 1


if __name__ == "__main__":
    raise SystemExit(main())
