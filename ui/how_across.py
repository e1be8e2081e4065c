"""The How page's section on merges across words: SuperBPE's transition point and BoundlessBPE's superword merges,
what each changes in BPE's rule that no merge crosses a pre-token boundary, and why Chinese makes the question
sharper. The numbers for this app's corpora are on the Side by side page (``bpe_core.across_measure``)."""

from __future__ import annotations

import streamlit as st

from ui.i18n import _


def section() -> None:
    """Draw the section for learners (the papers' own claims, then what the app measures)."""
    st.header(_("Merges across words: SuperBPE and BoundlessBPE"), anchor="across-words")
    st.markdown(
        _(
            "Every BPE above stops at the pre-tokenizer's cuts: GPT-2's pattern cuts “ of the” into “ of” and "
            "“ the”, and no merge may join them, however often they go together. Two recent methods lift that "
            "rule. SuperBPE (Liu et al., 2025) trains in two stages: the first t merges, up to the transition "
            "point, are plain BPE; then training goes on over the same text with a pre-tokenizer that no longer "
            "cuts at the spaces between words, so the later merges make superword tokens such as “ of the”. "
            "BoundlessBPE (Schmidt et al., 2025) keeps the pre-tokens, but lets two neighbouring pre-tokens merge "
            "once each of them has become a single token; like PickyBPE, it also removes a token that lives "
            "almost only inside a longer one."
        )
    )
    st.markdown(
        _(
            "Both aim at the same gain: fewer tokens for the same text at the same vocabulary size. SuperBPE's "
            "authors report up to 33 percent fewer tokens than BPE at a vocabulary of 200,000 tokens, BoundlessBPE's up "
            "to 15 percent more bytes per token. The Side by side page measures it on this app's corpora: bytes per "
            "token on held-out text against the vocabulary size, for the three trained on the same text."
        )
    )
    st.markdown(
        _(
            "For Chinese the question “what is a word?” is the whole lesson. GPT-2's pattern keeps a run of "
            "Chinese characters as one pre-token, so plain BPE already merges across the words of a sentence and "
            "there is no boundary left to cross. To see what crossing words adds, the Chinese measurement runs "
            "the first stage on words cut by jieba."
        )
    )
