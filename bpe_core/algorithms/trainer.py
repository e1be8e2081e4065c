"""The BPE merge loop: learn merges one at a time and yield a snapshot after each.

The rules (shown in the app's "How BPE works" page, and in :data:`RULES`):

1. **Counting.** Every adjacent pair of tokens inside every word type is counted, weighted by the
   word's frequency. Overlapping windows all count: ``a a a`` holds the pair ``(a, a)`` twice.
   Pairs never cross pre-token boundaries.
2. **Choosing.** The pair with the highest count wins. Ties are broken by ``tie_break``:

   * ``first-seen`` (default): the pair whose first occurrence is earliest, scanning word types in
     order of first appearance and then positions left to right. This is what the textbook
     ``max(pairs, key=pairs.get)`` loop, tiktoken's ``_educational.bpe_train`` and karpathy/minbpe do
     (Python's ``max`` keeps the first of equal keys in dict insertion order).
   * ``hf``: Hugging Face ``tokenizers``' ``BpeTrainer``: the smallest ``(id_left, id_right)``, where ids
     go to the base alphabet sorted by code point (byte-level: by the code point of each byte's
     GPT-2 alias), then to the end-of-word symbols (``eow``: the separate marker, or the attached
     ``x</w>`` symbols sorted by code point -- Hugging Face also numbers them after the plain
     characters, though among themselves in hash-map order), then to merged tokens in creation order.
   * ``lexical``: subword-nmt's ``learn_bpe``: the lexicographically largest ``(left, right)`` pair of
     strings (byte-level: of byte strings).
3. **Applying.** A merge replaces each occurrence left to right without overlap: ``a a a`` → ``aa a``.
4. **Tokens are strings.** The new token's value is ``left + right``. If two merges make the same string
   (``ab + c`` and ``a + bc``), it is one vocabulary entry with one id, as in Hugging Face
   ``tokenizers`` and tiktoken's trainer; the vocabulary does not grow at the second merge.
5. **Stopping.** Before each merge: stop after ``num_merges`` merges (``"num_merges"``), when the
   vocabulary holds ``vocab_size`` tokens (``"vocab_size"``, base alphabet included), when no pair is
   left (``"no_pairs"``), or when the best count is below ``min_frequency`` (``"min_frequency"``;
   default 2, so a pair seen once is not merged).

The loop is incremental (the "linked symbols + position index" scheme of fast BPE trainers): after the
initial count, one merge costs time proportional to the occurrences of the merged pair and their
neighbours -- never a rescan of the corpus or of a whole long word. Positions index one flat array of
every word type's symbols; each pair keeps the ascending list of positions where it has started
(entries gone stale are skipped when read); a heap with lazy invalidation finds the best pair.
A snapshot holds only what the merge produced anyway (undecoded heap entries, the rewritten
positions), so keeping all 10,000 snapshots of a book costs little time and memory.

The trainer is written in four modules by responsibility: this one (the loop, :meth:`Trainer.steps`),
:mod:`.trainer_tables` (the set-up: the per-position tables and the initial count), :mod:`.trainer_heap` (the
best pairs) and :mod:`.trainer_merge` (one merge applied, the counts updated). :class:`Trainer` is the one
class they make; its hot loops bind what they use to locals or read module-level helpers, as they did in one
module.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..config import TrainConfig
from ..pretokenize import word_counts
from ..teaching.explain import RULES as RULES  # re-exported: the rules and their tie-break wording live in explain
from .run import TrainedRun
from .run_records import MergeStep
from .seam import train as train  # re-exported: training dispatches through the algorithm registry
from .superbpe import stage_words
from .tiebreak import TIE_BREAKS
from .trainer_heap import _BestPairs
from .trainer_merge import _Merging
from .trainer_tables import _Tables

__all__ = [
    "RULES",
    "STOP_REASONS",
    "TIE_BREAKS",
    "MergeStep",
    "TrainConfig",
    "Trainer",
    "corpus_words",
    "train",
]

STOP_REASONS = ("num_merges", "vocab_size", "no_pairs", "min_frequency")


class Trainer(_Tables, _BestPairs, _Merging):
    """Incremental BPE trainer over the word types of a corpus.

    Args:
        words: ``{word: frequency}`` in first-appearance order (from :func:`corpus_words`).
        config: a :class:`TrainConfig`.
        merges: the merges to take, in order, instead of the best pair: ``[(left, right)]`` as token values
            (``str`` for char/eow, ``bytes`` for byte), e.g. chosen by another rule
            (:mod:`bpe_core.algorithms.fair_bpe`). Each such step's snapshot says the pair was chosen by the
            rule (``ties`` 1, the pair alone in ``tied``); its pair table is still the most frequent pairs,
            with the given pair first. A given pair that does not occur stops training (``"no_pairs"``); after
            the last one the trainer takes the best pairs again, so set ``num_merges`` to stop there. The stop
            rules apply as usual (``min_frequency`` 1 keeps them from stopping a rule that has its own).
            ``None`` (the default): the best pair at every step.
        resume: with ``merges``, a given pair that does not occur is skipped (listed in :attr:`skipped`), not a stop.
        replayed: merges already replayed on ``words`` (byte-level only), a
            :class:`~bpe_core.algorithms.superbpe_replay.Replayed` (SuperBPE's stage 2): the run starts with one
            step per replayed merge (its pair alone in its table), the tables with their tokens; the trainer goes on
            from there with the best pairs.

    Use ``for snap in trainer.steps(): ...``; :attr:`run` answers questions about the steps so far
    (see :class:`bpe_core.algorithms.run.TrainedRun`). Raises ``ValueError`` for bad settings.
    """

    def __init__(
        self,
        words: dict[str, int],
        config: TrainConfig,
        merges: Iterable[tuple] | None = None,
        resume: bool = False,
        replayed=None,
    ):
        self.config = config.validate()
        self.variant = config.make_variant()
        self.run = TrainedRun(self.variant, config)
        self._given = None if merges is None else list(merges)
        self._resume = resume and self._given is not None
        #: The given merges skipped because their pair did not occur (``resume`` only): ``(left, right)`` values.
        self.skipped: list[tuple] = []
        self._replaying = False  # (resume) the pair peeked last is a given merge: no min_frequency stop
        self._replayed = replayed
        self._build(words)

    # ------------------------------------------------------------------------------------ the loop
    def steps(self) -> Iterator[MergeStep]:
        """Run the merge loop, yielding one :class:`MergeStep` per merge.

        The last snapshot carries ``stop_reason``; if training stops before any merge,
        nothing is yielded and ``run.stop_reason`` says why.
        """
        cfg = self.config
        run = self.run
        peek = self._peek if self._given is None else self._peek_given
        merge = self._merge
        num_merges, vocab_size, top_k, max_tied = cfg.num_merges, cfg.vocab_size, cfg.top_k, cfg.max_tied
        pending: MergeStep | None = None
        step = run.num_steps  # (steps replayed before the tables were built, ``replayed``, are in the run already)
        if step:
            yield from run.snapshots[:-1]
            pending = run.snapshots[-1]
        while True:
            reason = None
            top: list = []
            if num_merges is not None and step >= num_merges:
                reason = "num_merges"
            elif vocab_size is not None and run.vocab_size >= vocab_size:
                reason = "vocab_size"
            else:
                top = peek(top_k, max_tied)
                if not top:
                    reason = "no_pairs"
                elif -top[0][0] < cfg.min_frequency and not self._replaying:
                    reason = "min_frequency"
            if reason is not None:
                run.stop_reason = reason
                if pending is not None:
                    pending = pending._replace(stop_reason=reason)
                    run._replace_last(pending)
                    yield pending
                return
            if pending is not None:
                yield pending
            step += 1
            pending = merge(step, top)


def corpus_words(text: str, config: TrainConfig) -> dict[str, int]:
    """Pre-tokenize ``text`` with the config's pre-tokenizer: ``{word: frequency}``, first-appearance order. With a
    SuperBPE transition, the word list also carries stage 2's words (:func:`bpe_core.algorithms.superbpe.stage_words`);
    for BoundlessBPE, the pre-tokens in order (:func:`bpe_core.algorithms.boundless_run.document_words`)."""
    if config.transition is not None:
        return stage_words(text, config)
    if config.algorithm == "boundless":  # BoundlessBPE pairs neighbouring pre-tokens: the text's order too
        from .boundless_run import document_words

        return document_words(text, config)
    return word_counts(text, config.resolved_pretokenizer, config.pattern)
