"""tiktoken's own ``get_encoding`` for the shipped rank files, offline: tiktoken's download cache is filled with
our copies of the rank files under the names tiktoken gives their download URLs (tiktoken checks their sha256
itself), so a test compares against ``tiktoken.get_encoding(...).encode_ordinary`` exactly as a user would run it.

tiktoken's ``gpt2`` encoding is built from GPT-2's vocab.bpe / encoder.json (not on this machine); ``r50k_base``
has the same ranks and the same pattern, so it stands for ``gpt2``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import tiktoken

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
