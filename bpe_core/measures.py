"""Measures of a corpus and of a byte-level vocabulary: what a reader sees as characters, their code
points and UTF-8 bytes, the merged tokens that are pieces of a character, corpus sizes and its most
frequent words.

Pure functions of a finished :class:`bpe_core.TrainedRun` (or of text); nothing is cached here, a
user interface keeps what it needs per run.
"""

from __future__ import annotations

import unicodedata

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
