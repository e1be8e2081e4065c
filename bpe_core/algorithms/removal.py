"""A removal: a step that takes a token out of the vocabulary (step kind ``"removal"``, :data:`REMOVAL`), for any
algorithm that removes tokens while it trains (PickyBPE, :mod:`bpe_core.algorithms.picky_run`; BoundlessBPE,
:mod:`bpe_core.algorithms.boundless_run`).

An algorithm that removes records a :class:`RemovalStep` for each removal, as a step of its own. Its run must
answer what every run of a stepped algorithm answers (``num_steps``, ``snapshot(k)``, ``words``, ``freqs``,
``segmentation(i, k)`` of word type ``i`` after step ``k``, ``token_text(id)``, ``stop_reason``): the step view
(:func:`bpe_core.teaching.removal_view.removal_view`) then shows the token removed, the score that removed it
against its threshold, and the words where the token splits back into smaller ones, from the segmentations before
and after the step. A removal makes token boundaries reappear, so such a run keeps each word's segmentations by
step (it cannot assume, as BPE's :class:`~bpe_core.algorithms.run.TrainedRun` does, that boundaries only go).
Why the token went, in words, is the algorithm's :meth:`~bpe_core.algorithms.seam.Algorithm.why`.
"""

from __future__ import annotations

from typing import NamedTuple

#: The kind of a removal step (:data:`bpe_core.algorithms.seam.STEP_KINDS`).
REMOVAL = "removal"


class RemovalStep(NamedTuple):
    """One token taken out of the vocabulary.

    Attributes:
        step: the step's number (1-based, among all the run's steps).
        token: the token removed (id; it keeps its id, and the algorithm says whether it can come back).
        score, threshold: the score that removed it and the threshold it reached (PickyBPE: its IoS and T).
        score_label: what the score is, an English message id of the catalogs (``N_("IoS")``), translated by
            renderers.
        cause: the step that led to the removal (PickyBPE: the merge just before), or ``None``.
        occurrences: the token's occurrences in the corpus when removed (frequency-weighted), each split back.
        words_changed: word types that held it.
        vocab_size, corpus_tokens: the live vocabulary and the corpus's tokens after the step.
    """

    step: int
    token: int
    score: float
    threshold: float
    score_label: str
    cause: int | None
    occurrences: int
    words_changed: int
    vocab_size: int
    corpus_tokens: int

    @property
    def kind(self) -> str:
        """``"removal"``."""
        return REMOVAL


def split_back(tokens: list[bytes], token: bytes) -> list[bytes]:
    """``tokens`` (byte strings) with each ``token`` split back into its single bytes, as a removal leaves a word
    once the token is out of the vocabulary (PickyBPE's and BoundlessBPE's rule); the other tokens as they are."""
    return [piece for t in tokens for piece in ([bytes((b,)) for b in t] if t == token else [t])]
