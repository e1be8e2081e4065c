r"""SuperBPE's transition point (Liu, Hayase, Hofmann, Oh, Smith & Choi, "SuperBPE: Space travel for language models",
COLM 2025, arXiv 2503.13423; code ``PythonNut/superbpe``): byte-level BPE whose merges may cross spaces after merge
``t``.

``TrainConfig(transition=t)`` asks for it. The first ``t`` merges are plain byte-level BPE under the configured
pre-tokenizer (stage 1, :class:`~bpe_core.algorithms.trainer.Trainer`). Training then resumes on the same text cut
by the stage-2 pattern :data:`STAGE2_PATTERN`, so a piece such as ``"by the way"`` keeps its spaces and merges like
``" of the"`` (a *superword* token, :func:`is_superword`) can appear.

What this module follows, and where it comes from (the authors' trainer is a Rust fork of Hugging Face
``tokenizers``, not installed here; its code was read):

1. **Stage 2's pre-tokenizer.** ``scripts/extend_tokenizer.sh`` passes the pattern to ``train_tokenizer``, whose
   ``utils.train_or_extend_tokenizer`` sets ``Sequence[Split(Regex(pattern), behavior="isolated"),
   ByteLevel(use_regex=False)]``: every match is a piece and so is every stretch of text between matches. That is
   this project's ``regex`` pre-tokenizer (:func:`bpe_core.pretokenize.split_with_pattern`), so stage 2's words
   are ``word_counts(text, "regex", STAGE2_PATTERN)``: digits (1 to 3), runs of two or more punctuation marks and
   spaces before a space are cut out; words with their spaces and single punctuation marks stay together.
2. **Resuming.** The fork's ``BpeTrainer::do_train_extend`` reads stage 1's ``merges.txt``, splits the stage-2
   pieces into bytes, replays the stage-1 merges in order on them -- *skipping* (and leaving out of its merges)
   one whose pair does not occur at its turn, e.g. ``Ġ`` + a digit once digits are cut apart -- and then goes on
   taking the most frequent pair. Here the same happens in two parts: :mod:`.superbpe_replay` replays the stage-1
   merges on the stage-2 pieces before stage 2's tables are built (word by word from stage 1's own run, which
   applied the same merges in the same order to those words; a boundary where a merge could straddle two words is
   replayed with both), then ``Trainer(stage-2 words, replayed=...)`` takes the new merges (no second merge loop).
   The result is what ``Trainer(stage-2 words, merges=stage-1 merges, resume=True)`` gets replaying them one by one
   (a test checks it), at a fraction of the time. The run's first steps are thus the stage-1 merges that still
   occur, replayed (their counts are the counts in the stage-2 pieces; each one's pair table holds its pair alone:
   stage 1 chose it, not these counts, so the quiz asks nothing there: :func:`replayed_step`); the first step after
   them is the *transition step* (:func:`transition_step`); ``run.extras["skipped"]`` lists the merges left out.
3. **Stopping.** ``num_merges`` N and ``vocab_size`` count the run's merges and vocabulary, replayed ones included,
   so a SuperBPE model of N merges is as large as a plain one of N (the fork stops at its ``vocab_size`` too).
   ``min_frequency`` stops new merges only (the fork's replay has no such stop either).
4. **Ties.** The config's tie-break rule, in both stages (the fork breaks ties by the smallest id pair, the project's
   ``hf`` rule).
5. **Plain when no transition happens.** ``t`` at or beyond the merges asked for (``t = N``), or a stage 1 that stops
   before ``t`` merges, is plain BPE exactly (the same trainer on the same words). ``t > N`` is refused
   (:func:`transition_problem`); so are variants other than byte-level and algorithms other than BPE.
6. **Inference.** The tokenizer the authors' extend step saves carries stage 2's pre-tokenizer (the ``Split`` above)
   and the merges in order. The run's config is stage 2's (pre-tokenizer ``regex``, pattern :data:`STAGE2_PATTERN`),
   so :meth:`bpe_core.encoding.encoder.Tokenizer.from_run` and the ``tokenizer.json`` writer give that too: a
   held-out text is cut by stage 2's pattern and every merge applies by rank, crossing spaces.

Entry points: :func:`train_superbpe` (text in, finished run out), :func:`stage_words` + :func:`start` (the seam's
way: ``train(corpus_words(text, config), config)`` reaches them), :func:`tokenizer` (encode held-out text).
"""

from __future__ import annotations

import dataclasses
import gettext
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..pretokenize import REGEX, word_counts
from .seam import StepWhy, run_training

if TYPE_CHECKING:
    from ..config import TrainConfig
    from ..encoding.encoder import Tokenizer
    from .run import TrainedRun

#: Stage 2's pre-tokenizer pattern (``regex`` syntax), as in the authors' ``scripts/extend_tokenizer.sh``.
STAGE2_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"

_ENGLISH = gettext.NullTranslations()
# A byte-level token that spans a word boundary: whitespace with something that is not whitespace on both sides.
_SUPERWORD = re.compile(rb"\S\s+\S")


def transition_problem(config: TrainConfig, tr: gettext.NullTranslations | None = None) -> str | None:
    """What is wrong with ``config.transition`` (one sentence through ``tr``; ``None``: English), or ``None`` when it
    is fine or unset. :meth:`bpe_core.config.TrainConfig.validate` raises it as a :class:`TransitionError`."""
    t = config.transition
    if t is None:
        return None
    tr = tr or _ENGLISH
    if config.variant != "byte":
        return tr.gettext(
            "The transition point (SuperBPE) applies to byte-level BPE only; choose the byte variant or no transition."
        )
    if config.algorithm != "bpe":
        return tr.gettext("The transition point (SuperBPE) applies to BPE only, not to {algorithm}.").format(
            algorithm=config.algorithm
        )
    if t < 0:
        return tr.gettext("The transition point must be 0 or more merges.")
    if config.num_merges is not None and t > config.num_merges:
        return tr.gettext(
            "The transition point {t} is beyond the {n} merges asked for: choose at most {n} "
            "(a transition at {n} is plain BPE)."
        ).format(t=f"{t:,}", n=f"{config.num_merges:,}")
    return None


def no_text_message(tr: gettext.NullTranslations | None = None) -> str:
    """The message for SuperBPE asked of a word-count list (``tr``: translations; ``None``: English)."""
    return (tr or _ENGLISH).gettext(
        "SuperBPE needs the text itself: its second stage cuts the text again without stopping at spaces, "
        "and a word-count list has no text between its words."
    )


class TransitionError(ValueError):
    """A transition that cannot be trained: bad settings (``config``: :func:`transition_problem`) or no text to cut
    again (``config`` ``None``: :func:`no_text_message`). ``str(err)`` is English; :meth:`message` translates."""

    def __init__(self, config: TrainConfig | None):
        self.config = config
        super().__init__(self.message())

    def __reduce__(self):  # picklable (the app's training threads may carry it)
        return type(self), (self.config,)

    def message(self, tr: gettext.NullTranslations | None = None) -> str:
        """The message through ``tr`` (``None``: English)."""
        if self.config is None:
            return no_text_message(tr)
        return transition_problem(self.config, tr) or ""


class StageWords(dict):
    """Stage 1's words ``{word: frequency}`` (first-appearance order, the configured pre-tokenizer) with stage 2's
    attached as :attr:`stage2` (the same text cut by :data:`STAGE2_PATTERN`). A ``dict``, so every reader of a word
    list reads stage 1's; :func:`start` also reads :attr:`stage2`."""

    def __init__(self, words: dict, stage2: dict):
        super().__init__(words)
        self.stage2 = stage2


def stage_words(text: str, config: TrainConfig) -> dict:
    """The word list to train ``config`` on ``text`` with: :class:`StageWords` when a transition is asked for and
    can happen (``config.transition`` below ``config.num_merges``), else the plain ``{word: frequency}``.
    :func:`bpe_core.algorithms.trainer.corpus_words` calls it. Raises what the pre-tokenizers raise."""
    words = word_counts(text, config.resolved_pretokenizer, config.pattern)
    if not _transition_applies(config):
        return words
    return StageWords(words, word_counts(text, REGEX, STAGE2_PATTERN))


def _transition_applies(config: TrainConfig) -> bool:
    t = config.transition
    return t is not None and (config.num_merges is None or t < config.num_merges)


def stage2_config(config: TrainConfig) -> TrainConfig:
    """The settings of stage 2 (and of a SuperBPE run): ``config`` with stage 2's pre-tokenizer and no transition."""
    return dataclasses.replace(config, pretokenizer=REGEX, pattern=STAGE2_PATTERN, transition=None)


def start(words: dict, config: TrainConfig):
    """A SuperBPE training of ``words`` (:class:`StageWords`, from :func:`stage_words`) with ``config``: stage 1 is
    trained here (``config.transition`` merges), stage 2's trainer is returned with its tables built, no step taken
    (its ``run`` fills as ``steps()`` yields). Without a transition that happens (see the module doc, 5), the plain
    :class:`~bpe_core.algorithms.trainer.Trainer` of ``words``.

    Raises:
        TransitionError: bad settings (:func:`transition_problem`); a word list without stage 2's words (a
            word-count list: :func:`no_text_message`).
    """
    from ..models import gc_paused
    from .superbpe_replay import replay
    from .trainer import Trainer  # (imported when used: the seam imports no trainer)

    config.validate()
    if not _transition_applies(config):
        return Trainer(words, config)
    stage2 = getattr(words, "stage2", None)
    if stage2 is None:
        raise TransitionError(None)
    t = config.transition
    # Stage 1 keeps no pair tables beyond the best pair: only its merges are used.
    first = Trainer(words, dataclasses.replace(config, num_merges=t, transition=None, top_k=1, max_tied=1))
    for _ in first.steps():
        pass
    if first.run.num_steps < t:  # stage 1 stopped early: no transition, plain BPE's run
        return Trainer(words, config)
    values = first.run.values
    merges = [(values[a], values[b]) for a, b in first.run.merges()]
    # The replay is done before stage 2's tables are built (superbpe_replay). No stop rule can end it: the tokens
    # it makes are some of stage 1's, which stopped at none of them. Both make a few hundred thousand small objects
    # (each chunk's replay, a list of positions and a record per replayed step) that form no cycle: the collector,
    # set off again and again by them, would walk them all each time (a tenth of stage 2's set-up on a book).
    with gc_paused():
        replayed = replay(first.run, list(stage2), merges, config.resolved_pretokenizer, config.pattern)
        second = Trainer(stage2, stage2_config(config), replayed=replayed)
    run = second.run
    run.algorithm = SUPERBPE
    run.extras = {
        "transition": t,
        "stage1_pretokenizer": config.resolved_pretokenizer,
        "stage1_pattern": config.pattern,
        "skipped": replayed.skipped,
        "transition_step": len(replayed.kept) + 1,  # (read once trained: transition_step)
    }
    return second


def train_superbpe(
    text: str,
    config: TrainConfig,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[TrainedRun], None] | None = None,
) -> TrainedRun:
    """Train ``config`` (with ``transition=t``; ``None``: plain BPE) on ``text`` to the end and return the run.

    Args:
        text: the corpus (``str``).
        config: byte-level BPE settings; ``num_merges`` N counts every merge of the model (module doc, 3).
        progress, on_start: as for :func:`bpe_core.algorithms.seam.train`.

    Returns:
        The :class:`~bpe_core.algorithms.run.TrainedRun`: with a transition, stage 2's run (its words are stage 2's
        pieces; :func:`transition_step`; encode with :func:`tokenizer`).

    Raises:
        ValueError: bad settings (:func:`transition_problem`).
    """
    return run_training(start(stage_words(text, config.validate()), config), progress, on_start)


def tokenizer(run: TrainedRun, step: int | None = None) -> Tokenizer:
    """The tokenizer of ``run`` after ``step`` merges (default: all), with stage 2's pre-tokenizer for a SuperBPE
    run: ``tokenizer(run).encode(held_out_text)`` gives the run's token ids (as the exported ``tokenizer.json``
    does in Hugging Face ``tokenizers``)."""
    from ..encoding.encoder import Tokenizer

    return Tokenizer.from_run(run, step)


def transition_step(run: TrainedRun) -> int | None:
    """The run's first merge after stage 1 (1-based), once it is trained; ``None`` for a run without a transition
    or before that step."""
    k = run.extras.get("transition_step")
    return k if k is not None and k <= run.num_steps else None


def replayed_step(run: TrainedRun, step: int) -> bool:
    """True for a step of a SuperBPE run that replays one of stage 1's merges (before :func:`transition_step`):
    stage 1 chose it on its own words, by their counts, so it need not be the most frequent pair of the run's
    pieces (the quiz asks nothing about it: :func:`bpe_core.teaching.quiz.not_asked`)."""
    first = run.extras.get("transition_step") if run.extras.get("transition") is not None else None
    return first is not None and 1 <= step < first


def is_superword(value: bytes) -> bool:
    """True for a byte-level token that crosses a word boundary: whitespace after a byte that is not whitespace
    (``b" of the"``, ``b", and"``); ``b" the"`` and ``b"  "`` are not."""
    return bool(_SUPERWORD.search(value))


def superword_steps(run: TrainedRun, step: int | None = None, limit: int = 5) -> list[int]:
    """The first ``limit`` steps up to ``step`` (default: all) whose merge made a superword token
    (:func:`is_superword`), in order; empty for a run without a transition."""
    first = transition_step(run)
    if first is None:
        return []
    last = run.num_steps if step is None else min(step, run.num_steps)
    out = []
    for k in range(first, last + 1):
        if is_superword(run.values[run.snapshot(k).token]):
            out.append(k)
            if len(out) == limit:
                break
    return out


class SuperBPE:
    """Why a SuperBPE run's step was chosen (the seam's :meth:`~bpe_core.algorithms.seam.Algorithm.why`): a replayed
    stage-1 merge says so; the transition step and the first superword tokens (:func:`superword_steps`) get a note
    with a badge. Not registered by name: a
    transition is a setting of BPE (``TrainConfig.transition``)."""

    def why(
        self, run: TrainedRun, step: int, tr: gettext.NullTranslations | None = None, language_name=None
    ) -> StepWhy | None:
        """See the class doc; ``None`` for a step with nothing to add."""
        tr = tr or _ENGLISH
        t = run.extras.get("transition_step")
        if t is None or step < t:  # (no transition step yet: every step so far replays stage 1)
            text = tr.gettext(
                "Stage 1 of SuperBPE chose this merge: plain BPE with the {pretokenizer} pre-tokenizer, inside words. "
                "Stage 2 replays it on pieces that keep their spaces; the count is the count there."
            )
            return StepWhy("rule", text.format(pretokenizer=run.extras.get("stage1_pretokenizer", "")))
        token = run.values[run.snapshot(step).token]
        if step == t:
            text = tr.gettext(
                "From this merge on, SuperBPE's stage 2 merges pieces that keep their spaces, "
                "so a token may span several words."
            )
            if is_superword(token):
                text += " " + tr.gettext("This merge already makes a superword token.")
            return StepWhy("note", text, tr.gettext("Transition point"))
        if is_superword(token) and step in superword_steps(run, step):
            text = tr.gettext("One of the first superword tokens: it spans a space between words.")
            return StepWhy("note", text, tr.gettext("Superword token"))
        return None


SUPERBPE = SuperBPE()
