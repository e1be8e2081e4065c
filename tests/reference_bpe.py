"""The slow reference for the trainer tests, built on :mod:`bpe_core.algorithms.reference` (the textbook loop).

:func:`reference_for` runs that loop and derives from its steps everything a
:class:`~bpe_core.algorithms.trainer.MergeStep` reports (ties, the ranked pairs, occurrences, words changed, corpus
tokens); :func:`run_differences` lists every way a fast run differs from it. :func:`replay_merges` applies
a given list of merges (it learns nothing) and :func:`base_set` names the base alphabet as a set, for
the run-query tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bpe_core import train
from bpe_core.algorithms import reference
from bpe_core.algorithms.reference import count_pairs, merge
from bpe_core.variants import Variant

__all__ = [
    "RefRun",
    "RefStep",
    "assert_matches_reference",
    "base_set",
    "count_pairs",
    "reference_for",
    "replay_merges",
    "run_differences",
]


@dataclass
class RefStep:
    """One merge of the reference run; token fields are values (str or bytes), never ids."""

    step: int
    left: object
    right: object
    token: object
    is_new: bool
    count: int
    ties: int
    tied: list  # every tied pair, in tie-break order (chosen first)
    ranked: list  # the first keep_ranked (left, right, count), best first in tie-break order
    vocab_size: int
    corpus_tokens: int
    occurrences: int
    words_changed: int


@dataclass
class RefRun:
    base: set  # the base alphabet (values)
    initial_corpus_tokens: int
    steps: list = field(default_factory=list)
    stop_reason: str | None = None

    @property
    def merges(self) -> list:
        return [(s.left, s.right) for s in self.steps]


def base_set(words: dict, variant: Variant) -> set:
    """The base alphabet as a set: all 256 bytes for byte-level, else every symbol that occurs."""
    if variant.is_bytes:
        return {bytes((b,)) for b in range(256)}
    return {s for w in words for s in variant.symbols(w)}


def reference_for(words: dict, cfg, keep_ranked: int | None = None) -> RefRun:
    """The reference run for ``words`` under a ``bpe_core`` ``TrainConfig`` (``keep_ranked``: how many
    ranked pairs each step keeps; default ``cfg.top_k``)."""
    keep = cfg.top_k if keep_ranked is None else keep_ranked
    variant = cfg.make_variant()
    freqs = list(words.values())
    before = [variant.symbols(w) for w in words]
    size = lambda segs: sum(len(s) * f for s, f in zip(segs, freqs))  # noqa: E731
    steps, stop = reference.train(words, cfg)
    run = RefRun(base=base_set(words, variant), initial_corpus_tokens=size(before), stop_reason=stop)
    vocab_before = len(run.base)
    for n, step in enumerate(steps, 1):
        left, right = step.pair
        best = step.ranked[0][1]
        tied = [pair for pair, c in step.ranked if c == best]
        # Each occurrence merged shortens its word by one token.
        shrunk = [len(b) - len(a) for b, a in zip(before, step.words)]
        run.steps.append(
            RefStep(
                step=n,
                left=left,
                right=right,
                token=left + right,
                is_new=step.vocab_size > vocab_before,
                count=best,
                ties=len(tied),
                tied=tied,
                ranked=[(a, b, c) for (a, b), c in step.ranked[:keep]],
                vocab_size=step.vocab_size,
                corpus_tokens=size(step.words),
                occurrences=sum(shrunk),
                words_changed=sum(1 for d in shrunk if d),
            )
        )
        before, vocab_before = step.words, step.vocab_size
    return run


# ------------------------------------------------------------------------------------------------
# Comparing a bpe_core run with the reference


def run_differences(run, ref: RefRun, limit: int = 5) -> list[str]:
    """Every way the ``bpe_core`` run ``run`` differs from ``ref`` (empty when they agree).

    Compares, step by step and as values: the merged pair, the new token and ``is_new``, the count,
    the exact number of ties, the listed tied pairs and top pairs (as far as the run keeps them),
    vocabulary size, corpus token count, occurrences and words changed; then the number of steps, the
    stop reason (on the run and on the last snapshot), the base alphabet and the step-0 counts.
    Stops after ``limit`` differing steps.
    """
    val = run.token_value
    out = []
    base = [run.token_value(i) for i in range(run.num_base)]
    if set(base) != ref.base:
        out.append(f"base alphabet: got {sorted(base)!r}, expected {sorted(ref.base)!r}")
    if run.vocab_size_at(0) != len(ref.base):
        out.append(f"vocab size at step 0: got {run.vocab_size_at(0)}, expected {len(ref.base)}")
    if run.corpus_tokens(0) != ref.initial_corpus_tokens:
        out.append(f"corpus tokens at step 0: got {run.corpus_tokens(0)}, expected {ref.initial_corpus_tokens}")
    cfg = run.config
    bad_steps = 0
    for snap, exp in zip(run.snapshots, ref.steps):
        got = {
            "pair": (val(snap.left), val(snap.right)),
            "token": val(snap.token),
            "is_new": snap.is_new,
            "count": snap.count,
            "ties": snap.ties,
            "tied": [(val(a), val(b)) for a, b in snap.tied],
            "top_pairs": [(val(a), val(b), c) for a, b, c in snap.top_pairs],
            "vocab_size": snap.vocab_size,
            "corpus_tokens": snap.corpus_tokens,
            "occurrences": snap.occurrences,
            "words_changed": snap.words_changed,
        }
        want = {
            "pair": (exp.left, exp.right),
            "token": exp.token,
            "is_new": exp.is_new,
            "count": exp.count,
            "ties": exp.ties,
            "tied": exp.tied[: cfg.max_tied],
            "top_pairs": exp.ranked[: cfg.top_k],
            "vocab_size": exp.vocab_size,
            "corpus_tokens": exp.corpus_tokens,
            "occurrences": exp.occurrences,
            "words_changed": exp.words_changed,
        }
        diffs = [f"{k}: got {got[k]!r}, expected {want[k]!r}" for k in got if got[k] != want[k]]
        if diffs:
            out.append(f"step {snap.step}: " + "; ".join(diffs))
            bad_steps += 1
            if bad_steps >= limit:
                break
    if run.num_steps != len(ref.steps):
        out.append(f"number of merges: got {run.num_steps}, expected {len(ref.steps)}")
    if run.stop_reason != ref.stop_reason:
        out.append(f"stop reason: got {run.stop_reason!r}, expected {ref.stop_reason!r}")
    for snap in run.snapshots[:-1]:
        if snap.stop_reason is not None:
            out.append(f"step {snap.step} is not the last but has stop_reason {snap.stop_reason!r}")
            break
    if run.snapshots and run.snapshots[-1].stop_reason != ref.stop_reason:
        out.append(f"last snapshot stop_reason: got {run.snapshots[-1].stop_reason!r}, expected {ref.stop_reason!r}")
    return out


def assert_matches_reference(words: dict, cfg, run=None):
    """Train ``words`` under ``cfg`` (unless ``run`` is given), fail with every difference from the
    reference, and return the run."""
    run = run if run is not None else train(words, cfg)
    diffs = run_differences(run, reference_for(words, cfg))
    assert not diffs, f"{len(words)} word types; {cfg}\n" + "\n".join(diffs)
    return run


def replay_merges(
    words: dict, merges: list, variant: str = "byte", eow_style: str = "separate", eow_marker: str = "</w>"
) -> list:
    """The segmentation of every word type after each of the given merges (values), applied in order
    with :func:`bpe_core.algorithms.reference.merge`: ``[step][word type] -> tuple of values`` for steps 0..len(merges)."""
    v = Variant(variant, eow_style, eow_marker)
    segs = [v.symbols(w) for w in words]
    out = [[tuple(s) for s in segs]]
    for left, right in merges:
        segs = [merge(s, left, right) for s in segs]
        out.append([tuple(s) for s in segs])
    return out
