"""Corpora the app-side tests share: the textbook word counts (Sennrich et al. 2016) and the Chinese +
emoji preset's text."""

from bpe_core import TrainConfig, TrainedRun, train
from ui.presets import PRESETS

#: The textbook corpus of Sennrich et al. (2016), as word counts.
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}

#: The Chinese + emoji preset's text.
ZH_EMOJI = PRESETS["zh-emoji"].load_text()


def textbook_run(variant: str, **kw) -> TrainedRun:
    """The textbook corpus trained with ``variant``: whitespace pre-tokenizer, 10 merges, minimum frequency 2."""
    cfg = TrainConfig(variant=variant, pretokenizer="whitespace", num_merges=10, min_frequency=2, **kw)
    return train(dict(TEXTBOOK), cfg)
