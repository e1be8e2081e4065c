"""Which writing systems a text uses, to warn when whitespace pre-tokenization cannot work, and which of its
characters are Chinese (Han) or emoji, the ones a tokenizer may spend several tokens on.

Chinese, Japanese, Thai, Lao, Khmer, Myanmar (Burmese) and Tibetan are written without spaces between words:
split on whitespace, a paragraph of them is one "word" of hundreds of characters, and BPE learns nothing that
transfers between them. :func:`suggest_pretokenizer` proposes the GPT-2 pattern instead, which cuts such text at
punctuation and at changes of character class (letters, digits, other symbols).

Scripts are Unicode's ``Script`` property (UAX #24), read with the ``regex`` package's ``\\p{Script=...}``.
"""

from __future__ import annotations

import gettext
import unicodedata
from typing import NamedTuple

import regex

from .measures import graphemes

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


# ------------------------------------------------------------------------------ Chinese characters and emoji
def is_han(grapheme: str) -> bool:
    """A Chinese (Han) character: one code point whose Unicode name is a CJK unified or compatibility
    ideograph (so not the radicals, 々 or 〇, which ``\\p{Script=Han}`` also holds)."""
    return len(grapheme) == 1 and unicodedata.name(grapheme, "").startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEO"))


#: Single code points outside the blocks below that are emoji by default (⌚ ⌛ ⭐ ⭕).
_EMOJI_SINGLES = frozenset(map(chr, (0x231A, 0x231B, 0x2B50, 0x2B55)))


def is_emoji_code_point(ch: str) -> bool:
    """A pictograph drawn as an emoji: a code point of the emoji blocks (U+1F000-U+1FAFF: pictographs,
    regional indicators, skin tones; U+2600-U+27BF: symbols and dingbats) or one of ⌚ ⌛ ⭐ ⭕."""
    cp = ord(ch)
    return 0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF or ch in _EMOJI_SINGLES


def is_emoji(grapheme: str) -> bool:
    """An emoji grapheme: it holds an emoji code point (:func:`is_emoji_code_point`) or an emoji
    presentation selector / keycap mark (U+FE0F, U+20E3: ``1️⃣``)."""
    return any(is_emoji_code_point(c) or c in "\ufe0f\u20e3" for c in grapheme)


def costly_graphemes(text: str, limit: int = 8) -> list[str]:
    """The distinct Chinese characters (:func:`is_han`), then the distinct emoji (:func:`is_emoji`), of
    ``text`` in order of first appearance, at most ``limit`` of each (graphemes, :func:`bpe_core.measures.graphemes`)."""
    seen = list(dict.fromkeys(graphemes(text)))
    return [g for g in seen if is_han(g)][:limit] + [g for g in seen if is_emoji(g)][:limit]


#: A letter written right to left: bidirectional class ``R`` (Hebrew, ...) or ``AL`` (Arabic letters, which also
#: cover Urdu, Persian, Syriac, Thaana), UAX #9, by the ``regex`` module's Unicode data: one scan in C, not a lookup
#: per character.
_RTL_LETTER = regex.compile(r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}]")


def has_right_to_left(words, limit: int = SAMPLE_CHARS) -> bool:
    """True when any of ``words`` (strings, e.g. a run's word types) holds a right-to-left letter (bidirectional
    class ``R`` or ``AL``, UAX #9). Looks at the first ``limit`` characters in all, so it is quick on any corpus."""
    sample, seen = [], 0
    for word in words:
        sample.append(word[: limit - seen])
        seen += len(word)
        if seen >= limit:
            break
    return _RTL_LETTER.search("".join(sample)) is not None
