"""The real trainers beside ours on Side by side (a closed box until opened, :func:`ui.page.lazy_expander`):
``tokenizers``' ``WordPieceTrainer`` beside our WordPiece at the slider's size, ``sentencepiece``'s Unigram beside
ours at its final size, each with how many of the first tokens agree and the learned tokens of both, those the
other lacks marked (:mod:`bpe_core.algorithms.anchors` trains and compares them)."""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainConfig
from bpe_core.algorithms.anchors import agreement, unigram_anchor, wordpiece_anchor
from bpe_core.algorithms.wordpiece_run import SPECIAL_TOKENS
from bpe_core.inputs import SettingError
from ui.field_stepper import error_text
from ui.i18n import _
from ui.text import esc, esc_raw

#: Learned tokens shown of each vocabulary.
SHOWN = 30


@st.cache_resource(max_entries=4, show_spinner=False)
def _wordpiece(digest: str, size: int, _corpus) -> tuple[str, ...]:
    """WordPieceTrainer's vocabulary of ``size`` tokens on the corpus ``digest`` (``_corpus`` is not hashed: the
    digest names it); its first tokens are its vocabulary at any smaller size, so one training serves the slider."""
    return wordpiece_anchor(_corpus.words(TrainConfig(algorithm="wordpiece")), size)


@st.cache_resource(max_entries=8, show_spinner=False)
def _unigram(digest: str, size: int, _corpus) -> tuple[str, ...] | SettingError:
    """sentencepiece's pieces at ``size`` on the corpus ``digest``, or the :class:`SettingError` it gave (cached
    too: a corpus it cannot train on is not tried again on every rerun). One training per size: a Unigram
    vocabulary is not the first tokens of a larger one."""
    try:
        return unigram_anchor(_corpus.words(TrainConfig(algorithm="unigram")), size)
    except SettingError as err:
        return err


def _chips(tokens, other: set) -> str:
    """Token chips, those not in ``other`` marked (yellow, and a dotted border for print and colour-blind eyes)."""
    return " ".join(
        f'<code style="padding:1px 4px;{"" if t in other else "background:#fde68a;border:1px dotted #92400e;"}">'
        f"{esc(t)}</code>"
        for t in tokens
    )


def _compare(labels: tuple[str, str, str], ours, theirs, n: int, learned, ordered: bool) -> None:
    """One comparison (``labels``: its title, our list's, theirs): how many of the first ``n`` tokens of both agree
    (and, when ``ordered``, the first rank where they part), then the learned tokens of each (``learned(tokens)``
    keeps them, in order), those missing from the other's first ``n`` marked."""
    title, ours_label, theirs_label = labels
    got = agreement(ours[:n], theirs[:n], n)
    st.markdown(f"**{title}**")  # (our own words, no markup in them)
    text = _("{shared} of the first {n} tokens are in both.").format(shared=f"{got.overlap.shared:,}", n=f"{n:,}")
    st.markdown(text)
    mine, yours = set(ours[:n]), set(theirs[:n])
    ours_learned, theirs_learned = learned(ours[:n]), learned(theirs[:n])
    html = (
        f"<p><b>{esc_raw(ours_label)}</b> {_chips(ours_learned[:SHOWN], yours)}</p>"
        f"<p><b>{esc_raw(theirs_label)}</b> {_chips(theirs_learned[:SHOWN], mine)}</p>"
    )
    part = next((k for k, (a, b) in enumerate(zip(ours_learned, theirs_learned)) if a != b), None)
    if ordered and part is not None:  # where the two merge orders first choose differently
        html += "<p>" + esc_raw(_("Learned token {rank} is the first that differs:")).format(rank=f"{part + 1:,}")
        a, b = ours_learned[part], theirs_learned[part]
        html += f" {_chips([a], {a})} / {_chips([b], {b})}</p>"
    st.html(html)


def section(corpus, wordpiece, wordpiece_size: int, unigram, unigram_step: int) -> None:
    """Draw the comparisons on ``corpus`` (the sidebar's :class:`ui.corpus.Corpus`): ``wordpiece`` (our run) at
    ``wordpiece_size`` tokens, ``unigram`` (our run) after ``unigram_step`` rounds, each beside the real trainer
    trained to the same size."""
    ug_size = len(unigram.alive(unigram_step))
    try:
        with st.spinner(_("Training the real trainers on this corpus…")):
            theirs_wp = _wordpiece(corpus.digest, wordpiece.vocab_size, corpus)
            theirs_ug = _unigram(corpus.digest, ug_size, corpus)
    except SettingError as err:
        st.info(error_text(err))
        return
    st.caption(_("Highlighted: a token the other vocabulary does not have among its first tokens."))
    left, right = st.columns(2, gap="medium")
    with left:
        _compare(
            (_("`tokenizers`' WordPieceTrainer: BPE's rule inside"), _("True WordPiece:"), _("WordPieceTrainer:")),
            wordpiece.values,
            theirs_wp,
            wordpiece_size,
            lambda tokens: [t for t in tokens if t not in SPECIAL_TOKENS and len(t.removeprefix("##")) > 1],
            ordered=True,
        )
        st.caption(
            _(
                "WordPieceTrainer merges the most frequent pair, as BPE does, and only writes ## on the result "
                "(huggingface/tokenizers#1777); true WordPiece merges the pair with the highest score, which "
                "favours rare parts that nearly always go together. Among equal counts `tokenizers` keeps no fixed order, so "
                "its list can change from one training to the next."
            )
        )
    with right:
        if isinstance(theirs_ug, SettingError):
            st.info(error_text(theirs_ug))
            return
        model = unigram.model(unigram_step)
        ours = sorted(model, key=model.__getitem__)  # most probable first, as sentencepiece lists its pieces
        n = min(len(ours), len(theirs_ug))
        _compare(
            (_("sentencepiece's Unigram trainer"), _("The course's Unigram:"), _("sentencepiece:")),
            ours,
            theirs_ug,
            n,
            lambda tokens: [t for t in tokens if len(t) > 1],
            ordered=False,
        )
        st.caption(
            _(
                "Both at {n} tokens, most probable first. sentencepiece seeds from a suffix array, re-estimates the "
                "probabilities by EM after each pruning and keeps three quarters of the vocabulary a round; the "
                "course's Unigram seeds from the most frequent substrings, has no EM and removes a tenth a round."
            ).format(n=f"{n:,}")
        )
