"""PickyBPE (Chizhov et al., EMNLP 2024, arXiv 2409.04599): byte-level BPE that removes a token once it lives almost
only inside a longer one.

At each merge of ``(a, b)`` with count ``c_ab``, each part's *intersection over self* is ``IoS(a) = c_ab / c_a``, its
share of ``a``'s occurrences (``c_a``: ``a``'s count in the corpus as segmented just before the merge) that the merge
swallows. A part of two bytes or more whose IoS is at least the threshold ``T`` is removed from the vocabulary right
after the merge (the left part first): its remaining occurrences are split back into single bytes, and it is never
made again. A removal is a step event of its own (kind ``"removal"``), recorded after the merge that caused it.

The rules, and where they follow the Apache-2.0 PickyBPE of BoundlessBPE (``boundlessbpe/pickybpe.py``, the tests'
oracle) rather than this project's plain BPE (:mod:`bpe_core.algorithms.trainer`):

1. Pair counts skip the overlapping occurrence in a run of one symbol (``a a a`` holds ``(a, a)`` once), as both do.
2. The most frequent pair wins. Ties: ``lexical`` (the project's rule: the largest ``(left, right)`` pair of byte
   strings) or ``smallest`` (the reference's: the smallest pair).
3. A pair whose merged string is, or ever was, in the vocabulary is not merged (the reference's rule; plain BPE
   instead lets such a merge make the existing token again).
4. Merges go left to right in each word; a removed token becomes its single bytes (the reference's choice: the paper's
   splits it into the two tokens it was merged from).
5. ``num_merges`` N counts merges only (removals are extra steps): N merges equal the reference's ``vocab_size`` of
   256 + N. ``vocab_size`` V counts the live vocabulary (256 bytes + merges - removals), the reference's count
   differs (it keeps counting removed tokens). ``min_frequency`` F stops before a pair seen fewer than F times (the
   reference has no such stop: pass 1 to match it).
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from typing import NamedTuple

from .tiebreak import rev_key

PICKY_TIES = ("lexical", "smallest")


class PickyEvent(NamedTuple):
    """One step of a PickyBPE training.

    Attributes:
        kind: ``"merge"`` or ``"removal"``.
        merges: the number of merges made so far (a removal: the merge that caused it).
        left, right: the merged pair (a merge) as byte strings; a removal: ``left`` is the removed token, ``right``
            is ``b""``.
        count: the pair's count (a merge); a removal: the occurrences it still had, split into bytes.
        ios: ``(IoS(left), IoS(right))`` of a merge; a removal: ``(IoS, IoS)`` of the removed token.
        vocab_size: the live vocabulary after the step.
    """

    kind: str
    merges: int
    left: bytes
    right: bytes
    count: int
    ios: tuple
    vocab_size: int

    @property
    def token(self) -> bytes:
        """The merged token (a merge) or the removed one (a removal)."""
        return self.left + self.right


def _pairs(tokens: list) -> dict:
    """The pair counts of one word, skipping the overlapping occurrence in a run of one symbol (rule 1)."""
    # Most words hold each pair once: then every count is 1 (rule 1 needs a pair seen twice), found in C.
    out = dict.fromkeys(zip(tokens, tokens[1:]), 1)
    if len(out) >= len(tokens) - 1:
        return out
    out = {}
    prev = None
    for pair in zip(tokens, tokens[1:]):
        if pair[0] == pair[1] and pair == prev:
            prev = None
            continue
        out[pair] = out.get(pair, 0) + 1
        prev = pair
    return out


class PickyTrainer:
    """A PickyBPE training of ``{word: frequency}`` (words as text, encoded as UTF-8 bytes).

    Args:
        threshold: the IoS threshold T, 0 < T <= 1.
        num_merges, vocab_size: when to stop (rule 5; at most one; neither: until no pair is left).
        min_frequency: stop before a pair with a lower count (rule 5).
        ties: one of :data:`PICKY_TIES` (rule 2).

    Raises:
        ValueError: a threshold outside (0, 1], an unknown tie rule.
    """

    def __init__(
        self,
        words: dict[str, int],
        threshold: float,
        num_merges: int | None = None,
        vocab_size: int | None = None,
        min_frequency: int = 2,
        ties: str = "lexical",
    ):
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"the PickyBPE threshold must be above 0 and at most 1, got {threshold}")
        if ties not in PICKY_TIES:
            raise ValueError(f"unknown PickyBPE tie rule {ties!r}; choose one of {', '.join(PICKY_TIES)}")
        self.threshold = threshold
        self.num_merges = num_merges
        self.vocab_size = vocab_size
        self.min_frequency = max(1, min_frequency)
        # The lexical rule's key of each token, made once (a merged token's when it is made); None: the smallest
        # pair wins, and a pair is its own key.
        self._rk: dict | None = None if ties == "smallest" else {bytes((b,)): rev_key(bytes((b,))) for b in range(256)}
        self.words = [[bytes((b,)) for b in w.encode("utf-8")] for w in words]
        self.freqs = list(words.values())
        self.ever: set = {bytes((b,)) for b in range(256)}  # every token the vocabulary ever held (rule 3)
        self.live = 256
        self.merges = 0
        self.events: list[PickyEvent] = []
        self.stop_reason: str | None = None
        self.touched: list = []  # the words the last step rewrote
        self._heap: list = []
        self.word_pairs: list = []  # each word's pair counts, as _pairs gives them
        self.pair_count: dict = {}
        self.pair_where: defaultdict = defaultdict(set)  # the words that have held each pair (see _rewrite)
        self.tok_count: Counter = Counter()
        self.tok_where: dict = {}  # the words holding each token of two bytes or more (the ones a removal may take)
        self._count_words(words)
        rk = self._rk
        self._heap = [(-c, p if rk is None else (rk[p[0]], rk[p[1]]), p) for p, c in self.pair_count.items()]
        heapq.heapify(self._heap)

    # ------------------------------------------------------------------------------------------ tables
    #: A word's pair counts (a subclass may count fewer pairs: BoundlessBPE's locked tokens).
    _pairs = staticmethod(_pairs)

    def _key(self, pair: tuple) -> tuple:
        """The heap's tie key of ``pair`` (rule 2): the lexical rule's, or the pair itself for ``smallest``."""
        rk = self._rk
        return pair if rk is None else (rk[pair[0]], rk[pair[1]])

    def _add(self, i: int, tokens: list, f: int) -> None:
        """Count word ``i`` (its tokens, frequency ``f``) in the tables, after the start (a subclass's own words)."""
        pairs = self._pairs(tokens)
        self.word_pairs.append(pairs)
        for pair, n in pairs.items():
            self.pair_count[pair] = self.pair_count.get(pair, 0) + n * f
            self.pair_where[pair].add(i)
        for tok in tokens:
            self.tok_count[tok] += f

    def _count_words(self, words: dict) -> None:
        """Count every word's pairs and bytes in the tables (at the start; ``words`` as given to the trainer)."""
        word_pairs, pair_count, pair_where = self.word_pairs, self.pair_count, self.pair_where
        get = pair_count.get
        for i, (tokens, f) in enumerate(zip(self.words, self.freqs)):
            pairs = self._pairs(tokens)
            word_pairs.append(pairs)
            for pair, n in pairs.items():
                pair_count[pair] = get(pair, 0) + n * f
                pair_where[pair].add(i)
        # The bytes' counts in C: each word's bytes repeated as often as the word occurs.
        counts = Counter(b"".join(w.encode("utf-8") * f for w, f in words.items()))
        self.tok_count.update({bytes((b,)): c for b, c in counts.items()})

    def _rewrite(self, indices, change, deltas: dict, shrink: int, merge: tuple | None = None) -> None:
        """Replace word ``i``'s tokens by ``change(tokens, pair_counts)`` for each ``i``, keeping every table right:
        only the pairs whose counts in the word changed are touched (most of a word stays as it was). Each change makes
        ``(len(old) - len(new)) / shrink`` times the token count changes ``deltas`` (``{token: +-n}``).

        ``merge``: ``(a, b, ab)`` when ``change`` merges that pair. A word that holds it once and no pair twice (most
        words) is then rewritten in place: only the pairs around the occurrence change, and the word still holds no
        pair twice afterwards (``ab`` is new, rule 3), so rule 1 has nothing to skip before or after.

        ``indices`` may hold words that no longer have what ``change`` looks for: the word lists of
        ``pair_where`` and ``tok_where`` only grow (a word leaves them lazily, here, unchanged), because
        discarding each word from each list as it loses a pair cost more than skipping the few stale ones."""
        # The step's change of each pair's count, summed over the words first: the heap and the counts are then
        # touched once per pair, not once per word.
        delta: defaultdict = defaultdict(int)
        pair_count, pair_where = self.pair_count, self.pair_where
        words, freqs, word_pairs = self.words, self.freqs, self.word_pairs
        done = 0  # merges made, or occurrences split, times the word's frequency, summed over the words
        self.touched = touched = []  # (read by a run recording each word's segmentations: picky_run)
        # The in-place rewrite knows only the plain pair rule (a subclass counting fewer pairs takes the long way).
        inplace = merge is not None and self._pairs is _pairs
        if merge is not None:
            a, b, ab = merge
            merged = (a, b)
        for i in indices:
            old = words[i]
            before = word_pairs[i]
            if merge is not None:
                n = before.get(merged)
                if n is None:
                    continue  # a stale entry: the word no longer holds the pair
                if inplace and n == 1 and len(before) == len(old) - 1:
                    # The occurrence's own pair goes; the pairs beside it become pairs with ab.
                    f = freqs[i]
                    k = old.index(a)
                    while old[k + 1] != b:
                        k = old.index(a, k + 1)
                    del before[merged]  # (its count in the tables goes once all words are done, below)
                    # (Each pair made once: a tuple's hash is not kept, so every use would compute it again.)
                    if k:
                        x = old[k - 1]
                        lost, made = (x, a), (x, ab)
                        del before[lost]
                        delta[lost] -= f
                        before[made] = 1
                        delta[made] += f
                        pair_where[made].add(i)
                    if k + 2 < len(old):
                        y = old[k + 2]
                        lost, made = (b, y), (ab, y)
                        del before[lost]
                        delta[lost] -= f
                        before[made] = 1
                        delta[made] += f
                        pair_where[made].add(i)
                    old[k] = ab  # (in place: the word's list is the trainer's own)
                    del old[k + 1]
                    done += f
                    touched.append(i)
                    continue
            new = change(old, before)
            k = (len(old) - len(new)) // shrink  # merges made, or occurrences split, in this word
            if not k:
                continue  # a stale entry: the word no longer holds the pair (or token)
            f = freqs[i]
            words[i] = new
            before, after = word_pairs[i], self._pairs(new)
            word_pairs[i] = after
            # The pairs whose count in the word changed, by set operations in C over the two counts: first
            # take the old count away, then add the new one (a pair whose count changed is in both).
            for pair, n in before.items() - after.items():
                delta[pair] -= n * f
            for pair, m in after.items() - before.items():
                delta[pair] += m * f
                if pair not in before:
                    pair_where[pair].add(i)
            done += k * f
            touched.append(i)
        if merge is not None:  # every occurrence of the pair is merged now
            delta.pop(merged, None)
            pair_count.pop(merged, None)
        tok_count, tok_where = self.tok_count, self.tok_where
        for tok, d in deltas.items():
            tok_count[tok] += d * done
            if d > 0 and len(tok) > 1:  # a single byte is never removed: where it is need not be known
                tok_where.setdefault(tok, set()).update(touched)
        # The heap is lazy: a pair whose count rose gets an entry with its new count; one whose count fell keeps
        # its old, higher entry, which _best puts back at the right count if it ever comes to the top (few do).
        heap, rk, push = self._heap, self._rk, heapq.heappush
        for pair, d in delta.items():
            count = pair_count.get(pair, 0) + d
            if count > 0:
                pair_count[pair] = count
                if d > 0:
                    push(heap, (-count, pair if rk is None else (rk[pair[0]], rk[pair[1]]), pair))
            else:
                pair_count.pop(pair, None)  # (a pair made and lost again in one step was never counted)

    def _best(self):
        """The best pair and its count (rule 2, skipping rule 3's), or None; stale heap entries are dropped."""
        heap, counts, ever = self._heap, self.pair_count, self.ever
        while heap:
            neg, key, pair = heap[0]
            count = counts.get(pair, 0)
            if count != -neg:
                # A count that fell since the entry was made (see _rewrite): the entry goes back at it. An entry
                # always holds at least its pair's count, so the first exact one at the top is the best pair.
                if count:
                    heapq.heapreplace(heap, (-count, key, pair))
                else:
                    heapq.heappop(heap)
                continue
            if pair[0] + pair[1] in ever:
                heapq.heappop(heap)
                continue
            return pair, count
        return None

    # ------------------------------------------------------------------------------------------ steps
    def steps(self):
        """Train, yielding each :class:`PickyEvent` as it is made (also kept in :attr:`events`)."""
        while True:
            if self.num_merges is not None and self.merges >= self.num_merges:
                self.stop_reason = "num_merges"
                return
            if self.vocab_size is not None and self.live >= self.vocab_size:
                self.stop_reason = "vocab_size"
                return
            best = self._best()
            if best is None:
                self.stop_reason = "no_pairs"
                return
            (a, b), count = best
            if count < self.min_frequency:
                self.stop_reason = "min_frequency"
                return
            ios = (count / self.tok_count[a], count / self.tok_count[b])
            self._merge(a, b)
            self.merges += 1
            self.live += 1
            event = PickyEvent("merge", self.merges, a, b, count, ios, self.live)
            self.events.append(event)
            yield event
            parts = ((a, ios[0]),) if a == b else ((a, ios[0]), (b, ios[1]))  # (a, a): removed once
            for part, score in parts:
                if len(part) > 1 and score >= self.threshold:
                    yield self._remove(part, score)

    def _merge(self, a: bytes, b: bytes) -> list:
        """Merge ``(a, b)`` in every word holding it (rules 1 and 4) and add ``a + b`` to :attr:`ever`; the indices
        of the words it changed."""
        merged = a + b

        def merge(tokens, pairs, a=a, b=b, merged=merged):
            # Left to right without overlap (rule 4). The word's count of the pair is the number of merges
            # to make (rule 1 counts a run of one symbol as the merges do), so each one is found by jumping
            # from one ``a`` to the next with list.index (in C), with no Python step per token.
            out, j = [], 0
            for _ in range(pairs.get((a, b), 0)):  # (0: a stale entry, see _rewrite)
                i = tokens.index(a, j)
                while tokens[i + 1] != b:
                    i = tokens.index(a, i + 1)
                out += tokens[j:i]
                out.append(merged)
                j = i + 2
            out += tokens[j:]
            return out

        deltas = {a: -2, merged: 1} if a == b else {a: -1, b: -1, merged: 1}
        if self._rk is not None:
            self._rk[merged] = rev_key(merged)
        # The words that have held the pair (some have lost it since: _rewrite skips them).
        self._rewrite(self.pair_where.pop((a, b), ()), merge, deltas, 1, (a, b, merged))
        self.ever.add(merged)
        return self.touched

    def _remove(self, tok: bytes, score: float) -> PickyEvent:
        left = self._split(tok)
        self.live -= 1
        event = PickyEvent("removal", self.merges, tok, b"", left, (score, score), self.live)
        self.events.append(event)
        return event

    def _split(self, tok: bytes) -> int:
        """Split every occurrence of ``tok`` into its single bytes (rule 4); how many there were."""
        left = self.tok_count.get(tok, 0)
        pieces = [bytes((b,)) for b in tok]

        def split(tokens, pairs, tok=tok, pieces=pieces):
            out = []
            for t in tokens:
                out.extend(pieces) if t == tok else out.append(t)
            return out

        deltas: dict = {tok: -1}
        for piece in pieces:
            deltas[piece] = deltas.get(piece, 0) + 1
        # (A removed token is never made again, rule 3: its word list is no longer needed.)
        self._rewrite(self.tok_where.pop(tok, ()), split, deltas, 1 - len(tok))
        return left

    def train(self) -> list[PickyEvent]:
        """Train to the end; the events in order."""
        for _ in self.steps():
            pass
        return self.events
