"""Encoding text with learned merges, and decoding ids back to text.

Two encoders:

* **By rank** (:meth:`Tokenizer.encode`), as GPT-2's ``bpe()`` does: pre-tokenize, split each pre-token
  into base symbols, then repeatedly pick the adjacent pair with the lowest merge rank and merge *all*
  its occurrences left to right without overlap; stop when no adjacent pair has a rank. This replays
  training on one word, so a word seen in training gets exactly its training segmentation.
  :meth:`Tokenizer.encode_with_trace` returns every merge applied; :meth:`Tokenizer.replay` the merges
  that fire on a whole text in rank order; :meth:`Tokenizer.merge_tree` the merges that built a token
  (:mod:`bpe_core.encoding.traces`). ``encode(text, dropout=p, seed=s)`` samples a BPE-dropout segmentation.
  The merge loops themselves are in :mod:`bpe_core.encoding.apply_merges`.
* **Longest match** (:meth:`Tokenizer.encode_longest_match`), the classic ``</w>`` tutorial's
  ``tokenize_word``: vocabulary tokens sorted by length in base symbols (longest first), then by
  frequency (most frequent first); the first token in that order that occurs in the string splits it at
  each of its (non-overlapping, leftmost) occurrences, and the pieces in between are tokenized the same
  way with the tokens after it; a piece that contains no token becomes one unknown token. It ignores
  the merge order, so it can disagree with the rank encoder (see :meth:`Tokenizer.compare_methods`).
  The search is in :mod:`bpe_core.encoding.longest_match`.

The GPT-2, GPT-4 and GPT-4o tokenizers are :class:`Tokenizer` objects too (:func:`bpe_core.models.load_gpt`).

The tables the encoders read (merge ranks, ids) are built and checked in :mod:`bpe_core.encoding.encoder_tables`;
decoding ids back to text is in :mod:`bpe_core.encoding.decoding`.

char/eow map a base symbol the vocabulary lacks to ``<unk>`` (id: one after the last vocabulary id);
byte-level never needs one (all 256 bytes are base tokens).

Differences from Hugging Face ``tokenizers`` (only matter when two merges build the same string):
HF applies merges with a priority queue one occurrence at a time; GPT-2 (and this module) merges all
occurrences of the best pair before looking again. A pair merged twice in training keeps its *first*
rank here (GPT-2's and HF's dictionaries keep the last).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import chain

from ..pretokenize import PRETOKENIZER_CHOICES, REGEX, check_pattern, pretokenize
from ..variants import Variant
from .apply_merges import bpe_dropout, bpe_heap, bpe_leftmost, bpe_simple
from .decoding import UNK_TOKEN, Decoder
from .encoder_tables import id_table, is_real_token, merge_tables
from .longest_match import LongestMatchEncoder
from .traces import (
    MergeGraph,
    MergeTree,
    PieceTrace,
    Replay,
    ReplayStep,
    TraceStep,
    merge_tree,
    token_ranks,
    trace_piece,
)

__all__ = [
    "UNK_TOKEN",
    "MergeGraph",
    "MergeTree",
    "PieceTrace",
    "Replay",
    "ReplayStep",
    "Tokenizer",
    "TraceStep",
]


class Tokenizer(Decoder, LongestMatchEncoder):
    """A BPE tokenizer: a variant, a pre-tokenizer, merges in rank order and a vocabulary.

    Args:
        variant: a :class:`~bpe_core.variants.Variant` (or just its kind, ``"char"``/``"eow"``/``"byte"``).
        pretokenizer: one of :data:`bpe_core.pretokenize.PRETOKENIZER_CHOICES`.
        merges: ``[(left_value, right_value)]`` in rank order (values are ``str`` for char/eow,
            ``bytes`` for byte-level).
        vocab: ``{value: id}``. It must hold both sides and the result of every merge; byte-level
            must hold all 256 single bytes. For char/eow a ``"<unk>"`` entry, if present and not a
            real token, gives the unknown token's id.
        frequencies: optional ``{id: count}`` (or a callable returning it, called on first need): how
            often each token occurs in the training corpus, used to order equally long tokens in the
            longest-match encoder. Without it, merge rank is used (earlier merge first).
        pattern: the user's pattern, required with the ``"regex"`` pre-tokenizer (and only with it).

    Raises:
        ValueError: a merge side or result missing from the vocabulary, a missing byte, duplicate
            ids, or values of the wrong type; :class:`~bpe_core.pretokenize.PatternError` for a bad pattern.
    """

    # Built on first use (merge trees). Class defaults, so that a tokenizer made without __init__ (the lazy loaders
    # of bpe_core.models) has them too.
    _token_rank = None
    _graph = None

    #: Pre-tokens remembered by the encoding cache (it is emptied when full).
    CACHE_SIZE = 20_000
    #: Longer pre-tokens are not cached.
    CACHE_MAX_PIECE = 256

    def __init__(
        self,
        variant: Variant | str,
        pretokenizer: str,
        merges: list,
        vocab: dict,
        frequencies: dict | Callable[[], dict] | None = None,
        pattern: str | None = None,
    ):
        if isinstance(variant, str):
            variant = Variant(variant)
        self.variant: Variant = variant
        if pretokenizer not in PRETOKENIZER_CHOICES:
            choices = ", ".join(PRETOKENIZER_CHOICES)
            raise ValueError(f"unknown pre-tokenizer {pretokenizer!r}; choose one of {choices}")
        if pretokenizer == REGEX:
            check_pattern(pattern)
        elif pattern is not None:
            raise ValueError("a pattern is only used by the regex pre-tokenizer")
        self.pretokenizer: str = pretokenizer
        self.pattern: str | None = pattern  #: the user's pattern (``regex`` pre-tokenizer only)
        vocab = dict(vocab)
        values = id_table(vocab, variant)

        unk = None
        if not variant.is_bytes:
            if UNK_TOKEN in vocab and not is_real_token(UNK_TOKEN, merges, variant):
                unk = vocab.pop(UNK_TOKEN)
                del values[unk]
            elif UNK_TOKEN in vocab:
                unk = vocab[UNK_TOKEN]
            else:
                unk = max(values) + 1 if values else 0
        self.vocab: dict = vocab
        self.values: dict = values
        self.unk_id: int | None = unk

        self._merges: list | None = [(left, right) for left, right in merges]
        self._ranks, self._pair_of_rank = merge_tables(self._merges, vocab, variant)

        if variant.is_bytes:
            missing = [b for b in range(256) if bytes((b,)) not in vocab]
            if missing:
                raise ValueError(
                    f"byte-level vocabulary lacks {len(missing)} of the 256 bytes (first: 0x{missing[0]:02x})"
                )
            self._byte_ids = [vocab[bytes((b,))] for b in range(256)]

        self._frequencies = frequencies
        #: ``{bytes: id}`` when every vocabulary token encodes to itself (the rank-file models, as tiktoken
        #: assumes), so a pre-token that is a whole token skips the merge loop; None otherwise.
        self._whole_tokens: dict | None = None
        self._cache: dict = {}
        self._lm = None  # longest-match tables, built on first use
        self._lm_cache: dict = {}

    # ------------------------------------------------------------------------------- construction
    @classmethod
    def _from_trusted_byte_tables(
        cls,
        pretokenizer: str,
        values: dict,
        vocab: dict,
        ranks: dict,
        pair_of_rank: list,
        frequencies: dict | None = None,
        pattern: str | None = None,
    ) -> Tokenizer:
        """A byte-level tokenizer from tables known to be consistent, skipping the checks of ``__init__``
        (the caller has made them), so that 200,000 merges load in well under a second.

        ``values`` is ``{id: bytes}`` and ``vocab`` its inverse, holding the 256 single bytes;
        ``pair_of_rank`` is ``[(left_id, right_id, new_id)]`` in merge order and ``ranks`` its
        ``{(left_id, right_id): index}`` (:mod:`bpe_core.encoding.encoder_tables`). Used by
        :func:`bpe_core.models.load_rank_file` and :func:`bpe_core.formats.gpt2_files.byte_tokenizer`.
        """
        tok = cls.__new__(cls)
        tok.variant = Variant("byte")
        tok.pretokenizer = pretokenizer
        tok.pattern = pattern
        tok.vocab = vocab
        tok.values = values
        tok.unk_id = None
        tok._merges = None  # values built on first use (files, repr)
        tok._ranks = ranks
        tok._pair_of_rank = pair_of_rank
        tok._byte_ids = [vocab[bytes((b,))] for b in range(256)]
        tok._frequencies = frequencies
        tok._whole_tokens = None
        tok._cache = {}
        tok._lm = None
        tok._lm_cache = {}
        return tok

    @classmethod
    def from_run(cls, run, step: int | None = None) -> Tokenizer:
        """The tokenizer of a :class:`~bpe_core.algorithms.run.TrainedRun` after merges 1..``step`` (default: all).

        Ids are the run's ids. Token frequencies for the longest-match encoder are the tokens' counts in
        the run's corpus segmented at that step (computed on first use).
        """
        n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
        merges = [(run.values[left], run.values[right]) for left, right in run.merges(n)]
        vocab = {entry.value: entry.id for entry in run.vocabulary(n)}

        def frequencies() -> dict:
            freq: dict = {}
            for i, f in enumerate(run.freqs):
                for t in run.segmentation(i, n):
                    freq[t] = freq.get(t, 0) + f
            return freq

        return cls(run.variant, run.config.resolved_pretokenizer, merges, vocab, frequencies, run.config.pattern)

    # ------------------------------------------------------------------------------------- facts
    @property
    def vocab_size(self) -> int:
        """Vocabulary entries (the unknown token not counted)."""
        return len(self.vocab)

    @property
    def num_merges(self) -> int:
        """Number of merges (ranks)."""
        return len(self._pair_of_rank)

    @property
    def merges(self) -> list:
        """``[(left_value, right_value)]`` in rank order."""
        if self._merges is None:
            values = self.values
            self._merges = [(values[a], values[b]) for a, b, _ in self._pair_of_rank]
        return self._merges

    def first_merges(self, n: int) -> list:
        """The first ``n`` of :attr:`merges`, without listing all of them (GPT-2's 50,000 for its first 100)."""
        if self._merges is not None:
            return self._merges[:n]
        values = self.values
        return [(values[a], values[b]) for a, b, _ in self._pair_of_rank[:n]]

    def _token_ranks(self) -> dict:
        """``{new_id: rank}`` (0-based) of the merges; the first merge that makes a token counts."""
        if self._token_rank is None:
            self._token_rank = token_ranks(self._pair_of_rank)
        return self._token_rank

    def frequencies(self) -> dict | None:
        """``{id: count}`` of the training corpus, if known (computed on first call)."""
        if callable(self._frequencies):
            self._frequencies = dict(self._frequencies())
        return self._frequencies

    # ---------------------------------------------------------------------------------- encoding
    def pieces(self, text: str) -> list[str]:
        """The pre-tokens of ``text`` (every encoding path cuts through this, so a subclass may cut otherwise)."""
        return pretokenize(text, self.pretokenizer, self.pattern)

    def symbol_ids(self, piece: str) -> list[int]:
        """The base-symbol ids of one pre-token (unknown symbols → :attr:`unk_id`)."""
        if self.variant.is_bytes:
            return list(map(self._byte_ids.__getitem__, piece.encode("utf-8")))
        get, unk = self.vocab.get, self.unk_id
        return [get(s, unk) for s in self.variant.symbols(piece)]

    def encode(self, text: str, dropout: float = 0.0, seed: int | None = None) -> list[int]:
        """Encode ``text`` by merge rank (GPT-2 ``bpe()``): a list of ids.

        Args:
            text: the input (characters).
            dropout: BPE-dropout probability ``p`` (0 <= p <= 1; Provilkov et al. 2020): at each step of
                applying merges to a pre-token, each occurrence of each known pair is skipped with
                probability ``p`` (see :func:`bpe_core.encoding.apply_merges.bpe_dropout`). 0 is the deterministic
                encoding; 1 leaves the base symbols.
            seed: seed of the ``random.Random`` used for dropout (None: a fresh unpredictable one). The
                same text, ``p`` and seed give the same ids.

        Raises:
            ValueError: ``dropout`` outside 0..1.
        """
        pieces = self.pieces(text)
        out: list[int] = []
        if dropout:
            if not 0.0 <= dropout <= 1.0:
                raise ValueError(f"dropout must be between 0 and 1, got {dropout!r}")
            rng = random.Random(seed)
            for piece in pieces:
                out.extend(bpe_dropout(self.symbol_ids(piece), self._ranks, self._pair_of_rank, dropout, rng))
            return out
        # Each distinct pre-token is looked up once, with C-speed maps; only those the cache lacks go through
        # Python, then the output is assembled from one table.
        uniq = list(dict.fromkeys(pieces))
        found = list(map(self._cache.get, uniq))
        local = dict(zip(uniq, found))
        if None in found:
            new = [piece for piece, ids in zip(uniq, found) if ids is None]
            if self._whole_tokens is not None:
                results = self._encode_new_rank_file_pieces(new)
            else:
                results = list(map(self._encode_uncached, new))
            local.update(zip(new, results))
            self._remember(new, results)
        return list(chain.from_iterable(map(local.__getitem__, pieces)))

    def encode_tokens(self, text: str) -> list:
        """Like :meth:`encode` but returns token values (``"<unk>"`` for unknown symbols)."""
        return [self.token_value(t) for t in self.encode(text)]

    def encode_piece(self, piece: str) -> tuple:
        """Encode one pre-token by merge rank (cached)."""
        cached = self._cache.get(piece)
        return cached if cached is not None else self._encode_new_piece(piece)

    def _encode_new_piece(self, piece: str) -> tuple:
        """Encode a pre-token that is not in the cache, and remember it."""
        whole = self._whole_tokens
        if whole is not None and (tid := whole.get(piece.encode("utf-8"))) is not None:
            result = (tid,)
        else:
            result = self._encode_uncached(piece)
        self._remember([piece], [result])
        return result

    def _encode_uncached(self, piece: str) -> tuple:
        """The ids of one pre-token by merge rank, from its base symbols (no cache, no whole-token short cut)."""
        ids = self.symbol_ids(piece)
        if len(ids) > 1:
            ids = (bpe_simple if len(ids) <= 64 else bpe_heap)(ids, self._ranks, self._pair_of_rank)
        return tuple(ids)

    def _encode_new_rank_file_pieces(self, pieces: list[str]) -> list[tuple]:
        """The ids of pre-tokens not in the cache, for a rank-file model (:attr:`_whole_tokens` set).

        A pre-token that is a whole token is that token, as in tiktoken; the others are merged from their
        bytes. This is most of a cold encode, so it is batched: the whole tokens are found with C-speed
        maps, and only the rest go through the merge loop.
        """
        # zip() of one iterable gives 1-tuples: the result of every whole token, None for the rest.
        results = list(zip(map(self._whole_tokens.get, map(str.encode, pieces))))
        byte_id = self._byte_ids.__getitem__
        ranks, pair_of_rank = self._ranks, self._pair_of_rank
        for k in [k for k, (tid,) in enumerate(results) if tid is None]:
            # Not a token, so at least two bytes (every single byte is one). In a rank file a merge's sides
            # have lower ids than its result, the condition bpe_leftmost needs.
            ids = list(map(byte_id, pieces[k].encode("utf-8")))
            results[k] = tuple((bpe_leftmost if len(ids) <= 64 else bpe_heap)(ids, ranks, pair_of_rank))
        return results

    def _remember(self, pieces: list[str], results: list[tuple]) -> None:
        """Put newly encoded pre-tokens in the cache, keeping it within :attr:`CACHE_SIZE` entries and
        leaving out pre-tokens longer than :attr:`CACHE_MAX_PIECE` characters."""
        cache = self._cache
        if len(cache) + len(pieces) > self.CACHE_SIZE:
            cache.clear()
        if len(pieces) > self.CACHE_SIZE:  # more than fit: keep none rather than an arbitrary part
            return
        entries = zip(pieces, results)
        if max(map(len, pieces)) > self.CACHE_MAX_PIECE:
            entries = [(piece, ids) for piece, ids in entries if len(piece) <= self.CACHE_MAX_PIECE]
        cache.update(entries)

    def encode_with_trace(self, text: str) -> tuple[list[int], list[PieceTrace]]:
        """Encode by rank and record, per pre-token, each merge rule applied and the segmentation after it.

        Returns:
            ``(ids, traces)``: the same ids as :meth:`encode`, and one :class:`PieceTrace` per pre-token.
        """
        ids: list[int] = []
        traces: list[PieceTrace] = []
        for piece in self.pieces(text):
            trace = self.trace_piece(piece)
            traces.append(trace)
            ids.extend(trace.ids)
        return ids, traces

    def trace_piece(self, piece: str) -> PieceTrace:
        """The :class:`PieceTrace` of one pre-token."""
        return trace_piece(piece, tuple(self.symbol_ids(piece)), self._ranks, self._pair_of_rank)

    def replay(self, text: str) -> Replay:
        """The merges that fire on ``text`` in rank order, each with how often it applies, and the text's
        ids after the first k of them (:class:`~bpe_core.encoding.traces.Replay`)."""
        pieces = self.pieces(text)
        traces = {}
        for piece in pieces:
            if piece not in traces:
                traces[piece] = self.trace_piece(piece)
        return Replay(pieces, traces)

    def merge_tree(self, tid: int) -> MergeTree:
        """Which merges built token ``tid`` (:class:`~bpe_core.encoding.traces.MergeTree`). Raises ``ValueError``
        for an id not in the vocabulary."""
        self.token_value(tid)
        return merge_tree(tid, self._token_ranks(), self._pair_of_rank)

    def merge_graph(self) -> MergeGraph:
        """The merge trees both ways (:class:`~bpe_core.encoding.traces.MergeGraph`), made once per tokenizer."""
        if self._graph is None:
            self._graph = MergeGraph(self._pair_of_rank, self._token_ranks())
        return self._graph

    def merge_number(self, tid: int) -> int | None:
        """The number ``k`` (from 1) of the merge that made token ``tid``, or None for a base symbol. In a
        byte-level rank file that token's rank and id is ``255 + k`` (:mod:`bpe_core.teaching.facts`)."""
        rank = self._token_ranks().get(tid)
        return None if rank is None else rank + 1

    def compare_methods(self, text: str) -> list[tuple[str, list[int], list[int]]]:
        """``[(pre_token, rank_ids, longest_match_ids)]`` for every pre-token of ``text``, in order."""
        return [(piece, list(self.encode_piece(piece)), self.longest_match_piece(piece)) for piece in self.pieces(text)]

    def __repr__(self) -> str:
        return (
            f"Tokenizer(variant={self.variant.kind!r}, pretokenizer={self.pretokenizer!r}, "
            f"merges={self.num_merges}, vocab={len(self.vocab)})"
        )
