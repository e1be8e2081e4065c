"""SuperBPE's transition point in the app: the URL parameter ``transition`` (pure functions both ways, a note for a
bad or inapplicable value), the sidebar's number box, the stepper's cards (a replayed stage-1 merge, the transition
step, the first superword tokens) and the clear message for a transition beyond the merges, in 简体 too."""

from __future__ import annotations

import re

import pytest
from app_helpers import bodies, body_with, errors, flat_text, new_app, no_exception, page_text

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


def _options(at) -> list[str]:
    rows = re.findall(r"<tr class='[^']*' data-option='\d'>(.*?)</tr>", body_with(at, "bpe-quiz-pairs"))
    return [" ".join(flat_text(r).split()[1:4]) for r in rows]


def _reveal(at):
    at = at.button(key="quiz-reveal").click().run()
    no_exception(at)
    card = body_with(at, "bpe-quiz-verdict")
    return re.search(r"data-grade='(\w+)'", card).group(1), flat_text(card)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_quiz_asks_nothing_on_a_replayed_merge_and_says_why(lang):
    """Merges 1 to 150 replay stage 1's choices, made on stage 1's words: the most frequent pair of the pieces shown
    need not be the one merged, so the quiz asks nothing there (a pick of it would be graded wrong) and says why."""
    at = new_app(**CHAPTER, step=140, quiz=1, lang=lang)
    no_exception(at)
    assert not any("id='bpe-quiz-pairs'" in b for b in bodies(at))
    why = flat_text(body_with(at, "bpe-quiz-not-asked"))
    if lang == "en":
        assert why.startswith("No question on merge 141: SuperBPE's stage 1 chose merges 1 to 150 on its own words")
        assert "from the transition point, merge 151." in why
    else:
        assert why.startswith("第 141 次合併不出題") and "轉換點（第 151 次合併）" in why


def test_the_quiz_asks_from_the_transition_step_and_the_merged_pair_is_right():
    at = new_app(**CHAPTER, step=150, quiz=1)  # merge 151, the first that stage 2 chooses
    no_exception(at)
    assert "Which pair does merge 151 join?" in flat_text(body_with(at, "bpe-quiz-question"))
    grade, text = _reveal(at)  # no pick: the reveal names the merged pair
    assert grade == "none"
    chosen = re.search(r"Merge 151 joins (.+?), which occurs", text).group(1)
    at = new_app(**CHAPTER, step=150, quiz=1)
    at = at.button(key=f"quiz-pick-{_options(at).index(chosen) + 1}").click().run()
    grade, text = _reveal(at)
    assert grade == "right" and text.startswith(f"Right! Merge 151 joins {chosen}")
