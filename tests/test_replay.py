"""bpe_core.encoding.replay: an encoding's summary, the words the two encoders split differently, parsing ids and
decoding them back, unknown symbols, token lookup; the replay of an encoding (Tokenizer.replay)."""

from __future__ import annotations

import pytest

from bpe_core import InputError, TrainConfig, train
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.encoding.replay import (
    UNK_LOST,
    WHITESPACE_ONE_SPACE,
    encoding_summary,
    find_token,
    parse_ids,
    round_trip,
    split_differences,
    token_index,
    unknown_symbols,
)

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def textbook():
    return train(dict(TEXTBOOK), TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=10))


def test_replay_reaches_the_encoding():
    tok = Tokenizer.from_run(textbook())
    text = "lowest newer lowest"
    ids, traces = tok.encode_with_trace(text)
    replay = tok.replay(text)
    numbers = [s.merge_number for s in replay.steps]
    assert numbers == sorted(set(numbers)) == sorted({s.merge_number for tr in traces for s in tr.steps})
    assert replay.ids_at(0) == [t for trace in traces for t in trace.start]
    assert replay.ids_at(len(replay)) == ids
    # Each merge's count is its occurrences over the whole text: "lowest" twice counts twice.
    assert sum(s.count for s in replay.steps) == sum(len(st.positions) for tr in traces for st in tr.steps)
    for s in replay.steps:
        assert s.count >= 1
        assert tok.token_value(s.left) + tok.token_value(s.right) == tok.token_value(s.token)


def test_encoding_summary_counts_characters_tokens_and_unk():
    tok = Tokenizer.from_run(textbook())
    text = "lowest wäx"  # ä and x never occur in the corpus: <unk> each
    ids = tok.encode(text)
    summary = encoding_summary(tok, text, ids)
    assert (summary.chars, summary.tokens) == (10, len(ids))
    assert summary.unknown == ids.count(tok.unk_id) == 2
    assert summary.chars_per_token == pytest.approx(10 / len(ids))
    assert encoding_summary(tok, "", []).chars_per_token == 0.0
    # Byte-level models have no <unk>.
    byte_tok = Tokenizer.from_run(train(dict(TEXTBOOK), TrainConfig(variant="byte", num_merges=5)))
    assert encoding_summary(byte_tok, "wäx", byte_tok.encode("wäx")).unknown == 0


def test_split_differences_lists_each_word_once_in_order():
    tok = Tokenizer.from_run(textbook())
    text = "lowest newer lowest wider newer"
    rows = tok.compare_methods(text)
    diffs = split_differences(tok, text)
    expected, seen = [], set()
    for piece, by_rank, longest in rows:
        if by_rank != longest and piece not in seen:
            seen.add(piece)
            expected.append((piece, by_rank, longest))
    assert diffs == expected
    assert len({piece for piece, *_ in diffs}) == len(diffs)
    assert all(by_rank != longest for _, by_rank, longest in diffs)


def test_round_trip_says_why_a_text_does_not_come_back():
    tok = Tokenizer.from_run(textbook())  # end-of-word marker, whitespace pre-tokenizer
    text = "low  lowest"  # two spaces: one comes back
    ids = tok.encode(text)
    back = round_trip(tok, text, ids, ids)
    assert (back.decoded, back.same_ids, back.exact) == ("low lowest", True, False)
    assert back.reasons == (WHITESPACE_ONE_SPACE,)
    assert round_trip(tok, "low lowest", tok.encode("low lowest"), tok.encode("low lowest")).exact
    unk_text = "lox"
    unk_ids = tok.encode(unk_text)
    assert round_trip(tok, unk_text, unk_ids, unk_ids).reasons == (WHITESPACE_ONE_SPACE, UNK_LOST)
    other = round_trip(tok, text, ids, ids[:1])
    assert (other.same_ids, other.exact, other.reasons) == (False, False, ())
    with pytest.raises(ValueError):
        round_trip(tok, text, ids, [10_000])
    # Character model, GPT-2 pre-tokenizer: spaces are kept, but these words never had one: <unk> alone.
    char = Tokenizer.from_run(train(dict(TEXTBOOK), TrainConfig(variant="char", pretokenizer="gpt2", num_merges=5)))
    spaced = round_trip(char, "low  low", char.encode("low  low"), char.encode("low  low"))
    assert (spaced.decoded, spaced.reasons) == ("low<unk><unk>low", (UNK_LOST,))
    assert round_trip(char, "lowlow", char.encode("lowlow"), char.encode("lowlow")).exact


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
