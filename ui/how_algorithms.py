"""The How page's sections on the two other algorithms a course teaches, WordPiece and Unigram: what each does
differently from BPE, and its textbook loop (``bpe_core.algorithms.reference_wordpiece`` and
``reference_unigram``, as ``reference.py`` is shown for BPE)."""

from __future__ import annotations

import importlib
import inspect

import streamlit as st

from ui import how_across
from ui.i18n import _


def sections() -> None:
    """Draw the WordPiece and Unigram sections for learners (their textbook loops: :func:`loops`), then the
    section on merges across words (:mod:`ui.how_across`)."""
    st.header(_("WordPiece and Unigram"), anchor="other-algorithms")
    st.subheader(_("WordPiece: the pair whose parts belong together"), anchor="wordpiece")
    st.markdown(
        _(
            "WordPiece (BERT) learns merges as BPE does, but chooses by a score instead of a count: a pair's count "
            "divided by the product of its two parts' counts. A pair of rare parts that nearly always go together "
            "beats a frequent pair of frequent parts. A character that does not start its word carries the "
            "continuation prefix ## (`word` starts as `w ##o ##r ##d`); the vocabulary starts with [PAD] [UNK] "
            "[CLS] [SEP] [MASK] and the sorted alphabet; ties go to the pair seen first, and a pair seen once can "
            "merge. To encode, WordPiece does not replay its merges: it takes the longest vocabulary entry that "
            "starts the rest of the word, again and again, and gives [UNK] to a word it cannot spell."
        )
    )
    st.markdown(
        _(
            "The real `tokenizers` library's WordPieceTrainer trains with BPE's rule, the most frequent pair, and "
            "only writes the result as a WordPiece vocabulary (huggingface/tokenizers#1777): its vocabulary is not "
            "the one WordPiece's own rule learns."
        )
    )
    st.subheader(_("Unigram: start big, prune by the loss"), anchor="unigram")
    st.markdown(
        _(
            "Unigram (SentencePiece; T5, XLNet, ALBERT, mBART) goes the other way: it starts from a large "
            "vocabulary and removes tokens. The seed holds every character and the most frequent substrings; each "
            "token's probability is its count over all the counts. A word's segmentation is the most probable one, "
            "the smallest sum of −log p of its tokens, found by the Viterbi algorithm; the loss is that sum over "
            "the corpus. Each round scores every token longer than one character by how much the loss grows when "
            "it alone is removed, and removes the lowest tenth of the vocabulary (characters stay, so every word "
            "can still be written)."
        )
    )
    st.markdown(
        _(
            "This is the course's Unigram, and three things set it apart from SentencePiece's. It recomputes the "
            "probabilities from the seed counts after each round, where SentencePiece re-estimates them by "
            "expectation–maximization (EM) from all segmentations; SentencePiece also seeds from a suffix array "
            "and prunes to three quarters of the vocabulary a round. The course's Viterbi starts every word at 1 "
            "instead of 0, so its loss (413.10 on its corpus) counts each word occurrence once more than a plain "
            "Viterbi's (31 less there): we report the course's loss; removal scores and vocabularies are the same "
            "either way. And the course writes a word with a character outside the vocabulary as one <unk>; "
            "encoding here follows `tokenizers`, where only each run of unknown characters becomes <unk>."
        )
    )

    how_across.section()


def loops() -> None:
    """The two textbook loops with their captions, for the How page's developers' part (code names stay there)."""
    _loop(
        _(
            "The loop, written to be read (`bpe_core/algorithms/reference_wordpiece.py`; the trainer makes the same "
            "merges, updating its counts in place):"
        ),
        "bpe_core.algorithms.reference_wordpiece",
    )
    _loop(
        _(
            "The loop, written to be read (`bpe_core/algorithms/reference_unigram.py`; the trainer removes the same "
            "tokens, segmenting again only the words whose best path used a candidate):"
        ),
        "bpe_core.algorithms.reference_unigram",
    )


def _loop(caption: str, module: str) -> None:
    st.markdown(caption)
    st.code(inspect.getsource(importlib.import_module(module)), language="python")
