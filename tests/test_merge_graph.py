"""Merge trees both ways (:class:`bpe_core.MergeGraph`): a token's parts down to base symbols and the tokens made
from it, for GPT-2 / GPT-4o and a training run; ``python -m bpe_core tree`` as a real process."""

from __future__ import annotations

import json
import random

import pytest
from cli_process import assert_clean_error, cli, write

from bpe_core import MergeGraph, TrainConfig, load_gpt, train

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def test_gpt2_glitch_tokens_live_inside_one_longer_token():
    tok = load_gpt("gpt2")
    graph = tok.merge_graph()
    value = tok.token_value
    # Magikarp's examples: each was merged on the way to one longer token.
    assert value(40241) == b"InstoreAndOnline" and graph.children(40241) == (40242,)
    assert value(40242) == b"BuyableInstoreAndOnline"
    assert graph.record(40241) == {"id": 40241, "merge": 39986, "parts": [6310, 40240], "children": [40242]}
    assert value(30897) == b"reportprint" and value(30898) == b"embedreportprint"
    assert graph.children(30897) == (30898,)
    assert 30898 in graph.descendants(30897)
    assert all(b"reportprint" in value(t) for t in graph.descendants(30897))
    # Down: the leaves are the bytes, and they spell the token.
    leaves = [node.token for _, node in graph.tree(40241).nodes() if node.merge_number is None]
    assert b"".join(value(t) for t in leaves) == b"InstoreAndOnline"
    assert graph.record(68) == {"id": 68, "merge": None, "parts": None, "children": list(graph.children(68))}


@pytest.mark.parametrize("name", ["gpt2", "o200k"])
def test_children_and_parts_agree_both_ways(name):
    tok = load_gpt(name)
    graph = MergeGraph(tok._pair_of_rank)  # a fresh graph: children found by search before any index
    rng = random.Random(43)
    ids = rng.sample(range(len(tok.vocab)), 40) + list(range(250, 260))
    searched = {tid: graph.children(tid) for tid in ids}
    for tid, kids in searched.items():
        number = graph.merge_number(tid) or 0
        for kid in kids:
            assert tid in graph.parts(kid) and graph.merge_number(kid) > number
        parts = graph.parts(tid)
        if parts is not None:
            assert all(tid in graph.children(p) for p in parts)
            assert tok.token_value(parts[0]) + tok.token_value(parts[1]) == tok.token_value(tid)
    assert {tid: graph.children(tid) for tid in ids} == {tid: tuple(graph._index().get(tid, ())) for tid in ids}


def test_a_run_graph_holds_the_steps_and_a_rebuilt_string_keeps_its_first_making():
    # "</w>" with the separate marker: merges 1-3 rebuild the marker's own string, a base symbol (rule 4).
    run = train({"</w></w>": 2, "</w></w></w>": 1, "x</w>": 1}, TrainConfig(variant="eow", min_frequency=1))
    assert not all(s.is_new for s in run.snapshots)
    graph = run.merge_graph()
    for entry in run.vocabulary():
        assert graph.merge_number(entry.id) == (entry.step or None)
        assert graph.parts(entry.id) == run.created_from[entry.id]
        assert graph.tree(entry.id) == run.merge_tree(entry.id)
        for kid in graph.children(entry.id):
            assert entry.id in graph.parts(kid)
    assert {t: graph.children(t) for t in range(run.vocab_size)} == {
        t: tuple(graph._index().get(t, ())) for t in range(run.vocab_size)
    }
    early = run.merge_graph(2)
    left = run.snapshots[1].left
    assert early.children(left) == tuple(t for t in graph.children(left) if graph.merge_number(t) <= 2)
    assert early.merge_number(run.snapshots[2].token) in (None, 1, 2)


def test_cli_tree_plain_and_jsonl_and_a_saved_model(tmp_path):
    plain = cli(["tree", "--model", "gpt2", "40241"])
    assert plain.returncode == 0, plain.err
    lines = plain.out.splitlines()
    assert lines[:5] == [
        "id        40241",
        "token     InstoreAndOnline",
        "merge     39986",
        "parts     6310 Inst + 40240 oreAndOnline",
        "children  1: 40242 BuyableInstoreAndOnline",
    ]
    assert lines[5] == "ancestry" and lines[6] == "40241 InstoreAndOnline  (merge 39986)"
    assert "├─ 6310 Inst  (merge 6055)" in lines and "└─ 40240 oreAndOnline  (merge 39985)" in lines

    jsonl = cli(["tree", "--model", "gpt2", "reportprint", "--jsonl"])
    records = [json.loads(line) for line in jsonl.out.splitlines()]
    assert records[0] == {
        "id": 30897,
        "token": "reportprint",
        "merge": 30642,
        "parts": [13116, 4798],
        "children": [30898],
        "depth": 0,
    }
    leaves = [r for r in records if r["parts"] is None]
    assert "".join(r["token"] for r in leaves) == "reportprint" and all(r["merge"] is None for r in leaves)
    assert records[1]["depth"] == 1 and records[1]["token"] == "report"

    same = cli(["tree", "--model", "gpt2", "Ġthe", "--jsonl"])
    spaced = cli(["tree", "--model", "gpt2", " the", "--jsonl"])
    assert same.out == spaced.out and json.loads(same.out.splitlines()[0])["id"] == 262
    digits = cli(["tree", "--model", "gpt2", "--token", "12", "--jsonl"])
    assert json.loads(digits.out.splitlines()[0])["token"] == "12"

    corpus = write(tmp_path / "c.txt", "low low low lower lower newest newest widest " * 3)
    model = tmp_path / "m"
    assert cli(["train", corpus, "--variant", "char", "--merges", "6", "--out", model]).returncode == 0
    mine = cli(["tree", "--model", model, "low", "--jsonl"])
    assert mine.returncode == 0, mine.err
    first = json.loads(mine.out.splitlines()[0])
    assert first["token"] == "low" and first["merge"] is not None and len(first["parts"]) == 2


def test_cli_tree_bad_input_is_one_line():
    assert_clean_error(cli(["tree", "--model", "gpt2", "99999"]), "99999", "vocabulary")
    assert_clean_error(cli(["tree", "--model", "gpt2", "zzqqxxyy"]), "not a token")
    assert_clean_error(cli(["tree", "--model", "nosuchmodel", "5"]), "nosuchmodel")
