"""The app and the WordPiece / Unigram runs: until the stepper draws them, a link naming one is a note and the
stepper trains BPE (a WordPiece run handed to the stepper had no memory_bytes and raised)."""

from __future__ import annotations

from app_helpers import new_app, no_exception

from bpe_core.algorithms.seam import algorithm_names
from ui.settings import stepper_algorithms


def test_wordpiece_and_unigram_are_registered_but_not_offered_to_the_stepper():
    assert {"wordpiece", "unigram"} <= set(algorithm_names())
    assert stepper_algorithms()[0] == "bpe" and not {"wordpiece", "unigram"} & set(stepper_algorithms())


def test_a_link_naming_wordpiece_is_a_note_not_a_traceback():
    at = new_app(algo="wordpiece")
    no_exception(at)
    notes = " ".join(w.value for w in at.warning)
    assert "algo" in notes and "wordpiece" in notes
