"""Corpora the app-side tests share: the textbook word counts (Sennrich et al. 2016) and the Chinese +
emoji preset's text."""

from ui.presets import PRESETS

#: The textbook corpus of Sennrich et al. (2016), as word counts.
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}

#: The Chinese + emoji preset's text.
ZH_EMOJI = PRESETS["zh-emoji"].load_text()
