"""A slow, obviously-correct BPE trainer used as the reference in the trainer tests.

It follows the rules in the module docstring of :mod:`bpe_core.trainer` word for word and makes no
attempt at speed: every step recounts every pair of every word type from scratch.

* Word types are lists of base symbols from ``bpe_core.variants.Variant(...).symbols(word)``
  (``str`` for char/eow, one-byte ``bytes`` for byte-level), in first-appearance order.
* Counting: every adjacent pair inside a word type, weighted by its frequency (overlapping windows
  all count). Pairs never cross word types.
* Choosing: the highest count; ties broken by

  - ``first-seen``: the pair whose first occurrence comes first, scanning word types in order and
    then positions left to right (the insertion order of the recount dict);
  - ``hf``: the smallest ``(id(left), id(right))``, ids going to the plain characters sorted by code
    point (byte-level: by each byte's GPT-2 alias character), then to the end-of-word symbols (the
    separate marker, or the attached ``x</w>`` symbols sorted by code point), then to new tokens in
    creation order;
  - ``lexical``: the largest ``(left, right)`` pair of values (str or bytes comparison).

* Applying: each word type is rewritten left to right without overlap.
* A token is its value: a merge that makes an existing value adds no vocabulary entry.
* Stopping, checked before each merge in this order: ``num_merges``, ``vocab_size``, ``no_pairs``,
  ``min_frequency``.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from bpe_core.byte_display import bytes_to_unicode
from bpe_core.variants import Variant


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
    base: list  # the base alphabet (values)
    initial_corpus_tokens: int
    steps: list = field(default_factory=list)
    stop_reason: str | None = None
    segmentations: list = field(default_factory=list)  # [step] -> [word type] -> tuple of values

    @property
    def merges(self) -> list:
        return [(s.left, s.right) for s in self.steps]


def base_symbols(words: dict, variant: Variant) -> list:
    """The word types as lists of base symbols, in first-appearance order."""
    return [variant.symbols(w) for w in words]


def base_alphabet(symbol_lists: list, variant: Variant) -> list:
    """All 256 bytes for byte-level, else every symbol that occurs: plain characters sorted by code
    point, then the end-of-word symbols (the separate marker; or the attached ones, sorted)."""
    if variant.is_bytes:
        return [bytes((b,)) for b in range(256)]
    seen = {s for syms in symbol_lists for s in syms}
    if variant.kind != "eow":
        return sorted(seen)
    if variant.eow_style == "separate":
        marker = variant.eow_marker
        return sorted(seen - {marker}) + ([marker] if marker in seen else [])
    attached = {s for syms in symbol_lists if syms for s in syms[-1:]}
    plain = {s for syms in symbol_lists for s in syms[:-1]}
    return sorted(plain - attached) + sorted(attached)


def count_pairs(symbol_lists: list, freqs: list) -> dict:
    """``{(left, right): count}``; the dict's order is first-seen order."""
    counts: dict = {}
    for syms, f in zip(symbol_lists, freqs):
        for pair in zip(syms, syms[1:]):
            counts[pair] = counts.get(pair, 0) + f
    return counts


def apply_merge(syms: list, left, right) -> tuple[list, int]:
    """Replace ``left right`` by ``left + right``, left to right, without overlap."""
    out = []
    merged = 0
    i = 0
    while i < len(syms):
        if i + 1 < len(syms) and syms[i] == left and syms[i + 1] == right:
            out.append(left + right)
            merged += 1
            i += 2
        else:
            out.append(syms[i])
            i += 1
    return out, merged


def train_reference(
    words: dict,
    variant: str = "byte",
    tie_break: str = "first-seen",
    num_merges: int | None = None,
    vocab_size: int | None = None,
    min_frequency: int = 2,
    eow_style: str = "separate",
    eow_marker: str = "</w>",
    keep_segmentations: bool = False,
    keep_ranked: int = 50,
) -> RefRun:
    """Train on ``{word: freq}`` (already pre-tokenized) and return every step."""
    v = Variant(variant, eow_style, eow_marker)
    freqs = [int(f) for f in words.values()]
    segs = base_symbols(words, v)
    base = base_alphabet(segs, v)
    vocab = set(base)
    if v.is_bytes:
        alias = bytes_to_unicode()
        hf_order = sorted(base, key=lambda b: alias[b[0]])
    else:
        hf_order = list(base)  # already in that order
    hf_id = {value: i for i, value in enumerate(hf_order)}

    run = RefRun(base=base, initial_corpus_tokens=sum(len(s) * f for s, f in zip(segs, freqs)))
    if keep_segmentations:
        run.segmentations.append([tuple(s) for s in segs])
    while True:
        if num_merges is not None and len(run.steps) >= num_merges:
            run.stop_reason = "num_merges"
            break
        if vocab_size is not None and len(vocab) >= vocab_size:
            run.stop_reason = "vocab_size"
            break
        counts = count_pairs(segs, freqs)
        if not counts:
            run.stop_reason = "no_pairs"
            break
        best = max(counts.values())
        if best < min_frequency:
            run.stop_reason = "min_frequency"
            break

        if tie_break == "first-seen":
            position = {p: i for i, p in enumerate(counts)}  # dict order is first-seen order
            ranked = heapq.nsmallest(keep_ranked, counts, key=lambda p: (-counts[p], position[p]))
            tied = sorted((p for p in counts if counts[p] == best), key=position.get)
        elif tie_break == "hf":
            ranked = heapq.nsmallest(keep_ranked, counts, key=lambda p: (-counts[p], hf_id[p[0]], hf_id[p[1]]))
            tied = sorted((p for p in counts if counts[p] == best), key=lambda p: (hf_id[p[0]], hf_id[p[1]]))
        elif tie_break == "lexical":  # subword-nmt: max(stats, key=lambda x: (stats[x], x))
            ranked = heapq.nlargest(keep_ranked, counts, key=lambda p: (counts[p], p))
            tied = sorted((p for p in counts if counts[p] == best), reverse=True)
        else:
            raise ValueError(f"unknown tie-break {tie_break!r}")
        left, right = ranked[0]
        token = left + right
        is_new = token not in vocab
        if is_new:
            vocab.add(token)
            hf_id[token] = len(hf_id)

        occurrences = words_changed = 0
        new_segs = []
        for syms in segs:
            out, merged = apply_merge(syms, left, right)
            occurrences += merged
            words_changed += merged > 0
            new_segs.append(out)
        segs = new_segs
        if keep_segmentations:
            run.segmentations.append([tuple(s) for s in segs])
        run.steps.append(
            RefStep(
                step=len(run.steps) + 1,
                left=left,
                right=right,
                token=token,
                is_new=is_new,
                count=best,
                ties=len(tied),
                tied=tied,
                ranked=[(a, b, counts[(a, b)]) for a, b in ranked],
                vocab_size=len(vocab),
                corpus_tokens=sum(len(s) * f for s, f in zip(segs, freqs)),
                occurrences=occurrences,
                words_changed=words_changed,
            )
        )
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
    if set(base) != set(ref.base):
        out.append(f"base alphabet: got {sorted(base)!r}, expected {ref.base!r}")
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


def reference_for(words: dict, cfg, **kwargs) -> RefRun:
    """The reference run for ``words`` under a ``bpe_core`` ``TrainConfig``."""
    return train_reference(
        words,
        variant=cfg.variant,
        tie_break=cfg.tie_break,
        num_merges=cfg.num_merges,
        vocab_size=cfg.vocab_size,
        min_frequency=cfg.min_frequency,
        eow_style=cfg.eow_style,
        eow_marker=cfg.eow_marker,
        keep_ranked=max(cfg.top_k, 1),
        **kwargs,
    )


def replay_merges(
    words: dict, merges: list, variant: str = "byte", eow_style: str = "separate", eow_marker: str = "</w>"
) -> list:
    """The segmentation of every word type after each of the given merges (values), applied in order
    with :func:`apply_merge`: ``[step][word type] -> tuple of values`` for steps 0..len(merges)."""
    segs = base_symbols(words, Variant(variant, eow_style, eow_marker))
    out = [[tuple(s) for s in segs]]
    for left, right in merges:
        segs = [apply_merge(s, left, right)[0] for s in segs]
        out.append([tuple(s) for s in segs])
    return out
