"""Unigram (SentencePiece's model; T5, XLNet, ALBERT, mBART), trained as the Hugging Face LLM course builds it
(chapter 6, section 7). Where BPE and WordPiece start small and merge, Unigram starts big and prunes:

1. **Seed.** Every character of the corpus, then the most frequent substrings of 2 to 16 characters (counted
   in every word, weighted by its frequency; equal counts in order of first appearance) until the vocabulary
   holds ``seed_size`` tokens. Each token's probability is its seed count over the sum of the counts.
2. **Segmenting.** A word's segmentation is the one whose tokens' probabilities have the largest product: the
   smallest sum of ``-log p`` (Viterbi: the best way to reach each position from the best ways to reach the
   earlier ones). The corpus loss is the sum of every word's best ``-log`` likelihood times its frequency.
3. **Pruning.** Each round scores every token longer than one character by how much the loss grows when it alone
   is removed (the probabilities stay as they are inside a round), and removes the ``int(len(vocabulary) ×
   shrink)`` lowest (counted over the whole vocabulary, characters included; at least one). Characters are never
   removed, so every word keeps a segmentation. The probabilities are then recomputed from the seed counts of the
   tokens left. Rounds go on while the vocabulary is larger than ``vocab_size``: the course's 100 ends at 98.

The course has no EM step: SentencePiece re-estimates the probabilities from the expected counts of the tokens
in all segmentations (EM) before each pruning, and seeds from a suffix array; so its vocabulary differs.
The course's Viterbi starts every word at score 1 (not 0): its loss counts each word occurrence once more,
which is the loss reported here (:attr:`UnigramRound.loss`); removal scores and vocabularies are unaffected.

Removing a token changes only the words whose best segmentation uses it, so a round re-segments only those
words for each candidate (the incremental scoring that makes a seed of 20,000 trainable in seconds).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from math import log
from typing import NamedTuple

from ..i18n import N_
from ..inputs import SettingError
from .seam import StepWhy, register
from .stepped_run import SteppedRun

#: The kind of a Unigram step (:data:`bpe_core.algorithms.seam.STEP_KINDS`): one pruning round.
PRUNE = "prune"
UNK = "<unk>"
#: The longest seed piece, in characters (SentencePiece's ``max_sentencepiece_length``): a long unspaced line
#: (Chinese, where a metaspace word is a whole line) would otherwise count all its substrings, quadratic in memory.
MAX_PIECE = 16
#: The course's Viterbi starts every word at this score (see the module doc).
COURSE_START = 1.0


class UnigramRound(NamedTuple):
    """One pruning round.

    Attributes:
        step: 1-based round number.
        loss: the corpus loss of the vocabulary the round scored (the course's: see the module doc).
        candidates: every token longer than one character with its loss increase ``(token id, increase)``,
            lowest first (equal increases in vocabulary order): the first ``len(removed)`` were removed.
        removed: the token ids removed, in that order.
        vocab_size: the vocabulary's size after the round; loss_after: the loss after it (probabilities
            recomputed).
        stop_reason: on the last round, why training stopped.
    """

    step: int
    loss: float
    candidates: tuple
    removed: tuple
    vocab_size: int
    loss_after: float
    stop_reason: str | None = None

    @property
    def kind(self) -> str:
        """``"prune"`` (see :data:`bpe_core.algorithms.seam.STEP_KINDS`)."""
        return PRUNE


def seed_counts(words: dict[str, int], seed_size: int) -> dict[str, int]:
    """The seed vocabulary with its counts: every character, then the most frequent substrings of length 2 to
    :data:`MAX_PIECE` up to ``seed_size`` entries in all. Raises ``ValueError`` when ``seed_size`` is below the alphabet's size."""
    chars: dict[str, int] = {}
    subs: dict[str, int] = {}
    for word, f in words.items():
        n = len(word)
        for i in range(n):
            chars[word[i]] = chars.get(word[i], 0) + f
            for j in range(i + 2, min(n, i + MAX_PIECE) + 1):
                s = word[i:j]
                subs[s] = subs.get(s, 0) + f
    if seed_size < len(chars):
        raise SettingError(
            N_("the seed size {seed} is below the {chars} characters of the corpus: the seed holds every character"),
            seed=seed_size,
            chars=len(chars),
        )
    top = sorted(subs.items(), key=lambda kv: kv[1], reverse=True)[: seed_size - len(chars)]
    return {**chars, **dict(top)}


def log_probs(counts: dict[str, int]) -> dict[str, float]:
    """``{token: -log(count / total)}`` (the course's model)."""
    total = sum(counts.values())
    return {t: -log(c / total) for t, c in counts.items()}


def viterbi(
    word: str, model: dict[str, float], maxlen: int, start: float = COURSE_START
) -> tuple[list[str], float | None]:
    """The best segmentation of ``word`` under ``model`` (``{token: -log p}``) and its score (``start`` plus the
    tokens' ``-log p``); ``([], None)`` when no segmentation exists. Equal scores keep the one found first
    (shorter first tokens found earlier), as the course's loop does. ``maxlen``: the longest token's length."""
    n = len(word)
    best: list = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = start
    for s in range(n):
        at = best[s]
        if at is None:
            continue
        for e in range(s + 1, min(n, s + maxlen) + 1):
            lp = model.get(word[s:e])
            if lp is not None:
                score = lp + at
                if best[e] is None or best[e] > score:
                    best[e] = score
                    back[e] = s
    if best[n] is None:
        return [], None
    tokens, e = [], n
    while e > 0:
        s = back[e]
        tokens.append(word[s:e])
        e = s
    tokens.reverse()
    return tokens, best[n]


def encode_word(word: str, model: dict[str, float], maxlen: int) -> list[str]:
    """``word`` segmented as ``tokenizers``' Unigram model does: Viterbi, a run of characters outside the
    vocabulary becoming one ``<unk>`` (characters are in every vocabulary, so an unknown one can only be that)."""
    out: list[str] = []
    start = 0
    i = 0
    n = len(word)
    while i <= n:
        if i == n or word[i] not in model:
            if start < i:
                out.extend(viterbi(word[start:i], model, maxlen, 0.0)[0])
            if i == n:
                break
            j = i
            while j < n and word[j] not in model:
                j += 1
            out.append(UNK)
            start = i = j
        else:
            i += 1
    return out


def _best_path(n: int, edges, model: list, with_tokens: bool):
    """:func:`viterbi` over a word's precomputed ``edges`` (``(start, end, piece id)`` in start order, then end)
    with ``model[piece id]`` the piece's ``-log p`` (``None``: not in the vocabulary):
    ``(tokens, score)``, or only the score when not ``with_tokens``. The same comparisons in the same order as
    :func:`viterbi`, so the same path and the same float; the tokens as ``(start, end)`` spans."""
    best: list = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = COURSE_START
    for s, e, piece in edges:
        at = best[s]
        if at is None:
            continue
        lp = model[piece]
        if lp is None:
            continue
        score = lp + at
        if best[e] is None or best[e] > score:
            best[e] = score
            back[e] = s
    if not with_tokens:
        return best[n]
    tokens, e = [], n
    while e > 0:
        tokens.append(back[e])
        e = back[e]
    cuts = [*reversed(tokens), n]
    return [(cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1)], best[n]


class UnigramRun(SteppedRun):
    """A Unigram run, read-only for the app: token ids are seed positions (:meth:`token_text`); step ``k`` is
    the vocabulary after ``k`` rounds."""

    def __init__(self, config, words: dict[str, int], seed: dict[str, int]):
        super().__init__(config, words)
        self.values = list(seed)
        self.value_to_id = {v: i for i, v in enumerate(self.values)}
        self.seed_counts = list(seed.values())
        self.num_base = len(self.values)
        self.loss0 = 0.0
        self._models: dict[int, dict[str, float]] = {}

    @property
    def vocab_size(self) -> int:
        """Tokens in the vocabulary after the last round."""
        return self.snapshots[-1].vocab_size if self.snapshots else self.num_base

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """The token as text."""
        return self.values[tid]

    def alive(self, step: int | None = None) -> list[int]:
        """The token ids in the vocabulary after ``step`` rounds (default: all), in seed order."""
        k = self.num_steps if step is None else max(0, min(step, self.num_steps))
        gone = {t for snap in self.snapshots[:k] for t in snap.removed}
        return [t for t in range(self.num_base) if t not in gone]

    def vocabulary(self, step: int | None = None) -> list[str]:
        """The token strings after ``step`` rounds (default: all), in seed order."""
        return [self.values[t] for t in self.alive(step)]

    def model(self, step: int | None = None) -> dict[str, float]:
        """``{token: -log p}`` after ``step`` rounds (default: all), probabilities from the seed counts."""
        k = self.num_steps if step is None else max(0, min(step, self.num_steps))
        got = self._models.get(k)
        if got is None:
            got = self._models[k] = log_probs({self.values[t]: self.seed_counts[t] for t in self.alive(k)})
        return got

    def segmentation(self, index: int, step: int) -> list[int]:
        """Token ids of word type ``index`` after ``step`` rounds (its Viterbi segmentation)."""
        model = self.model(step)
        tokens, _ = viterbi(self.words[index], model, max(map(len, model)))
        return [self.value_to_id[t] for t in tokens]

    def tokenize(self, word: str, step: int | None = None) -> list[str]:
        """Any word segmented with the vocabulary after ``step`` rounds (unknown characters: ``<unk>``)."""
        model = self.model(step)
        return encode_word(word, model, max(map(len, model)))


class UnigramTraining:
    """A Unigram training: ``run`` fills as :meth:`steps` yields each :class:`UnigramRound`.

    Args:
        words: ``{word: frequency}``, first-appearance order.
        config: a :class:`~bpe_core.config.TrainConfig`: ``vocab_size`` (required), ``seed_size``, ``shrink``;
            ``num_merges`` caps the rounds.

    Raises:
        ValueError: no word, no vocabulary size, a seed or vocabulary size below the alphabet.
    """

    def __init__(self, words: dict[str, int], config):
        words = {w: f for w, f in words.items() if w and f > 0}
        if not words:
            raise SettingError(N_("the corpus has no words: there is nothing to train on"))
        if config.vocab_size is None:
            raise SettingError(N_("Unigram needs a vocabulary size to prune down to"))
        seed = seed_counts(words, config.seed_size)
        self.run = run = UnigramRun(config, words, seed)
        chars = sum(1 for v in run.values if len(v) == 1)
        if config.vocab_size < chars:
            raise SettingError(
                N_(
                    "the vocabulary size {size} is below the {chars} characters of the corpus, which Unigram never removes"
                ),
                size=config.vocab_size,
                chars=chars,
            )
        self._alive = list(range(run.num_base))
        # Each word's seed pieces as lattice edges (start, end, piece), in the order the course's loop meets them:
        # a round then looks up these few pieces instead of every substring of every word.
        longest = max(map(len, seed))
        ids = run.value_to_id
        self._edges = [
            [
                (i, j, ids[w[i:j]])
                for i in range(len(w))
                for j in range(i + 1, min(len(w), i + longest) + 1)
                if w[i:j] in ids
            ]
            for w in run.words
        ]

    def _segment_all(self, model: list):
        """Every word's best tokens and score, and the loss (summed in word order, as the course does); ``model``
        as for :func:`_best_path`."""
        run = self.run
        paths, scores, loss = [], [], 0.0
        for word, f, edges in zip(run.words, run.freqs, self._edges):
            spans, score = _best_path(len(word), edges, model, True)
            paths.append([word[a:b] for a, b in spans])
            scores.append(score)
            loss += f * score
        return paths, scores, loss

    def _by_id(self, model: dict[str, float]) -> list:
        """``model`` as a list by token id (``None``: removed), which the lattice reads faster than a dict."""
        out: list = [None] * self.run.num_base
        for token, lp in model.items():
            out[self.run.value_to_id[token]] = lp
        return out

    def steps(self) -> Iterator[UnigramRound]:
        """Run the rounds, yielding one :class:`UnigramRound` each; the last carries ``stop_reason``."""
        run, cfg = self.run, self.run.config
        values = run.values
        model = self._by_id(run.model(0))
        paths, scores, loss = self._segment_all(model)
        run.loss0 = loss
        while True:
            reason = None
            if len(self._alive) <= cfg.vocab_size:
                reason = "vocab_size"
            elif cfg.num_merges is not None and run.num_steps >= cfg.num_merges:
                reason = "num_merges"
            elif not any(len(values[t]) > 1 for t in self._alive):
                reason = "no_candidates"
            if reason is not None:
                run.stop_reason = reason
                if run.snapshots:
                    run.snapshots[-1] = run.snapshots[-1]._replace(stop_reason=reason)
                    yield run.snapshots[-1]
                return
            if run.snapshots:
                yield run.snapshots[-1]
            users: dict[str, list[int]] = {}
            for w, tokens in enumerate(paths):
                for t in dict.fromkeys(tokens):
                    users.setdefault(t, []).append(w)
            candidates = []
            for t in self._alive:
                token = values[t]
                if len(token) == 1:
                    continue
                increase = 0.0
                if token in users:
                    lp, model[t] = model[t], None  # removed alone, the others' probabilities unchanged; put back below
                    edges, words = self._edges, run.words
                    new = sum(run.freqs[w] * _best_path(len(words[w]), edges[w], model, False) for w in users[token])
                    model[t] = lp
                    increase = new - sum(run.freqs[w] * scores[w] for w in users[token])
                candidates.append((t, increase))
            candidates.sort(key=lambda c: c[1])  # stable: equal increases stay in vocabulary order
            n_remove = min(len(candidates), max(1, int(len(self._alive) * cfg.shrink)))
            removed = tuple(t for t, _ in candidates[:n_remove])
            gone = set(removed)
            self._alive = [t for t in self._alive if t not in gone]
            before = loss
            run._models[run.num_steps + 1] = log_probs({values[t]: run.seed_counts[t] for t in self._alive})
            model = self._by_id(run._models[run.num_steps + 1])
            paths, scores, loss = self._segment_all(model)
            run.snapshots.append(
                UnigramRound(run.num_steps + 1, before, tuple(candidates), removed, len(self._alive), loss)
            )


class Unigram:
    """Unigram behind the seam (:mod:`bpe_core.algorithms.seam`): registered as ``"unigram"``."""

    #: Its runs are not merge runs: the app's stepper draws them, its other pages train BPE (ui.training).
    merge_runs = False
    default_pretokenizer = "metaspace"

    def start(self, words: dict[str, int], config) -> UnigramTraining:
        """A Unigram training (:class:`UnigramTraining`). Raises ``ValueError``."""
        from ..teaching import field_views  # noqa: F401  (registers the step views of this kind)

        return UnigramTraining(words, config)

    def why(self, run, step, tr=None, language_name=None) -> StepWhy | None:
        """The pruning rule."""
        text = (tr or _ENGLISH).gettext(
            "Unigram removes the tokens whose removal makes the corpus loss grow least (this round: {count})."
        )
        return StepWhy("rule", text.format(count=len(run.snapshot(step).removed)))


_ENGLISH = gettext.NullTranslations()

register("unigram", Unigram())
