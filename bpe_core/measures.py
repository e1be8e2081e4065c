"""Measures of a corpus, of a byte-level vocabulary and of a text under a tokenizer: what a reader sees as
characters, their code points and UTF-8 bytes, the merged tokens that are pieces of a character, corpus sizes
and its most frequent words, tokens per character and bytes per token, ``<unk>`` counts, round trips and
BPE-dropout segmentations.

Pure functions of a finished :class:`bpe_core.TrainedRun`, of a :class:`bpe_core.Tokenizer` and of text;
nothing is cached here, a user interface keeps what it needs per run.

Units: a *character* is a grapheme cluster (what a reader sees as one, :func:`graphemes`) unless said
otherwise; *bytes* are UTF-8 bytes; *tokens* are token ids.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import NamedTuple

import regex

_GRAPHEME = regex.compile(r"\X")


def graphemes(text: str) -> list[str]:
    """Extended grapheme clusters of ``text`` (Unicode UAX #29 via the ``regex`` module's ``\\X``):
    what a reader sees as one character (👨‍👩‍👧, 🇨🇳, é)."""
    return _GRAPHEME.findall(text)


def code_points(grapheme: str) -> list[tuple[str, str, str, bytes]]:
    """``[(char, "U+1F468", NAME, utf8_bytes)]`` for each code point of ``grapheme``; a code point
    without a Unicode name gets ``"(no name; category Xx)"`` (U+200D: ``"ZERO WIDTH JOINER"``)."""
    out = []
    for c in grapheme:
        name = unicodedata.name(c, "")
        if not name:
            name = {0x200D: "ZERO WIDTH JOINER"}.get(ord(c), f"(no name; category {unicodedata.category(c)})")
        out.append((c, f"U+{ord(c):04X}", name, c.encode("utf-8")))
    return out


def multibyte_counts(run) -> dict[str, int]:
    """Graphemes of two or more UTF-8 bytes in the run's words, with their frequency-weighted counts,
    in order of first appearance."""
    counts: dict[str, int] = {}
    for word, freq in zip(run.words, run.freqs):
        for g in graphemes(word):
            if len(g.encode("utf-8")) > 1:
                counts[g] = counts.get(g, 0) + freq
    return counts


def multibyte_by_frequency(run) -> list[tuple[str, int]]:
    """:func:`multibyte_counts` as ``[(grapheme, count)]``, most frequent first (first appearance breaks
    ties)."""
    counts = multibyte_counts(run)
    return sorted(counts.items(), key=lambda item: -item[1])  # stable: first appearance breaks ties


def first_single_token_step(run, text: str) -> int | None:
    """The step whose merge first made ``text`` one vocabulary token (0: a base symbol), or ``None``
    when it never becomes one."""
    value = text.encode("utf-8") if run.variant.is_bytes else text
    tid = run.value_to_id.get(value)
    if tid is None:
        return None
    return run.created_step[tid]


def partial_series(run) -> list[int]:
    """For steps 0..n: how many merged tokens of the vocabulary are not whole UTF-8 characters
    (always 0 for character runs)."""
    out = [0]
    for snap in run.snapshots:
        out.append(out[-1] + (1 if snap.is_new and run.is_partial(snap.token) else 0))
    return out


def partial_token_ids(run, step: int | None = None) -> list[int]:
    """Merged tokens at ``step`` (default: the end) that are not whole UTF-8 characters, in id order."""
    size = run.vocab_size_at(run.num_steps if step is None else step)
    return [t for t in range(run.num_base, size) if run.is_partial(t)]


def partial_corpus_tokens(run, step: int) -> int:
    """Frequency-weighted tokens of the corpus at ``step`` that are not whole UTF-8 characters."""
    total = 0
    partial = run.is_partial
    for i, f in enumerate(run.freqs):
        total += f * sum(1 for t in run.segmentation(i, step) if partial(t))
    return total


def corpus_size(run) -> tuple[int, int]:
    """``(characters, UTF-8 bytes)`` of the run's words, frequency-weighted (whitespace the
    pre-tokenizer dropped is not counted)."""
    chars = sum(len(w) * f for w, f in zip(run.words, run.freqs))
    data = sum(len(w.encode("utf-8")) * f for w, f in zip(run.words, run.freqs))
    return chars, data


def tokens_per_character(run, chars: int) -> list[float]:
    """For steps 0..n: the run's corpus tokens divided by ``chars`` (characters of the training text, e.g.
    from :func:`corpus_size`); 0.0 when ``chars`` is 0. Falls as merges join symbols."""
    return [t / chars if chars else 0.0 for t in run.series()["corpus_tokens"]]


def bytes_per_token(run, data: int) -> list[float]:
    """For steps 0..n: ``data`` (UTF-8 bytes of the training text) divided by the run's corpus tokens; 0.0
    when the corpus has no tokens. Grows as merges join symbols."""
    return [data / t if t else 0.0 for t in run.series()["corpus_tokens"]]


def total_words(run) -> int:
    """Words in the corpus (the sum of the word types' frequencies)."""
    return sum(run.freqs)


def used_bytes(run) -> list[int]:
    """The distinct byte values of the run's words, ascending."""
    return sorted({b for w in run.words for b in w.encode("utf-8")})


def top_words(run, count: int = 6, min_chars: int = 2) -> list[str]:
    """The ``count`` most frequent word types (first appearance breaks ties), preferring words of at
    least ``min_chars`` characters (not counting surrounding whitespace)."""
    order = sorted(range(run.num_words), key=lambda i: (-run.freqs[i], i))
    long = [run.words[i] for i in order if len(run.words[i].strip()) >= min_chars]
    pick = long[:count]
    if len(pick) < count:
        pick += [run.words[i] for i in order if run.words[i] not in pick][: count - len(pick)]
    return pick


# ------------------------------------------------------------------------------ a text under a tokenizer
# ``tok`` below is a :class:`bpe_core.Tokenizer` (a run's, a saved model's or a GPT rank file's) and ``ids``
# a list of its token ids, e.g. ``tok.encode(text)``.
def unknown_tokens(tok, ids) -> int:
    """How many of ``ids`` are the ``<unk>`` token (only a character-level tokenizer has one: a character
    it never saw in training)."""
    unk = tok.unk_id
    return 0 if unk is None else sum(1 for t in ids if t == unk)


def partial_tokens(tok, ids) -> int:
    """How many of ``ids`` are not whole UTF-8 characters (byte-level tokens holding part of a
    character's bytes; never ``<unk>``, never a character-level token)."""
    partial: dict[int, bool] = {}
    unk, variant = tok.unk_id, tok.variant
    for t in ids:
        if t not in partial:
            partial[t] = t != unk and variant.is_partial(tok.token_value(t))
    return sum(1 for t in ids if partial[t])


class TextStats(NamedTuple):
    """One tokenizer on one text.

    Attributes:
        tokens: how many tokens the text encodes to.
        per_char: tokens per character (grapheme); 0.0 for an empty text.
        bytes_per_token: UTF-8 bytes of the text per token; 0.0 when there are no tokens.
        partial: tokens that are not whole UTF-8 characters (:func:`partial_tokens`).
        unknown: ``<unk>`` tokens (:func:`unknown_tokens`).
        chars: characters (graphemes) of the text.
        size: UTF-8 bytes of the text.
    """

    tokens: int
    per_char: float
    bytes_per_token: float
    partial: int
    unknown: int
    chars: int
    size: int


def text_stats(tok, text: str, ids: list[int] | None = None) -> TextStats:
    """The :class:`TextStats` of ``text`` under ``tok``; ``ids`` is its encoding when already known
    (default: ``tok.encode(text)``)."""
    if ids is None:
        ids = tok.encode(text)
    chars = len(graphemes(text))
    size = len(text.encode("utf-8"))
    n = len(ids)
    per_char, per_token = n / chars if chars else 0.0, size / n if n else 0.0
    return TextStats(n, per_char, per_token, partial_tokens(tok, ids), unknown_tokens(tok, ids), chars, size)


class RoundTrip(NamedTuple):
    """``decode(encode(text))`` compared with ``text``.

    Attributes:
        decoded: the decoded text.
        exact: it is ``text`` exactly.
        but_whitespace: not exact, but equal to ``text`` without its whitespace, and the tokenizer's
            pre-tokenizer is ``whitespace``, which drops whitespace before training and encoding (no
            model can give it back).
    """

    decoded: str
    exact: bool
    but_whitespace: bool

    @property
    def same(self) -> bool:
        """Exact, or differing only by the whitespace the pre-tokenizer dropped."""
        return self.exact or self.but_whitespace


def round_trip(tok, text: str, ids: list[int] | None = None) -> RoundTrip:
    """Decode ``ids`` (default: ``tok.encode(text)``) and compare with ``text`` (:class:`RoundTrip`)."""
    if ids is None:
        ids = tok.encode(text)
    decoded = tok.decode(ids)
    exact = decoded == text
    dropped = (
        not exact
        and tok.pretokenizer == "whitespace"
        and any(c.isspace() for c in text)
        and decoded == "".join(text.split())
    )
    return RoundTrip(decoded, exact, dropped)


def dropout_segmentations(tok, word: str, p: float, seed: int, n: int) -> list[tuple[tuple[int, ...], int]]:
    """``n`` BPE-dropout encodings of ``word`` (Provilkov et al. 2020: each merge candidate skipped with
    probability ``p``, 0..1; sample ``i`` uses seed ``seed + i``), counted: ``[(ids, times)]``, the most
    frequent segmentation first (ties: first seen first). The ``times`` add up to ``n``."""
    counts = Counter(tuple(tok.encode(word, dropout=p, seed=seed + i)) for i in range(n))
    return counts.most_common()
