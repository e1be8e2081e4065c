"""tiktoken's own ``get_encoding`` for the shipped rank files, offline: tiktoken's download cache is filled with
our copies of the rank files under the names tiktoken gives their download URLs (tiktoken checks their sha256
itself), so a test compares against ``tiktoken.get_encoding(...).encode_ordinary`` exactly as a user would run it.

tiktoken's ``gpt2`` encoding is built from GPT-2's vocab.bpe / encoder.json (not on this machine); ``r50k_base``
has the same ranks and the same pattern, so it stands for ``gpt2``.

Also :func:`ref` (a ``tiktoken.Encoding`` built directly from our copy of a rank file, its sha256 checked, with
bpe_core's pattern for the model) and :data:`TEXTS`, the held-out texts of every kind the model tests encode.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import tiktoken
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, WIKI, corpus_slice, read_corpus
from tiktoken.load import load_tiktoken_bpe

from bpe_core.models import HERE, MODELS
from bpe_core.pretokenize import PATTERNS

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "test-artifacts" / "tiktoken-cache"
#: The shipped model names and the tiktoken encoding with the same rank file.
ENCODINGS = {"gpt2": "r50k_base", "cl100k": "cl100k_base", "o200k": "o200k_base"}


def get_encodings() -> dict[str, tiktoken.Encoding]:
    """``{model name: tiktoken.get_encoding(encoding)}`` for the three shipped models, without a network."""
    CACHE.mkdir(parents=True, exist_ok=True)
    for stem in ENCODINGS.values():
        url = f"https://openaipublic.blob.core.windows.net/encodings/{stem}.tiktoken"
        target = CACHE / hashlib.sha1(url.encode()).hexdigest()
        if not target.exists():
            shutil.copyfile(ROOT / "bpe_core" / "models" / f"{stem}.tiktoken", target)
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(CACHE)
    try:
        return {name: tiktoken.get_encoding(stem) for name, stem in ENCODINGS.items()}
    finally:
        if old is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old


#: sha256 of the shipped rank files (bpe_core/models/README.md gives their provenance).
SHA256 = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}


def reference(name: str) -> tiktoken.Encoding:
    """tiktoken's encoder for a shipped model, built offline from our copy of the rank file."""
    stem, pretokenizer, _ = MODELS[name]
    ranks = load_tiktoken_bpe(str(HERE / f"{stem}.tiktoken"), expected_hash=SHA256[stem])
    return tiktoken.Encoding(stem, pat_str=PATTERNS[pretokenizer], mergeable_ranks=ranks, special_tokens={})


_REFS: dict = {}


def ref(name: str) -> tiktoken.Encoding:
    if name not in _REFS:
        _REFS[name] = reference(name)
    return _REFS[name]


def tail(name: str, size: int) -> str:
    """The last ``size`` characters of a corpus (its end is held out from nothing we train on here)."""
    return read_corpus(name)[-size:]


CODE = (ROOT / "bpe_core" / "encoding" / "apply_merges.py").read_text(encoding="utf-8")
TEXTS = {
    "english": tail(ENGLISH, 40_000),
    "wiki": tail(WIKI, 20_000),
    "chinese": tail(CHINESE, 20_000),
    "emoji": tail(EMOJI, 30_000),
    "code": CODE,
    "crlf": corpus_slice(ENGLISH, 100_000, 5_000).replace("\n", "\r\n").replace("\r\r\n", "\r\n"),
    "trailing whitespace": corpus_slice(ENGLISH, 50_000, 2_000).rstrip() + " \r\n  \t \n  ",
    "edge cases": "x\n  |a  \nb|it's DON'T We'LL|CamelCaseWord|12345678|a/b//c|\u00a0\u3000x|\r\n\r\n|  ",
}
