"""BoundlessBPE (:mod:`bpe_core.algorithms.boundless`, ``train --boundless``): merges, supermerges and removals equal
the Apache-2.0 reference's training (``shared/references/boundlessbpe``, run here as the oracle by
``tests/boundless_oracle.py``), and our encoder's tokens equal the reference's inference, on held-out text and on
the training text, for English under GPT-2's pattern (one document, and paragraphs as documents) and for Chinese cut
into words by jieba (under GPT-2's pattern a Chinese run is one pre-token: no supermerge can happen, also checked).
The reference's outputs on one small case are kept in ``tests/fixtures/boundless_reference.json``.

For jieba the reference's own ``regex.findall`` is replaced by our jieba pre-tokenizer (the reference only knows
regular expressions); nothing else of it is touched.
"""

from __future__ import annotations

import json
import types

import pytest
import regex
from boundless_oracle import FIXTURE, fixture_texts, oracle_encode, oracle_train, reference
from corpus_excerpts import CHINESE, ENGLISH, excerpt

from bpe_core.algorithms.boundless import BoundlessTrainer, document_pieces, wordlike
from bpe_core.algorithms.boundless_encode import (
    BoundlessModel,
    boundless_token_count,
    boundless_token_counts,
    load_boundless_model,
)
from bpe_core.byte_display import to_gpt2
from bpe_core.pretokenize import GPT2_PATTERN, PATTERNS, pretokenize


def ours(events) -> list[tuple[str, bytes]]:
    return [("supermerge" if e.supermerge else e.kind, e.token) for e in events]


def crossing(tokens: list[bytes], pieces: list[str]) -> int:
    """How many of ``tokens`` span a boundary between two of the text's pre-tokens ``pieces``."""
    cuts, at = set(), 0
    for piece in pieces:
        at += len(piece.encode("utf-8"))
        cuts.add(at)
    n, at = 0, 0
    for tok in tokens:
        n += any(at + k in cuts for k in range(1, len(tok)))
        at += len(tok)
    return n


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\r\n\r\n") if p.strip()]


# name: (documents, pre-tokenizer, tau, merges, held-out text)
CASES = {
    # 3 kB to 3,000 merges: training runs until no pair is left (both sides stop together).
    "english": lambda: ([excerpt(ENGLISH, 3_000, 30_000)], "gpt2", 0.9, 3_000, excerpt(ENGLISH, 2_000, 150_000)),
    "english-paragraphs": lambda: (
        paragraphs(excerpt(ENGLISH, 4_000, 60_000)),
        "gpt2",
        0.6,
        600,
        excerpt(ENGLISH, 2_000, 200_000),
    ),
    "chinese-words": lambda: ([excerpt(CHINESE, 2_000, 30_000)], "jieba", 0.9, 1_000, excerpt(CHINESE, 2_000, 150_000)),
}


@pytest.fixture
def jieba_reference(monkeypatch):
    """The reference with our jieba pre-tokenizer in place of its ``regex.findall``."""
    shim = types.SimpleNamespace(compile=regex.compile, findall=lambda _pattern, text: pretokenize(text, "jieba"))
    for module in reference():
        monkeypatch.setattr(module, "re", shim)


@pytest.mark.parametrize("case", list(CASES))
def test_events_and_encodings_equal_the_reference(request, tmp_path, case):
    docs, pre, tau, merges, held_out = CASES[case]()
    if pre == "jieba":
        request.getfixturevalue("jieba_reference")
    expected = oracle_train(docs, GPT2_PATTERN if pre == "gpt2" else pre, tau, merges, tmp_path)
    trainer = BoundlessTrainer(document_pieces(docs, pre), tau, num_merges=merges)
    events = trainer.train()
    assert ours(events) == expected["events"]
    kinds = [kind for kind, _ in expected["events"]]
    assert kinds.count("supermerge") >= 50 and kinds.count("removal") >= 50
    if case == "english":
        assert trainer.stop_reason == "no_pairs" and trainer.merges < merges
    # Our model folder, read back, encodes as the reference's inference does.
    BoundlessModel.from_events(events, pre, tau=tau).save(tmp_path / "ours")
    model = load_boundless_model(tmp_path / "ours")
    for text in (held_out, docs[0]):
        tokens = model.tokens(text)
        assert tokens == oracle_encode(expected["model"], text)
        assert model.decode(model.encode(text)) == text
        if text is held_out:  # the ids too: the bytes, then every merge's token in order, removed ones kept
            assert model.encode(text) == oracle_encode(expected["model"], text, ids=True)
        # Tokens across pre-tokens (the held-out Chinese chapter shares none of the training's word pairs).
        assert crossing(tokens, pretokenize(text, pre)) > (0 if text is docs[0] or pre != "jieba" else -1)


@pytest.mark.parametrize(
    "name, start, pre, tau, merges",
    [("taylorswift.txt", 5_000, "gpt4", 0.9, 800), ("emoji-test.txt", 3_000, "o200k", 0.3, 500)],
)
def test_other_texts_and_patterns_equal_the_reference(tmp_path, name, start, pre, tau, merges):
    """Wikipedia's digits and punctuation under GPT-4's pattern; emoji lines under GPT-4o's at a low threshold,
    where a part merged with itself is removed (rule 5: the reference records that removal twice)."""
    text = excerpt(name, 2_500, start)
    docs = [d for d in text.split("\n\n") if d.strip()]
    expected = oracle_train(docs, PATTERNS[pre], tau, merges, tmp_path)["events"]
    repeats = [i for i in range(1, len(expected)) if expected[i][0] == "removal" and expected[i] == expected[i - 1]]
    assert bool(repeats) == (tau < 0.5)
    for i in reversed(repeats):
        del expected[i]
    events = BoundlessTrainer(document_pieces(docs, pre), tau, num_merges=merges).train()
    assert ours(events) == expected
    assert sum(e.supermerge for e in events) >= 20


def test_chinese_under_gpt2_has_no_boundary_to_cross(tmp_path):
    text = excerpt(CHINESE, 3_000, 30_000)
    expected = oracle_train([text], GPT2_PATTERN, 0.9, 300, tmp_path)
    events = BoundlessTrainer(document_pieces([text]), 0.9, num_merges=300).train()
    assert ours(events) == expected["events"]
    assert not any(e.supermerge for e in events) and any(e.kind == "removal" for e in events)


def test_the_fixture_records_the_reference_and_ours_equals_it(tmp_path):
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    case = fixture["case"]
    train_text, held_out = fixture_texts()
    events = BoundlessTrainer(document_pieces([train_text]), case["tau"], num_merges=case["merges"]).train()
    assert [[kind, to_gpt2(tok)] for kind, tok in ours(events)] == fixture["events"]
    model = BoundlessModel.from_events(events, tau=case["tau"])
    assert [to_gpt2(t) for t in model.tokens(held_out)] == fixture["held_out_tokens"]
    assert boundless_token_count(train_text, held_out, case["merges"], case["tau"]) == len(fixture["held_out_tokens"])
    # The facts still hold: the reference gives the fixture today.
    expected = oracle_train([train_text], GPT2_PATTERN, case["tau"], case["merges"], tmp_path)
    assert [[kind, to_gpt2(tok)] for kind, tok in expected["events"]] == fixture["events"]


def test_event_shape_and_counts():
    text = excerpt(ENGLISH, 3_000, 30_000)
    trainer = BoundlessTrainer(document_pieces([text]), 0.9, num_merges=400)
    events = trainer.train()
    merges = [e for e in events if e.kind == "merge"]
    assert [e.merges for e in merges] == list(range(1, 401))
    assert trainer.live == 256 + 400 - sum(e.kind == "removal" for e in events)
    for before, event in zip(events, events[1:]):
        if event.kind == "removal":  # after the merge that swallowed it, never after a supermerge
            assert event.ios[0] >= 0.9 and len(event.left) > 1 and event.right == b""
            assert event.merges == before.merges and event.vocab_size == before.vocab_size - 1
            assert not event.supermerge
    for e in merges:
        if e.supermerge:  # two whole word-like pre-tokens
            assert wordlike(e.left) and wordlike(e.right)
            left, right = pretokenize(e.left.decode(), "gpt2"), pretokenize(e.right.decode(), "gpt2")
            assert pretokenize(e.token.decode(), "gpt2") == left + right
    assert BoundlessTrainer(document_pieces([text]), None, num_merges=300).train()[-1].vocab_size == 256 + 300
    with pytest.raises(ValueError, match="tau"):
        BoundlessTrainer([["a"]], 1.5)


@pytest.mark.parametrize(
    "token, expected",
    [(b" the", True), (b"the", True), (b"a", False), (b" a", True), (b"\xe5\xae\x9d\xe7\x8e\x89", True)]
    + [("宝".encode(), False), (b" 42", False), (b" ,", False), (b"\r\n", False), (b"\xe5\xae", False)],
)
def test_wordlike_tokens(token, expected):
    assert wordlike(token) is expected


def test_token_counts_by_merges_equal_separate_trainings():
    train_text, held_out = excerpt(ENGLISH, 8_000, 30_000), excerpt(ENGLISH, 3_000, 150_000)
    counts = boundless_token_counts(train_text, held_out, [0, 100, 400, 900])
    for n in (100, 900):
        events = BoundlessTrainer(document_pieces([train_text]), 0.9, num_merges=n).train()
        assert counts[n] == len(BoundlessModel.from_events(events).tokens(held_out))
        assert counts[n] == boundless_token_count(train_text, held_out, n)
    assert counts[0] == len(held_out.encode("utf-8")) and counts[0] > counts[100] > counts[400] > counts[900]
    with pytest.raises(ValueError, match=">= 0"):
        boundless_token_counts(train_text, held_out, [-1])
