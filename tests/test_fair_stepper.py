"""The language-mix training as a stepper run (bpe_core.algorithms.fair_bpe.stepper_run): the same merges as the mix trainer,
snapshots like any run, and every merge and word type labelled by language (in ``run.extras``)."""

from __future__ import annotations

import pytest

from bpe_core import TrainConfig
from bpe_core.algorithms.fair_bpe import byte_share_weights, stepper_run, train_mix

TEXTS = {
    "eng": "the cat sat on the mat. the cat ate the rat. the hat is on the cat.",
    "cmn": "猫坐在垫子上。猫吃了老鼠。帽子在猫上。猫在垫子上。",
    "shared": "the cat 猫 the cat 猫",
}
CFG = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=25)


@pytest.mark.parametrize("rule", ["plain", "fair"])
def test_the_run_replays_the_mix_trainers_merges_with_their_languages(rule):
    weights = byte_share_weights(TEXTS)
    mix = train_mix(TEXTS, 25, rule, weights)
    run = stepper_run(TEXTS, CFG, rule, weights)
    assert run.num_steps == len(mix.merges) > 10
    got = [(run.token_value(s.left), run.token_value(s.right)) for s in run.snapshots]
    assert got == mix.merges
    served = run.extras["served"]
    assert run.extras["rule"] == rule
    assert served == mix.served and set(served) <= set(TEXTS)
    # Each snapshot's pair table starts with the chosen pair and its count in the whole mix.
    for s in run.snapshots:
        assert s.top_pairs[0][:2] == (s.left, s.right) and s.tied == ((s.left, s.right),) and s.ties == 1
    assert run.stop_reason == "num_merges"


def test_word_types_are_labelled_by_language():
    run = stepper_run(TEXTS, CFG, "fair")
    labels = dict(zip(run.words, run.extras["word_languages"]))
    assert labels["the"] == ("eng", "shared")  # one word type, from two languages (in the mix's order)
    assert labels[" mat"] == ("eng",)
    assert labels[" 猫"] == ("shared",)
    assert all(lang == ("cmn",) for w, lang in labels.items() if "垫子" in w)
    assert len(run.extras["word_languages"]) == run.num_words


def test_the_fair_rule_serves_the_worst_compressed_language_first():
    run = stepper_run(TEXTS, CFG, "fair")
    # Before any merge, the Chinese text is the longest in bytes (3 per character): merge 1 serves it.
    assert run.extras["served"][0] == "cmn"


def test_only_byte_level_with_gpt2_pieces():
    with pytest.raises(ValueError, match="byte-level"):
        stepper_run(TEXTS, TrainConfig(variant="char", num_merges=5))


def test_a_mix_is_kept_as_text_for_its_link():
    from bpe_core.languages.mix import mix_spec, parse_mix_spec

    weights = {"eng": 1.0, "tha": 0.3125}
    spec = mix_spec("fair", weights)
    assert parse_mix_spec(spec) == ("fair", weights)
    for bad in ("", "rule odd\neng 1", "rule fair", "rule fair\nxx 1", "rule fair\neng -1", "rule fair\neng x"):
        with pytest.raises(ValueError):
            parse_mix_spec(bad)
