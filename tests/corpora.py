"""Corpora the app-side tests share: the textbook word counts (Sennrich et al. 2016), the Chinese +
emoji preset's text, and the pasted 红楼梦 + emoji text of issue 15."""

from bpe_core import TrainConfig, TrainedRun, train
from ui.corpus import PRESETS, PRESETS_DIR

#: The textbook corpus of Sennrich et al. (2016), as word counts.
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}

#: The Chinese + emoji preset's text.
ZH_EMOJI = PRESETS["zh-emoji"].load_text()

#: Issue 15's paste: the first 2,000 characters of 红楼梦's first chapter and a few emoji sequences.
PASTED_ZH_EMOJI = PRESETS_DIR.joinpath("hongloumeng-chapter1.txt").read_text(encoding="utf-8")[:2000] + "👨‍👩‍👧 🇫🇷 👍🏽"


def textbook_run(variant: str, **kw) -> TrainedRun:
    """The textbook corpus trained with ``variant``: whitespace pre-tokenizer, 10 merges, minimum frequency 2."""
    cfg = TrainConfig(variant=variant, pretokenizer="whitespace", num_merges=10, min_frequency=2, **kw)
    return train(dict(TEXTBOOK), cfg)
