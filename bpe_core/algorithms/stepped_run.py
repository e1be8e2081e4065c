"""What a run answers when its algorithm keeps records of its own kinds of step (WordPiece, Unigram, PickyBPE,
BoundlessBPE): the word types and their frequencies, the steps' records, why training stopped.

:class:`SegmentedRun` adds what a run answers when it keeps every word's segmentation after each step that changed
it, because its steps can bring token boundaries back or are not replays of merges (WordPiece's and PickyBPE's
runs). BPE's :class:`~bpe_core.algorithms.run.TrainedRun`, whose boundaries only go, keeps less and is not one.
"""

from __future__ import annotations

from bisect import bisect_right


class SteppedRun:
    """A run read by the app one step at a time.

    Attributes:
        config: the :class:`~bpe_core.config.TrainConfig` it was trained with.
        words, freqs: the word types (first-appearance order) and their frequencies.
        snapshots: one record per step, in order; stop_reason: why training stopped (``None`` while it runs).
        extras: what an algorithm adds (BoundlessBPE: ``"supermerges"``); algorithm: set by the seam.
    """

    def __init__(self, config, words: dict[str, int]):
        self.config = config
        self.words = list(words)
        self.freqs = list(words.values())
        self.snapshots: list = []
        self.stop_reason: str | None = None
        self.extras: dict = {}
        self.algorithm = None

    @property
    def num_steps(self) -> int:
        """Steps done (records kept)."""
        return len(self.snapshots)

    def snapshot(self, step: int):
        """The record of ``step`` (1-based). Raises ``IndexError``."""
        if not 1 <= step <= len(self.snapshots):
            raise IndexError(f"step {step} is outside 1..{len(self.snapshots)}")
        return self.snapshots[step - 1]


class SegmentedRun(SteppedRun):
    """A :class:`SteppedRun` that keeps, for every word type, ``_history``: ``[(step, token ids), ...]`` from step
    0 on, one entry per step that changed the word; and ``_tokens0``, the corpus's tokens at step 0. Each record
    carries ``corpus_tokens``, the corpus's tokens after its step."""

    _history: list
    _tokens0: int

    def segmentation(self, index: int, step: int) -> list[int]:
        """Token ids of word type ``index`` after ``step`` steps (0: its starting symbols)."""
        hist = self._history[index]
        return list(hist[bisect_right(hist, (max(0, step), (1 << 62,))) - 1][1])

    def corpus_tokens(self, step: int) -> int:
        """Tokens in the whole corpus after ``step`` steps (each word's tokens times its frequency)."""
        step = max(0, min(step, self.num_steps))
        return self.snapshots[step - 1].corpus_tokens if step else self._tokens0
