"""bpe_core: Byte-Pair Encoding, one merge at a time.

The engine of BPE Explorer: pre-tokenizers, the char / end-of-word / byte-level variants, an
incremental trainer that yields a snapshot per merge, an encoder/decoder, file formats and a CLI
(``python -m bpe_core``). Pure Python plus ``regex``.

Quick start::

    from bpe_core import TrainConfig, Trainer, corpus_words
    cfg = TrainConfig(variant="eow", num_merges=5)
    trainer = Trainer({"low": 5, "lower": 2, "newest": 6, "widest": 3}, cfg)
    for snap in trainer.steps():
        print(snap.step, trainer.run.token_text(snap.left), trainer.run.token_text(snap.right), snap.count)
"""

import importlib

from .inputs import InputError, clean_text, decode_bytes, looks_like_word_counts, parse_word_counts
from .pretokenize import (
    EXAMPLE_PATTERN,
    PRETOKENIZER_CHOICES,
    PRETOKENIZERS,
    PatternError,
    pretokenize,
    split_with_pattern,
    word_counts,
)
from .variants import EOW_STYLES, VARIANTS, Variant

#: The rest of the public API, by the module that defines it. Each module is imported when one of its names
#: is first used (PEP 562), so ``python -m bpe_core encode`` does not load the trainer, nor ``train`` the GPT
#: models: start-up is most of a short command's time.
_LAZY = {
    "algorithms.run": ("TrainedRun",),
    "algorithms.run_records": ("VocabEntry", "WordRow"),
    "algorithms.trainer": (
        "RULES",
        "STOP_REASONS",
        "TIE_BREAKS",
        "MergeStep",
        "TrainConfig",
        "Trainer",
        "corpus_words",
        "train",
    ),
    "encoding.encoder": (
        "UNK_TOKEN",
        "MergeGraph",
        "MergeTree",
        "PieceTrace",
        "Replay",
        "ReplayStep",
        "Tokenizer",
        "TraceStep",
    ),
    "models": ("MODEL_NAMES", "load_gpt"),
    "checking.merge_agreement": ("MergeOverlap", "merge_overlap"),
    "formats.files": ("load_gpt2_files", "load_model", "save_model", "tokenizer_json"),
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names}

__all__ = [
    "InputError",
    "decode_bytes",
    "clean_text",
    "parse_word_counts",
    "looks_like_word_counts",
    "PRETOKENIZERS",
    "pretokenize",
    "word_counts",
    "PRETOKENIZER_CHOICES",
    "EXAMPLE_PATTERN",
    "PatternError",
    "split_with_pattern",
    "VARIANTS",
    "EOW_STYLES",
    "Variant",
    *_MODULE_OF,
]


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})
