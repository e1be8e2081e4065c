"""The one seam between a training algorithm and everything that shows a run: what an algorithm implements
(:class:`Algorithm`), the registry that names algorithms (:func:`register`, :func:`get_algorithm`), and the
one training loop (:func:`train`).

An algorithm turns a word list ``{word: frequency}`` and a :class:`~bpe_core.config.TrainConfig` into a
:class:`Training`: an object with ``run`` (a :class:`~bpe_core.algorithms.run.TrainedRun`, filled as it
trains) and ``steps()``, an iterator over the per-step records, one per step, each appended to ``run`` before
it is yielded. Everything about step ``k`` is then asked of the run: its record (``run.snapshot(k)``), the
tokenizer after it (``run.tokenizer(k)``), the words it changed, the segmentation at ``k``. What belongs to
one algorithm alone (the language a merge served, the rule that chose it) goes in the run's one mapping
``run.extras``, never in new run fields.

A step is a generic event: its record has a ``kind`` (:data:`STEP_KINDS`; ``"merge"`` today, later a
``"removal"``, a ``"prune"`` round, a ``"transition"``) that renderers and the quiz dispatch on, so a new
algorithm adds event kinds, not renderers: it registers how a step of its kind is viewed
(:func:`bpe_core.teaching.step_view.register_view`), and every renderer draws that view. Why a step was chosen is the algorithm's to say
(:meth:`Algorithm.why`, read through :func:`step_why`); a renderer draws what it returns.

Algorithms are registered by name: ``TrainConfig.algorithm`` (default ``"bpe"``, checked against the
registry), the CLI's ``--algorithm NAME`` and the app's URL parameter ``algo`` all name one. Plain BPE
(:class:`~bpe_core.algorithms.trainer.Trainer`) is ``"bpe"``. An algorithm that needs more than a word list
(the language mix of :mod:`~bpe_core.algorithms.fair_bpe`, which needs one text per language) is not
registered: it is made for its inputs and records itself as ``run.algorithm``.

This module imports no trainer: ``TrainConfig`` checks names here, and the commands that do not train start
faster without the trainer.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..config import TrainConfig
    from .run import TrainedRun

#: The kinds of step record: what a step does to the vocabulary. BPE's records (``MergeStep``) are merges.
STEP_KINDS = ("merge",)
STEP_KINDS += ("score_merge", "prune")  # WordPiece's merge chosen by score; a Unigram pruning round
STEP_KINDS += ("picky_merge", "removal")  # PickyBPE's merge with its parts' IoS; a token removed (any algorithm)


@dataclass(frozen=True)
class StepWhy:
    """Why a step was chosen, as its algorithm says it.

    Attributes:
        kind: ``"rule"``: the algorithm's own rule chose the step, and ``text`` is the reason (a renderer shows
            it instead of "the highest count", and leaves out the tie-break rules); ``"note"``: ``text`` is a
            remark shown beside the usual reason.
        text: one or two sentences, plain text (escape it for HTML), in the language of the ``tr`` asked with.
        badge: a short label a renderer may show as a badge before ``text`` (e.g. SuperBPE's "Transition point"),
            same language; empty: none.
    """

    kind: str
    text: str
    badge: str = ""


class Training(Protocol):
    """A training under way: ``run`` fills as ``steps()`` yields each step's record (see the module doc)."""

    run: TrainedRun

    def steps(self) -> Iterator: ...


class Algorithm(Protocol):
    """What a training algorithm implements to be registered (see the module doc)."""

    def start(self, words: dict[str, int], config: TrainConfig) -> Training:
        """A training of ``words`` (``{word: frequency}``, first-appearance order) with ``config``, its tables
        built, no step taken yet. Raises ``ValueError`` for settings the algorithm cannot train with."""
        ...

    def why(
        self, run: TrainedRun, step: int, tr: gettext.NullTranslations | None = None, language_name=None
    ) -> StepWhy | None:
        """Why step ``step`` (>= 1) of ``run`` was chosen, or ``None`` when the usual reason holds (the
        highest count, ties broken by the run's tie-break rule). ``tr``: the translations (``None``:
        English); ``language_name``: names a :mod:`~bpe_core.languages.declaration` language key in the
        reader's language (``None``: the key itself)."""
        ...


class _PlainBPE:
    """Plain BPE: the most frequent pair at every step (:class:`~bpe_core.algorithms.trainer.Trainer`)."""

    def start(self, words: dict[str, int], config: TrainConfig) -> Training:
        if config.transition is not None:  # SuperBPE: a setting of BPE (its run's ``algorithm`` says why)
            from .superbpe import start

            return start(words, config)
        from .trainer import Trainer  # (imported when used: see the module doc)

        return Trainer(words, config)

    def why(self, run, step, tr=None, language_name=None) -> StepWhy | None:
        return None


_REGISTRY: dict[str, Algorithm] = {"bpe": _PlainBPE()}


def register(name: str, algorithm: Algorithm) -> None:
    """Make ``algorithm`` trainable as ``name`` (``TrainConfig(algorithm=name)``, ``--algorithm name``,
    ``?algo=name``); a name registered again is replaced. Raises ``ValueError`` for an empty name or one with
    whitespace (it goes in URLs and on command lines)."""
    if not name or any(c.isspace() for c in name):
        raise ValueError(f"an algorithm's name must be non-empty without spaces, not {name!r}")
    _REGISTRY[name] = algorithm


def algorithm_names() -> tuple[str, ...]:
    """The registered names, ``"bpe"`` first, then in the order they were registered."""
    return tuple(_REGISTRY)


def get_algorithm(name: str) -> Algorithm:
    """The algorithm registered as ``name``. Raises ``ValueError`` naming the known ones."""
    algorithm = _REGISTRY.get(name)
    if algorithm is None:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(_REGISTRY)}")
    return algorithm


def run_training(
    training: Training,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[TrainedRun], None] | None = None,
) -> TrainedRun:
    """Take every step of ``training`` and return its finished run (``progress`` and ``on_start`` as for
    :func:`train`)."""
    run = training.run
    if on_start is not None:
        on_start(run)
    done = 0
    for snap in training.steps():
        done = snap.step
        if progress is not None and done % 100 == 0:
            progress(done)
    if progress is not None:
        progress(done)
    return run


def train(
    words: dict[str, int],
    config: TrainConfig,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[TrainedRun], None] | None = None,
) -> TrainedRun:
    """Train with the algorithm ``config.algorithm`` names to the end and return the finished
    :class:`~bpe_core.algorithms.run.TrainedRun`.

    Args:
        words: ``{word: frequency}`` (see :func:`bpe_core.algorithms.trainer.corpus_words` and
            :func:`bpe_core.inputs.parse_word_counts`).
        config: the settings.
        progress: called with the number of steps done, every 100 steps and at the end.
        on_start: called with the run once the trainer has built its tables, before step 1. The run
            then grows while this call trains: another thread reads it through
            :meth:`~bpe_core.algorithms.run.TrainedRun.view` (the app shows step 1 while the rest trains).

    Raises:
        ValueError: bad settings, an unknown algorithm.
    """
    return run_training(get_algorithm(config.validate().algorithm).start(words, config), progress, on_start)


def step_why(
    run: TrainedRun, step: int, tr: gettext.NullTranslations | None = None, language_name=None
) -> StepWhy | None:
    """Why step ``step`` of ``run`` was chosen, from the algorithm that made the run (``run.algorithm``, else
    the one registered as ``run.config.algorithm``): see :meth:`Algorithm.why`. ``None`` for step 0, past the
    run's end, or when the usual reason holds."""
    if not 1 <= step <= run.num_steps:
        return None
    algorithm = run.algorithm if run.algorithm is not None else get_algorithm(run.config.algorithm)
    return algorithm.why(run, step, tr, language_name)
