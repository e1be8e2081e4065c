"""BoundlessBPE behind the seam (:mod:`bpe_core.algorithms.seam`), registered as ``"boundless"``: the app's stepper
steps through its merges inside a pre-token and its supermerges (both kind ``"picky_merge"``, a supermerge's step
listed in ``run.extras["supermerges"]``) and its removals (kind ``"removal"``), trained by
:class:`~bpe_core.algorithms.boundless.BoundlessTrainer` (its rules are there; ``picky_threshold`` is its tau).

The run's "words" are the text cut at the pre-tokens that never take part in a supermerge: each maximal run of
word-like pre-tokens (:func:`~bpe_core.algorithms.boundless.wordlike`, the runs the trainer's supermerge side
pairs) is one word, each other pre-token a word of its own. So a supermerge shows two pre-tokens of a word joining
into one token (``" of" + " the" -> " of the"``), while a merge inside a pre-token and a removal show as in
PickyBPE. A word's segmentation at step k is what replaying the first k steps gives, the way the model encodes
(:mod:`bpe_core.algorithms.boundless_encode`: merges and removals inside each pre-token; a supermerge joins two
neighbouring pre-tokens that are each one token, left to right, for good). The text is one document.
"""

from __future__ import annotations

import dataclasses
import gettext
from collections.abc import Iterator
from itertools import chain

from ..i18n import N_
from .picky_run import PickyRun, merge_record, removal_record, removal_why
from .seam import StepWhy, register

#: The pre-tokenizers that keep the whole text in order, neighbour after neighbour, as supermerges need (the
#: others drop or change the spaces, or leave one pre-token per text).
PRETOKENIZERS = ("gpt2", "gpt4", "o200k", "regex", "jieba")
#: Why a word-count list cannot be trained with BoundlessBPE (a message id of the catalogs).
NEEDS_TEXT = N_(
    "BoundlessBPE needs running text: a supermerge joins two neighbouring pre-tokens, in the order the text has "
    "them, and a word-count list has no neighbours. Choose a preset text, paste a text or upload one."
)


class DocumentWords(dict):
    """The pre-tokens' counts ``{pre-token: frequency}`` (first-appearance order) with the text's pre-tokens in order
    attached as :attr:`pieces`: a ``dict``, so every reader of a word list reads the pre-tokens; BoundlessBPE's
    :meth:`Boundless.start` also reads :attr:`pieces`."""

    def __init__(self, words: dict, pieces: list[str]):
        super().__init__(words)
        self.pieces = pieces


def document_words(text: str, config) -> DocumentWords:
    """``text`` cut by ``config``'s pre-tokenizer, as :class:`DocumentWords` (:func:`~bpe_core.algorithms.trainer.
    corpus_words` calls it for ``algorithm="boundless"``). Raises what the pre-tokenizers raise."""
    from ..pretokenize import pretokenize

    pieces = pretokenize(text, config.resolved_pretokenizer, config.pattern)
    counts: dict = {}
    for p in pieces:
        counts[p] = counts.get(p, 0) + 1
    return DocumentWords(counts, pieces)


def run_words(pieces: list[str]) -> dict[tuple[str, ...], int]:
    """The run's words of a text's pre-tokens: each maximal run of word-like pre-tokens, and each other pre-token
    alone, as ``{pre-tokens: frequency}`` in first-appearance order."""
    from .boundless import wordlike

    out: dict = {}
    like: dict = {}
    run: list = []
    for p in [*pieces, None]:  # None: the end closes the last run
        if p is not None and like.setdefault(p, wordlike(p.encode("utf-8"))):
            run.append(p)
            continue
        if run:
            key = tuple(run)
            out[key] = out.get(key, 0) + 1
            run = []
        if p is not None:
            out[(p,)] = out.get((p,), 0) + 1
    return out


class BoundlessRun(PickyRun):
    """A BoundlessBPE run (:class:`~bpe_core.algorithms.picky_run.PickyRun`'s queries): :attr:`words` the runs of
    pre-tokens as text, :attr:`pieces` each one's pre-tokens; ``extras["supermerges"]`` the steps that are
    supermerges."""

    def __init__(self, config, runs: dict[tuple[str, ...], int]):
        super().__init__(config, {})
        self.pieces = list(runs)
        self.words = ["".join(r) for r in runs]
        self.freqs = list(runs.values())
        self._start_from_bytes()
        self.extras = {"supermerges": set()}


def is_supermerge(run, step: int) -> bool:
    """Whether step ``step`` of ``run`` joined two pre-tokens (a BoundlessBPE supermerge)."""
    return step in run.extras.get("supermerges", ())


class BoundlessTraining:
    """A BoundlessBPE training: ``run`` fills as :meth:`steps` yields each step's record.

    Args:
        words: :class:`DocumentWords` (the text's pre-tokens in order).
        config: a :class:`~bpe_core.config.TrainConfig` (``picky_threshold`` as tau, ``num_merges``,
            ``vocab_size``, ``min_frequency``).

    Raises:
        SettingError: a word list without the text's order (a word-count list: :data:`NEEDS_TEXT`).
        ValueError: a threshold outside (0, 1], no pre-token.
    """

    def __init__(self, words: dict, config):
        from ..inputs import SettingError
        from .boundless import BoundlessTrainer

        pieces = getattr(words, "pieces", None)
        if pieces is None:
            raise SettingError(NEEDS_TEXT)
        if not pieces:
            raise ValueError("the corpus has no words: there is nothing to train on")
        runs = run_words(pieces)
        self.run = BoundlessRun(config, runs)
        self._trainer = BoundlessTrainer(
            [pieces],
            config.picky_threshold,
            num_merges=config.num_merges,
            vocab_size=config.vocab_size,
            min_frequency=config.min_frequency,
        )
        # Each word is a list of groups, each an index into _ids: a pre-token's index on the word side (its token
        # ids now, kept up to date), or past those, a token a supermerge made (one id, for good). A word's
        # segmentation is then its groups' ids end to end; _holders: the words holding each pre-token.
        index = {p: i for i, p in enumerate(words)}
        self._ids: list = [tuple(p.encode("utf-8")) for p in words]
        self._holders: dict = {}
        self._groups = []
        for w, run in enumerate(runs):
            self._groups.append([index[p] for p in run])
            for p in run:
                self._holders.setdefault(index[p], set()).add(w)
        # Which words may hold a group that is one token (a superset, by the token's bytes): a supermerge's
        # candidates.
        self._where: dict = {}
        for w, run in enumerate(runs):
            for p in run:
                self._where.setdefault(p.encode("utf-8"), set()).add(w)

    def _single(self, group: int) -> bytes | None:
        ids = self._ids[group]
        return self.run.values[ids[0]] if len(ids) == 1 else None

    def _supermerge(self, a: bytes, b: bytes, token: int) -> list[int]:
        """Join neighbouring groups that are the single tokens ``a`` and ``b``, left to right; the words changed."""
        changed = []
        merged = a + b
        made = len(self._ids)
        self._ids.append((token,))
        for w in sorted(self._where.get(a, set()) & self._where.get(b, set())):
            groups, out, i, hit = self._groups[w], [], 0, False
            while i < len(groups):
                if i + 1 < len(groups) and self._single(groups[i]) == a and self._single(groups[i + 1]) == b:
                    out.append(made)
                    i, hit = i + 2, True
                else:
                    out.append(groups[i])
                    i += 1
            if hit:
                self._groups[w] = out
                self._where.setdefault(merged, set()).add(w)
                changed.append(w)
        return changed

    def steps(self) -> Iterator:
        """Train, yielding each step's record (appended to ``run`` first)."""
        run, trainer = self.run, self._trainer
        ids, history, snaps, ids_of = run.value_to_id, run._history, run.snapshots, self._ids
        tokens, last_merge = run._tokens0, None
        for event in trainer.steps():
            step = len(snaps) + 1
            if event.kind == "merge":
                token = run.add_token(event.token, step)
                last_merge = step
                if event.supermerge:
                    run.extras["supermerges"].add(step)
                    changed = self._supermerge(event.left, event.right, token)
                else:
                    changed = self._holding(trainer.words.touched)
                snap = merge_record(event, step, token, ids, 0, len(changed))
            else:
                changed = self._holding(trainer.words.touched)
                snap = removal_record(run, event, step, last_merge, 0, len(changed))
            for w in changed:
                seg = tuple(chain.from_iterable(map(ids_of.__getitem__, self._groups[w])))
                tokens += run.freqs[w] * (len(seg) - len(history[w][-1][1]))
                history[w].append((step, seg))
            snap = snap._replace(corpus_tokens=tokens)
            snaps.append(snap)
            yield snap
        run.stop_reason = trainer.stop_reason

    def _holding(self, pieces) -> list[int]:
        """The words holding one of ``pieces`` (word-side indices, just rewritten: their ids are updated here) in a
        group no supermerge made."""
        out: set = set()
        ids, words = self.run.value_to_id.__getitem__, self._trainer.words.words
        for p in pieces:
            self._ids[p] = tuple(map(ids, words[p]))
            for w in self._holders.get(p, ()):
                if p in self._groups[w]:
                    out.add(w)
        return sorted(out)


class Boundless:
    """BoundlessBPE behind the seam: registered as ``"boundless"``."""

    #: Its runs are not BPE merge runs: the app's stepper draws them, its other pages train BPE (ui.training).
    merge_runs = False

    def start(self, words: dict, config) -> BoundlessTraining:
        """A BoundlessBPE training (:class:`BoundlessTraining`). Raises ``ValueError`` (a ``SettingError`` for a
        word-count list)."""
        from ..teaching import field_views, removal_view  # noqa: F401  (register the step views of its kinds)

        return BoundlessTraining(words, dataclasses.replace(config, variant="byte"))

    def why(self, run, step, tr=None, language_name=None) -> StepWhy | None:
        """A supermerge (badge "Superword token"), a merge inside a pre-token with its parts' IoS, or a removal:
        the IoS that reached tau."""
        t = tr or _ENGLISH
        snap = run.snapshot(step)
        if is_supermerge(run, step):
            text = t.gettext(
                "A supermerge: two neighbouring pre-tokens, each already one token, join into one superword token. "
                "Their pair was the most frequent (ties: the smallest pair; a tie with a pair inside a pre-token "
                "goes to the supermerge). A supermerge removes nothing."
            )
            return StepWhy("rule", text, t.gettext("Superword token"))
        if snap.kind == "picky_merge":
            text = t.gettext(
                "A merge inside a pre-token: the most frequent pair (ties: the smallest pair), skipping a pair whose "
                "token the vocabulary holds or once held. It takes {left:.1%} of its first part's occurrences and "
                "{right:.1%} of its second's (their IoS); a part of two bytes or more whose IoS reaches tau = "
                "{threshold:g} is removed next."
            )
            return StepWhy("rule", text.format(left=snap.left_ios, right=snap.right_ios, threshold=run.threshold))
        if snap.occurrences:
            text = t.gettext(
                "Merge {merge} (step {step}) took {score:.1%} of this token's occurrences: its IoS {score:.3f} "
                "reaches tau = {threshold:g}, so BoundlessBPE removes it. Its {n} other occurrences split back into "
                "single bytes, and it is never made again."
            )
        else:
            text = t.gettext(
                "Merge {merge} (step {step}) took every occurrence of this token: its IoS {score:.3f} reaches tau = "
                "{threshold:g}, so BoundlessBPE removes it, and it is never made again."
            )
        return removal_why(run, snap, text)


_ENGLISH = gettext.NullTranslations()

register("boundless", Boundless())
