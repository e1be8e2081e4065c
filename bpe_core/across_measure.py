"""The measure that motivates merges across words: bytes per token on held-out text against vocabulary size, for
plain BPE, SuperBPE and BoundlessBPE trained on the same text (issue 44; the Side by side page draws it).

How a curve is made, one training per method (not one per point):

1. The text is split once: the last lines (at least :data:`HELD_OUT_SHARE` of its UTF-8 bytes) are held out, the
   rest trains. Every method sees the same two parts.
2. Plain BPE and BoundlessBPE train once, to the largest vocabulary asked for. The point at vocabulary size ``V``
   is the tokenizer after the run's first ``V - 256`` merges: BPE's merges are a list, and its first ``k`` merges
   are exactly what a run stopped at ``k`` would have learnt (the trainer is deterministic). SuperBPE trains once
   per size, with its transition point at :data:`TRANSITION_SHARE` of that size's merges (the paper's main model:
   180,000 of 200,000), since a prefix of one SuperBPE run would be plain BPE up to the one transition.
3. The measure is UTF-8 bytes of the held-out text divided by the tokens it encodes to (higher: fewer tokens for
   the same text). A run stopped early (no pair left at the minimum frequency) gives its last size only.

Chinese needs one change to have a boundary at all: GPT-2's pattern keeps a run of Chinese characters in one
pre-token, so plain BPE already merges across words there. Stage 1 then runs on words cut by jieba (``pre="jieba"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .algorithms.seam import train
from .algorithms.trainer import corpus_words
from .config import TrainConfig

#: The smallest share of the text's bytes held out for measuring (the last lines).
HELD_OUT_SHARE = 0.1

#: SuperBPE's transition point as a share of each vocabulary's merges (Liu et al. 2025's main model: t = 180k of a
#: 200k vocabulary).
TRANSITION_SHARE = 0.9

#: BoundlessBPE's removal threshold tau (the library's default, :func:`~bpe_core.algorithms.boundless_encode.boundless_token_counts`).
BOUNDLESS_TAU = 0.9

#: The methods, in legend order.
METHODS = ("bpe", "superbpe", "boundless")


@dataclass(frozen=True)
class CurvePoint:
    """One point of a curve.

    Attributes:
        method: one of :data:`METHODS`.
        vocab_size: tokens in the vocabulary (256 bytes + merges - removals).
        tokens: tokens of the held-out text.
        bytes_per_token: the held-out text's UTF-8 bytes / ``tokens``.
    """

    method: str
    vocab_size: int
    tokens: int
    bytes_per_token: float


def split_held_out(text: str, share: float = HELD_OUT_SHARE) -> tuple[str, str]:
    """``(training text, held-out text)``: the held-out part is the last whole lines holding at least ``share`` of
    the UTF-8 bytes (a one-line text is cut at the character where that share starts).

    Raises:
        ValueError: ``share`` not strictly between 0 and 1, or a text too short to leave both parts non-empty.
    """
    if not 0 < share < 1:
        raise ValueError(f"the held-out share must be between 0 and 1, not {share}")
    lines = text.splitlines(keepends=True)
    need = share * len(text.encode("utf-8"))
    held = 0
    cut = len(lines)
    while cut > 1 and held < need:
        cut -= 1
        held += len(lines[cut].encode("utf-8"))
    train_part, held_part = "".join(lines[:cut]), "".join(lines[cut:])
    if held < need:  # one line: cut inside it
        at = int(len(text) * (1 - share))
        train_part, held_part = text[:at], text[at:]
    if not train_part.strip() or not held_part.strip():
        raise ValueError("the text is too short to hold part of it out")
    return train_part, held_part


def _points(method: str, sizes: Sequence[int], tokenizer_at: Callable[[int], object], heldout: str) -> list:
    """Encode ``heldout`` with the tokenizer at each vocabulary size (``tokenizer_at(size)`` -> an object with
    ``encode(text) -> ids``, or ``None`` past the run's end) and return the :class:`CurvePoint` list."""
    data = len(heldout.encode("utf-8"))
    points = []
    for size in sorted(set(sizes)):
        tok = tokenizer_at(size)
        if tok is None:
            continue
        n = len(tok.encode(heldout))
        points.append(CurvePoint(method, tok.vocab_size, n, data / max(n, 1)))
    return points


def bpe_curve(text: str, heldout: str, sizes: Sequence[int], config: TrainConfig) -> list[CurvePoint]:
    """Plain byte-level BPE under ``config``'s pre-tokenizer: one run to ``max(sizes) - 256`` merges, each size
    read off its first merges (module docstring, rule 2).

    Args:
        text: the training text (characters).
        heldout: the text measured.
        sizes: vocabulary sizes, each > 256.
        config: byte-level settings (``variant="byte"``); its merge and vocabulary limits are replaced.
    """
    config = replace(config, variant="byte", num_merges=max(sizes) - 256, vocab_size=None)
    run = train(corpus_words(text, config), config)

    def tokenizer_at(size: int):
        step = size - 256
        if step > run.num_steps and size != max(sizes):
            return None
        return run.tokenizer(min(step, run.num_steps))

    return _points("bpe", sizes, tokenizer_at, heldout)


def boundless_curve(text: str, heldout: str, sizes: Sequence[int], config: TrainConfig) -> list[CurvePoint]:
    """BoundlessBPE (removal threshold :data:`BOUNDLESS_TAU`) under ``config``'s pre-tokenizer: one training, each
    size read off its first ``size - 256`` merges, supermerges included. A removed token still counts, as the
    reference counts its vocabulary, so at the same size BoundlessBPE holds no more live tokens than plain BPE.
    Arguments as for :func:`bpe_curve`."""
    from .algorithms.boundless_encode import boundless_token_counts

    pre = config.resolved_pretokenizer
    counts = boundless_token_counts(text, heldout, [s - 256 for s in sizes], BOUNDLESS_TAU, pre, config.pattern)
    data = len(heldout.encode("utf-8"))
    return [CurvePoint("boundless", 256 + k, n, data / max(n, 1)) for k, n in sorted(counts.items())]


def superbpe_curve(text: str, heldout: str, sizes: Sequence[int], config: TrainConfig) -> list[CurvePoint]:
    """SuperBPE, one training per size with the transition point at :data:`TRANSITION_SHARE` of its merges (stage 1
    under ``config``'s pre-tokenizer; module docstring, rule 2). Arguments as for :func:`bpe_curve`."""
    from .algorithms.superbpe import tokenizer, train_superbpe

    def tokenizer_at(size: int):
        merges = size - 256
        cfg = replace(config, variant="byte", num_merges=merges, vocab_size=None)
        run = train_superbpe(text, replace(cfg, transition=int(merges * TRANSITION_SHARE)))
        if run.num_steps < merges and size != max(sizes):
            return None
        return tokenizer(run)

    return _points("superbpe", sizes, tokenizer_at, heldout)


#: How each method draws its curve: ``(text, heldout, sizes, config) -> [CurvePoint]``.
CURVES: dict[str, Callable[..., list[CurvePoint]]] = {
    "bpe": bpe_curve,
    "superbpe": superbpe_curve,
    "boundless": boundless_curve,
}


def compression_curves(
    text: str,
    sizes: Sequence[int],
    config: TrainConfig,
    methods: Sequence[str] | None = None,
    share: float = HELD_OUT_SHARE,
) -> list[CurvePoint]:
    """Every method's curve on ``text`` (held-out split: :func:`split_held_out`), in :data:`METHODS` order.

    Args:
        text: the whole text (characters); its last lines are held out.
        sizes: vocabulary sizes to measure at, each > 256 (the 256 bytes).
        config: the byte-level settings every method starts from (pre-tokenizer, minimum frequency, tie-break).
        methods: which of :data:`METHODS` to run (default: every one).
        share: the held-out share of the bytes.

    Raises:
        ValueError: a size of 256 or less, an unknown method, a text too short to split, bad settings.
    """
    if not sizes or min(sizes) <= 256:
        raise ValueError("every vocabulary size must be above 256 (the 256 bytes)")
    methods = tuple(CURVES) if methods is None else tuple(methods)
    unknown = [m for m in methods if m not in CURVES]
    if unknown:
        raise ValueError(f"unknown method {unknown[0]!r}; choose from {', '.join(CURVES)}")
    train_part, heldout = split_held_out(text, share)
    return [p for m in METHODS if m in methods for p in CURVES[m](train_part, heldout, sizes, config)]
