"""Tokenizers made from a run, kept per run for the last steps asked (their encode caches stay warm),
with their chip sources."""

from __future__ import annotations

from bpe_core import TrainedRun
from bpe_core.encoding.encoder import Tokenizer

from . import run_cache
from .chips import TokenizerTokens


def tokenizer_at(run: TrainedRun, step: int | None = None) -> Tokenizer:
    """``Tokenizer.from_run(run, step)`` (step clamped; default: the run's end)."""
    n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
    return run_cache.cached(run, "tokenizers", n, lambda: Tokenizer.from_run(run, n))


def tokens_at(run: TrainedRun, step: int | None = None) -> TokenizerTokens:
    """The chip source of :func:`tokenizer_at` (merge steps from the run; ``<unk>`` known)."""
    tok = tokenizer_at(run, step)
    return run_cache.cached(run, "sources", tok.num_merges,
                       lambda: TokenizerTokens(tok, run.created_step, run.created_from))  # fmt: skip
