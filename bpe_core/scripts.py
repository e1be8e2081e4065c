"""Which writing systems a text uses, to warn when whitespace pre-tokenization cannot work.

Chinese, Japanese, Thai, Lao, Khmer, Myanmar (Burmese) and Tibetan are written without spaces between words:
split on whitespace, a paragraph of them is one "word" of hundreds of characters, and BPE learns nothing that
transfers between them. :func:`suggest_pretokenizer` proposes the GPT-2 pattern instead, which cuts such text at
punctuation and at changes of character class (letters, digits, other symbols).

Scripts are Unicode's ``Script`` property (UAX #24), read with the ``regex`` package's ``\\p{Script=...}``.
"""

from __future__ import annotations

import gettext
from typing import NamedTuple

import regex

#: Scripts written without spaces between words.
SPACE_FREE_SCRIPTS = ("Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan")
#: :func:`suggest_pretokenizer` speaks up when more than this share of the letters is in those scripts ...
SPACE_FREE_THRESHOLD = 0.5
#: ... and whitespace-separated words are this long on average (characters): text already cut into words by
#: spaces (``你好啊 你好 我``, as some Chinese corpora are) is left alone.
LONG_WORD_CHARS = 8
#: Characters of the text examined (its start): enough to judge, fast on a 5 MB paste.
SAMPLE_CHARS = 200_000

_LETTER = regex.compile(r"[\p{L}\p{M}]")  # marks too: Thai, Khmer and Myanmar write most vowels as marks
_SPACE_FREE = regex.compile("[" + "".join(rf"\p{{Script={s}}}" for s in SPACE_FREE_SCRIPTS) + "]")


class SpaceFreeReport(NamedTuple):
    """What whitespace pre-tokenization does with a text (from its first :data:`SAMPLE_CHARS` characters).

    Attributes:
        share: share of letters (and combining marks) in :data:`SPACE_FREE_SCRIPTS`, 0.0 to 1.0 (0.0: no letters).
        words: whitespace-separated words in the sample.
        mean_word_chars: their mean length in characters (0.0 when there are none).
        longest_word_chars: the longest one, in characters.
    """

    share: float
    words: int
    mean_word_chars: float
    longest_word_chars: int


def space_free_share(text: str, limit: int = SAMPLE_CHARS) -> float:
    """Share of the letters of ``text[:limit]`` (``\\p{L}`` and ``\\p{M}``: characters, not bytes) that belong to
    a script written without spaces (:data:`SPACE_FREE_SCRIPTS`); 0.0 for a text without letters."""
    sample = text[:limit]
    letters = len(_LETTER.findall(sample))
    if not letters:
        return 0.0
    return len(_SPACE_FREE.findall(sample)) / letters


def space_free_report(text: str, limit: int = SAMPLE_CHARS) -> SpaceFreeReport:
    """:class:`SpaceFreeReport` of ``text[:limit]``."""
    sample = text[:limit]
    words = sample.split()
    lengths = [len(w) for w in words]
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    return SpaceFreeReport(space_free_share(sample), len(words), mean, max(lengths, default=0))


def suggest_pretokenizer(text: str, current: str) -> str | None:
    """A better pre-tokenizer for ``text`` than ``current``, or ``None`` when ``current`` is fine.

    Returns ``"gpt2"`` when ``current`` is ``"whitespace"``, more than :data:`SPACE_FREE_THRESHOLD` of the letters
    are in space-free scripts and the whitespace words average at least :data:`LONG_WORD_CHARS` characters.
    """
    if current != "whitespace":
        return None
    report = space_free_report(text)
    if report.share > SPACE_FREE_THRESHOLD and report.mean_word_chars >= LONG_WORD_CHARS:
        return "gpt2"
    return None


def whitespace_hint(text: str, current: str, tr=None) -> str | None:
    """The sentence the app shows when :func:`suggest_pretokenizer` has a suggestion, else ``None``.

    Args:
        tr: a ``gettext.NullTranslations`` for the user's language (``None``: English).
    """
    if suggest_pretokenizer(text, current) is None:
        return None
    report = space_free_report(text)
    tr = tr or gettext.NullTranslations()
    return tr.gettext(
        "Most of this text is written without spaces (Chinese, Japanese, Thai…): whitespace pre-tokenization "
        "makes each run between spaces one word, the longest {longest:,} characters, so merges cannot be shared "
        "between words. The GPT-2 pattern cuts at punctuation and between letters, digits and symbols."
    ).format(longest=report.longest_word_chars)
