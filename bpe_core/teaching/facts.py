"""Facts the teaching pages state, computed so that they cannot go stale.

* **Merge numbers and ranks** (one convention for the whole app): merge ``k`` (``k`` from 1) is the
  ``k``-th merge learned, the ``k``-th merge line of a ``merges.txt`` after its ``#version`` line; in a
  byte-level rank file (tiktoken's ``.tiktoken``) the token it makes has rank and id ``255 + k``, because
  ranks 0-255 are the 256 single bytes. Inside the code a 0-based position in a merge list is an
  *index* (merge number - 1), never a "rank".
* **Vocabulary arithmetic** of the shipped GPT tokenizers: bytes + merges (counted in the rank files)
  + special tokens (named by tiktoken, not in the rank files).
* **UTF-8 rows**: a character's code points and bytes, for the ordinary and the edge cases.
* **Tie agreement**: how often two tie-break rules make the same merge at the same step.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..i18n import N_

_ENGLISH = gettext.NullTranslations()

#: The byte-level base alphabet: ranks and ids 0-255 are the single bytes.
NUM_BYTES = 256


# ------------------------------------------------------------------------------ numbering
def rank_of_merge(merge: int) -> int:
    """The rank (= token id) in a byte-level rank file of the token merge ``merge`` makes (``merge``
    from 1): ``255 + merge``. Raises ``ValueError`` for ``merge < 1``."""
    if merge < 1:
        raise ValueError(f"merges are numbered from 1, not {merge}")
    return NUM_BYTES - 1 + merge


def merge_of_rank(rank: int) -> int | None:
    """The merge number (from 1) that made the token of byte-level rank ``rank``; ``None`` for a single
    byte (ranks 0-255). Raises ``ValueError`` for a negative rank."""
    if rank < 0:
        raise ValueError(f"ranks start at 0, not {rank}")
    return rank - (NUM_BYTES - 1) if rank >= NUM_BYTES else None


def numbering_legend(tr: gettext.NullTranslations | None = None) -> str:
    """The app's numbering convention in one sentence (plain text), in the language of ``tr``."""
    return (tr or _ENGLISH).gettext(
        "Merge k is the k-th merge learned: the k-th merge line of a merges.txt after its #version line. In a "
        "byte-level rank file (tiktoken) its token has rank and id 255 + k, because ranks 0 to 255 are the 256 "
        "single bytes."
    )


# ------------------------------------------------------------------------------ vocabulary arithmetic
#: The special tokens of the shipped tokenizers, ``{model: ((token, id), ...)}``. Source: tiktoken 0.14.0,
#: ``tiktoken_ext/openai_public.py`` (``r50k_base``, ``cl100k_base``, ``o200k_base``); the rank files
#: hold none of them (``tests/test_facts.py`` checks this table against tiktoken).
SPECIAL_TOKENS: dict[str, tuple[tuple[str, int], ...]] = {
    "gpt2": (("<|endoftext|>", 50256),),
    "cl100k": (
        ("<|endoftext|>", 100257),
        ("<|fim_prefix|>", 100258),
        ("<|fim_middle|>", 100259),
        ("<|fim_suffix|>", 100260),
        ("<|endofprompt|>", 100276),
    ),
    "o200k": (("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)),
}
SPECIAL_TOKENS_SOURCE = "tiktoken_ext/openai_public.py"


@dataclass(frozen=True)
class VocabularySize:
    """One shipped tokenizer's vocabulary, counted.

    Attributes:
        model: ``"gpt2"``, ``"cl100k"`` or ``"o200k"``.
        ranks: lines of its rank file (256 bytes + the merges).
        merges: ``ranks - 256``.
        specials: its special tokens as ``(token, id)``.
        total: ``ranks + len(specials)``: the tokens a model can see.
        highest_id: the largest id, special tokens included (``highest_id + 1 > total`` when ids are skipped).
    """

    model: str
    ranks: int
    merges: int
    specials: tuple[tuple[str, int], ...]
    total: int
    highest_id: int


@cache  # the shipped rank files do not change while a process runs; counting GPT-4o's takes a tenth of a second
def vocabulary_size(model: str) -> VocabularySize:
    """Count the rank file of a shipped tokenizer (``"gpt2"``, ``"cl100k"``, ``"o200k"``; one line per
    rank) and add its special tokens. Raises ``ValueError`` for an unknown model."""
    from ..models import HERE, MODELS  # the rank files live there

    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; choose one of {', '.join(MODELS)}")
    path = Path(HERE) / f"{MODELS[model][0]}.tiktoken"
    ranks = sum(map(bool, map(bytes.strip, path.read_bytes().split(b"\n"))))  # its lines, in C: 200,000 for GPT-4o
    specials = SPECIAL_TOKENS[model]
    highest = max([ranks - 1, *(i for _t, i in specials)])
    return VocabularySize(model, ranks, ranks - NUM_BYTES, specials, ranks + len(specials), highest)


def vocabulary_text(v: VocabularySize, name: str, tr: gettext.NullTranslations | None = None) -> str:
    """``"GPT-2: 256 bytes + 50,000 merges + 1 special token (<|endoftext|>) = 50,257 tokens."``"""
    tr = tr or _ENGLISH
    return tr.ngettext(
        "{name}: {bytes} bytes + {merges} merges + {n} special token ({specials}) = {total} tokens.",
        "{name}: {bytes} bytes + {merges} merges + {n} special tokens ({specials}) = {total} tokens.",
        len(v.specials),
    ).format(
        name=name,
        bytes=f"{NUM_BYTES:,}",
        merges=f"{v.merges:,}",
        n=len(v.specials),
        specials=", ".join(t for t, _i in v.specials),
        total=f"{v.total:,}",
    )


# ------------------------------------------------------------------------------ UTF-8
#: The UTF-8 table's rows: ordinary cases, then the edge cases a teacher gets asked about.
UTF8_EXAMPLES = ("a", "é", "你", "😀")
UTF8_EDGE_CASES = (
    "\U00020bb7",  # 𠮷: an ideograph outside the Basic Multilingual Plane, four bytes
    "\u2764",  # ❤: an emoji-like symbol in the BMP, three bytes
    "\u2764\ufe0f",  # ❤️: the same with the emoji presentation selector, six bytes
    "e\u0301",  # é written as e + combining acute accent: looks like U+00E9, three bytes
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # 👨‍👩‍👧: three people joined by two ZWJs, 18 bytes
)

#: Why an edge case is in the table (English; translate where shown), by its text.
UTF8_NOTES = {
    "é": N_("one code point, U+00E9"),
    "你": N_("a Chinese character in common use: U+0800 to U+FFFF, three bytes"),
    "😀": N_("an emoji outside U+0000 to U+FFFF: four bytes"),
    "\U00020bb7": N_("an ideograph outside U+0000 to U+FFFF: four bytes"),
    "\u2764": N_("an emoji-like symbol inside U+0800 to U+FFFF: three bytes"),
    "\u2764\ufe0f": N_("the same heart with the emoji variation selector U+FE0F"),
    "e\u0301": N_("looks like é, but is e + a combining accent"),
    "\U0001f468\u200d\U0001f469\u200d\U0001f467": N_("three people joined by two ZWJs"),
}


@dataclass(frozen=True)
class Utf8Row:
    """A text's code points and UTF-8 bytes: ``code_points`` as ``"U+4F60"`` strings, ``hex`` the bytes
    as ``"e4 bd a0"``, ``num_bytes`` their number."""

    text: str
    code_points: tuple[str, ...]
    hex: str
    num_bytes: int
    note: str


def utf8_row(text: str) -> Utf8Row:
    """The :class:`Utf8Row` of ``text`` (any string; UTF-8 as Python's ``str.encode`` writes it).
    Raises ``UnicodeEncodeError`` for a lone surrogate, which UTF-8 cannot write."""
    data = text.encode("utf-8")
    return Utf8Row(text, tuple(f"U+{ord(c):04X}" for c in text), data.hex(" "), len(data), UTF8_NOTES.get(text, ""))


def utf8_rows(texts=UTF8_EXAMPLES + UTF8_EDGE_CASES) -> list[Utf8Row]:
    """:func:`utf8_row` of each text."""
    return [utf8_row(t) for t in texts]


# ------------------------------------------------------------------------------ tie agreement
@dataclass(frozen=True)
class TieAgreement:
    """Two runs of the same corpus under two tie-break rules, compared merge by merge.

    Attributes:
        steps: merges compared (the shorter run's number of merges).
        same_step: merges ``k`` at which both runs join the same pair of strings.
        first_difference: the first merge at which they differ (``None``: never).
        shared_tokens: new tokens (strings) both runs made, out of ``steps`` merges each.
        same_words: whether every word type ends up split the same way.
    """

    steps: int
    same_step: int
    first_difference: int | None
    shared_tokens: int
    same_words: bool


def tie_agreement(run_a, run_b) -> TieAgreement:
    """Compare two finished :class:`bpe_core.TrainedRun` s of the same corpus (e.g. first-seen and
    Hugging Face order) merge by merge, by token strings (ids may differ between the runs)."""
    steps = min(run_a.num_steps, run_b.num_steps)

    def merges(run):
        snaps = (run.snapshot(k) for k in range(1, steps + 1))
        return [(run.token_value(s.left), run.token_value(s.right)) for s in snaps]

    a, b = merges(run_a), merges(run_b)
    same = [x == y for x, y in zip(a, b)]
    first = next((k for k, s in enumerate(same, 1) if not s), None)
    tokens_a = {x + y for x, y in a}
    tokens_b = {x + y for x, y in b}

    def words(run, step):
        return [tuple(run.token_value(t) for t in row.tokens) for row in run.corpus_view(step, limit=run.num_words)]

    return TieAgreement(steps, sum(same), first, len(tokens_a & tokens_b), words(run_a, steps) == words(run_b, steps))


def tie_agreement_text(t: TieAgreement, tr: gettext.NullTranslations | None = None) -> str:
    """The comparison as one sentence (plain text)."""
    tr = tr or _ENGLISH
    text = tr.ngettext(
        "The two rules make the same merge at the same step at {same} of {steps} step, and {shared} of the "
        "{steps} new tokens are made by both.",
        "The two rules make the same merge at the same step at {same} of {steps} steps, and {shared} of the "
        "{steps} new tokens are made by both.",
        t.steps,
    ).format(same=f"{t.same_step:,}", steps=f"{t.steps:,}", shared=f"{t.shared_tokens:,}")
    if t.same_words:
        text += " " + tr.gettext("In the end every word is split the same way under both.")
    return text


# ------------------------------------------------------------------------------ captions from settings
def rediscovery_caption(
    run, corpus: str, words_source: bool, gpt2_merges: int, tr: gettext.NullTranslations | None = None
) -> str:
    """What the GPT-2 rediscovery comparison actually ran, from the run itself (plain text).

    Args:
        run: the finished byte-level :class:`bpe_core.TrainedRun` compared with GPT-2.
        corpus: the corpus's name as the reader sees it.
        words_source: the corpus is a word-count list (already words: no pre-tokenizer ran on it and
            its words carry no leading space).
        gpt2_merges: how many of GPT-2's first merges it is compared with.
    """
    from .explain import stop_explanation, stop_text

    tr = tr or _ENGLISH
    asked = run.config.num_merges
    parts = []
    if words_source:
        parts.append(
            tr.gettext(
                "Byte-level BPE trained on {corpus}, a word-count list: no pre-tokenizer ran on it and its words "
                "have no leading space, so none of GPT-2's merges that start with a space (␣t, ␣a …) can appear."
            ).format(corpus=corpus)
        )
    else:
        parts.append(
            tr.gettext("Byte-level BPE with GPT-2's pre-tokenizer, trained on {corpus}.").format(corpus=corpus)
        )
    if asked is not None and run.num_steps < asked:
        parts.append(
            tr.ngettext(
                "It asked for {asked} merges and stopped after {n} merge: {reason}",
                "It asked for {asked} merges and stopped after {n} merges: {reason}",
                run.num_steps,
            ).format(asked=f"{asked:,}", n=f"{run.num_steps:,}", reason=stop_text(stop_explanation(run), tr))
        )
    parts.append(
        tr.ngettext(
            "Its {n} merge beside GPT-2's first {m} (the GPT-2 paper does not say which text its merges were "
            "learned from).",
            "Its {n} merges beside GPT-2's first {m} (the GPT-2 paper does not say which text its merges were "
            "learned from).",
            run.num_steps,
        ).format(n=f"{run.num_steps:,}", m=f"{gpt2_merges:,}")
    )
    return " ".join(parts)


#: Byte values that never occur in UTF-8: C0 and C1 (they could only start an over-long two-byte form)
#: and F5-FF (they would start a code point above U+10FFFF). Byte-level BPE has all 256 as base tokens anyway.
UTF8_UNUSED_BYTES = (0xC0, 0xC1, *range(0xF5, 0x100))


@dataclass(frozen=True)
class IdeographCount:
    """CJK unified ideographs in the Unicode version of this Python's :mod:`unicodedata`: ``bmp`` up
    to U+FFFF (three UTF-8 bytes each), ``supplementary`` above it (four bytes each)."""

    unicode_version: str
    bmp: int
    supplementary: int


@cache
def ideograph_count() -> IdeographCount:
    """Count the code points whose Unicode name starts with ``CJK UNIFIED IDEOGRAPH`` (the blocks
    U+3400 and up), below and above U+FFFF. About a second the first time; cached."""
    import unicodedata

    bmp = supp = 0
    for cp in range(0x3400, 0x40000):
        if 0xA000 <= cp < 0x20000 and not (0xF900 <= cp < 0xFB00):
            continue  # no unified ideograph between Yi and the supplementary ideographic plane
        if unicodedata.name(chr(cp), "").startswith("CJK UNIFIED IDEOGRAPH"):
            if cp <= 0xFFFF:
                bmp += 1
            else:
                supp += 1
    return IdeographCount(unicodedata.unidata_version, bmp, supp)
