"""The How BPE works page's reference part: byte-level BPE beside its relatives (SentencePiece, WordPiece,
BPE-dropout), the page's sources, and for developers the code names, the trainer's rules from its own
documentation (``bpe_core/algorithms/trainer.py``, ``variants.py``, ``pretokenize.py``), the rules in one sentence each
with the stop codes, and the reference trainer's source."""

from __future__ import annotations

import importlib
import inspect
import re

import streamlit as st

from . import how_algorithms
from .how_view import rules_html
from .i18n import _

# bpe_core re-exports a function named `pretokenize`, which hides the module attribute.
TRAINER_DOC = importlib.import_module("bpe_core.algorithms.trainer").__doc__
VARIANTS_DOC = importlib.import_module("bpe_core.variants").__doc__
PRETOKENIZE_DOC = importlib.import_module("bpe_core.pretokenize").__doc__


def doc_section(doc: str, start: str, stop: str | None = None) -> str:
    """The part of a ``bpe_core`` docstring (as Markdown: Sphinx roles become code) from the line starting
    with ``start`` up to the one starting with ``stop`` (or the end)."""
    lines = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", inspect.cleandoc(doc or "")).splitlines()
    begin = next((i for i, line in enumerate(lines) if line.startswith(start)), 0)
    end = next((i for i, line in enumerate(lines) if stop and i > begin and line.startswith(stop)), len(lines))
    return "\n".join(lines[begin:end]).strip()


def relatives() -> None:
    """Byte-level BPE beside its relatives, and BPE-dropout's place."""
    st.subheader(_("Byte-level BPE and its relatives"))
    st.markdown(
        _(
            "Byte-level BPE (GPT-2, GPT-4, GPT-4o) turns every text into UTF-8 bytes before the first merge, so "
            "nothing is ever unknown. SentencePiece BPE with byte fallback (Llama 1 and 2, Mistral 7B, Gemma) "
            "learns merges of characters, and writes only a character missing from its vocabulary as its UTF-8 "
            "bytes. WordPiece (BERT) builds its vocabulary by a likelihood score rather than a pair count, marks a "
            "word's inner pieces with ##, encodes by longest match and gives [UNK] to a word it cannot spell with its pieces. "
            "BPE-dropout skips merges at random while the text a model is trained on is encoded; at inference it "
            "is switched off, and every text gets its one usual segmentation."
        )
    )


def unseen_tokens() -> None:
    """Why a token can be in the vocabulary yet almost never be seen: intermediate tokens, glitch tokens, PickyBPE."""
    st.subheader(_("A token can exist and yet be almost never seen"), anchor="unseen-tokens")
    st.markdown(
        _(
            "Every merge adds a token, and a merge is chosen by how often its pair occurs at that moment of "
            "training. Later merges can swallow the new token: if nearly every occurrence of it becomes part of a "
            "longer token, the corpus, and every text encoded later, almost never holds it on its own. It stays in "
            "the vocabulary as an intermediate token, a step on the way to the longer one. A language model trained "
            "on the encoded text then almost never sees it and barely learns its embedding: such under-trained "
            "tokens (glitch tokens) make models misbehave when a prompt does contain them. GPT-2's "
            "InstoreAndOnline exists to build BuyableInstoreAndOnline, and reportprint to build embedreportprint "
            "(Land & Bartolo, \u201cFishing for Magikarp\u201d, 2024). The Real tokenizers page lists such tokens "
            "for a text, and shows each token's merge tree both ways. PickyBPE (Chizhov et al., 2024) removes a "
            "token during training when a merge takes almost all of its occurrences (its intersection over self, "
            "IoS, reaches a threshold): the command line's train --picky T does it."
        )
    )


def sources() -> None:
    """The papers behind the page, cited with links."""
    st.header(_("Sources"))
    items = (
        (
            'Philip Gage (1994). "A New Algorithm for Data Compression." *The C Users Journal* 12(2), 23–38. '
            "[Article](http://www.pennelynn.com/Documents/CUJ/HTML/94HTML/19940045.HTM)",
            _("Byte pair encoding as compression: replace the most frequent pair of bytes by an unused byte, repeat."),
        ),
        (
            'Rico Sennrich, Barry Haddow, Alexandra Birch (2016). "Neural Machine Translation of Rare Words with '
            'Subword Units." *ACL 2016*, 1715–1725. [ACL Anthology](https://aclanthology.org/P16-1162/) · '
            "[arXiv:1508.07909](https://arxiv.org/abs/1508.07909)",
            _("BPE on characters with an end-of-word marker, learned from word frequencies: the textbook example."),
        ),
        (
            "Alec Radford, Jeffrey Wu, Rewon Child, David Luan, Dario Amodei, Ilya Sutskever (2019). "
            '"Language Models are Unsupervised Multitask Learners." OpenAI. '
            "[PDF](https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf)"
            " · [code](https://github.com/openai/gpt-2/blob/master/src/encoder.py)",
            _("Byte-level BPE (GPT-2): 256 byte values as base symbols, a regular expression as pre-tokenizer."),
        ),
    )
    st.markdown("\n".join(f"- {cite}  \n  {about}" for cite, about in items))


def for_developers(stopped: list) -> None:
    """The developers' part, closed (``stopped``: the runs whose stop codes it lists)."""
    with st.expander(_("For developers: code names and the reference trainer")):
        st.markdown(
            _(
                'In the code: the settings are `bpe_core.TrainConfig` (`variant="eow"`, `tie_break="first-seen"`, '
                '`"hf"` or `"lexical"`, `min_frequency=2`); `bpe_core.train` runs the fast trainer of '
                "`bpe_core.trainer`, which the tests compare with a short, readable reference trainer."
            )
        )
        st.markdown(
            _("The trainer's rules, from its own documentation (`bpe_core/algorithms/trainer.py`, in English):")
        )
        docs = (
            doc_section(TRAINER_DOC, "1. "),
            doc_section(VARIANTS_DOC, "* ", "Token values are"),
            doc_section(PRETOKENIZE_DOC, "* "),
        )
        st.markdown("\n\n".join(docs))
        st.markdown(_("The same rules in one sentence each (`bpe_core.RULES`):"))
        st.html(rules_html(stopped))
        st.markdown(
            _("Reference implementations the trainer is tested against (`tests/`):")
            + "\n"
            + "\n- [tiktoken](https://github.com/openai/tiktoken/blob/main/tiktoken/_educational.py) `_educational`: "
            + _("byte-level, first seen ties")
            + "\n- [Hugging Face tokenizers](https://github.com/huggingface/tokenizers) `BpeTrainer`: "
            + _("Hugging Face order for ties; our tokenizer.json files load in it and encode to the same ids")
            + "\n- [subword-nmt](https://github.com/rsennrich/subword-nmt) `learn_bpe`: "
            + _("end-of-word marker attached; ties go to the largest pair in code-point order")
            + "\n- [minbpe](https://github.com/karpathy/minbpe): "
            + _("the worked example aaabdaaabac")
        )
        st.code(inspect.getsource(importlib.import_module("bpe_core.algorithms.reference")), language="python")
        how_algorithms.loops()
