"""Excerpts of the real corpora in ``shared/corpora`` for the trainer tests.

The corpora live next to the repository (``<parent>/shared/corpora``; CI clones the repo next to
``shared/``). They are read as they are: UTF-8, ``newline=""`` so CRLF line endings stay.
A missing corpus is an error, never a skip.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"

ENGLISH = "pg16457.txt"  # All Around the Moon (Project Gutenberg), CRLF
WIKI = "taylorswift.txt"  # an English Wikipedia article
CHINESE = "hongloumeng.txt"  # 红楼梦, CRLF, almost no spaces
EMOJI = "emoji-test.txt"  # Unicode emoji-test.txt


@cache
def read_corpus(name: str) -> str:
    """The whole corpus ``name`` as text, line endings kept."""
    path = CORPORA / name
    if not path.is_file():
        raise FileNotFoundError(f"corpus {path} is missing (the repo must be cloned next to shared/corpora)")
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def corpus_slice(name: str, start: int = 0, length: int | None = None) -> str:
    """Characters ``start`` .. ``start + length`` of corpus ``name`` (to the end when ``length`` is None)."""
    return read_corpus(name)[start : None if length is None else start + length]


def excerpt(name: str, size: int, start: int = 0) -> str:
    """About ``size`` UTF-8 bytes of corpus ``name`` in whole lines, from the first line that
    begins at or after character ``start``.

    The excerpt starts at a line start and ends after a line end (``\\n``, so CRLF pairs stay whole);
    it is never empty and never longer than ``size`` bytes unless one line is.
    """
    text = read_corpus(name)
    if start > 0:
        nl = text.find("\n", start - 1)
        if nl < 0:
            raise ValueError(f"start {start} is past the last line of {name}")
        start = nl + 1
    out = []
    used = 0
    pos = start
    while pos < len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl + 1
        line = text[pos:end]
        n = len(line.encode("utf-8"))
        if out and used + n > size:
            break
        out.append(line)
        used += n
        pos = end
    result = "".join(out)
    if not result:
        raise ValueError(f"empty excerpt of {name} at {start}")
    return result


# Named excerpts used by the tests: (corpus, size in bytes, start character).
# The starts skip licence headers and tables of contents so the text is the real thing.
EXCERPTS = {
    "english": (ENGLISH, 30_000, 30_000),
    "wiki": (WIKI, 25_000, 0),
    "chinese": (CHINESE, 25_000, 3_000),
    "emoji": (EMOJI, 25_000, 400_000),  # the food, travel and flag part: varied emoji and names
}


def named_excerpt(key: str, size: int | None = None) -> str:
    """The excerpt ``key`` of :data:`EXCERPTS`, optionally with another ``size``."""
    name, default_size, start = EXCERPTS[key]
    return excerpt(name, default_size if size is None else size, start)
