"""bpe_core.replay: merges an encoding applied, ids after each, parsing ids, unknown symbols, token lookup."""

from __future__ import annotations

import pytest

from bpe_core import InputError, TrainConfig, train
from bpe_core.encoder import Tokenizer
from bpe_core.replay import find_token, parse_ids, replay_ids, replay_merges, token_index, unknown_symbols

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def textbook():
    return train(dict(TEXTBOOK), TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=10))


def test_replay_reaches_the_encoding():
    tok = Tokenizer.from_run(textbook())
    ids, traces = tok.encode_with_trace("lowest newer lowest")
    plan = replay_merges(traces)
    assert [r for r, *_ in plan] == sorted({r for r, *_ in plan})
    assert replay_ids(traces, 0) == [t for trace in traces for t in trace.start]
    assert replay_ids(traces, plan[-1][0]) == ids
    places = {rank: n for rank, _, _, _, n in plan}
    assert all(n >= 1 for n in places.values())
    for _rank, left, right, token, _n in plan:
        assert tok.token_value(left) + tok.token_value(right) == tok.token_value(token)


def test_parse_ids():
    assert parse_ids("12, 5 7") == [12, 5, 7]
    assert parse_ids("[12,5;7]") == [12, 5, 7]
    assert parse_ids("  ") == []
    with pytest.raises(InputError, match="'x1' is not a token id"):
        parse_ids("3 x1")
    with pytest.raises(InputError):
        parse_ids("-1")


def test_unknown_symbols():
    tok = Tokenizer.from_run(textbook())
    assert unknown_symbols(tok, "low ωz") == ["ω", "z"]
    byte = Tokenizer.from_run(train(dict(TEXTBOOK), TrainConfig(variant="byte", num_merges=3)))
    assert unknown_symbols(byte, "ωz") == []


def test_find_token_by_label_or_value():
    run = textbook()
    index = token_index(run, lambda t: run.token_value(t).replace(" ", "␣"))
    tid = find_token(run, "est</w>", index)
    assert tid is not None and run.created_step[tid] == 3
    assert find_token(run, "est</w>", index, step=2) is None
    assert find_token(run, "nope", index) is None
    assert find_token(run, "e", {}, step=0) == run.value_to_id["e"]
