r"""Pre-tokenizers: split text into the pieces ("words") that merges never cross.

* ``whitespace`` -- Python's ``str.split()``: runs of whitespace separate words and are dropped
  (the classic ``</w>`` tutorial and subword-nmt).
* ``gpt2``       -- GPT-2's pattern in tiktoken's form (``r50k_pat_str`` in ``tiktoken_ext/openai_public.py``),
  which tiktoken documents as equivalent to openai/gpt-2's ``encoder.py`` regex (and Hugging Face's
  ``ByteLevel(use_regex=True)``) but faster. Spaces stay attached to the following word.
* ``gpt4``       -- tiktoken's current ``cl100k_base`` pattern (GPT-3.5 / GPT-4). It tries ``\s++$`` before
  ``\s*[\r\n]``, so whitespace ending the input stays one piece: ``'x\n  '`` -> ``['x', '\n  ']``.
* ``o200k``      -- tiktoken's ``o200k_base`` pattern (GPT-4o): letters split at case changes
  (``CamelCase`` -> ``Camel``, ``Case``), contractions joined to their word, ``/`` after punctuation kept.
* ``none``       -- the whole text is one piece (karpathy/minbpe's ``BasicTokenizer``).
* ``jieba``      -- Chinese word segmentation (分词 / 斷詞) with jieba, 繁體 through OpenCC
  (:mod:`bpe_core.pretokenize_words`; the ``[app]`` extra). Not in :data:`PRETOKENIZERS`: those need only
  ``regex``, and a segmenter cannot be written into a ``tokenizer.json``.
* ``regex``      -- the user's own pattern (the ``regex`` package's syntax): every match is a piece, and
  so is each stretch of text between matches, as Hugging Face ``tokenizers``' ``Split`` with behavior
  ``isolated`` does -- nothing is dropped (see :func:`split_with_pattern`).

The patterns need the ``regex`` package (possessive quantifiers, ``\p{..}`` classes). A text with no
character beyond U+FFFF is split by the standard library's ``re`` instead, with the same pieces in about
half the time (see :func:`_stdlib_pattern`; a short text only once that pattern is compiled).
"""

from __future__ import annotations

import gettext
import re
import sys
from collections import Counter
from collections.abc import Iterator
from functools import cache, lru_cache

import regex

from .inputs import InputError
from .pretokenize_field import FIELD_PRETOKENIZERS, field_pieces
from .pretokenize_words import JIEBA, jieba_pieces

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
PRETOKENIZERS = ("whitespace", "gpt2", "gpt4", "o200k", "none")
#: The regex of each pattern pre-tokenizer (``tokenizer.json`` writes the same one as a ``Split``).
PATTERNS = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "o200k": O200K_PATTERN}

_COMPILED = {name: regex.compile(pattern) for name, pattern in PATTERNS.items()}


def pretokenize(text: str, name: str, pattern: str | None = None) -> list[str]:
    """Split ``text`` into pieces with the named pre-tokenizer.

    Args:
        text: the input, a ``str`` (characters, not bytes).
        name: one of :data:`PRETOKENIZER_CHOICES` (the named pre-tokenizers, or ``"regex"``).
        pattern: the user's pattern, for ``"regex"`` only (see :func:`regex_pieces`).

    Returns:
        The pieces in text order; empty pieces never appear.

    Raises:
        PatternError: ``"regex"`` with a missing, invalid, empty-matching or too slow pattern.
        InputError: ``"jieba"`` without jieba or OpenCC installed.
        ValueError: unknown pre-tokenizer name.
    """
    if name == REGEX:
        return regex_pieces(text, pattern)
    if name == "whitespace":
        return text.split()
    if name == "none":
        return [text] if text else []
    if name == JIEBA:
        return jieba_pieces(text)
    if name in FIELD_PRETOKENIZERS:  # WordPiece's and Unigram's (bert, metaspace)
        return field_pieces(text, name)
    if name in _COMPILED:
        if _STDLIB_SPLITS and (len(text) >= STDLIB_FROM or name in _STDLIB_READY) and _within_bmp(text):
            return _stdlib_pattern(name).findall(text)
        return _COMPILED[name].findall(text)
    raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {', '.join(PRETOKENIZER_CHOICES)}")


# --------------------------------------------------------------- the named patterns, faster
# The regex package spends about twice as long per match as the standard library's re, and splitting is
# the largest single cost of encoding English with a GPT tokenizer. re (possessive quantifiers since Python
# 3.11) has every construct the named patterns use except \p{..}; so each is also compiled for re with
# \p{..} and \s written out as the characters up to U+FFFF that regex itself puts in them (both engines
# backtrack the same way, so the pieces are the same). A text with a character beyond U+FFFF (most
# emoji, rare Chinese characters) is split by regex, as is everything before Python 3.11.
_STDLIB_SPLITS = sys.version_info >= (3, 11)
#: Characters from which a text is split by ``re`` before its pattern is compiled: compiling one costs 0.01-0.05 s,
#: more than ``regex`` loses on a short text (a page's first view splits only short ones). Once compiled, always.
STDLIB_FROM = 20_000
_STDLIB_READY: set[str] = set()  # the names whose ``re`` pattern is compiled
_PATTERN_PARTS = re.compile(r"\\p\{\w+\}|\\.|\[\^?|\]|[^\\\[\]]+")


def _within_bmp(text: str) -> bool:
    """True when no character of ``text`` is beyond U+FFFF (those take two UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)


@cache
def _bmp_ranges(cls: str) -> str:
    r"""The characters up to U+FFFF that ``regex`` matches with ``cls`` (``\p{L}``, ``\s``, ...), as the
    inside of an ``re`` character class (escaped, runs written as ranges)."""
    bmp = "".join(map(chr, range(0x10000)))
    spans = (m.span() for m in regex.finditer(f"{cls}+", bmp))
    return "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b - 1))}" if b - a > 1 else "") for a, b in spans)


@cache
def _stdlib_pattern(name: str) -> re.Pattern:
    r"""The named pattern compiled with ``re``, for texts without characters beyond U+FFFF (the first call
    takes a few hundredths of a second). Translates only what the named patterns use: ``\p{..}`` and ``\s``
    in and out of classes, ``\S`` outside them."""
    space = _bmp_ranges(r"\s")
    out, in_class = [], False
    for part in _PATTERN_PARTS.findall(PATTERNS[name]):
        if part.startswith("["):
            in_class = True
        elif part == "]":
            in_class = False
        elif part == r"\S" and not in_class:
            part = f"[^{space}]"
        elif part.startswith(r"\p") or part == r"\s":
            part = _bmp_ranges(part) if in_class else f"[{_bmp_ranges(part)}]"
        out.append(part)
    compiled = re.compile("".join(out))
    _STDLIB_READY.add(name)
    return compiled


def word_counts(text: str, name: str, pattern: str | None = None) -> dict[str, int]:
    """Count word types: ``{piece: frequency}`` in order of first appearance (``pattern``: for ``"regex"``)."""
    return dict(Counter(pretokenize(text, name, pattern)))


# ------------------------------------------------------------------------------ custom pattern
#: The pre-tokenizer name of a user's own pattern (not in :data:`PRETOKENIZERS`: it needs a pattern).
REGEX = "regex"
#: Every name a :class:`~bpe_core.algorithms.trainer.TrainConfig` may carry: the named pre-tokenizers, the
#: word segmenter and the user's pattern.
PRETOKENIZER_CHOICES = (*PRETOKENIZERS, JIEBA, REGEX)

#: A simplified, ASCII-only GPT-2 pattern offered as an example: contractions, letters with an optional
#: leading space, digits, other symbols, whitespace (GPT-2's ``encoder.py`` with ``\p{L}``/``\p{N}`` made
#: ASCII classes). Letters outside ASCII (é, 你) fall into "other symbols", so ``café`` is ``caf`` + ``é``.
EXAMPLE_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+"""

#: Time budget of one split, in seconds: this base plus :data:`PATTERN_SECONDS_PER_MILLION` per million
#: characters (the GPT-2 pattern splits a million characters in about 0.2 s; a pattern that backtracks
#: catastrophically, such as ``(a|aa)+$``, runs past any budget and is stopped by ``regex``'s ``timeout``).
PATTERN_TIMEOUT = 2.0
PATTERN_SECONDS_PER_MILLION = 1.0

# Short texts a pattern is tried on at compile time, to catch patterns that match the empty string
# (``a*``, ``\b``, ``(?=x)``: every printable ASCII character is tried) before they meet the corpus; the
# split itself checks every match too.
_EMPTY_PROBES = ("", "a b", "\t\r\n", "".join(map(chr, range(0x21, 0x7F))), "\u00e9\u4f60\u597d\u3002\U0001f642")


class PatternError(InputError):
    """The user's pattern cannot be used. ``str(err)`` is the English message; :meth:`message` translates it.

    Attributes:
        reason: ``"missing"`` (no pattern), ``"invalid"`` (does not compile), ``"empty"`` (can match the
            empty string) or ``"timeout"`` (ran past the time budget).
        pattern: the pattern as given.
        position: for ``"invalid"``, the 0-based offset in the pattern ``regex`` reports, shown as ``regex``
            shows it (or ``None``); for ``"empty"``, the 0-based character offset in the text where the empty
            match was found, shown 1-based (``None``: found on the probe texts).
        detail: for ``"invalid"``, ``regex``'s own message (English, e.g. ``missing )``); for ``"timeout"``,
            the budget in seconds as text.
    """

    def __init__(self, reason: str, pattern: str | None, position: int | None = None, detail: str = ""):
        self.reason, self.pattern, self.position, self.detail = reason, pattern, position, detail
        super().__init__(self.message())

    def __reduce__(self):  # picklable (caches and worker threads may carry it), with its fields
        return type(self), (self.reason, self.pattern, self.position, self.detail)

    def message(self, tr=None) -> str:
        """The message for the user, through ``tr`` (a ``gettext.NullTranslations``; ``None``: English)."""
        tr = tr or gettext.NullTranslations()
        if self.reason == "missing":
            return tr.gettext("The regular-expression pre-tokenizer needs a pattern.")
        if self.reason == "invalid":
            if self.position is None:
                return tr.gettext("The pattern is not a valid regular expression: {detail}.").format(detail=self.detail)
            return tr.gettext("The pattern is not a valid regular expression: {detail} at position {position}.").format(
                detail=self.detail, position=self.position
            )
        if self.reason == "empty":
            if self.position is None:
                return tr.gettext(
                    "The pattern can match the empty string, which would give empty pieces; "
                    "make every alternative consume at least one character (use + instead of *)."
                )
            return tr.gettext(
                "The pattern matched the empty string at character {position} of the text, which would give "
                "an empty piece; make every alternative consume at least one character (use + instead of *)."
            ).format(position=self.position + 1)
        return tr.gettext(
            "The pattern took longer than {seconds} seconds on this text and was stopped; it probably "
            "backtracks a lot (nested repeats such as (a|aa)+); simplify it."
        ).format(seconds=self.detail)


@lru_cache(maxsize=64)
def compile_pattern(pattern: str | None) -> regex.Pattern:
    """Compile a user's pattern (``regex`` syntax, ``VERSION0`` as ``regex.compile`` defaults to), cached.

    Raises:
        PatternError: ``"missing"`` (``None`` or ``""``), ``"invalid"`` (with ``regex``'s message and
            position), or ``"empty"`` (it matches the empty string in one of a few short probe texts).
    """
    if not pattern:
        raise PatternError("missing", pattern)
    try:
        compiled = regex.compile(pattern)
    except regex.error as err:
        raise PatternError("invalid", pattern, err.pos, err.msg) from None
    except (OverflowError, RecursionError, ValueError) as err:  # e.g. a repeat count too large
        raise PatternError("invalid", pattern, None, str(err)) from None
    for probe in _EMPTY_PROBES:
        try:
            if any(m.start() == m.end() for m in compiled.finditer(probe, timeout=PATTERN_TIMEOUT)):
                raise PatternError("empty", pattern)
        except TimeoutError:
            raise PatternError("timeout", pattern, detail=_seconds(PATTERN_TIMEOUT)) from None
    return compiled


def check_pattern(pattern: str | None) -> str:
    """Return ``pattern`` when it compiles and cannot match the empty string on the probe texts.

    Raises:
        PatternError: as :func:`compile_pattern`.
    """
    compile_pattern(pattern)
    return pattern


def pattern_timeout(n_chars: int) -> float:
    """The time budget in seconds for splitting ``n_chars`` characters (see :data:`PATTERN_TIMEOUT`)."""
    return PATTERN_TIMEOUT + PATTERN_SECONDS_PER_MILLION * n_chars / 1_000_000


def _seconds(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _spans(text: str, pattern: str | None, timeout: float | None) -> Iterator[tuple[int, int, bool]]:
    """``(start, end, matched)`` character spans covering ``text`` in order (Split ``isolated``)."""
    compiled = compile_pattern(pattern)
    budget = pattern_timeout(len(text)) if timeout is None else timeout
    pos = 0
    try:
        for m in compiled.finditer(text, timeout=budget):
            start, end = m.span()
            if start == end:
                raise PatternError("empty", pattern, start)
            if start > pos:
                yield pos, start, False
            yield start, end, True
            pos = end
    except TimeoutError:
        raise PatternError("timeout", pattern, detail=_seconds(budget)) from None
    if pos < len(text):
        yield pos, len(text), False


def regex_pieces(text: str, pattern: str | None, timeout: float | None = None) -> list[str]:
    """The pieces of the ``regex`` pre-tokenizer: every match of ``pattern`` and every stretch between
    matches (Hugging Face ``Split(pattern, behavior="isolated")``); joined, they give back ``text``.

    Args:
        text: the input (characters).
        pattern: the user's pattern (``regex`` syntax). Groups in it do not matter: a piece is the whole match.
        timeout: seconds for the whole split; ``None``: :func:`pattern_timeout` of the text's length.

    Raises:
        PatternError: missing, invalid, matching the empty string, or past the time budget.
    """
    return [text[start:end] for start, end, _ in _spans(text, pattern, timeout)]


def split_with_pattern(text: str, pattern: str | None, timeout: float | None = None) -> list[tuple[str, bool]]:
    """Like :func:`regex_pieces`, each piece paired with ``True`` when the pattern matched it and ``False``
    for text between matches (what the pattern left out; kept as a piece of its own), for a preview.

    Raises:
        PatternError: as :func:`regex_pieces`.
    """
    return [(text[start:end], matched) for start, end, matched in _spans(text, pattern, timeout)]


def split_preview(text: str, pattern: str | None, max_lines: int = 5, max_chars: int = 2_000) -> list[tuple[str, bool]]:
    """:func:`split_with_pattern` of the first ``max_lines`` lines of ``text`` (line ends kept), at most
    ``max_chars`` characters: what the pattern editor shows while the user types. A piece cut by the end of the
    excerpt may be longer in the whole text.

    Raises:
        PatternError: as :func:`regex_pieces`.
    """
    head = "".join(text.splitlines(keepends=True)[:max_lines])[:max_chars]
    return split_with_pattern(head, pattern)
