"""The textbook corpus of the BPE tutorials (Sennrich et al. 2016), written once for every core test.

``TEXTBOOK_WORDS`` is the word-frequency table; ``TEXTBOOK_TEXT`` is the same corpus as a
``word count`` list (the form the CLI and the app read); ``TEXTBOOK_MERGES`` are its first five merges
under eow, separate marker, first-seen (with their counts); ``TEXTBOOK_HANDOUT_ROWS`` the same with the new token.
"""

from __future__ import annotations

TEXTBOOK_WORDS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
TEXTBOOK_TEXT = "".join(f"{word} {count}\n" for word, count in TEXTBOOK_WORDS.items())
TEXTBOOK_MERGES = [("e", "s", 9), ("es", "t", 9), ("est", "</w>", 9), ("l", "o", 7), ("lo", "w", 7)]
#: The same merges as the handout shows them: ``(left, right, new token, count)``.
TEXTBOOK_HANDOUT_ROWS = [(left, right, left + right, count) for left, right, count in TEXTBOOK_MERGES]


def textbook_words() -> dict[str, int]:
    """A fresh copy of :data:`TEXTBOOK_WORDS` (for a test that changes it)."""
    return dict(TEXTBOOK_WORDS)
