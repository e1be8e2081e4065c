"""Checks shared by the core tests: the invariants of a finished run, one-line error messages, bounded runs.

Also the settings the tests loop over, written once.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bpe_core import STOP_REASONS, TrainConfig

REPO_ROOT = Path(__file__).resolve().parent.parent
KINDS = ("char", "eow", "byte")
VARIANTS = [("char", "separate"), ("eow", "separate"), ("eow", "attached"), ("byte", "separate")]
TIE_BREAKS = ["first-seen", "hf", "lexical"]
PRETOKENIZERS = ("whitespace", "gpt2", "gpt4", "none")


def expected_value(word: str, cfg: TrainConfig):
    """What the tokens of ``word`` must concatenate to."""
    if cfg.variant == "byte":
        return word.encode("utf-8")
    if cfg.variant == "eow" and word:
        return word + cfg.eow_marker
    return word


def joined(run, ids):
    values = [run.token_value(t) for t in ids]
    return b"".join(values) if run.variant.is_bytes else "".join(values)


def check_run(run, words: dict, cfg: TrainConfig, steps=None) -> None:
    """The invariants every finished run must satisfy (cheap enough for the fuzz)."""
    n = run.num_steps
    assert run.stop_reason in STOP_REASONS
    assert run.num_words == len(words)
    if n:
        assert run.snapshots[-1].stop_reason == run.stop_reason
        assert all(s.stop_reason is None for s in run.snapshots[:-1])
    if cfg.num_merges is not None:
        assert n <= cfg.num_merges
    # The series: one entry per step 0..n, consistent with the snapshots.
    series = run.series()
    assert series["step"] == list(range(n + 1))
    assert all(len(v) == n + 1 for v in series.values())
    for k, snap in enumerate(run.snapshots, start=1):
        assert snap.step == k
        assert series["count"][k] == snap.count >= cfg.min_frequency
        assert series["vocab_size"][k] == snap.vocab_size
        assert series["corpus_tokens"][k] == snap.corpus_tokens
        assert snap.ties >= 1 and snap.tied[0] == (snap.left, snap.right)
    assert all(a >= b for a, b in zip(series["count"][1:], series["count"][2:])), "best count rose"
    assert all(a <= b for a, b in zip(series["vocab_size"], series["vocab_size"][1:]))
    assert all(a > b for a, b in zip(series["corpus_tokens"], series["corpus_tokens"][1:]))
    # Segmentations concatenate to the word, and the corpus token count matches them.
    for k in sorted({0, min(1, n), n // 2, n} if steps is None else steps):
        total = 0
        for i, (word, freq) in enumerate(words.items()):
            ids = run.segmentation(i, k)
            assert joined(run, ids) == expected_value(word, cfg), (word, k)
            total += len(ids) * freq
        assert total == run.corpus_tokens(k) == series["corpus_tokens"][k]
        assert run.vocab_size_at(k) == len(run.vocabulary(k))


def assert_one_line_message(err: BaseException, *needles: str) -> None:
    text = str(err)
    assert text and "\n" not in text and "Traceback" not in text, repr(text)
    for needle in needles:
        assert needle.lower() in text.lower(), (needle, text)


def run_bounded(code: str, timeout: float) -> str:
    """Run ``code`` in a fresh interpreter (repo root on the path); fail if it takes too long."""
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not finish within {timeout:.0f} s", pytrace=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    print(f"finished in {time.monotonic() - start:.1f} s")
    return proc.stdout


def cfg_for(variant: str, **kw) -> TrainConfig:
    return TrainConfig(variant=variant, **kw)
