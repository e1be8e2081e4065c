"""Side by side, the three algorithms a course teaches: BPE, WordPiece and Unigram trained on the sidebar's corpus,
each shown at the vocabulary size the slider names (BPE and WordPiece grow to it, Unigram shrinks to it), with the
same words segmented by each. BPE and WordPiece split words with the ``bert`` pre-tokenizer, Unigram with
``metaspace`` (its words start with ▁, shown with it)."""

from __future__ import annotations

import bisect

import streamlit as st

from bpe_core import TrainConfig
from bpe_core.measures import top_words
from ui.field_stepper import UNIGRAM_MAX_BYTES, error_text, too_big_text
from ui.i18n import _
from ui.page import lazy_expander
from ui.text import esc

#: The largest vocabulary the section trains to; Unigram's seed is the alphabet plus twice this.
MAX_SIZE = 400
#: Words shown (the corpus's most frequent words of at least four characters).
WORDS = 6


@st.cache_resource(max_entries=4, show_spinner=False)
def _runs(digest: str, _corpus) -> tuple:
    """BPE, WordPiece and Unigram runs of the corpus ``digest`` (``_corpus`` is not hashed: the digest names it)."""
    bpe = _corpus.train(TrainConfig(variant="char", pretokenizer="bert", vocab_size=MAX_SIZE, min_frequency=1))
    wordpiece = _corpus.train(TrainConfig(algorithm="wordpiece", vocab_size=MAX_SIZE))
    words = _corpus.words(TrainConfig(algorithm="unigram"))
    alphabet = len({c for w in words for c in w})
    unigram = _corpus.train(
        TrainConfig(algorithm="unigram", vocab_size=max(alphabet, 60), seed_size=alphabet + 2 * MAX_SIZE)
    )
    return bpe, wordpiece, unigram


def _step_at(sizes: list[int], size: int) -> int:
    """The last step (0-based index into ``sizes``, ascending) whose vocabulary is at most ``size``."""
    return max(0, bisect.bisect_right(sizes, size) - 1)


def section(choice) -> None:
    """Draw the three algorithms at the size of the slider, with the same words segmented by each."""
    st.subheader(_("BPE, WordPiece and Unigram on the same corpus"), anchor="three-algorithms")
    if choice.corpus.size_bytes > UNIGRAM_MAX_BYTES:
        st.info(too_big_text())
        return
    try:
        bpe, wordpiece, unigram = _runs(choice.corpus.digest, choice.corpus)
    except ValueError as err:
        st.info(error_text(err))
        return
    bpe_sizes = [bpe.vocab_size_at(k) for k in range(bpe.num_steps + 1)]
    wp_sizes = [wordpiece.num_base] + [s.vocab_size for s in wordpiece.snapshots]
    ug_sizes = [unigram.num_base] + [s.vocab_size for s in unigram.snapshots]  # descending
    lo = max(bpe_sizes[0], wp_sizes[0], ug_sizes[-1])
    hi = max(lo, min(bpe_sizes[-1], wp_sizes[-1], ug_sizes[0]))
    size = st.slider(_("Vocabulary size"), lo, hi, hi, key="three_size") if hi > lo else lo
    st.caption(
        _(
            "BPE and WordPiece grow to this size, one merge at a time; Unigram starts bigger and shrinks to it, a "
            "round at a time (each column shows its last state not above the size)."
        )
    )
    rounds = next((k for k, s in enumerate(ug_sizes) if s <= size), len(ug_sizes) - 1)
    states = (
        (_("BPE: the most frequent pair"), bpe, _step_at(bpe_sizes, size), bpe_sizes),
        (_("WordPiece: the highest score"), wordpiece, _step_at(wp_sizes, size), wp_sizes),
        (_("Unigram: prune by the loss"), unigram, rounds, ug_sizes),
    )
    words = top_words(bpe, WORDS, min_chars=4)
    for col, (name, run, step, sizes) in zip(st.columns(3, gap="medium"), states):
        with col:
            st.markdown(f"**{name}**")
            st.caption(_("{n} tokens").format(n=f"{sizes[step]:,}"))
            rows = []
            for word in words:
                index = _index(run, word)
                ids = run.segmentation(index, step) if index is not None else []
                chips = " ".join(f"<code>{esc(run.token_text(t))}</code>" for t in ids)
                rows.append(f"<p>{chips}</p>")
            st.html("".join(rows))
    box = lazy_expander(
        _("The real trainers beside ours: `tokenizers`' WordPieceTrainer and sentencepiece"), "three_real"
    )
    if box is not None:
        from ui import anchors_side  # only drawn while its box is open

        with box:
            anchors_side.section(choice.corpus, wordpiece, wp_sizes[_step_at(wp_sizes, size)], unigram, rounds)


def _index(run, word: str) -> int | None:
    """The word type ``word`` (or ``▁word``, as Unigram's metaspace writes it) in ``run``."""
    for candidate in (word, "\u2581" + word):
        if candidate in run.words:
            return run.words.index(candidate)
    return None
