"""Hugging Face ``tokenizers`` set up as the BPE reference that bpe_core is compared with: the parity test
(tests/test_trainer_parity.py) and the speed benchmark (benchmarks/train_speed.py) build it here, so both
compare against the same configuration.

* byte-level: ``models.BPE()`` with the ``ByteLevel`` pre-tokenizer (GPT-2's, no prefix space) and the 256
  byte symbols as the initial alphabet, as GPT-2 trains;
* end-of-word (``</w>``): ``models.BPE(end_of_word_suffix="</w>")`` with ``WhitespaceSplit``; HF glues the
  suffix to the last character (bpe_core's ``attached`` style).
"""

from __future__ import annotations

import json

from tokenizers import Tokenizer, models, pre_tokenizers, trainers


def hf_setup(variant: str, vocab_size: int, min_frequency: int):
    """A fresh ``(Tokenizer, BpeTrainer)`` pair for ``variant`` (``"byte"`` or ``"eow"``) that trains up to
    ``vocab_size`` tokens (alphabet included), merging pairs seen at least ``min_frequency`` times.

    Raises:
        ValueError: another variant.
    """
    if variant == "byte":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
    elif variant == "eow":
        tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency, end_of_word_suffix="</w>", show_progress=False
        )
    else:
        raise ValueError(f"no Hugging Face set-up for the {variant!r} variant (byte or eow)")
    return tok, trainer


def hf_model(tok) -> dict:
    """A trained tokenizer's ``{"merges": [(left, right), ...], "vocab": {token: id}}`` (HF's wire strings)."""
    model = json.loads(tok.to_str())["model"]
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    return {"merges": merges, "vocab": model["vocab"]}
