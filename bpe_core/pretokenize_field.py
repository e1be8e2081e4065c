"""The pre-tokenizers of WordPiece and Unigram models, as Hugging Face ``tokenizers`` has them:

* ``bert``      -- ``BertPreTokenizer``: split at Unicode whitespace (dropped), and every punctuation character
  (an ASCII punctuation character, or one of Unicode's categories P*) is a piece of its own. Chinese
  characters and emoji stay inside their word (BERT's normalizer, not its pre-tokenizer, splits Chinese).
* ``metaspace`` -- ``Metaspace`` with its defaults (SentencePiece's way): every space becomes ``▁``, a ``▁`` is put
  in front of the text when it does not start with one, and the text is split in front of every ``▁``, so each
  piece but perhaps the first starts with ``▁``. A text is read line by line, each line a sentence as
  SentencePiece's trainer reads it (the line break itself is dropped).

Both are checked against ``tokenizers`` on held-out text (tests/test_pretokenize_field.py).
"""

from __future__ import annotations

import regex

from .i18n import N_
from .inputs import SettingError

BERT, METASPACE = "bert", "metaspace"
#: The pre-tokenizers of this module (see :func:`bpe_core.pretokenize.pretokenize`).
FIELD_PRETOKENIZERS = (BERT, METASPACE)
#: SentencePiece's word-boundary mark, U+2581.
SPACE_MARK = "\u2581"

# Rust's char::is_whitespace is Unicode's White_Space property (str.split() also splits at \x1c..\x1f).
_WHITESPACE = regex.compile(r"[\p{White_Space}]+")
# tokenizers' is_bert_punc: char::is_ascii_punctuation() or a Unicode punctuation category (Pc Pd Pe Pf Pi Po Ps).
_BERT_PIECE = regex.compile(r"""[!-/:-@\[-`{-~\p{P}]|[^!-/:-@\[-`{-~\p{P}]+""")


# Line breaks as a text file has them (str.splitlines also breaks at \x1c..\x1e, \x85, U+2028).
_LINES = regex.compile(r"\r\n|\r|\n")


def bert_pieces(text: str) -> list[str]:
    """``text`` split as ``tokenizers.pre_tokenizers.BertPreTokenizer`` splits it (pieces in text order)."""
    out: list[str] = []
    for chunk in _WHITESPACE.split(text):
        if chunk:
            out.extend(_BERT_PIECE.findall(chunk))
    return out


def metaspace_pieces(text: str) -> list[str]:
    """``text`` split as ``tokenizers.pre_tokenizers.Metaspace()`` splits each of its lines (see the module doc)."""
    out: list[str] = []
    for line in _LINES.split(text):
        if not line:
            continue
        marked = line.replace(" ", SPACE_MARK)
        if not marked.startswith(SPACE_MARK):
            marked = SPACE_MARK + marked
        start = 0
        for i in range(1, len(marked)):
            if marked[i] == SPACE_MARK:
                out.append(marked[start:i])
                start = i
        out.append(marked[start:])
    return out


def field_pieces(text: str, name: str) -> list[str]:
    """``text`` split by the pre-tokenizer ``name`` (one of :data:`FIELD_PRETOKENIZERS`). Raises ``ValueError``."""
    if name == BERT:
        return bert_pieces(text)
    if name == METASPACE:
        return metaspace_pieces(text)
    raise SettingError(
        N_("unknown pre-tokenizer {name}; choose one of {choices}"),
        name=repr(name),
        choices=", ".join(FIELD_PRETOKENIZERS),
    )
