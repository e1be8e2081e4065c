"""bpe_core.algorithms.fair_bpe: the plain and parity-aware ("fair-max") rules on a mix checked by hand, and on the Declaration
(trained on the preamble and articles 1-20, measured on 21-30) the fair rule's spread is lower at equal merges."""

from __future__ import annotations

import pytest

from bpe_core.algorithms.fair_bpe import byte_share_weights, train_mix
from bpe_core.languages import declaration as decl
from bpe_core.languages.token_tax import tax_table

# "en": ab x10 (20 byte tokens), cd x5 (10): 30 tokens; pairs ab 10, cd 5.
# "zz": xyz x6: 18 tokens; pairs xy 6, yz 6.
MIX = {"en": " ".join(["ab"] * 10 + ["cd"] * 5), "zz": " ".join(["xyz"] * 6)}


def test_plain_rule_by_hand():
    run = train_mix(MIX, 10, "plain", pretokenizer="whitespace")
    # ab (10); then xy and yz tie at 6 (over cd's 5): the smaller ids, x y; then xy+z (6); then cd (5).
    assert run.merges == [(b"a", b"b"), (b"x", b"y"), (b"xy", b"z"), (b"c", b"d")]
    assert run.served == ["en", "zz", "zz", "en"]
    assert run.lengths[0] == {"en": 30, "zz": 18} and run.lengths[-1] == {"en": 15, "zz": 6}


def test_fair_rule_serves_the_worst_compressed_language_by_hand():
    run = train_mix(MIX, 10, "fair", pretokenizer="whitespace")
    # step 1: en has 30 tokens, zz 18: en is worst, its top pair ab -> en 20.
    # step 2: en 20 > zz 18: en again, its top pair is cd (5), though xy (6) is more frequent overall -> en 15.
    # step 3: zz 18 > en 15: zz's top pairs xy, yz tie at 6: x y -> zz 12.
    # step 4: en 15 is worst, but no pair of en occurs twice: the next worst, zz, is served: xy+z -> zz 6.
    assert run.merges == [(b"a", b"b"), (b"c", b"d"), (b"x", b"y"), (b"xy", b"z")]
    assert run.served == ["en", "en", "zz", "zz"]
    assert [d["en"] for d in run.lengths] == [30, 20, 15, 15, 15]
    assert [d["zz"] for d in run.lengths] == [18, 18, 18, 12, 6]
    tok = run.tokenizer()
    assert tok.encode("ab cd xyz") == [256, 257, 259]  # ab, cd, xyz (the whitespace pre-tokenizer drops spaces)
    assert run.tokenizer(step=1).encode("cd") == [ord("c"), ord("d")]


def test_weights_and_bad_input():
    # Weight 0 leaves a language out; equal byte shares weight the smaller text up.
    run = train_mix(MIX, 10, "plain", weights={"en": 0, "zz": 1}, pretokenizer="whitespace")
    assert run.languages == ("zz",) and run.merges == [(b"x", b"y"), (b"xy", b"z")]
    w = byte_share_weights({"a": "xx", "b": "x"})
    assert w == {"a": 1.0, "b": 2.0}
    with pytest.raises(ValueError, match="rule"):
        train_mix(MIX, 1, "greedy")
    with pytest.raises(ValueError, match="no language"):
        train_mix(MIX, 1, weights={"en": 0, "zz": 0})
    with pytest.raises(ValueError, match="some text"):
        byte_share_weights({"a": ""})


def test_on_the_declaration_the_fair_rule_has_the_lower_held_out_spread():
    train = decl.texts(range(0, 21))  # preamble + articles 1-20
    held = decl.texts(range(21, 31))  # articles 21-30
    weights = byte_share_weights(train)
    runs = {rule: train_mix(train, 300, rule, weights) for rule in ("plain", "fair")}
    assert len(runs["plain"].merges) == len(runs["fair"].merges) == 300
    table = tax_table(held, {rule: run.tokenizer() for rule, run in runs.items()})
    assert table.spread("fair") < table.spread("plain")
    assert table.gini("fair") < table.gini("plain")
    # The fair rule serves many languages; every merge says which.
    assert len(set(runs["fair"].served)) >= 10 and set(runs["fair"].served) <= set(decl.KEYS)
