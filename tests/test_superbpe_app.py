"""SuperBPE's transition point in the app: the URL parameter ``transition`` (pure functions both ways, a note for a
bad or inapplicable value), the sidebar's number box, the stepper's cards (a replayed stage-1 merge, the transition
step, the first superword tokens) and the clear message for a transition beyond the merges, in 简体 too."""

from __future__ import annotations

import pytest
from app_helpers import errors, new_app, no_exception, page_text

from bpe_core import InputError
from ui.corpus import PRESETS
from ui.settings import make_config, preset_settings, settings_from_url, url_from_settings

CHAPTER = {"preset": "pg16457-chapter", "variant": "byte", "pre": "gpt2", "merges": 300, "transition": 150}


def test_url_round_trip_and_notes():
    preset = PRESETS["pg16457-chapter"]
    settings = {**preset_settings(preset), "variant": "byte", "pre": "gpt2", "transition": 150}
    params = url_from_settings(preset, settings, False, 2)
    assert params["transition"] == "150"
    back = settings_from_url(params, None)
    assert back.settings == settings and back.notes == ()
    assert make_config(back.settings).transition == 150
    assert "transition" not in url_from_settings(preset, {**settings, "transition": None}, False, 2)
    char = settings_from_url({"preset": "pg16457-chapter", "transition": "5"}, None)  # the preset is eow
    assert char.settings["transition"] is None and "byte-level BPE only" in char.notes[0]
    bad = settings_from_url({"preset": "pg16457-chapter", "variant": "byte", "transition": "-3"}, None)
    assert bad.settings["transition"] is None and "below 0" in bad.notes[0]
    # A page training the other variant, or its own number of merges, trains without the transition.
    assert make_config(back.settings, variant="char").transition is None
    assert make_config(back.settings, num_merges=20, vocab_size=None).transition is None
    with pytest.raises(InputError, match="beyond the 100 merges"):
        make_config({**back.settings, "merges": 100})


def test_stepper_marks_replayed_merges_the_transition_and_superwords():
    at = new_app(**CHAPTER, step=140)
    no_exception(at)
    assert at.number_input(key="w.transition").value == 150
    assert "Stage 1 of SuperBPE chose this merge" in page_text(at)
    at = new_app(**CHAPTER, step=151)  # no stage-1 merge of this chapter is left out: the transition is 151
    text = page_text(at)
    assert "Merge 151:" in text and "From this merge on, SuperBPE" in text
    at = new_app(**CHAPTER, step=155)  # " of the"
    text = page_text(at)
    assert "␣of␣the" in text and "One of the first superword tokens" in text


def test_a_transition_beyond_the_merges_is_a_clear_message_in_chinese():
    at = new_app(**{**CHAPTER, "merges": 100}, lang="zh-Hans")
    no_exception(at)
    assert "转换点 150 超出了要求的 100 次合并" in errors(at)
