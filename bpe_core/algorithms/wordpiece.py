"""WordPiece (BERT's tokenizer), trained as the Hugging Face LLM course builds it (chapter 6, section 6).

The loop:

1. **Start.** Every word is split into characters; a character that does not start its word carries the
   continuation prefix ``##`` (``word`` -> ``w ##o ##r ##d``). The vocabulary starts with the special tokens
   ``[PAD] [UNK] [CLS] [SEP] [MASK]`` and the alphabet sorted by code point.
2. **Scoring.** Every adjacent pair inside a word gets the score ``count(pair) / (count(first) ×
   count(second))``, counts weighted by word frequency (a token's count is how often it stands in the corpus).
   A pair of rare parts that nearly always go together outscores a frequent pair of frequent parts: where
   BPE merges the most frequent pair, WordPiece merges the pair whose parts are most bound to each other.
3. **Choosing.** The highest score wins; ties go to the pair seen first (word types in order of first
   appearance, positions left to right), as the course's ``max`` loop does. A pair seen once counts.
4. **Applying.** Left to right without overlap; the new token is the first part followed by the second
   without its ``##`` (``a + ##b`` -> ``ab``, ``##f + ##u`` -> ``##fu``). A string made twice is one entry.
5. **Stopping.** At the vocabulary size (special tokens and alphabet included), or when no pair is left.

Encoding (:func:`~bpe_core.algorithms.wordpiece_run.encode_word`) is not the merges replayed but BERT's greedy
longest-match-first per word, with ``[UNK]`` for a word that cannot be covered. ``tokenizers``' ``WordPieceTrainer``
trains with BPE's rule (the most frequent pair) and only renames the result (huggingface/tokenizers#1777).

The counts are kept incrementally: a merge touches only the words that hold its pair, and in most of them only the
two pairs beside it change. A heap holds an upper bound of each pair's score, so a merge re-pushes a token's pairs
only when its count falls below its bound; the best pairs are those whose exact score no bound left in the heap can
reach.
"""

from __future__ import annotations

import gettext
import heapq
from collections import Counter, defaultdict, deque
from collections.abc import Iterator
from itertools import chain, repeat
from operator import itemgetter

from ..i18n import N_
from ..inputs import SettingError
from .seam import StepWhy, register
from .wordpiece_run import ScoreRow, WordPieceRun, WordPieceStep, join_pieces

#: A token's count bound is this fraction of its count (see WordPieceTraining._push): the smaller, the rarer
#: the re-pushes of its pairs and the more pairs each best-pair search looks at.
_SLACK = 0.97
#: A pair scoring at least this fraction of the table's last row stays in the pool (see WordPieceTraining._best).
_NEAR = _SLACK * _SLACK
_tail = itemgetter(slice(1, None))  # a list without its first item


class WordPieceTraining:
    """A WordPiece training: ``run`` fills as :meth:`steps` yields each :class:`WordPieceStep`.

    Args:
        words: ``{word: frequency}``, first-appearance order.
        config: a :class:`~bpe_core.config.TrainConfig` (``vocab_size``, ``num_merges``, ``top_k`` are read;
            ``min_frequency`` is not: a pair seen once counts).

    Raises:
        ValueError: no word, or a vocabulary size below the special tokens and the alphabet.
    """

    def __init__(self, words: dict[str, int], config):
        words = {w: f for w, f in words.items() if w and f > 0}
        if not words:
            raise SettingError(N_("the corpus has no words: there is nothing to train on"))
        self.run = run = WordPieceRun(config, words)
        if config.vocab_size is not None and config.vocab_size < run.num_base:
            raise SettingError(
                N_(
                    "the vocabulary size {size} is below the {base} tokens WordPiece starts with (5 special tokens and the alphabet)"
                ),
                size=config.vocab_size,
                base=run.num_base,
            )
        self._splits = [list(h[0][1]) for h in run._history]
        self._pair_count: Counter = Counter()
        self._pair_words: dict[tuple[int, int], set[int]] = {}  # (made by _count_words)
        self._token_count: Counter = Counter()
        self._token_pairs: dict[int, set] = {}
        self._count_words()
        self._tokens = run._tokens0
        self._heap: list = []
        self._pool: list = []  # pairs out of the heap, scored at every step (see _best)
        self._scores: dict = {}  # the exact scores _best found at this step
        self._seen: dict = {}  # pair -> its first occurrence as _first_seen found it
        self._low: dict[int, float] = {t: c * _SLACK for t, c in self._token_count.items()}
        self._push(self._pair_count)

    # ---------------------------------------------------------------------------------- the counts
    def _count_words(self) -> None:
        """The counts of every word's characters and pairs, which words hold each pair, which pairs each token."""
        splits, freqs, pc = self._splits, self.run.freqs, self._pair_count
        # Every pair occurrence, word after word, and for each pair the word of each occurrence (a word that
        # holds it twice is listed twice): made in C, no Python statement per occurrence (a book has hundreds of
        # thousands). A pair's count is then the sum of those words' frequencies.
        pairs = chain.from_iterable(map(zip, splits, map(_tail, splits)))
        owners = chain.from_iterable(map(repeat, range(len(splits)), map(len, map(_tail, splits))))
        held: defaultdict = defaultdict(list)
        deque(map(list.append, map(held.__getitem__, pairs), owners), 0)
        freq_of = freqs.__getitem__
        for p, ws in held.items():
            pc[p] = sum(map(freq_of, ws))
        self._pair_words = dict(zip(held, map(set, held.values())))
        # A token stands either first in its word or second in a pair.
        tc: dict = {}
        for t, f in zip(map(itemgetter(0), splits), freqs):
            tc[t] = tc.get(t, 0) + f
        for p, c in pc.items():
            tc[p[1]] = tc.get(p[1], 0) + c
        self._token_count.update(tc)
        token_pairs = self._token_pairs
        for p in pc:  # (once per pair, not once per occurrence)
            token_pairs.setdefault(p[0], set()).add(p)
            token_pairs.setdefault(p[1], set()).add(p)

    def _push(self, pairs) -> None:
        # A heap entry's key is an upper bound of its pair's score, the count over the product of its parts'
        # lower bounds (_low): a merge that lowers a token's count by less than the slack leaves every key of
        # its pairs above the score, so it re-pushes nothing (counts of pairs without the new token only fall).
        heap, pc, low, push = self._heap, self._pair_count, self._low, heapq.heappush
        for p in pairs:
            c = pc.get(p, 0)
            if c > 0:
                push(heap, (-(c / (low[p[0]] * low[p[1]])), p))

    def _first_seen(self, p: tuple[int, int]) -> tuple[int, int, int]:
        """The pair's first occurrence as a sort key ``(word, position, version)``: its first word type, its
        first position there, and how many segmentations that word has had (its version)."""
        # Kept until that word is rewritten: a pair never comes back to a word it left, and only a merge whose
        # token already existed (not is_new) can bring an old pair to an earlier word (_merge clears the keys).
        seen = self._seen.get(p)
        if seen is not None and seen[2] == len(self.run._history[seen[0]]):
            return seen
        w = min(self._pair_words[p])
        split = self._splits[w]
        i = next(i for i in range(len(split) - 1) if (split[i], split[i + 1]) == p)
        seen = self._seen[p] = (w, i, len(self.run._history[w]))
        return seen

    def _best(self, k: int) -> tuple[list, int]:
        """The best ``k`` pairs (at least every pair tied with the best, and every pair tied with the last),
        best first, ties first-seen; and how many pairs have the best score."""
        heap, pc, tc, pop = self._heap, self._pair_count, self._token_count, heapq.heappop
        scores: dict = {}  # the last table's pairs and the popped ones, if live -> exact score
        kth: list = []  # the k best exact scores so far (a min-heap)
        # The last table's pairs and those just below it are held out of the heap (_pool): most are in this
        # table too, or would come out of the heap again (their keys are up to 1 / _SLACK² above their scores),
        # and scoring them again is cheaper than popping and pushing them every step.
        for p in self._pool:
            c = pc.get(p, 0)
            if c > 0:
                score = scores[p] = c / (tc[p[0]] * tc[p[1]])
                if len(kth) < k:
                    heapq.heappush(kth, score)
                elif score > kth[0]:
                    heapq.heapreplace(kth, score)
        # Keys bound scores from above: once the best key left is below the k-th best exact score, no pair
        # left can enter the table or tie with its last row.
        while heap and (len(kth) < k or -heap[0][0] >= kth[0]):
            p = pop(heap)[1]
            c = pc.get(p, 0)
            if c > 0 and p not in scores:  # (a pair re-pushed has older entries: the first one out counts)
                score = scores[p] = c / (tc[p[0]] * tc[p[1]])  # the course's expression: ties are equal floats
                if len(kth) < k:
                    heapq.heappush(kth, score)
                elif score > kth[0]:
                    heapq.heapreplace(kth, score)
        if not scores:
            self._pool = []
            return [], 0
        self._scores = scores  # (read by _merge for the table's rows)
        taken = sorted(((s, p) for p, s in scores.items() if s >= kth[0]), key=itemgetter(0), reverse=True)
        near = kth[0] * _NEAR
        self._pool = [p for p, s in scores.items() if s >= near]
        self._push(p for p, s in scores.items() if s < near)
        i = 0
        while i < len(taken):  # equal scores in first-seen order (found only where scores are equal)
            j = i + 1
            while j < len(taken) and taken[j][0] == taken[i][0]:
                j += 1
            if j - i > 1:
                taken[i:j] = sorted(taken[i:j], key=lambda e: self._first_seen(e[1]))
            i = j
        ties = sum(1 for e in taken if e[0] == taken[0][0])
        return [e[1] for e in taken[: max(k, 1)]], ties

    # ---------------------------------------------------------------------------------- the loop
    def steps(self) -> Iterator[WordPieceStep]:
        """Run the loop, yielding one :class:`WordPieceStep` per merge; the last carries ``stop_reason``."""
        cfg, run = self.config_, self.run
        pending = None
        while True:
            reason, table, ties = None, [], 0
            if cfg.num_merges is not None and run.num_steps >= cfg.num_merges:
                reason = "num_merges"
            elif cfg.vocab_size is not None and run.vocab_size >= cfg.vocab_size:
                reason = "vocab_size"
            else:
                table, ties = self._best(cfg.top_k)
                if not table:
                    reason = "no_pairs"
            if reason is not None:
                run.stop_reason = reason
                if pending is not None:
                    pending = run.snapshots[-1] = pending._replace(stop_reason=reason)
                    yield pending
                return
            if pending is not None:
                yield pending
            pending = self._merge(table, ties)

    @property
    def config_(self):
        return self.run.config

    def _merge(self, table: list, ties: int) -> WordPieceStep:
        run = self.run
        step = run.num_steps + 1
        a, b = table[0]
        pc, tc = self._pair_count, self._token_count
        scores = self._scores
        rows = tuple(ScoreRow(x, y, pc[x, y], tc[x], tc[y], scores[x, y]) for x, y in table)
        value = join_pieces(run.values[a], run.values[b])
        new = run.value_to_id.get(value)
        is_new = new is None
        if not is_new:
            self._seen.clear()
        if is_new:
            new = len(run.values)
            run.values.append(value)
            run.value_to_id[value] = new
            run.created_step.append(step)
        merged, words_changed = self._rewrite(a, b, new, step)
        tc[a] -= merged  # each merge takes one a and one b (twice a when a is b) and makes one new token
        tc[b] -= merged
        tc[new] += merged
        self._tokens -= merged
        low, token_pairs = self._low, self._token_pairs
        if is_new or tc[new] < low[new]:
            low[new] = tc[new] * _SLACK
        self._push(token_pairs.get(new, ()))
        for t in {a, b}:
            if 0 < tc[t] < low[t]:  # below its bound: the keys of its pairs may be below their scores
                low[t] = tc[t] * _SLACK
                self._push(token_pairs[t])  # (a pair pushed twice has one entry too many, never one too few)
        first = rows[0]
        snap = WordPieceStep(
            step, a, b, new, is_new, first.count, first.left_count, first.right_count, first.score,
            ties, "first-seen", rows, run.vocab_size, self._tokens, words_changed,
        )  # fmt: off
        run.snapshots.append(snap)
        return snap

    def _rewrite(self, a: int, b: int, new: int, step: int) -> tuple[int, int]:
        """Merge ``a`` and ``b`` into ``new`` in every word that holds the pair, and update the pair counts and
        which words hold each pair; return the merges made (weighted by word frequency) and the words rewritten.

        Only pairs with ``a`` or ``b`` lose occurrences, so only they can vanish; a pair of two other tokens keeps
        its count and score, so the caller rescores the pairs of ``a``, ``b`` and ``new`` alone. The pair ``a b``
        itself vanishes everywhere (left to right without overlap, no ``a`` stays next to a ``b``)."""
        pc, pair_words, token_pairs = self._pair_count, self._pair_words, self._token_pairs
        splits, history, freqs = self._splits, self.run._history, self.run.freqs
        ab = (a, b)
        words = pair_words.pop(ab)  # (in any order: a word's rewrite does not depend on another's)
        del pc[ab]
        token_pairs[a].discard(ab)
        token_pairs[b].discard(ab)
        gone_pairs: set = set()  # pairs that lost occurrences: deleted below if none is left
        created: list = []  # pairs no word held before
        merged = 0
        simple = a != b and new != a and new != b
        for w in words:
            old, f = splits[w], freqs[w]
            if simple and old.count(a) == 1 and old.count(b) == 1:
                # Most words: one merge, where a and b stand once each, so only the pairs with the neighbours
                # change, (x, a) -> (x, new) and (b, y) -> (new, y), and the old ones leave the word.
                i = old.index(a)
                out = old[:i]
                out.append(new)
                out += old[i + 2 :]
                lost = [(old[i - 1], a)] if i else []
                gained = [(old[i - 1], new)] if i else []
                if i + 2 < len(old):
                    lost.append((b, old[i + 2]))
                    gained.append((new, old[i + 2]))
                left = lost
                merged += f
            else:
                out, i, n = [], 0, len(old)
                while i < n:
                    t = old[i]
                    if t == a and i + 1 < n and old[i + 1] == b:
                        out.append(new)
                        i += 2
                    else:
                        out.append(t)
                        i += 1
                # The word's pairs before and after, counted in C: a word of repeated symbols (a line of
                # dashes) has many occurrences but few distinct pairs, and only the counts that differ matter.
                before, after = Counter(zip(old, old[1:])), Counter(zip(out, out[1:]))
                del before[ab]
                lost = [p for p, c in before.items() for _ in range(c - after[p])]
                gained = [p for p, c in after.items() for _ in range(c - before[p])]
                left = [p for p in before if p not in after]
                merged += f * (n - len(out))
            for p in lost:
                pc[p] -= f
            for p in left:
                pair_words[p].discard(w)
            gone_pairs.update(left)
            for p in gained:
                pc[p] += f
                held = pair_words.get(p)
                if held is None:
                    pair_words[p] = {w}
                    created.append(p)
                else:
                    held.add(w)
            splits[w] = out
            history[w].append((step, tuple(out)))
        for p in created:
            token_pairs.setdefault(p[0], set()).add(p)
            token_pairs.setdefault(p[1], set()).add(p)
        for p in gone_pairs:
            if pc[p] <= 0:
                del pc[p]
                del pair_words[p]
                for t in p:
                    token_pairs[t].discard(p)
        return merged, len(words)


class WordPiece:
    """WordPiece behind the seam (:mod:`bpe_core.algorithms.seam`): registered as ``"wordpiece"``."""

    #: Its runs are not merge runs: the app's stepper draws them, its other pages train BPE (ui.training).
    merge_runs = False
    default_pretokenizer = "bert"

    def start(self, words: dict[str, int], config) -> WordPieceTraining:
        """A WordPiece training (:class:`WordPieceTraining`). Raises ``ValueError``."""
        from ..teaching import field_views  # noqa: F401  (registers the step views of this kind)

        return WordPieceTraining(words, config)

    def why(self, run, step, tr=None, language_name=None) -> StepWhy | None:
        """The score rule: WordPiece never chooses by count alone."""
        text = (tr or _ENGLISH).gettext(
            "WordPiece merges the pair with the highest score, its count divided by the product of its parts' "
            "counts: {score:.4g}."
        )
        return StepWhy("rule", text.format(score=run.snapshot(step).score))


_ENGLISH = gettext.NullTranslations()

register("wordpiece", WordPiece())
