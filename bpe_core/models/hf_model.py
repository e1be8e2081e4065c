"""A Hugging Face ``tokenizer.json`` as a tokenizer of this library: ids from ``tokenizers`` itself, what is
shown from our own code.

``tokenizers`` (in the ``[app]`` extra, imported when a file is loaded) gives the ids, exactly its
``encode(text, add_special_tokens=False).ids``, added tokens such as ``<|im_start|>`` matched in plain text as it
does. A byte-level BPE model (GPT-2, Qwen3, DeepSeek-V3, Llama 3) is also a :class:`HFTokenizer`, a
:class:`~bpe_core.encoding.encoder.Tokenizer` built from the file's merges (:func:`bpe_core.models.hf_json.bpe_merges`)
and its pre-tokenizer (:class:`~bpe_core.models.hf_json.HFPieces`), so the merge-by-merge replay, merge numbers and
merge trees work as for GPT-2; the tests check that our own encoding equals ``tokenizers``' ids. Any other model
(WordPiece, Unigram, BPE with byte fallback) is a :class:`HFOtherTokenizer`: ids and tokens from ``tokenizers``.

Public API: :func:`load_tokenizer_json` (a path to a file or a folder holding one, or the file's bytes),
:func:`require_tokenizers`.
"""

from __future__ import annotations

import hashlib
import threading
from operator import itemgetter
from pathlib import Path

from ..byte_display import from_gpt2
from ..encoding.encoder import Tokenizer
from ..encoding.traces import trace_piece
from ..inputs import EXTRA_HINT, InputError
from ..variants import Variant
from .hf_json import (
    BpeTables,
    HFPieces,
    added_tokens,
    bpe_merges,
    bpe_pairs,
    is_byte_level,
    model_type,
    read_tokenizer_json,
)


def require_tokenizers():
    """The ``tokenizers`` module. Raises :class:`InputError` naming the ``[app]`` extra when it is not installed."""
    try:
        import tokenizers
    except ImportError:
        raise InputError(
            f"reading a tokenizer.json needs the 'tokenizers' package, part of the app's extra: {EXTRA_HINT}"
        ) from None
    return tokenizers


def _hf_tokenizer(data: bytes, name: str):
    """``tokenizers.Tokenizer`` of the file's bytes; InputError when ``tokenizers`` cannot read it."""
    tokenizers = require_tokenizers()
    try:
        if data.startswith(b"\xef\xbb\xbf"):  # a byte order mark, which the JSON reader of tokenizers refuses
            return tokenizers.Tokenizer.from_str(data.decode("utf-8-sig"))
        return tokenizers.Tokenizer.from_buffer(data)  # no copy as a Python string: 0.02 s less for Qwen3
    except Exception as err:  # tokenizers raises bare Exception for a file it cannot read
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        first = first.removeprefix("Cannot instantiate Tokenizer from buffer: ")  # what from_str says without it
        raise InputError(f"{name}: tokenizers cannot read it: {first}") from None


class _HFIds:
    """What both kinds share: the ``tokenizers`` object, added and special tokens, the ids."""

    #: The ids of the added tokens, special or not (set per instance).
    _added_ids: frozenset = frozenset()

    hf = None
    special: frozenset = frozenset()
    added: dict = {}
    name: str = "tokenizer.json"
    model_type: str = "BPE"
    #: The step of the file our own code cannot show, or None.
    unsupported: str | None = None

    def hf_ids(self, text: str) -> list[int]:
        """``tokenizers``' ``encode(text, add_special_tokens=False).ids``."""
        return self.hf.encode(text, add_special_tokens=False).ids

    def is_special(self, tid: int) -> bool:
        """The token is one of the file's special added tokens (``<|im_start|>``)."""
        return tid in self.special

    def merge_token(self, k: int) -> int:
        """The id of the token merge ``k`` (from 1, the k-th line of ``model.merges``) makes. Raises IndexError
        outside 1..:attr:`num_merges`."""
        if not 1 <= k <= len(self._pair_of_rank):
            raise IndexError(f"merge {k} is outside 1..{len(self._pair_of_rank)}")
        return self._pair_of_rank[k - 1][2]

    def is_added(self, tid: int) -> bool:
        """The token is one of the file's added tokens (special or not): matched in the text before the model."""
        return tid in self._added_ids


class HFTokenizer(_HFIds, Tokenizer):
    """A byte-level BPE ``tokenizer.json``: ids from ``tokenizers``; pre-tokens, replays and merge trees from
    the file's merges by our own code. Build it with :func:`load_tokenizer_json`."""

    #: The shipped file's merges as ids (:mod:`bpe_core.models.hf_pairs`), read instead of the JSON when it names
    #: the file's sha256 (``_sha256``); None: the JSON is read.
    pairs_file: Path | None = None
    #: What :meth:`_build` makes from the file, on first use (``_pair_of_rank`` may come first, alone).
    _LAZY = frozenset({"values", "vocab", "_byte_ids", "_ignore_merges", "_pieces", "unsupported"})

    def __getattr__(self, name: str):
        # Called only for attributes not yet set: the tables, built once (under a lock: sessions share a model).
        if name == "_ranks":  # the pair ranks only our own encoding needs (replay, dropout): apart, on first use
            # The first merge of a pair counts: built backwards so that its rank is written last (in C).
            back = self._pair_of_rank[::-1]
            sides = zip(map(itemgetter(0), back), map(itemgetter(1), back))
            self._ranks = dict(zip(sides, range(len(back) - 1, -1, -1)))  # two threads at once: the same dict
            return self._ranks
        if name == "_pair_of_rank":  # the merges as ids alone (a chip's "made at merge k"): no tokens' bytes
            from . import gc_paused  # (as in _build: the package imports this module only when a file is loaded)

            with self._build_lock, gc_paused():
                if "_pair_of_rank" not in self.__dict__:
                    self._pair_of_rank = self._merge_ids()
            return self.__dict__["_pair_of_rank"]
        if name not in HFTokenizer._LAZY:
            raise AttributeError(name)
        self._build()
        return object.__getattribute__(self, name)

    def _merge_ids(self) -> list:
        """``[(left, right, new)]`` from :attr:`pairs_file` (when it names the file's sha256) or the JSON
        (:func:`~bpe_core.models.hf_json.bpe_pairs`), without the tokens' bytes: for Qwen3 0.03 s instead of 0.1 s
        for all the tables, for DeepSeek-V3 0.2 s instead of 0.35 s."""
        if self.pairs_file is not None:
            from .hf_pairs import read_hf_merge_ids

            pairs = read_hf_merge_ids(self.pairs_file, self._sha256, self.hf.get_vocab_size(with_added_tokens=False))
            if pairs is not None:
                return pairs
        return bpe_pairs(read_tokenizer_json(self._data, self.name), self.name)

    def _build(self, doc: dict | None = None) -> None:
        """Read the file's merges, vocabulary and pre-tokenizer (:func:`bpe_merges`, :class:`HFPieces`)."""
        from . import gc_paused  # (the package imports this module only when a file is loaded)

        with self._build_lock, gc_paused():
            if "_pieces" in self.__dict__:
                return
            tables = None
            if doc is None and self.pairs_file is not None:
                tables, doc = self._tables_from_pairs()
            if tables is None:
                doc = read_tokenizer_json(self._data, self.name) if doc is None else doc
                tables = bpe_merges(doc, self.name)
            self.values, self.vocab = tables.values, tables.vocab
            # The same merges when they were read alone first (:meth:`_merge_ids`): the list already indexed kept.
            self._pair_of_rank = self.__dict__.get("_pair_of_rank", tables.pairs)
            self._byte_ids = [tables.vocab[bytes((b,))] for b in range(256)]
            self._ignore_merges = bool(doc["model"].get("ignore_merges"))
            pieces = HFPieces(doc)
            self.unsupported = pieces.unsupported
            self._pieces = pieces  # last: its presence says the tables are built
            del self._data

    def _tables_from_pairs(self) -> tuple[BpeTables | None, dict | None]:
        """The tables from :attr:`pairs_file` and the rest of the file from ``tokenizers``
        (:mod:`bpe_core.models.hf_pairs`), or ``(None, None)`` when that file cannot be used."""
        from .hf_pairs import read_hf_pairs, small_doc

        got = read_hf_pairs(self.pairs_file, self._sha256, self.hf.get_vocab_size(with_added_tokens=False))
        if got is None:
            return None, None
        values_list, pairs, _byte_ids = got
        doc = small_doc(self.hf)
        added = added_tokens(doc)
        values = dict(enumerate(values_list))
        for tok in added:
            values.setdefault(tok.id, tok.content.encode("utf-8"))
        return BpeTables(values, dict(zip(values_list, range(len(values_list)))), pairs, added), doc

    def token_value(self, tid: int) -> bytes:
        """The token's bytes (an added token's: its UTF-8 text). Raises ``ValueError`` for an unknown id.

        Before the merge tables are built, read from ``tokenizers`` for this one id, as :meth:`_build`'s
        ``values`` has it: a token of the model's vocabulary in GPT-2's byte alphabet, or as UTF-8 text where it
        is not written in it; otherwise an added token's text. Why: the first view of a text needs a few tokens'
        bytes, and building the tables costs 0.1-0.4 s per model (DeepSeek-V3's merges from 7 MB of JSON)."""
        if "values" in self.__dict__:
            return Tokenizer.token_value(self, tid)
        try:
            wire = self.hf.model.id_to_token(tid) if tid >= 0 else None
        except (TypeError, OverflowError):  # not an id tokenizers takes (a float, a huge number)
            wire = None
        if wire is not None:
            try:
                return from_gpt2(wire)
            except ValueError:  # a special token kept in the model's vocabulary, outside the byte alphabet
                return wire.encode("utf-8")
        if tid in self._added_ids:
            return self.hf.id_to_token(tid).encode("utf-8")
        raise ValueError(f"unknown token id {tid!r}")

    def encode(self, text: str, dropout: float = 0.0, seed: int | None = None) -> list[int]:
        """``tokenizers``' ids of ``text``; with ``dropout``, a BPE-dropout sample by our own merges (as
        :meth:`Tokenizer.encode`)."""
        if dropout:
            return Tokenizer.encode(self, text, dropout, seed)
        return self.hf_ids(text)

    def own_encode(self, text: str) -> list[int]:
        """Our own encoding by merge rank (what the replay shows); equals :meth:`encode` when
        :attr:`unsupported` is None (the tests check it)."""
        return Tokenizer.encode(self, text)

    def pieces(self, text: str) -> list[str]:
        return self._pieces(text)

    def symbol_ids(self, piece: str) -> list[int]:
        """An added token is its own id; with the file's ``ignore_merges`` (Llama 3), so is a pre-token that is a
        whole vocabulary token, before any merge (as ``tokenizers`` does); otherwise the bytes' ids."""
        tid = self.added.get(piece)
        if tid is None and self._ignore_merges:
            tid = self.vocab.get(piece.encode("utf-8"))
        return [tid] if tid is not None else Tokenizer.symbol_ids(self, piece)

    def _encode_uncached(self, piece: str) -> tuple:
        tid = self.added.get(piece)
        return (tid,) if tid is not None else Tokenizer._encode_uncached(self, piece)

    def trace_piece(self, piece: str):
        return trace_piece(piece, tuple(self.symbol_ids(piece)), self._ranks, self._pair_of_rank)

    def __repr__(self) -> str:
        return f"HFTokenizer({self.name!r}, merges={self.num_merges}, vocab={len(self.values)})"


class HFOtherTokenizer(_HFIds):
    """A ``tokenizer.json`` whose model is not byte-level BPE (WordPiece, Unigram, BPE with byte fallback):
    ids, tokens and decoding from ``tokenizers``; tokens are strings (``##ing``, ``▁the``, ``<0xE5>``)."""

    variant = Variant("char")
    pretokenizer = "tokenizer.json"
    pattern = None
    #: BPE-dropout is sampled by our own merges, which only byte-level BPE files have here.
    can_dropout = False

    def __init__(self, hf, doc: dict, name: str):
        self.hf, self.name, self.model_type = hf, name, model_type(doc)
        vocab = hf.get_vocab(with_added_tokens=True)
        self.vocab: dict = vocab
        self.values: dict = {tid: tok for tok, tid in vocab.items()}
        model = self._doc_model = doc["model"]
        unk = model.get("unk_token")
        self.unk_id: int | None = vocab.get(unk) if isinstance(unk, str) else None
        if self.model_type == "Unigram":  # vocab: [[piece, log-probability], ...]; unk_id: an index in it
            self._scores = {p: s for p, s in model["vocab"] if isinstance(p, str)}
            unk_at = model.get("unk_id")
            self._unk_piece = model["vocab"][unk_at][0] if isinstance(unk_at, int) else None
            self.unk_id = unk_at if isinstance(unk_at, int) else None
        pieces = HFPieces(doc)  # its added tokens only: the pre-tokens shown are tokenizers' own (:meth:`pieces`)
        self._added_pieces = pieces
        self.added, self.special = dict(pieces.added), frozenset(pieces.special)
        self._added_ids = frozenset(t.id for t in added_tokens(doc))

    @property
    def vocab_size(self) -> int:
        return len(self.values)

    @property
    def merges(self) -> list:
        """No merges are shown for these models (their cuts are not merges, or not ours to replay)."""
        return []

    def encode(self, text: str, dropout: float = 0.0, seed: int | None = None) -> list[int]:
        """``tokenizers``' ids. Raises ValueError for ``dropout`` (only BPE models sample it)."""
        if dropout:
            raise ValueError(f"BPE-dropout needs a byte-level BPE model; this one is {self.model_type}")
        return self.hf_ids(text)

    def encode_tokens(self, text: str) -> list:
        return self.hf.encode(text, add_special_tokens=False).tokens

    def pieces(self, text: str) -> list[str]:
        """``tokenizers``' own pre-tokens (normalized) of ``text``, an added token one pre-token of its own."""
        return hf_pieces(self.hf, self._added_pieces.added_re, text)

    def cuts(self, text: str) -> list:
        """How each pre-token of ``text`` is cut, by our own code: ``[(pre_token, cut)]`` with a
        :class:`~bpe_core.models.hf_cuts.WordPieceCut` (WordPiece) or :class:`~bpe_core.models.hf_cuts.Lattice`
        (Unigram); an empty list for other models. Added tokens are left out (they are not cut)."""
        from .hf_cuts import unigram_cut, wordpiece_cut

        model = self._doc_model
        out = []
        for piece in self.pieces(text):
            if piece in self.added:
                continue
            if self.model_type == "WordPiece":
                cut = wordpiece_cut(
                    piece,
                    model["vocab"],
                    model.get("continuing_subword_prefix") or "##",
                    model.get("unk_token") or "[UNK]",
                    model.get("max_input_chars_per_word") or 100,
                )
            elif self.model_type == "Unigram":
                cut = unigram_cut(piece, self._scores, self._unk_piece)
            else:
                return []
            out.append((piece, cut))
        return out

    def token_value(self, tid: int) -> str:
        """The token's string as the file writes it. Raises ValueError for an unknown id."""
        try:
            return self.values[tid]
        except KeyError:
            raise ValueError(f"unknown token id {tid}") from None

    def token_wires(self, ids: list[int]) -> list[str]:
        return list(map(self.token_value, ids))

    def decode(self, ids: list[int]) -> str:
        return self.hf.decode(list(ids), skip_special_tokens=False)

    def __repr__(self) -> str:
        return f"HFOtherTokenizer({self.name!r}, {self.model_type}, vocab={len(self.values)})"


def hf_pieces(hf, added_re, text: str) -> list[str]:
    """The pre-tokens of ``text`` by ``tokenizers``' own normalizer and pre-tokenizer (``hf``), the added tokens
    (``added_re``, or None) first split out as pre-tokens of their own, as ``tokenizers`` does."""
    parts = [(text, False)]
    if added_re is not None:
        parts, at = [], 0
        for m in added_re.finditer(text):
            parts += [(text[at : m.start()], False), (m.group(), True)]
            at = m.end()
        parts.append((text[at:], False))
    out = []
    for part, added in parts:
        if added:
            out.append(part)
            continue
        normal = hf.normalizer.normalize_str(part) if hf.normalizer and part else part
        if not normal:
            continue
        if hf.pre_tokenizer is None:
            out.append(normal)
        else:
            out.extend(p for p, _span in hf.pre_tokenizer.pre_tokenize_str(normal))
    return out


def _resolve(path: str | Path) -> Path:
    """The tokenizer.json a path names: the file, or ``tokenizer.json`` in the folder."""
    path = Path(path)
    if path.is_dir():
        path = path / "tokenizer.json"
        if not path.is_file():
            raise InputError(f"{path.parent} holds no tokenizer.json.")
    elif not path.is_file():
        raise InputError(f"{path} does not exist.")
    return path


def load_tokenizer_json(
    source: str | Path | bytes, name: str | None = None, sha256: str | None = None, lazy: bool = False
):
    """A :class:`HFTokenizer` (byte-level BPE) or :class:`HFOtherTokenizer` (any other model) from a
    ``tokenizer.json``.

    Args:
        source: a path to the file or to a folder holding ``tokenizer.json``, or the file's bytes.
        name: how messages name it (default: the path, or ``tokenizer.json``).
        sha256: when given, the hex sha256 the file's bytes must have.
        lazy: build a byte-level file's merge tables on first use, not now (for a file known to be good, such
            as a shipped one whose sha256 is checked: its ids are ready as soon as ``tokenizers`` has read it).

    Raises:
        InputError: a missing path, ``tokenizers`` not installed, a file that is not a tokenizer.json or that
            ``tokenizers`` cannot read (truncated, unknown parts), or a sha256 that differs.
    """
    if isinstance(source, (bytes, bytearray)):
        data, name = bytes(source), name or "tokenizer.json"
    else:
        path = _resolve(source)
        name = name or str(path)
        try:
            data = path.read_bytes()
        except OSError as err:
            raise InputError(f"{name}: cannot read it ({err.strerror}).") from None
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise InputError(f"{name}: its sha256 is not the one recorded for it (a damaged or changed file).")
    require_tokenizers()
    if lazy:
        hf = _hf_tokenizer(data, name)
        if _hf_is_byte_level(hf):
            return _lazy_byte_level(hf, data, name)
    doc = read_tokenizer_json(data, name)
    hf = _hf_tokenizer(data, name) if not lazy else hf
    if not is_byte_level(doc):
        from .hf_char_bpe import char_bpe  # it builds on HFOtherTokenizer

        other = HFOtherTokenizer(hf, doc, name)
        return char_bpe(other, doc) or other
    tok = _lazy_byte_level(hf, data, name)
    try:
        tok._build(doc)  # now, not on first use: a file whose merges we cannot replay is known at once
    except InputError as err:  # e.g. trained without all 256 bytes: tokenizers still reads it, we show its ids
        other = HFOtherTokenizer(hf, doc, name)
        other.unsupported = f"its merges ({str(err).removeprefix(name + ': ')})"
        return other
    return tok


def _hf_is_byte_level(hf) -> bool:
    """A byte-level BPE model, asked of ``tokenizers`` (its steps' own JSON, not the whole file's)."""
    if type(hf.model).__name__ != "BPE":
        return False
    steps = (hf.pre_tokenizer, hf.decoder)
    return any(step is not None and b'"ByteLevel"' in step.__getstate__() for step in steps)


def _lazy_byte_level(hf, data: bytes, name: str) -> HFTokenizer:
    """A :class:`HFTokenizer` whose ids work at once (``tokenizers``) and whose merge tables are built from ``data``
    on first use (:meth:`HFTokenizer._build`): loading costs about what ``tokenizers`` alone costs."""
    tok = HFTokenizer.__new__(HFTokenizer)
    tok.hf, tok.name, tok.model_type, tok._data = hf, name, "BPE", data
    tok._build_lock = threading.Lock()
    tok.variant, tok.pretokenizer, tok.pattern, tok.unk_id = Variant("byte"), "none", None, None
    tok._merges = tok._token_rank = tok._whole_tokens = tok._lm = tok._frequencies = None
    tok._cache, tok._lm_cache = {}, {}
    added = hf.get_added_tokens_decoder()
    tok.added = {t.content: tid for tid, t in added.items()}
    tok.special = frozenset(tid for tid, t in added.items() if t.special)
    tok._added_ids = frozenset(added)
    return tok
