"""Byte-level BPE on a mix of languages, with the plain merge rule or the parity-aware ("fair-max") one.

Every word type is labelled with its language (``(language, word)`` is the type: the same string in two
languages is two types), so each merge can say which language it served, and the trainer can count pairs
per language. Two rules choose the next merge:

* **plain**: the pair with the highest count over the whole mix, each language's counts multiplied by its
  weight (equal shares of UTF-8 bytes, or the learner's own weights). This is ordinary BPE on the weighted
  corpus.
* **fair** (parity-aware BPE): Foroutan, Meister, Paul, Niklaus, Ahmadi, Bosselut & Sennrich, "Parity-Aware
  Byte-Pair Encoding: Improving Cross-lingual Fairness in Tokenization", arXiv 2508.04796 (2025). At every merge
  step it maximises the compression gain of the language that is currently worst compressed: the language
  whose parallel text is currently the longest in tokens is found, and the pair most frequent in *that
  language's* training words is merged (applied to every language). The rule here follows the authors' code
  (github.com/swiss-ai/parity-aware-bpe, ``learn_bpe``, the ``base`` variant with a development set): the
  worst-compressed language is the one with the most tokens on the multi-parallel development text, and the
  pair is the one with the highest count in that language's training data. The full paper text could not be
  read from this machine; its abstract and the authors' code were.

  How this module differs, and why: (1) the development text is the training text itself (the Declaration's
  preamble and articles 1-20 are parallel across languages, so "most tokens" is "highest tax relative to
  English"); the held-out articles 21-30 measure the result. (2) When the worst language has no pair seen
  twice, the next-worst is served instead of stopping (the authors' code stops), so both rules reach the same
  number of merges. (3) Equal counts are broken by the smallest ``(left id, right id)`` (the authors' code takes
  the largest pair of strings); the plain rule uses the same tie-break, so the two differ only in the rule.

Merges apply to all occurrences of the pair in a word, left to right, without overlap (``a a a`` -> ``aa a``),
as in :mod:`bpe_core.algorithms.trainer`. Pair counts are kept per language and updated only for the words a merge
touches; each rule finds its best pair through a lazily cleaned heap. This trainer keeps no per-step
snapshots: it returns the merges and, per merge, the language served. :class:`LanguageMix` (an algorithm of
:mod:`bpe_core.algorithms.seam`) and :func:`stepper_run` turn such a training into a :class:`~bpe_core.algorithms.run.TrainedRun`
with snapshots, for the stepper, by replaying its merges through the ordinary trainer
(:class:`~bpe_core.algorithms.trainer.Trainer`'s ``merges`` argument); what only a mix has goes in ``run.extras``.
"""

from __future__ import annotations

import gettext
import heapq
from collections import defaultdict
from dataclasses import dataclass, replace

from ..config import TrainConfig
from ..encoding.encoder import Tokenizer
from ..pretokenize import word_counts
from .run import TrainedRun
from .seam import StepWhy, run_training
from .trainer import Trainer

RULES = ("plain", "fair")


@dataclass(frozen=True)
class FairRun:
    """A finished training on a language mix.

    Attributes:
        rule: ``"plain"`` or ``"fair"``.
        languages: the language names, in the order given.
        merges: ``[(left bytes, right bytes)]`` in merge order.
        served: for each merge, the language it served (fair: the worst-compressed language at that step;
            plain: the language in which the pair was most frequent, for the learner's information).
        lengths: for each step 0..n, ``{language: tokens of its training text}`` (unweighted counts).
        pretokenizer: the pre-tokenizer used.
    """

    rule: str
    languages: tuple
    merges: list
    served: list
    lengths: list
    pretokenizer: str

    def tokenizer(self, step: int | None = None) -> Tokenizer:
        """A byte-level :class:`~bpe_core.encoding.encoder.Tokenizer` with the first ``step`` merges (default: all)."""
        merges = self.merges[: len(self.merges) if step is None else step]
        vocab = {bytes((b,)): b for b in range(256)}
        for left, right in merges:
            vocab.setdefault(left + right, len(vocab))
        return Tokenizer("byte", self.pretokenizer, merges, vocab)


def byte_share_weights(texts: dict) -> dict:
    """Weights that give every language the same share of UTF-8 bytes: ``{language: max_bytes / bytes}``.

    Raises:
        ValueError: an empty text.
    """
    sizes = {lang: len(t.encode("utf-8")) for lang, t in texts.items()}
    if not sizes or min(sizes.values()) == 0:
        raise ValueError("every language of the mix needs some text")
    top = max(sizes.values())
    return {lang: top / size for lang, size in sizes.items()}


def train_mix(
    texts: dict,
    num_merges: int,
    rule: str = "plain",
    weights: dict | None = None,
    pretokenizer: str = "gpt2",
    min_frequency: int = 2,
) -> FairRun:
    """Train byte-level BPE on ``texts``.

    Args:
        texts: ``{language: training text}`` (parallel texts for the fair rule).
        num_merges: merges to learn (fewer when no pair occurs ``min_frequency`` times in any served language).
        rule: ``"plain"`` or ``"fair"`` (see the module doc).
        weights: ``{language: weight >= 0}`` for the plain rule's counts (default: 1 each), used to 1/1000; a
            language of weight 0 is left out of the mix altogether.
        pretokenizer: one of :data:`bpe_core.pretokenize.PRETOKENIZERS` (default ``"gpt2"``).
        min_frequency: a pair must occur this many times (in the served language, for fair; weighted, for plain).

    Raises:
        ValueError: an unknown rule, a negative merge count or weight, or no language with text.
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose one of {', '.join(RULES)}")
    if num_merges < 0:
        raise ValueError("num_merges must be >= 0")
    weights = (
        {lang: 1.0 for lang in texts} if weights is None else {lang: float(weights.get(lang, 0)) for lang in texts}
    )
    if any(w < 0 for w in weights.values()):
        raise ValueError("weights must be >= 0")
    langs = tuple(lang for lang in texts if weights[lang] > 0 and texts[lang])
    if not langs:
        raise ValueError("the mix has no language with text and a positive weight")
    return _Trainer(texts, langs, weights, pretokenizer).train(num_merges, rule, min_frequency)


class _Trainer:
    def __init__(self, texts, langs, weights, pretokenizer):
        self.langs, self.pretokenizer = langs, pretokenizer
        # Weights in thousandths, as integers: weighted counts stay exact, so equal counts are truly equal and
        # the tie-break decides, whatever order the updates came in.
        self.weight = [max(1, round(1000 * weights[lang])) for lang in langs]
        # Word types labelled by language: parallel lists of symbols, language index and frequency.
        self.words, self.lang_of, self.freq = [], [], []
        for li, lang in enumerate(langs):
            for word, f in word_counts(texts[lang], pretokenizer).items():
                self.words.append(list(word.encode("utf-8")))
                self.lang_of.append(li)
                self.freq.append(f)
        self.values = [bytes((b,)) for b in range(256)]
        self.counts = [defaultdict(int) for _ in langs]  # per language: pair -> occurrences
        self.where = defaultdict(set)  # pair -> word indices holding it
        self.length = [0] * len(langs)  # per language: tokens of its training text
        for i, syms in enumerate(self.words):
            li, f = self.lang_of[i], self.freq[i]
            self.length[li] += f * len(syms)
            for pair in zip(syms, syms[1:]):
                self.counts[li][pair] += f
                self.where[pair].add(i)
        self.total = defaultdict(int)
        for li, c in enumerate(self.counts):
            for pair, n in c.items():
                self.total[pair] += self.weight[li] * n
        self.heaps = [[(-n, p) for p, n in c.items()] for c in self.counts]
        self.total_heap = [(-n, p) for p, n in self.total.items()]
        for h in (*self.heaps, self.total_heap):
            heapq.heapify(h)

    @staticmethod
    def _top(heap, table):
        """The best ``(count, pair)`` of ``table`` through its lazy heap (stale entries dropped), or None."""
        while heap:
            n, pair = heap[0]
            if table.get(pair, 0) == -n and -n > 0:
                return -n, pair
            heapq.heappop(heap)
        return None

    def _choose(self, rule, min_frequency):
        if rule == "plain":
            top = self._top(self.total_heap, self.total)
            if top is None or top[0] < min_frequency:
                return None
            pair = top[1]
            served = max(range(len(self.langs)), key=lambda li: (self.counts[li].get(pair, 0), -li))
            return pair, served
        # fair: the languages from worst compressed (most tokens) down; the first with a pair seen often enough
        for li in sorted(range(len(self.langs)), key=lambda li: (-self.length[li], li)):
            top = self._top(self.heaps[li], self.counts[li])
            if top is not None and top[0] >= min_frequency:
                return top[1], li
        return None

    def _merge(self, pair, new_id):
        """Merge ``pair`` into ``new_id`` in every word holding it; pair counts change by the net difference
        per word, gathered per language, and each changed count is pushed to its heaps once."""
        a, b = pair
        deltas = defaultdict(int)  # (language, pair) -> change in count
        for i in self.where.pop(pair, ()):
            syms, li, f = self.words[i], self.lang_of[i], self.freq[i]
            out, j, n = [], 0, len(syms)
            while j < n:
                if j + 1 < n and syms[j] == a and syms[j + 1] == b:
                    out.append(new_id)
                    j += 2
                else:
                    out.append(syms[j])
                    j += 1
            if len(out) == n:
                continue  # a stale index: the pair left this word in an earlier merge
            for p in zip(syms, syms[1:]):
                deltas[li, p] -= f
            for p in zip(out, out[1:]):
                deltas[li, p] += f
                if new_id in p:
                    self.where[p].add(i)
            self.length[li] -= f * (n - len(out))
            self.words[i] = out
        changed_total = set()
        for (li, p), d in deltas.items():
            if d:
                c = self.counts[li]
                c[p] += d
                heapq.heappush(self.heaps[li], (-c[p], p))
                self.total[p] += self.weight[li] * d
                changed_total.add(p)
        for p in changed_total:
            heapq.heappush(self.total_heap, (-self.total[p], p))

    def train(self, num_merges, rule, min_frequency) -> FairRun:
        merges, served = [], []
        lengths = [dict(zip(self.langs, self.length))]
        for _ in range(num_merges):
            chosen = self._choose(rule, min_frequency)
            if chosen is None:
                break
            pair, li = chosen
            new_id = len(self.values)
            self.values.append(self.values[pair[0]] + self.values[pair[1]])
            self._merge(pair, new_id)
            merges.append((self.values[pair[0]], self.values[pair[1]]))
            served.append(self.langs[li])
            lengths.append(dict(zip(self.langs, self.length)))
        return FairRun(rule, self.langs, merges, served, lengths, self.pretokenizer)


# ------------------------------------------------------------------------------- the stepper's run
_ENGLISH = gettext.NullTranslations()


def is_mix_config(config: TrainConfig) -> bool:
    """True for the settings a language-mix training uses (the mix trainer's): byte-level, GPT-2's pre-tokenizer."""
    return config.variant == "byte" and config.resolved_pretokenizer == "gpt2"


class LanguageMix:
    """The language-mix training as an algorithm of the seam (:class:`bpe_core.algorithms.seam.Algorithm`): the mix
    rule (:func:`train_mix`) chooses the merges, then the ordinary trainer takes them in order
    (:class:`~bpe_core.algorithms.trainer.Trainer`'s ``merges``) and keeps its snapshots: each step's pair table still lists
    the most frequent pairs of the whole mix, with the chosen pair first (under the fair rule it is often not the
    most frequent one), and says the rule chose it (``ties`` 1). Not registered by name: it is made for its texts.

    The run's ``extras``: ``"rule"`` (``rule``), ``"served"`` (``served[k - 1]``: the language merge ``k``
    served) and ``"word_languages"`` (``[i]``: the languages word type ``i`` comes from, a tuple in ``texts``
    order).

    Args:
        texts: ``{language: training text}``.
        rule, weights: as for :func:`train_mix`.
    """

    def __init__(self, texts: dict, rule: str = "plain", weights: dict | None = None):
        self.texts, self.rule, self.weights = texts, rule, weights
        self._counted: tuple | None = None

    @staticmethod
    def check(config: TrainConfig) -> None:
        """Raise ``ValueError`` unless ``config`` is byte-level with GPT-2's pre-tokenizer (:func:`is_mix_config`)."""
        if not is_mix_config(config):
            raise ValueError("a language-mix training is byte-level BPE with GPT-2's pre-tokenizer")

    def _languages(self) -> tuple:
        """The languages in the mix: a positive weight and some text, in ``texts`` order (as :func:`train_mix`)."""
        weights = self.weights or {}
        return tuple(k for k, t in self.texts.items() if t and (self.weights is None or weights.get(k, 0) > 0))

    def _word_languages(self) -> tuple[dict, dict]:
        """``({word: frequency summed over the languages}, {word: [languages]})`` with GPT-2's pre-tokenizer
        (counted once per mix)."""
        if self._counted is None:
            words: dict = {}
            langs: dict = {}
            for lang in self._languages():
                for word, f in word_counts(self.texts[lang], "gpt2").items():
                    words[word] = words.get(word, 0) + f
                    langs.setdefault(word, []).append(lang)
            self._counted = words, langs
        return self._counted

    def words(self) -> dict:
        """The mix's words, every language's counts summed (the same string in two languages is one word type):
        what :meth:`start` trains on."""
        return dict(self._word_languages()[0])

    def start(self, words: dict, config: TrainConfig) -> Trainer:
        """Choose the merges with the mix rule (``config.num_merges`` of them, default 2,000), then a trainer that
        takes them on ``words`` (:meth:`words`). Raises ``ValueError``: another variant or pre-tokenizer, or what
        :func:`train_mix` raises."""
        self.check(config)
        merges = 2_000 if config.num_merges is None else config.num_merges
        mix = train_mix(self.texts, merges, self.rule, self.weights, "gpt2", config.min_frequency)
        # min_frequency 1: the rule already applied its own (per language); the summed count is never lower.
        trainer = Trainer(words, replace(config, num_merges=len(mix.merges), min_frequency=1), merges=mix.merges)
        run = trainer.run
        langs = self._word_languages()[1]
        run.algorithm = self
        run.extras = {
            "rule": self.rule,
            "served": list(mix.served),
            "word_languages": [tuple(langs[w]) for w in run.words],
        }
        return trainer

    def why(
        self, run: TrainedRun, step: int, tr: gettext.NullTranslations | None = None, language_name=None
    ) -> StepWhy | None:
        """The language merge ``step`` served: under the fair rule that is the reason (``"rule"``), under the plain
        rule a note beside the count (``"note"``). ``None`` outside the merges."""
        served = run.extras.get("served") or ()
        if not 1 <= step <= len(served):
            return None
        tr = tr or _ENGLISH
        name = (language_name or str)(served[step - 1])
        if run.extras.get("rule") == "fair":
            text = tr.gettext(
                "This merge served {language}: fair BPE takes the most frequent pair of the language whose text is "
                "then the longest in tokens (the count is the pair's count in the whole mix)."
            )
            return StepWhy("rule", text.format(language=name))
        text = tr.gettext("Plain BPE: the pair with the highest count in the whole mix, most frequent in {language}.")
        return StepWhy("note", text.format(language=name))


def stepper_run(
    texts: dict,
    config: TrainConfig,
    rule: str = "plain",
    weights: dict | None = None,
    progress=None,
    on_start=None,
) -> TrainedRun:
    """The language-mix training as a :class:`~bpe_core.algorithms.run.TrainedRun` the stepper draws (:class:`LanguageMix`:
    :func:`train_mix` chooses the merges, the ordinary trainer replays them and keeps its snapshots).
    ``run.extras["rule"]`` is ``rule``; ``run.extras["served"][k - 1]`` is the language merge ``k`` served;
    ``run.extras["word_languages"][i]`` the languages word type ``i`` comes from (a tuple, in ``texts`` order).

    Args:
        texts: ``{language: training text}``.
        config: byte-level with GPT-2's pre-tokenizer (the mix trainer's).
        progress / on_start: as for :func:`bpe_core.algorithms.trainer.train` (``on_start`` once the replay starts).

    Raises:
        ValueError: another variant or pre-tokenizer, or what :func:`train_mix` raises.
    """
    mix = LanguageMix(texts, rule, weights)
    mix.check(config)
    return run_training(mix.start(mix.words(), config), progress, on_start)
