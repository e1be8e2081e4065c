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
from .run import TrainedRun, VocabEntry, WordRow
from .trainer import RULES, STOP_REASONS, TIE_BREAKS, MergeStep, TrainConfig, Trainer, corpus_words, train
from .variants import EOW_STYLES, VARIANTS, Variant

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
    "TrainedRun",
    "VocabEntry",
    "WordRow",
    "RULES",
    "STOP_REASONS",
    "TIE_BREAKS",
    "MergeStep",
    "TrainConfig",
    "Trainer",
    "corpus_words",
    "train",
    "VARIANTS",
    "EOW_STYLES",
    "Variant",
]

from .encoder import UNK_TOKEN, MergeTree, PieceTrace, Replay, ReplayStep, Tokenizer, TraceStep
from .files import load_gpt2_files, load_model, save_model, tokenizer_json
from .merge_agreement import MergeOverlap, merge_overlap
from .models import MODEL_NAMES, load_gpt

__all__ += [
    "UNK_TOKEN",
    "MergeTree",
    "PieceTrace",
    "Replay",
    "ReplayStep",
    "Tokenizer",
    "TraceStep",
    "MODEL_NAMES",
    "load_gpt",
    "MergeOverlap",
    "merge_overlap",
    "load_gpt2_files",
    "load_model",
    "save_model",
    "tokenizer_json",
]
