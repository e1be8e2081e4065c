"""The ``bert`` and ``metaspace`` pre-tokenizers (bpe_core.pretokenize_field) split held-out text as ``tokenizers``'
``BertPreTokenizer`` and ``Metaspace`` do, Chinese and emoji included."""

from __future__ import annotations

import random

import pytest
from tokenizers.pre_tokenizers import BertPreTokenizer, Metaspace

from bpe_core.pretokenize import pretokenize
from bpe_core.pretokenize_field import bert_pieces, metaspace_pieces

HELD_OUT = [
    "Hopefully, you'll be able to “understand” it — a$b+c<d>e^f`g|h~i!!",
    "我爱自然语言处理。你好，世界！🙂👍🏽 emoji🙂here (括号) «quotes»",
    "  leading, trailing and  double  spaces  ",
    "tab\there\u00a0no-break\u3000ideographic\u2028line\x1cfs",
    "▁already marked and x▁y inside",
    "",
    " ",
]
_ALPHABET = "ab ,.!?我你。🙂\u00a0\u3000\t'-▁é$"


def _random_texts(n: int) -> list[str]:
    rng = random.Random(41)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 14))) for _ in range(n)]


@pytest.mark.parametrize(
    ("ours", "theirs"), [(bert_pieces, BertPreTokenizer()), (metaspace_pieces, Metaspace())], ids=["bert", "metaspace"]
)
def test_the_pieces_are_tokenizers_pieces(ours, theirs):
    for text in HELD_OUT + _random_texts(3000):  # (one text a line: see test_metaspace_reads_a_text_line_by_line)
        assert ours(text) == [p for p, _ in theirs.pre_tokenize_str(text)], repr(text)


def test_metaspace_reads_a_text_line_by_line_and_both_go_through_pretokenize():
    assert metaspace_pieces("a b\nc\r\n\nd") == ["▁a", "▁b", "▁c", "▁d"]
    assert pretokenize("a, b", "bert") == ["a", ",", "b"]
    assert pretokenize("a, b", "metaspace") == ["▁a,", "▁b"]
