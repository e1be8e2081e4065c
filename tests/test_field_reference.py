"""The textbook WordPiece and Unigram loops (bpe_core.algorithms.reference_wordpiece, reference_unigram), shown on
the How page, agree with the trainers and with the course's own code."""

from __future__ import annotations

from course_notebooks import corpus, run_cells

from bpe_core.algorithms.reference_unigram import train_unigram
from bpe_core.algorithms.reference_wordpiece import train_wordpiece
from bpe_core.algorithms.seam import train
from bpe_core.config import TrainConfig
from bpe_core.pretokenize import word_counts

TEXT = "the quick brown fox jumps over the lazy dog; the dog naps, the fox runs on and on\n" * 2


def test_the_textbook_wordpiece_is_the_trainer_and_the_course():
    words = word_counts("\n".join(corpus(6)), "bert")
    assert train_wordpiece(words, 70) == run_cells(6)["vocab"]
    for text, size in (("\n".join(corpus(6)), 90), (TEXT, 60)):
        words = word_counts(text, "bert")
        ours = train(words, TrainConfig(algorithm="wordpiece", vocab_size=size))
        assert train_wordpiece(words, size) == ours.vocabulary()


def test_the_textbook_unigram_is_the_trainer_and_the_course():
    words = word_counts("\n".join(corpus(7)), "metaspace")
    ours = train(words, TrainConfig(algorithm="unigram", vocab_size=100))
    assert train_unigram(words, 100) == ours.vocabulary() == list(run_cells(7)["model"])
    words = word_counts(TEXT, "metaspace")
    ours = train(words, TrainConfig(algorithm="unigram", vocab_size=40, seed_size=120, shrink=0.2))
    assert train_unigram(words, 40, 120, 0.2) == ours.vocabulary()
