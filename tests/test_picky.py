"""PickyBPE (:mod:`bpe_core.algorithms.picky`, ``train --picky T``): the sequence of merges and removals equals the
Apache-2.0 PickyBPE of BoundlessBPE (``shared/references/boundlessbpe/boundlessbpe/pickybpe.py``), run here as the
oracle on English and Chinese byte-level corpora at thresholds 0.6, 0.9 and 1.0.

The oracle as published calls ``util.blow_up(tokens, bad_token)`` without the ``parts`` argument that
``util.blow_up`` requires, so its first removal raises ``TypeError``. The test supplies the parts its own
bookkeeping assumes (``delete_and_update`` moves a removed token's count to its single bytes): the token's single
bytes. Nothing else of the oracle is touched; its merges and removals are read from its ``words_state``.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from boundless_oracle import reference_modules
from cli_process import assert_clean_error, cli, write
from corpus_excerpts import CHINESE, ENGLISH, excerpt

from bpe_core import TrainConfig
from bpe_core.algorithms.picky import PickyTrainer
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.pretokenize import GPT2_PATTERN


@pytest.fixture(scope="module")
def oracle():
    pickybpe, util = reference_modules("pickybpe", "util")
    published = pickybpe.blow_up
    pickybpe.blow_up = lambda tokens, bad: util.blow_up(tokens, bad, [bytes((b,)) for b in bad])
    yield pickybpe
    pickybpe.blow_up = published


def oracle_events(pickybpe, text: str, threshold: float, merges: int, tmp_path) -> list[tuple[str, bytes]]:
    doc = tmp_path / "doc.jsonl"
    doc.write_text(json.dumps({"text": text}) + "\n", encoding="utf-8")
    ref = pickybpe.PickyBPE(pattern=GPT2_PATTERN)
    ref.words_state.tau = threshold
    with contextlib.redirect_stdout(io.StringIO()):  # it prints every step
        ref.train(str(doc), str(tmp_path / "model"), 1, 256 + merges, recalc=10**9, verbose=False)
    state = ref.words_state
    events = [(i, "merge", a + b) for i, (a, b) in state.merges.items()]
    events += [(i, "removal", tok) for i, tok in state.deletions.items()]
    return [(kind, tok) for _, kind, tok in sorted(events)]


CASES = {"english": (ENGLISH, 12_000, 300), "chinese": (CHINESE, 6_000, 250)}


@pytest.mark.parametrize("threshold", [0.6, 0.9, 1.0])
@pytest.mark.parametrize("corpus", list(CASES))
def test_merges_and_removals_equal_the_reference(oracle, tmp_path, corpus, threshold):
    name, size, merges = CASES[corpus]
    text = excerpt(name, size, 30_000)
    words = corpus_words(text, TrainConfig(variant="byte", pretokenizer="gpt2"))
    events = PickyTrainer(words, threshold, num_merges=merges, min_frequency=1, ties="smallest").train()
    ours = [(e.kind, e.token) for e in events]
    expected = oracle_events(oracle, text, threshold, merges, tmp_path)
    assert sum(kind == "removal" for kind, _ in expected) > 0
    assert ours == expected
    # A removal follows the merge that swallowed most of the token, and counts as a step of its own.
    for before, event in zip(events, events[1:]):
        if event.kind == "removal":
            assert event.ios[0] >= threshold and len(event.left) > 1
            assert event.vocab_size == before.vocab_size - 1
    assert sum(e.kind == "merge" for e in events) == merges


def test_cli_picky_plain_jsonl_and_bad_thresholds(tmp_path):
    text = excerpt(ENGLISH, 6_000, 30_000)
    corpus = write(tmp_path / "c.txt", text)
    jsonl = cli(["train", corpus, "--picky", "0.9", "--merges", "120", "--jsonl"])
    assert jsonl.returncode == 0, jsonl.err
    lines = [json.loads(line) for line in jsonl.out.splitlines()]
    stop = lines.pop()
    trainer = PickyTrainer(corpus_words(text, TrainConfig(variant="byte")), 0.9, num_merges=120)
    events = trainer.train()
    assert stop == {"stop": "num_merges", "merges": 120, "removals": sum(e.kind == "removal" for e in events)}
    assert [r["step"] for r in lines] == list(range(1, 121))
    removed = [(r["step"], x["token"]) for r in lines for x in r["removed"]]
    assert removed and len(removed) == stop["removals"]
    assert all(x["ios"] >= 0.9 for r in lines for x in r["removed"])
    plain = cli(["train", corpus, "--picky", "0.9", "--merges", "120"])
    assert plain.returncode == 0 and plain.out.count("   removed ") == stop["removals"]
    for bad in ("0", "1.5", "-1", "nan"):
        assert_clean_error(cli(["train", corpus, "--picky", bad]), "--picky")
    assert_clean_error(cli(["train", corpus, "--picky", "0.5", "--variant", "char"]), "byte")
