"""BoundlessBPE (Schmidt, Reddy, Tanner, Pinter, COLM 2025, arXiv 2504.00178): byte-level BPE whose merges may also
join two neighbouring pre-tokens once each is a single token (a *supermerge*: ``" of" + " the" -> " of the"``),
with PickyBPE's removals (:mod:`bpe_core.algorithms.picky`) inside pre-tokens.

Training keeps two sides. The *word side* is PickyBPE on the pre-tokens counted as words (a
:class:`~bpe_core.algorithms.picky.PickyTrainer`). The *supermerge side* holds each document as its sequence of
pre-tokens, each one a token of its own; a pre-token may take part in a supermerge only once it is *unlocked*. The
rules, and where each follows the Apache-2.0 reference (``boundlessbpe/boundlessbpetrain.py``, the tests' oracle):

1. The word side is PickyBPE with the reference's choices: pair counts skip the overlapping occurrence in a run of
   one symbol; a pair whose merged string is, or ever was, in the vocabulary (made by either side) is never merged;
   a removed token becomes its single bytes (the reference's ``blowup``).
2. A pre-token is unlocked when a word-side merge first makes some occurrence of it a single token, and only if it
   is "word-like" (the reference's ``IMPROVED_MERGE_PATTERN``, :data:`WORDLIKE`: letters with their marks, spaces,
   ``_``, ``'`` and ``’`` only, a letter after the first character). A supermerge's token is unlocked as it is
   made, unless it joins two equal tokens (the reference leaves ``a + a`` locked; such a token is unlocked only
   when it makes a whole document one token). Once unlocked, a token stays so (a later removal on the word side
   does not lock it again: the two sides are separate, as in the reference).
3. The supermerge side counts the pairs of neighbouring pre-tokens of a document whose two tokens are unlocked,
   skipping the overlapping occurrence in a run of one token (as rule 1). Pre-tokens that are never word-like
   (punctuation, digits, line breaks, one letter alone) are never unlocked, so the side keeps only the runs of
   word-like pre-tokens between them, each counted once per occurrence.
4. Each step takes the best pair of each side (the highest count; ties: the smallest pair of byte strings) and
   merges the word side's only when its count is higher: a tie goes to the supermerge, as in the reference.
   ``min_frequency`` F stops before a best count below F (the reference has none: pass 1 to match it).
5. After a word-side merge ``(a, b)``, a part of two bytes or more whose IoS (``count / count of the part``, before
   the merge) is at least ``tau`` is removed, the left part first. A part merged with itself is removed once (the
   reference records it twice, the second time removing nothing). Supermerges remove nothing (the reference's
   supermerge side has ``tau`` 1.1). ``tau=None`` removes nothing.
6. ``num_merges`` N counts merges of both sides (removals are extra steps): N merges equal the reference's
   ``vocab_size`` of 256 + N. Ids: the 256 bytes, then each merge's token in order; a removed token keeps its id
   (the reference's final vocabulary keeps removed tokens too). ``vocab_size`` V counts the live vocabulary.

Pre-tokenization is the project's (:func:`document_pieces`, GPT-2's pattern by default; the reference defaults to
its own ``ULTIMATE_PATTERN`` and splits with ``regex.findall``: the tests give it our pattern, and for jieba our
pieces). A document is one text (the reference's is one JSON line); pre-tokens never pair across documents.

Encoding follows the reference's inference (``boundlessbpeinference.py``), see
:mod:`bpe_core.algorithms.boundless_encode`.
"""

from __future__ import annotations

import heapq
from collections import Counter
from typing import NamedTuple

import regex

from .picky import PickyEvent, PickyTrainer

#: Which tokens may be unlocked (rule 2): the reference's ``IMPROVED_MERGE_PATTERN``, written out here.
WORDLIKE = regex.compile(r"^(?=.+\p{L})(?:\p{L}\p{M}*|[ _'\u2019])+$")


def wordlike(token: bytes) -> bool:
    """Whether ``token`` (UTF-8 bytes) may take part in a supermerge once unlocked (rule 2)."""
    try:
        return WORDLIKE.match(token.decode("utf-8")) is not None
    except UnicodeDecodeError:
        return False


class BoundlessEvent(NamedTuple):
    """One step of a BoundlessBPE training: the fields of a :class:`~bpe_core.algorithms.picky.PickyEvent` (kind
    ``"merge"`` or ``"removal"``, in the same order, so a reader of PickyBPE's events reads these), and whether a
    merge was a supermerge.

    Attributes:
        kind, merges, left, right, count, ios, vocab_size: as for :class:`~bpe_core.algorithms.picky.PickyEvent`.
        supermerge: a merge of two neighbouring pre-tokens (``False`` for a merge inside a pre-token and for a
            removal).
    """

    kind: str
    merges: int
    left: bytes
    right: bytes
    count: int
    ios: tuple
    vocab_size: int
    supermerge: bool = False

    token = PickyEvent.token


class _Supers(PickyTrainer):
    """The supermerge side (rules 2 and 3): the runs of word-like pre-tokens as its "words", with ``(tokens,
    whole)`` keys (``whole``: the run is a whole document), pairs counted between unlocked tokens only."""

    def __init__(self, runs: Counter, singles: Counter):
        super().__init__({}, 1.0, min_frequency=1, ties="smallest")
        self.unlocked: set = set()
        self.whole: list[bool] = []
        for (tokens, whole), f in runs.items():
            i = len(self.words)
            self.words.append(list(tokens))
            self.freqs.append(f)
            self.whole.append(whole)
            self._add(i, self.words[i], f)
            for tok in tokens:
                self.tok_where.setdefault(tok, set()).add(i)
        self.tok_count.update(singles)  # pre-tokens alone between never-word-like ones: counted, never paired

    def _pairs(self, tokens: list) -> dict:
        unlocked = self.unlocked
        if unlocked.isdisjoint(tokens):
            return {}
        out: dict = {}
        prev = None
        for pair in zip(tokens, tokens[1:]):
            if pair[0] in unlocked and pair[1] in unlocked and not (pair[0] == pair[1] and pair == prev):
                out[pair] = out.get(pair, 0) + 1
                prev = pair
            else:
                prev = None
        return out

    def unlock(self, tok: bytes) -> None:
        """Unlock ``tok`` and count the pairs it now makes with its unlocked neighbours (rule 2)."""
        if tok in self.unlocked or not wordlike(tok):
            return
        self.unlocked.add(tok)
        # A lock changes no word, so _rewrite (which skips a word its change leaves as it was) does not apply:
        # each word holding tok is counted again.
        delta: dict = {}
        words, freqs, word_pairs, pair_where = self.words, self.freqs, self.word_pairs, self.pair_where
        for i in self.tok_where.get(tok, ()):
            if tok not in words[i]:
                continue
            before, after = word_pairs[i], self._pairs(words[i])
            word_pairs[i] = after
            f = freqs[i]
            for pair, n in before.items() - after.items():
                delta[pair] = delta.get(pair, 0) - n * f
            for pair, m in after.items() - before.items():
                delta[pair] = delta.get(pair, 0) + m * f
                pair_where.setdefault(pair, set()).add(i)
        for pair, d in delta.items():
            count = self.pair_count.get(pair, 0) + d
            if count > 0:
                self.pair_count[pair] = count
                if d > 0:  # (a count that fell keeps its entry: the heap is lazy, see PickyTrainer._rewrite)
                    self._push(pair, count)
            else:
                self.pair_count.pop(pair, None)

    def _push(self, pair, count) -> None:
        heapq.heappush(self._heap, (-count, self._key(pair), pair))

    def supermerge(self, a: bytes, b: bytes) -> None:
        """Merge neighbours ``(a, b)`` wherever they stand, left to right (rule 2 says what is unlocked)."""
        merged = a + b
        if a != b:
            self.unlocked.add(merged)  # before the merge: the new token's pairs are counted as it is made
        holding = self._merge(a, b)
        if a == b and any(self.whole[i] and len(self.words[i]) == 1 for i in holding):
            self.unlock(merged)


def document_pieces(texts: list[str], pretokenizer: str = "gpt2", pattern: str | None = None) -> list[list[str]]:
    """Each text's pre-tokens (:func:`bpe_core.pretokenize.pretokenize`: ``pretokenizer`` a named one, or
    ``"regex"`` with ``pattern``), one list per document."""
    from ..pretokenize import pretokenize

    return [pretokenize(text, pretokenizer, pattern) for text in texts]


class BoundlessTrainer:
    """A BoundlessBPE training of documents given as their pre-tokens (the rules: the module's docstring).

    Args:
        documents: each document's pre-tokens in order (:func:`document_pieces`); documents are never joined.
        tau: the IoS threshold of removals, 0 < tau <= 1, or ``None`` for none (rule 5; the paper's 0.9).
        num_merges, vocab_size: when to stop (rule 6; at most one; neither: until no pair is left).
        min_frequency: stop before a best pair with a lower count (rule 4).

    Raises:
        ValueError: a ``tau`` outside (0, 1].

    After training, :attr:`events` holds every :class:`BoundlessEvent` and :attr:`stop_reason` why it stopped
    (``"num_merges"``, ``"vocab_size"``, ``"no_pairs"``, ``"min_frequency"``).
    """

    def __init__(
        self,
        documents: list[list[str]],
        tau: float | None = 0.9,
        num_merges: int | None = None,
        vocab_size: int | None = None,
        min_frequency: int = 1,
    ):
        if tau is not None and not 0.0 < tau <= 1.0:
            raise ValueError(f"the BoundlessBPE threshold tau must be above 0 and at most 1, got {tau}")
        self.tau = tau
        self.num_merges = num_merges
        self.vocab_size = vocab_size
        self.min_frequency = max(1, min_frequency)
        self.words = PickyTrainer(Counter(p for doc in documents for p in doc), 1.0, min_frequency=1, ties="smallest")
        runs: Counter = Counter()
        singles: Counter = Counter()
        for doc in documents:
            _runs(doc, runs, singles)
        self.supers = _Supers(runs, singles)
        self.supers.ever = self.words.ever  # one vocabulary for both sides (rule 1)
        self.merges = 0
        self.live = 256
        self.events: list[BoundlessEvent] = []
        self.stop_reason: str | None = None

    def steps(self):
        """Train, yielding each :class:`BoundlessEvent` as it is made (also kept in :attr:`events`)."""
        words, supers = self.words, self.supers
        while True:
            if self.num_merges is not None and self.merges >= self.num_merges:
                self.stop_reason = "num_merges"
                return
            if self.vocab_size is not None and self.live >= self.vocab_size:
                self.stop_reason = "vocab_size"
                return
            best_w, best_s = words._best(), supers._best()
            if best_w is None and best_s is None:
                self.stop_reason = "no_pairs"
                return
            in_words = best_s is None or (best_w is not None and best_w[1] > best_s[1])  # rule 4: ties to supers
            side = words if in_words else supers
            (a, b), count = best_w if in_words else best_s
            if count < self.min_frequency:
                self.stop_reason = "min_frequency"
                return
            ios = (count / side.tok_count[a], count / side.tok_count[b])
            if in_words:
                holding = words._merge(a, b)
            else:
                supers.supermerge(a, b)
            self.merges += 1
            self.live += 1
            yield self._event("merge", a, b, count, ios, not in_words)
            if not in_words:
                continue
            parts = ((a, ios[0]),) if a == b else ((a, ios[0]), (b, ios[1]))  # (a, a): removed once (rule 5)
            for part, score in parts:
                if self.tau is not None and len(part) > 1 and score >= self.tau:
                    left = words._split(part)
                    self.live -= 1
                    yield self._event("removal", part, b"", left, (score, score), False)
            if any(len(words.words[i]) == 1 for i in holding):  # a pre-token made whole: unlock it (rule 2)
                supers.unlock(a + b)

    def _event(self, kind, left, right, count, ios, supermerge) -> BoundlessEvent:
        event = BoundlessEvent(kind, self.merges, left, right, count, ios, self.live, supermerge)
        self.events.append(event)
        return event

    def train(self) -> list[BoundlessEvent]:
        """Train to the end; the events in order."""
        for _ in self.steps():
            pass
        return self.events


def _runs(pieces: list[str], runs: Counter, singles: Counter) -> None:
    """Add a document's runs of word-like pre-tokens to ``runs`` (rule 3; a run of one to ``singles``)."""
    tokens = [p.encode("utf-8") for p in pieces]
    known: dict = {}
    run: list = []
    for tok in [*tokens, None]:  # None: the end closes the last run
        like = tok is not None and (known[tok] if tok in known else known.setdefault(tok, wordlike(tok)))
        if like:
            run.append(tok)
            continue
        if len(run) > 1:
            runs[tuple(run), len(run) == len(tokens)] += 1
        elif run:
            singles[run[0]] += 1
        run = []
