"""ui.settings: URL <-> settings as pure functions, and the one place a TrainConfig is built."""

from __future__ import annotations

import pytest

from bpe_core import InputError
from ui.corpus import PRESETS
from ui.settings import (
    DEFAULT_SETTINGS,
    TIE_LABELS,
    make_config,
    max_merges,
    preset_settings,
    settings_from_url,
    url_from_settings,
)


def test_url_round_trip_writes_only_what_differs_from_the_preset():
    preset = PRESETS["textbook-low"]
    settings = preset_settings(preset)
    assert url_from_settings(preset, settings, False, 3) == {"preset": "textbook-low", "step": "3"}
    changed = {**settings, "tie": "hf", "variant": "byte", "limit": "vocab", "vocab": 300}
    params = url_from_settings(preset, changed, True, 0)
    assert params == {"preset": "textbook-low", "variant": "byte", "vocab": "300", "tie": "hf", "present": "1",
                      "step": "0"}  # fmt: skip
    back = settings_from_url(params, None)
    assert (back.preset, back.presentation, back.step, back.notes) == ("textbook-low", True, 0, ())
    assert back.settings == changed


def test_bad_url_values_are_ignored_with_notes():
    url = settings_from_url({"preset": "nope", "variant": "x", "minf": "0", "merges": "ten", "step": "-2"}, None)
    assert url.preset == "textbook-low"
    assert url.settings == preset_settings(PRESETS["textbook-low"])
    assert len(url.notes) == 5 and url.step == 0
    assert "unknown preset 'nope'" in url.notes[0]
    # merges wins over vocab when both are given; the session's own preset is kept without ?preset=
    both = settings_from_url({"vocab": "50", "merges": "7"}, PRESETS["nihao"])
    assert both.preset is None and (both.settings["limit"], both.settings["merges"]) == ("merges", 7)


def test_make_config_limits_and_marker():
    cfg = make_config(dict(DEFAULT_SETTINGS))
    assert (cfg.variant, cfg.num_merges, cfg.vocab_size, cfg.tie_break) == ("eow", 10, None, "first-seen")
    assert make_config(dict(DEFAULT_SETTINGS), words_source=True, **{"variant": "char"}).pretokenizer == "whitespace"
    with pytest.raises(InputError, match="the limit is"):
        make_config({**DEFAULT_SETTINGS, "merges": max_merges() + 1})
    with pytest.raises(InputError, match="end-of-word marker"):
        make_config({**DEFAULT_SETTINGS, "marker": "a b"})
    # a page's own number of merges is not held to the sidebar's stop setting
    own = make_config({**DEFAULT_SETTINGS, "merges": max_merges() + 1}, variant="byte", num_merges=300, vocab_size=None)
    assert (own.variant, own.num_merges) == ("byte", 300)
    vocab = make_config({**DEFAULT_SETTINGS, "limit": "vocab", "vocab": 400})
    assert (vocab.vocab_size, vocab.num_merges) == (400, max_merges())


def test_tie_labels_come_from_bpe_core():
    assert TIE_LABELS["first-seen"] == "first-seen (textbook, minbpe, tiktoken's educational trainer)"
    assert set(TIE_LABELS) == {"first-seen", "hf", "lexical"}
