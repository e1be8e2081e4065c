"""The real byte-level BPE tokenizers shipped with bpe_core: GPT-2, GPT-4 and GPT-4o.

Their merge ranks are tiktoken ``.tiktoken`` rank files (provenance, sha256 and licences in this
folder's ``README.md``): one line per token, ``base64(token bytes) rank``, ranks 0..N-1 in merge order,
ranks 0-255 the single bytes. A token's rank is its id. The merge list is recovered as tiktoken's
educational code and Hugging Face's converters do it: BPE-encode each token's bytes with only the ranks
below its own; the two parts that remain are the merged pair. That takes seconds, so each rank file
has a ``.pairs`` file beside it holding the recovered merges as id pairs, written by :func:`write_pairs`
(``python -m bpe_core.models``, deterministic). On load it is used only if it names the rank file's
sha256 and every pair joins two lower-ranked tokens into its token; otherwise the merges are recovered
at load time.

Beside them, Hugging Face ``tokenizer.json`` models (:data:`HF_MODELS`): Qwen3, shipped gzip-compressed with its
sha256 checked at load, and DeepSeek-V3, not shipped (its licence), read from the folder that the environment
variable :data:`HF_DIR_ENV` names (``<folder>/deepseek_v3/tokenizer.json``); :mod:`bpe_core.models.hf_model`.

Public API: :func:`load_gpt` (``"gpt2"``, ``"cl100k"``, ``"o200k"``, ``"qwen3"``, ``"deepseek_v3"``; cached once per
process, so a server shares one copy between sessions), :func:`load_rank_file` for any rank file,
:func:`available_models`.
"""

from __future__ import annotations

import binascii
import gc
import gzip
import hashlib
import os
import sys
import threading
import zlib
from array import array
from contextlib import contextmanager
from functools import cache
from operator import add, eq, itemgetter, lt
from pathlib import Path

from ..encoding.encoder import Tokenizer

HERE = Path(__file__).resolve().parent

#: ``name: (rank file stem, pre-tokenizer, what it is)``; the pre-tokenizers are tiktoken's patterns.
MODELS = {
    "gpt2": ("r50k_base", "gpt2", "GPT-2 (r50k_base), 50,000 merges"),
    "cl100k": ("cl100k_base", "gpt4", "GPT-3.5 / GPT-4 (cl100k_base), 100,000 merges"),
    "o200k": ("o200k_base", "o200k", "GPT-4o (o200k_base), 199,742 merges"),
}
#: ``name: (shipped file or None, sha256 of tokenizer.json, what it is)``: the tokenizer.json models.
HF_MODELS = {
    "qwen3": (
        "qwen3.tokenizer.json.gz",
        "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4",
        "Qwen3, byte-level BPE, 151,387 merges",
    ),
    "deepseek_v3": (
        None,
        "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41",
        "DeepSeek-V3, byte-level BPE, 127,741 merges (not shipped: read from $BPE_EXPLORER_HF_DIR/deepseek_v3)",
    ),
}
#: The environment variable naming a folder of tokenizer.json models not shipped (``<folder>/<name>/tokenizer.json``).
HF_DIR_ENV = "BPE_EXPLORER_HF_DIR"
MODEL_NAMES = tuple(MODELS) + tuple(HF_MODELS)

_PAIRS_MAGIC = b"bpe_core pairs 1 sha256="

#: The sha256 of each shipped merge list written as merges.txt lines (``left right`` in GPT-2's byte alphabet,
#: joined by newlines, no header): a vocab.json + merges.txt folder holding one of these merges gets the
#: whole-token short cut (:func:`mark_known_merges`). ``tests/test_models_tiktoken.py`` recomputes them.
KNOWN_MERGES = {
    "04e3597d7996f292ca9b8b7285ca4d58a6ae171ac47d73fc7140ceb0c7a6bbc0": "gpt2",
    "e1f229c309fdbf445c057a66f5e92f32ad9d9c53536bdb49de867906448141ff": "cl100k",
    "cd769c46432c5d145feeac823035a1431fd10dda47f5cad7be4890cc4773b9c5": "o200k",
}


def read_rank_file(data: bytes) -> list[bytes]:
    """The tokens of a ``.tiktoken`` rank file, in rank order (index = rank = id).

    Args:
        data: the file's bytes.

    Raises:
        ValueError: a line that is not ``base64 rank``, ranks that are not 0..N-1 in order, or first 256
            tokens that are not the 256 single bytes.
    """
    fields = data.split()
    if len(fields) % 2:
        raise ValueError("a rank file line must be 'base64-token rank'")
    try:
        tokens = list(map(binascii.a2b_base64, fields[0::2]))
        ranks = list(map(int, fields[1::2]))
    except ValueError as exc:
        raise ValueError(f"not a .tiktoken rank file: {exc}") from None
    if ranks != list(range(len(ranks))):
        raise ValueError("a rank file must list ranks 0..N-1 in order")
    if len(tokens) < 256 or sorted(tokens[:256]) != [bytes((b,)) for b in range(256)]:
        raise ValueError("the first 256 ranks of a rank file must be the 256 single bytes")
    return tokens


def _bpe_parts(token: bytes, ranks: dict, max_rank: int) -> list[bytes]:
    """Byte-level BPE of ``token`` with only the ranks below ``max_rank``, merging the lowest-ranked
    adjacent pair (leftmost first) one occurrence at a time (tiktoken's ``_educational.bpe_encode``)."""
    parts = [token[i : i + 1] for i in range(len(token))]
    get = ranks.get
    while len(parts) > 1:
        best_i, best = -1, max_rank
        for i in range(len(parts) - 1):
            r = get(parts[i] + parts[i + 1])
            if r is not None and r < best:
                best_i, best = i, r
        if best_i < 0:
            break
        parts[best_i : best_i + 2] = [parts[best_i] + parts[best_i + 1]]
    return parts


def recover_splits(tokens: list[bytes]) -> bytes:
    """For each token, the length of the left part of the merge that made it (0 for the 256 bytes).

    Raises:
        ValueError: a token whose bytes do not BPE-encode to two lower-ranked tokens.
    """
    ranks = dict(zip(tokens, range(len(tokens))))
    out = bytearray(256)
    for rank in range(256, len(tokens)):
        parts = _bpe_parts(tokens[rank], ranks, rank)
        if len(parts) != 2:
            raise ValueError(f"rank {rank}: {tokens[rank]!r} encodes to {len(parts)} parts with the lower ranks")
        out.append(len(parts[0]))
    return bytes(out)


def _pairs_path(rank_path: Path) -> Path:
    return rank_path.with_suffix(".pairs")


def pairs_from_splits(tokens: list[bytes], splits: bytes) -> tuple[list[int], list[int]]:
    """The ids ``(lefts, rights)`` of each merge (merge k makes token ``256 + k``) from the split lengths.

    Raises:
        ValueError: a split whose parts are not two lower-ranked tokens.
    """
    vocab = dict(zip(tokens, range(len(tokens))))
    lefts, rights = [], []
    for rank in range(256, len(tokens)):
        t, i = tokens[rank], splits[rank]
        a, b = vocab.get(t[:i], rank), vocab.get(t[i:], rank)
        if not (0 < i < len(t) and a < rank and b < rank):
            raise ValueError(f"rank {rank}: {t!r} split at {i} is not two lower-ranked tokens")
        lefts.append(a)
        rights.append(b)
    return lefts, rights


def write_pairs(rank_path: str | Path) -> Path:
    """Recover the merges of a rank file and write them beside it as ``<stem>.pairs`` (deterministic).

    Format: one line ``bpe_core pairs 1 sha256=<hex of the rank file>``, then zlib-compressed (level 9)
    little-endian uint32 arrays: the left ids of merges 1..M, then their right ids.
    """
    rank_path = Path(rank_path)
    data = rank_path.read_bytes()
    tokens = read_rank_file(data)
    lefts, rights = pairs_from_splits(tokens, recover_splits(tokens))
    ids = array("I", lefts + rights)
    if sys.byteorder != "little":
        ids.byteswap()
    out = _pairs_path(rank_path)
    out.write_bytes(_PAIRS_MAGIC + hashlib.sha256(data).hexdigest().encode() + b"\n" + zlib.compress(ids.tobytes(), 9))
    return out


def _read_pairs(rank_path: Path, data: bytes, tokens: list[bytes]) -> tuple[list[int], list[int]] | None:
    """The merges stored in ``<stem>.pairs`` if it was made from these exact bytes and every stored pair
    joins two lower-ranked tokens into its token; None otherwise."""
    path = _pairs_path(rank_path)
    if not path.exists():
        return None
    head, _, body = path.read_bytes().partition(b"\n")
    if head != _PAIRS_MAGIC + hashlib.sha256(data).hexdigest().encode():
        return None
    ids = array("I")
    try:
        ids.frombytes(zlib.decompress(body))
    except (zlib.error, ValueError):
        return None
    if sys.byteorder != "little":
        ids.byteswap()
    m = len(tokens) - 256
    if len(ids) != 2 * m:
        return None
    lefts, rights = ids[:m].tolist(), ids[m:].tolist()
    made = range(256, len(tokens))
    get = tokens.__getitem__
    if not (all(map(lt, lefts, made)) and all(map(lt, rights, made))):
        return None
    if not all(map(eq, map(add, map(get, lefts), map(get, rights)), tokens[256:])):
        return None
    return lefts, rights


def load_rank_file(path: str | Path, pretokenizer: str) -> Tokenizer:
    """A byte-level :class:`~bpe_core.encoding.encoder.Tokenizer` from a tiktoken ``.tiktoken`` rank file.

    Ids are the file's ranks; merge k (1-based) makes token ``255 + k``. Encoding gives tiktoken's
    ``encode_ordinary`` ids when ``pretokenizer`` is the tiktoken pattern the file was made with.

    Args:
        path: the rank file.
        pretokenizer: one of :data:`bpe_core.pretokenize.PRETOKENIZERS`.

    Raises:
        OSError: the file cannot be read. ValueError: not a rank file, or a token that no two lower
        ranks make.
    """
    path = Path(path)
    data = path.read_bytes()
    tokens = read_rank_file(data)
    pairs = _read_pairs(path, data, tokens)
    lefts, rights = pairs if pairs is not None else pairs_from_splits(tokens, recover_splits(tokens))
    n = len(tokens)
    vocab = dict(zip(tokens, range(n)))
    ranks = dict(zip(zip(lefts, rights), range(n - 256)))  # no pair twice: each made a different token
    pair_of_rank = list(zip(lefts, rights, range(256, n)))
    tok = Tokenizer._from_trusted_byte_tables(pretokenizer, dict(enumerate(tokens)), vocab, ranks, pair_of_rank)
    # Every token is the result of its own merge, so a pre-token that is a whole token encodes to it
    # (tiktoken takes the same short cut).
    tok._whole_tokens = tok.vocab
    return tok


def mark_known_merges(tok: Tokenizer, merges_text: str, new_ids: range | None = None) -> str | None:
    """Give a byte-level tokenizer read from files the whole-token short cut when its merges are those of a
    shipped model; returns that model's name, or None.

    Args:
        tok: the tokenizer built from the files.
        merges_text: its merges as merges.txt lines, ``left right`` in GPT-2's byte alphabet, joined by
            newlines (no header, no final newline); :data:`KNOWN_MERGES` holds their sha256.
        new_ids: the ids the merges make, when they are known to be ``range(256, 256 + merges)`` (GPT-2's
            layout, :func:`bpe_core.formats.gpt2_files.merge_ids`); otherwise they are read from ``tok``.

    The short cut (a pre-token that is a whole token is that token, as tiktoken assumes) is right only
    when every token encodes to itself through the merges. That holds for the shipped rank files, whose
    merges were recovered by encoding each token with the ranks below its own; it can fail for another
    merge list (a merge whose result a lower-ranked merge splits differently), and checking it means
    encoding every token, which costs more than the load. So only a known merge list gets it; the ids may
    differ (a token's id is looked up in ``tok``'s own vocabulary), and entries that no merge makes (such
    as ``<|endoftext|>``) are left out, since their bytes are encoded by the merges like any text.
    """
    name = KNOWN_MERGES.get(hashlib.sha256(merges_text.encode("utf-8")).hexdigest())
    if name is not None:
        if isinstance(new_ids, range) and new_ids.start == 256 and set(tok._byte_ids) == set(range(256)):
            others = set(filter(new_ids.stop.__le__, tok.values))  # every id below the last merge's is made
        else:
            made = set(map(itemgetter(2), tok._pair_of_rank))
            made.update(tok._byte_ids)
            others = tok.values.keys() - made
        whole = tok.vocab if not others else dict(tok.vocab)
        for tid in others:
            del whole[tok.values[tid]]
        tok._whole_tokens = whole
    return name


_LOAD_LOCK = threading.Lock()


def available_models() -> tuple[str, ...]:
    """The names :func:`load_gpt` can load here: the shipped ones, and those of :data:`HF_MODELS` found in the
    folder :data:`HF_DIR_ENV` names."""
    return tuple(name for name in MODEL_NAMES if name not in HF_MODELS or _hf_source(name) is not None)


def _hf_source(name: str) -> Path | None:
    shipped = HF_MODELS[name][0]
    if shipped is not None:
        return HERE / shipped
    folder = os.environ.get(HF_DIR_ENV)
    path = Path(folder) / name / "tokenizer.json" if folder else None
    return path if path is not None and path.is_file() else None


def load_gpt(name: str) -> Tokenizer:
    """One of the shipped tokenizers, loaded once per process (later calls return the same object, also
    from other threads: a server's sessions share it; encoding does not change it, apart from its cache).

    Args:
        name: ``"gpt2"`` (GPT-2, ``r50k_base``, pattern ``gpt2``), ``"cl100k"`` (GPT-3.5 / GPT-4,
            ``cl100k_base``, pattern ``gpt4``), ``"o200k"`` (GPT-4o, ``o200k_base``, pattern ``o200k``), or
            ``"qwen3"`` / ``"deepseek_v3"`` (a :class:`~bpe_core.models.hf_model.HFTokenizer`: ids from ``tokenizers``).

    Raises:
        ValueError: an unknown name. :class:`~bpe_core.inputs.InputError` (a ValueError): ``tokenizers`` is not
        installed, DeepSeek-V3's folder is not set, or a tokenizer.json whose sha256 is not the recorded one.
    """
    if name not in MODEL_NAMES:
        raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODEL_NAMES)}")
    if name in HF_MODELS and _hf_source(name) is None:  # its folder is no longer named: say so, as before loading
        return _load_hf(name)  # (raises)
    with _LOAD_LOCK:  # two sessions asking at once load it once
        return _load_gpt(name)


@cache
def _load_gpt(name: str) -> Tokenizer:
    if name in HF_MODELS:
        return _load_hf(name)
    stem, pretokenizer, _ = MODELS[name]
    with gc_paused():
        return load_rank_file(HERE / f"{stem}.tiktoken", pretokenizer)


def _load_hf(name: str) -> Tokenizer:
    from ..inputs import InputError
    from .hf_model import load_tokenizer_json  # needs tokenizers (the [app] extra): imported when used

    path = _hf_source(name)
    if path is None:
        raise InputError(
            f"{name}'s tokenizer is not shipped with bpe_core (its licence); set {HF_DIR_ENV} to a folder holding "
            f"{name}/tokenizer.json, or pass the file's path as the model"
        )
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    with gc_paused():
        tok = load_tokenizer_json(data, name=name, sha256=HF_MODELS[name][1], lazy=True)
    if HF_MODELS[name][0] is not None and (HERE / f"{name}.pairs").is_file():  # its merges as ids, shipped beside it
        tok.pairs_file, tok._sha256 = HERE / f"{name}.pairs", HF_MODELS[name][1]
    return tok


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while a model's tables are built: hundreds of thousands of small
    tuples would trigger it again and again (each pass walking everything allocated so far), and none of
    them can form a cycle."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
