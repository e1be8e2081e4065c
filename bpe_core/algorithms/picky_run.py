"""PickyBPE behind the seam (:mod:`bpe_core.algorithms.seam`), registered as ``"picky"``: the app's stepper and the
quiz step through its merges (kind ``"picky_merge"``) and removals (kind ``"removal"``,
:mod:`bpe_core.algorithms.removal`), trained by :class:`~bpe_core.algorithms.picky.PickyTrainer` (its rules are
there; the app uses the ``lexical`` tie rule whatever ``tie_break`` says, and ``picky_threshold`` as T).

A removal splits a token back into bytes, so token boundaries reappear as training goes on: :class:`PickyRun` keeps,
for every word type, its segmentation after each step that changed it (BPE's
:class:`~bpe_core.algorithms.run.TrainedRun`, whose boundaries only go, keeps less and is untouched). A step is one
event: ``num_merges`` counts merges only, so a run of N merges has N steps plus one per removal.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from typing import NamedTuple

from ..byte_display import render_bytes
from ..i18n import N_
from .removal import RemovalStep
from .seam import StepWhy, register
from .stepped_run import SegmentedRun

#: The kind of a PickyBPE merge (:data:`bpe_core.algorithms.seam.STEP_KINDS`): BPE's choice, with its parts' IoS.
PICKY_MERGE = "picky_merge"
#: What a removal's score is (a message id: :attr:`RemovalStep.score_label`).
IOS = N_("IoS")


class PickyMergeStep(NamedTuple):
    """One PickyBPE merge.

    Attributes:
        step: 1-based among all steps; merge: 1-based among the merges.
        left, right, token: the pair and the new token (ids).
        count: the pair's count; left_count, right_count: its parts' counts just before the merge.
        left_ios, right_ios: ``count / left_count``, ``count / right_count`` (intersection over self).
        removes: the parts this merge makes the trainer remove (ids, in the order of the removal steps after it).
        vocab_size, corpus_tokens: after the merge; words_changed: word types rewritten.
    """

    step: int
    merge: int
    left: int
    right: int
    token: int
    count: int
    left_count: int
    right_count: int
    left_ios: float
    right_ios: float
    removes: tuple[int, ...]
    vocab_size: int
    corpus_tokens: int
    words_changed: int

    @property
    def kind(self) -> str:
        """``"picky_merge"``."""
        return PICKY_MERGE


class PickyRun(SegmentedRun):
    """A PickyBPE run, read-only for the app: the steps' records (a :class:`PickyMergeStep` or a
    :class:`~bpe_core.algorithms.removal.RemovalStep` each), the tokens (ids: the 256 bytes, then each merge's token
    in merge order; a removed token keeps its id), any word's segmentation at any step."""

    def __init__(self, config, words: dict[str, int]):
        super().__init__(config, words)
        self.threshold = config.picky_threshold
        self.values: list[bytes] = [bytes((b,)) for b in range(256)]
        self.value_to_id = {v: i for i, v in enumerate(self.values)}
        self.num_base = 256
        self.created_step = [0] * 256
        self._start_from_bytes()

    def _start_from_bytes(self) -> None:
        """Step 0 of :attr:`words`: each word its UTF-8 bytes (``_history``, ``_tokens0``: see
        :class:`~bpe_core.algorithms.stepped_run.SegmentedRun`)."""
        encoded = [w.encode("utf-8") for w in self.words]
        self._history = [[(0, tuple(b))] for b in encoded]
        self._tokens0 = sum(f * len(b) for b, f in zip(encoded, self.freqs))

    @property
    def vocab_size(self) -> int:
        """Tokens in the live vocabulary now (removed ones left out)."""
        return self.snapshots[-1].vocab_size if self.snapshots else self.num_base

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """The token's bytes as display text (``mode``: utf8, hex, escaped or gpt2)."""
        return render_bytes(self.values[tid], mode)

    def add_token(self, value: bytes, step: int) -> int:
        """Give ``value``, the token the merge of ``step`` made, the next id, and return that id."""
        token = len(self.values)
        self.values.append(value)
        self.value_to_id[value] = token
        self.created_step.append(step)
        return token


def merge_record(event, step: int, token: int, ids: dict, corpus_tokens: int, words_changed: int) -> PickyMergeStep:
    """The record of a trainer's merge ``event`` (a :class:`~bpe_core.algorithms.picky.PickyEvent` or
    BoundlessBPE's) as step ``step``: ``token`` the new token's id, ``ids`` the run's ids by bytes; its parts'
    counts worked out from the pair's count and their IoS."""
    count, (left_ios, right_ios) = event.count, event.ios
    return PickyMergeStep(
        step, event.merges, ids[event.left], ids[event.right], token, count, round(count / left_ios),
        round(count / right_ios), left_ios, right_ios, (), event.vocab_size, corpus_tokens, words_changed,
    )  # fmt: skip


def removal_record(run, event, step: int, last_merge: int, corpus_tokens: int, words_changed: int) -> RemovalStep:
    """The record of a trainer's removal ``event`` as step ``step``, caused by the merge of step ``last_merge``,
    whose record in ``run`` gets the removed token in its ``removes``."""
    token = run.value_to_id[event.left]
    merge = run.snapshots[last_merge - 1]
    run.snapshots[last_merge - 1] = merge._replace(removes=(*merge.removes, token))
    return RemovalStep(
        step, token, event.ios[0], run.threshold, IOS, last_merge, event.count, words_changed, event.vocab_size,
        corpus_tokens,
    )  # fmt: skip


class PickyTraining:
    """A PickyBPE training: ``run`` fills as :meth:`steps` yields each step's record.

    Args:
        words: ``{word: frequency}``, first-appearance order (encoded as UTF-8 bytes).
        config: a :class:`~bpe_core.config.TrainConfig` (``picky_threshold``, ``num_merges``, ``vocab_size``,
            ``min_frequency`` are read).

    Raises:
        ValueError: a threshold outside (0, 1], no word.
    """

    def __init__(self, words: dict[str, int], config):
        from .picky import PickyTrainer  # (imported when trained: see seam's module doc)

        words = {w: f for w, f in words.items() if w and f > 0}
        if not words:
            raise ValueError("the corpus has no words: there is nothing to train on")
        self.run = PickyRun(config, words)
        self._trainer = PickyTrainer(
            words,
            config.picky_threshold,
            num_merges=config.num_merges,
            vocab_size=config.vocab_size,
            min_frequency=config.min_frequency,
        )

    def steps(self) -> Iterator:
        """Train, yielding each step's record (appended to ``run`` first)."""
        run, trainer = self.run, self._trainer
        ids, history, snaps = run.value_to_id, run._history, run.snapshots
        tokens, last_merge = run._tokens0, None
        for event in trainer.steps():
            step = len(snaps) + 1
            if event.kind == "merge":
                tokens -= event.count
                last_merge = step
                snap = merge_record(event, step, run.add_token(event.token, step), ids, tokens, len(trainer.touched))
            else:
                tokens += event.count * (len(event.left) - 1)
                snap = removal_record(run, event, step, last_merge, tokens, len(trainer.touched))
            for i in trainer.touched:
                history[i].append((step, tuple(map(ids.__getitem__, trainer.words[i]))))
            snaps.append(snap)
            yield snap
        run.stop_reason = trainer.stop_reason


class Picky:
    """PickyBPE behind the seam: registered as ``"picky"``."""

    #: Its runs are not BPE merge runs: the app's stepper draws them, its other pages train BPE (ui.training).
    merge_runs = False

    def start(self, words: dict[str, int], config) -> PickyTraining:
        """A PickyBPE training (:class:`PickyTraining`). Raises ``ValueError``."""
        from ..teaching import field_views, removal_view  # noqa: F401  (register the step views of its kinds)

        return PickyTraining(words, config)

    def why(self, run, step, tr=None, language_name=None) -> StepWhy | None:
        """A merge: the usual count rule, with the rule that skips tokens once made, and its parts' IoS; a removal:
        the IoS that reached the threshold."""
        t = tr or _ENGLISH
        snap = run.snapshot(step)
        if snap.kind == PICKY_MERGE:
            text = t.gettext(
                "PickyBPE merges the most frequent pair (ties: the largest pair), skipping a pair whose token the "
                "vocabulary holds or once held. This merge takes {left:.1%} of its first part's occurrences and "
                "{right:.1%} of its second's (their IoS); a part of two bytes or more whose IoS reaches the "
                "threshold {threshold:g} is removed next."
            )
            return StepWhy("rule", text.format(left=snap.left_ios, right=snap.right_ios, threshold=run.threshold))
        if snap.occurrences:
            text = t.gettext(
                "Merge {merge} (step {step}) took {score:.1%} of this token's occurrences: its IoS {score:.3f} "
                "reaches the threshold {threshold:g}, so PickyBPE removes it. Its {n} other occurrences split back "
                "into single bytes, and it is never made again."
            )
        else:
            text = t.gettext(
                "Merge {merge} (step {step}) took every occurrence of this token: its IoS {score:.3f} reaches the "
                "threshold {threshold:g}, so PickyBPE removes it, and it is never made again."
            )
        return removal_why(run, snap, text)


def removal_why(run, snap, text: str) -> StepWhy:
    """The rule that removed ``snap`` (a :class:`~bpe_core.algorithms.removal.RemovalStep` of ``run``), ``text`` (a
    translated sentence with ``{merge}``, ``{step}``, ``{score}``, ``{threshold}``, ``{n}``) filled in from it: the
    merge that caused the removal, its step, the IoS, the threshold and the occurrences split back."""
    merge = run.snapshot(snap.cause).merge if snap.cause else 0
    return StepWhy(
        "rule",
        text.format(merge=merge, step=snap.cause, score=snap.score, threshold=snap.threshold, n=snap.occurrences),
    )


_ENGLISH = gettext.NullTranslations()

register("picky", Picky())
