"""The ``jieba`` pre-tokenizer: Chinese word segmentation (分词 / 斷詞) as pre-tokenization, so BPE can be
trained on words and compared with training on unsplit text.

Why jieba (0.42.1, MIT): its dictionary (about 350,000 words) installs with the wheel, it is pure Python, gives
the same cuts every run and is the segmenter Chinese NLP courses teach. The alternatives ask more of a
classroom machine: pkuseg and THULAC need compiled extensions and download or bundle larger models, Baidu's LAC
needs PaddlePaddle, HanLP and CKIP Transformers download neural models (CKIP's are 繁體-native but need PyTorch).

jieba's dictionary is mostly Simplified, so 繁體 text is cut through OpenCC's ``t2s`` conversion: the text is
converted, segmented, and the cuts are mapped back to the original by character offsets. ``t2s`` converts
character for character for almost all text; when the converted text's length differs, the original is
segmented as it is. Either way the pieces joined give back the text exactly (spaces and line ends are pieces).

Both packages are in the ``[app]`` extra and imported on first use; without them :func:`jieba_pieces` raises
:class:`~bpe_core.inputs.InputError` naming the extra.
"""

from __future__ import annotations

import logging
from functools import cache

from .inputs import EXTRA_HINT, InputError

#: The pre-tokenizer's name (settings, URL ``pre=jieba``, CLI ``--pretokenizer jieba``, model files).
JIEBA = "jieba"


@cache
def _segmenter():
    """A loaded ``jieba.Tokenizer`` (about a second the first time; jieba caches the dictionary on disk, and
    its own lock keeps two threads from building it twice)."""
    try:
        import jieba
    except ImportError:
        raise InputError(
            f"the jieba pre-tokenizer needs the 'jieba' package, part of the app's extra: {EXTRA_HINT}"
        ) from None
    logging.getLogger("jieba").setLevel(logging.WARNING)  # it logs its loading to stderr at DEBUG
    segmenter = jieba.Tokenizer()
    segmenter.initialize()
    return segmenter


@cache
def _converter():
    """OpenCC's Traditional-to-Simplified converter."""
    try:
        import opencc
    except ImportError:
        raise InputError(
            f"the jieba pre-tokenizer needs the 'opencc' package, part of the app's extra: {EXTRA_HINT}"
        ) from None
    return opencc.OpenCC("t2s")


def _cut(segmenter, text: str) -> list[str]:
    return list(segmenter.cut(text, HMM=True))


def jieba_pieces(text: str) -> list[str]:
    """``text`` cut into words by jieba, 繁體 through OpenCC's ``t2s`` (see the module's docstring).

    Args:
        text: the input (characters).

    Returns:
        The words and the characters between them (spaces, punctuation, line ends), in text order, no empty
        piece; ``"".join(pieces) == text``. Each piece is a slice of ``text`` itself, never the converted form.

    Raises:
        InputError: jieba or OpenCC is not installed (the message names the ``[app]`` extra).
    """
    if not text:
        return []
    segmenter = _segmenter()
    simplified = _converter().convert(text)
    source = simplified if len(simplified) == len(text) else text
    words = _cut(segmenter, source)
    if sum(map(len, words)) != len(text):  # jieba keeps every character; this guards the offsets regardless
        words = _cut(segmenter, text)
    pieces, pos = [], 0
    for word in words:
        if word and pos < len(text):
            pieces.append(text[pos : pos + len(word)])
            pos += len(word)
    if pos < len(text):
        pieces.append(text[pos:])
    return pieces
