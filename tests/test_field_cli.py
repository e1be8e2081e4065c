"""``train --algorithm wordpiece|unigram``: the steps printed, the ``tokenizer.json`` written, which ``tokenizers``
reads and which encodes held-out text (English, Chinese, emoji) to exactly our ids; ``encode --model DIR``; the
options that do not apply refused with one line and exit status 2."""

from __future__ import annotations

import json

import pytest
from cli_process import assert_clean_error, assert_trained, cli, write
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, read_corpus
from tokenizers import Tokenizer

from bpe_core.formats.field_models import load_field_model

_EN = read_corpus(ENGLISH).replace("\r\n", "\n")
TRAIN_TEXT = _EN[:30_000] + "\n红楼梦第一回 甄士隐梦幻识通灵 🙂👍🏽\n"
HELD_OUT = [
    line
    for line in (
        _EN[30_000:45_000] + "\n" + read_corpus(CHINESE)[:1_500] + "\n" + read_corpus(EMOJI)[20_000:22_000]
    ).splitlines()
    if line.strip()
]
SETTINGS = {
    "wordpiece": ["--vocab-size", "400"],
    "unigram": ["--vocab-size", "400", "--seed-size", "1500"],
}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """Each algorithm trained by the command line on TRAIN_TEXT, with its --jsonl lines and model directory."""
    root = tmp_path_factory.mktemp("field")
    corpus = write(root / "corpus.txt", TRAIN_TEXT)
    out = {}
    for algorithm, settings in SETTINGS.items():
        proc = cli(["train", corpus, "--algorithm", algorithm, *settings, "--jsonl", "--out", root / algorithm])
        assert proc.returncode == 0, proc.err
        out[algorithm] = ([json.loads(line) for line in proc.out.splitlines()], root / algorithm)
    return out


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_tokenizers_reads_the_export_and_encodes_held_out_text_to_our_ids(models, algorithm):
    _lines, model_dir = models[algorithm]
    theirs = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    ours = load_field_model(model_dir)
    unk = ours.vocab[ours._unk]
    assert len(HELD_OUT) > 200
    for line in HELD_OUT:
        enc = theirs.encode(line)
        assert enc.ids == ours.encode(line), line
        # tokenizers spells an unknown stretch as its text, with the unknown token's id
        assert [t for t, i in zip(enc.tokens, enc.ids) if i != ours._unk] == [
            t for t in ours.tokenize(line) if t != unk
        ]
    assert any(ours._unk in ours.encode(line) for line in HELD_OUT)  # the unknown path is exercised


def test_the_jsonl_records_carry_the_score_and_the_loss_and_end_with_a_stop_line(models):
    wp, _ = models["wordpiece"]
    assert wp[-1] == {"stop": "vocab_size", "steps": len(wp) - 1, "vocab_size": 400}
    first = wp[0]
    assert first["kind"] == "score_merge"
    assert first["score"] == first["count"] / (first["left_count"] * first["right_count"])
    ug, _ = models["unigram"]
    assert ug[-1]["stop"] == "vocab_size" and ug[-1]["vocab_size"] <= 400
    assert all(r["kind"] == "prune" and r["loss_after"] <= r["loss"] + 1e-9 or r["removed"] for r in ug[:-1])
    assert [r["loss"] for r in ug[1:-1]] == [r["loss_after"] for r in ug[:-2]]


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_encode_model_prints_the_tokens_and_ids(models, algorithm, tmp_path):
    _lines, model_dir = models[algorithm]
    line = HELD_OUT[3]
    proc = cli(["encode", "--model", model_dir, "--jsonl"], stdin=line.encode("utf-8"))
    assert proc.returncode == 0, proc.err
    got = json.loads(proc.out)
    assert got["ids"] == Tokenizer.from_file(str(model_dir / "tokenizer.json")).encode(line).ids
    assert_clean_error(cli(["encode", "--model", model_dir, "--dropout", "0.1"], stdin=b"x"), "dropout")


def test_the_text_lines_name_the_score_and_the_rounds(tmp_path):
    corpus = write(tmp_path / "c.txt", "low lower newest widest\n" * 3)
    proc = cli(["train", corpus, "--algorithm", "wordpiece", "--vocab-size", "20"])
    assert_trained(proc, "vocab_size")
    assert "score" in proc.out.splitlines()[1]
    proc = cli(["train", corpus, "--algorithm", "unigram", "--vocab-size", "20"])
    assert_trained(proc, "vocab_size")
    assert "loss" in proc.out.splitlines()[1] and "removed" in proc.out.splitlines()[1]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--algorithm", "unigram", "--vocab-size", "50", "--tie-break", "hf"], ["--tie-break", "unigram"]),
        (["--algorithm", "wordpiece", "--variant", "byte"], ["--variant", "wordpiece"]),
        (["--algorithm", "wordpiece", "--eow-marker", "_"], ["--eow-marker"]),
        (["--algorithm", "wordpiece", "--seed-size", "9"], ["--seed-size"]),
        (["--seed-size", "9"], ["--seed-size", "bpe"]),
        (["--algorithm", "wordpiece", "--vocab-size", "3"], ["below"]),
        (["--algorithm", "unigram", "--vocab-size", "50", "--seed-size", "3"], ["seed size 3"]),
        (["--algorithm", "unigram"], ["vocabulary size"]),
        (["--algorithm", "unigram", "--vocab-size", "50", "--shrink", "1.5"], ["shrink"]),
    ],
)
def test_settings_that_do_not_apply_or_cannot_train_are_one_line(tmp_path, args, needles):
    corpus = write(tmp_path / "c.txt", "low lower newest widest\n")
    assert_clean_error(cli(["train", corpus, *args]), *needles)


def test_an_empty_corpus_and_the_bpe_only_commands_are_one_line(tmp_path):
    assert_clean_error(
        cli(["train", write(tmp_path / "e.txt", ""), "--algorithm", "unigram", "--vocab-size", "9"]), "empty"
    )
    corpus = write(tmp_path / "c.txt", "low lower\n")
    assert_clean_error(cli(["handout", corpus, "--algorithm", "wordpiece"]), "handout", "BPE")
