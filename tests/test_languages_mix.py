"""bpe_core.languages.mix: a language mix's weights, its spec text (kept in ``?corpus=`` links), its training texts
and words, and the languages the fair rule served. Library code: no Streamlit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core import TrainConfig, corpus_words
from bpe_core.algorithms.fair_bpe import byte_share_weights
from bpe_core.languages import declaration as decl
from bpe_core.languages.mix import (
    HELD_OUT,
    TRAIN_SECTIONS,
    default_mix,
    equal_shares,
    mix_spec,
    mix_weights,
    parse_mix_spec,
    served_counts,
    summed_words,
    training_texts,
)

REPO = Path(__file__).resolve().parent.parent


def test_trained_on_the_preamble_and_articles_1_to_20_measured_on_the_rest():
    assert TRAIN_SECTIONS == tuple(range(21)) and HELD_OUT == tuple(range(21, 31))
    assert not set(TRAIN_SECTIONS) & set(HELD_OUT)


def test_mix_weights_one_language_equal_shares_and_own_weights():
    alone = mix_weights("tha")
    assert list(alone) == list(decl.KEYS) and alone["tha"] == 1.0 and sum(alone.values()) == 1.0
    equal = mix_weights("equal")
    assert equal == equal_shares() == byte_share_weights(decl.texts(TRAIN_SECTIONS))
    # Own weights are scaled by the equal shares: 1 everywhere is the equal mix; 0, negative or missing is left out.
    assert mix_weights("own", {k: 1 for k in decl.KEYS}) == pytest.approx(equal)
    own = mix_weights("own", {"eng": 2, "tha": -1, "cmn_hans": 0.5})
    assert own["eng"] == pytest.approx(2 * equal["eng"]) and own["cmn_hans"] == pytest.approx(0.5 * equal["cmn_hans"])
    assert own["tha"] == 0.0 and own["fra"] == 0.0 and list(own) == list(decl.KEYS)
    assert not any(mix_weights("own").values())


def test_the_spec_keeps_positive_weights_in_the_declarations_order_and_reads_back():
    weights = {"tha": 0.1, "eng": 1.0, "fra": 0.0}
    spec = mix_spec("plain", weights)
    assert spec == "rule plain\neng 1.0\ntha 0.1"
    assert parse_mix_spec(spec) == ("plain", {"eng": 1.0, "tha": 0.1})
    assert parse_mix_spec("\n" + spec + "\n") == ("plain", {"eng": 1.0, "tha": 0.1})
    rule, equal = parse_mix_spec(default_mix())
    assert rule == "fair" and equal == equal_shares() and len(equal) == len(decl.KEYS)
    for bad in ("rule fair\neng inf", "rule fair\neng nan", "rule fair\neng 0", "rules fair\neng 1", "eng 1"):
        with pytest.raises(ValueError):
            parse_mix_spec(bad)


def test_training_texts_and_their_words():
    texts, size = training_texts(("eng", "cmn_hans"))
    assert list(texts) == ["eng", "cmn_hans"] and texts == decl.texts(TRAIN_SECTIONS, ("eng", "cmn_hans"))
    assert size == sum(len(t.encode("utf-8")) for t in texts.values())
    config = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=5)
    words = summed_words({"a": "the cat the", "b": "the dog"}, config)
    assert corpus_words("the cat the", config) == {"the": 1, " cat": 1, " the": 1}
    assert list(words.items()) == [("the", 2), (" cat", 1), (" the", 1), (" dog", 1)]


def test_served_counts_in_the_order_first_served():
    assert served_counts(["tha", "eng", "tha", "hin", "tha"]) == {"tha": 3, "eng": 1, "hin": 1}
    assert list(served_counts(["tha", "eng", "tha"])) == ["tha", "eng"]
    assert served_counts([]) == {}


def test_the_module_imports_no_streamlit():
    code = "import sys, bpe_core.languages.mix; print('streamlit' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr
