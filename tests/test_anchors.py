"""The real trainers beside ours (bpe_core.algorithms.anchors): tokenizers' WordPieceTrainer and sentencepiece's
Unigram, fed the words our runs train on, and how far the vocabularies agree."""

from __future__ import annotations

import sys

import pytest
from course_notebooks import corpus

from bpe_core.algorithms.anchors import SENTENCEPIECE_SPECIALS, agreement, unigram_anchor, wordpiece_anchor
from bpe_core.algorithms.seam import train
from bpe_core.algorithms.wordpiece_run import SPECIAL_TOKENS
from bpe_core.config import TrainConfig
from bpe_core.i18n import translations
from bpe_core.inputs import SettingError
from bpe_core.pretokenize import word_counts

ENGLISH = "../shared/corpora/pg16457.txt"


def _learned(tokens) -> list[str]:
    return [t for t in tokens if t not in SPECIAL_TOKENS and len(t.removeprefix("##")) > 1]


def _most_frequent_pairs(words) -> set[str]:
    """The tokens BPE's rule may make first: every pair with the highest count, joined (without ##)."""
    bpe = train(words, TrainConfig(variant="char", pretokenizer="bert", num_merges=1, min_frequency=1))
    best = bpe.snapshot(1)
    return {bpe.token_text(a) + bpe.token_text(b) for a, b, c in best.top_pairs if c == best.count}


def test_wordpiece_trainer_merges_by_count_where_wordpiece_merges_by_score():
    """Fed the words, WordPieceTrainer learns what it learns from the text's own lines: its first merge is a most
    frequent pair (BPE's rule; among equal counts tokenizers has no fixed order, so which one varies), where true
    WordPiece's first is the course's a + ##b."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    words = word_counts("\n".join(corpus(6)), "bert")
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=70, show_progress=False, special_tokens=list(SPECIAL_TOKENS))
    tok.train_from_iterator(corpus(6), trainer)
    vocab = tok.get_vocab()
    from_text = sorted(vocab, key=vocab.__getitem__)
    theirs = wordpiece_anchor(words, 70)
    ours = train(words, TrainConfig(algorithm="wordpiece", vocab_size=70))
    assert theirs[:5] == SPECIAL_TOKENS and len(theirs) == len(from_text) == 70
    assert {t for t in theirs if len(t.removeprefix("##")) == 1} == {
        t for t in from_text if len(t.removeprefix("##")) == 1
    }
    assert set(ours.values[: ours.num_base]) <= set(theirs)  # its alphabet holds ours (and each character without ##)
    best = _most_frequent_pairs(words)
    assert _learned(theirs)[0].removeprefix("##") in best and _learned(from_text)[0].removeprefix("##") in best
    assert ours.values[ours.num_base] == "ab" not in best  # the course's first merge: a + ##b scores highest
    got = agreement(ours.values, theirs, 70)
    assert got.overlap.shared == len(set(ours.values) & set(theirs)) < 70


def test_agreement_counts_shared_tokens_in_any_order():
    got = agreement(["a", "b", "c", "d"], ["b", "a", "x", "d"], 3)
    assert (got.overlap.n, got.overlap.shared, got.overlap.first_difference) == (3, 2, 1)
    assert got.ours == ("a", "b", "c", "d")


def test_sentencepiece_gives_its_pieces_most_probable_first_without_its_specials():
    with open(ENGLISH, encoding="utf-8") as f:
        text = f.read(40_000)
    words = word_counts(text, "metaspace")
    pieces = unigram_anchor(words, 300)
    assert not set(pieces) & set(SENTENCEPIECE_SPECIALS)
    assert 250 <= len(pieces) <= 300 and len(set(pieces)) == len(pieces)
    assert "▁the" in pieces[:20]  # English's most frequent word comes early
    joined = " ".join(words)
    assert all(p.lstrip("▁") in joined for p in pieces)  # every piece is a piece of the words fed


def test_a_corpus_too_small_for_sentencepiece_is_a_message_in_the_interface_language():
    with pytest.raises(SettingError) as caught:
        unigram_anchor({"▁low": 5, "▁lower": 2}, 3)
    assert str(caught.value).startswith("sentencepiece cannot train on this corpus: ")
    assert caught.value.message(translations("zh-Hant")).startswith("sentencepiece 無法在這份語料上訓練")


def test_a_missing_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # as on an install without it: the import fails
    with pytest.raises(SettingError, match=r"needs the package sentencepiece: pip install 'bpe-explorer\[app\]'"):
        unigram_anchor({"▁low": 5}, 3)


def test_a_word_longer_than_sentencepieces_line_limit_is_still_fed():
    """Unspaced Chinese makes a metaspace word of a whole line: one over 4,192 bytes would be skipped unfed."""
    long_word = "\u2581" + "很长" * 1000  # 6,003 bytes of UTF-8
    pieces = unigram_anchor({long_word: 3, "\u2581短": 5}, 12)
    assert any(len(p) > 1 and set(p) <= {"很", "长"} for p in pieces)  # learned from the long word
