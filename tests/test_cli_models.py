"""``python -m bpe_core encode --model gpt2|cl100k|o200k`` and ``--dropout P --seed S``, as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, corpus_slice, excerpt

from bpe_core import load_gpt

REPO = Path(__file__).resolve().parent.parent
# Whole lines of 红楼梦 (860,933 characters) from character 400,000: about 1,500 UTF-8 bytes of Han text
# with its CRLF line ends; ``excerpt`` raises rather than return an empty text.
HAN = excerpt(CHINESE, 1_500, 400_000)
TEXT = corpus_slice(ENGLISH, 400_000, 3_000) + HAN + corpus_slice(EMOJI, 9_000, 500)


def cli(*args, stdin: bytes = b"", cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", *map(str, args)],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def ids_of(proc) -> list[int]:
    assert proc.returncode == 0, proc.stderr.decode("utf-8")
    return json.loads(proc.stdout.decode("utf-8"))["ids"]


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_encode_with_a_shipped_model_name(tmp_path, name):
    # the text mixes English, Chinese and emoji: hundreds of Han characters, not an empty slice
    assert sum("\u4e00" <= c <= "\u9fff" for c in HAN) >= 300 and "\r\n" in HAN
    path = tmp_path / "in.txt"
    path.write_bytes(TEXT.encode("utf-8"))
    proc = cli("encode", "--model", name, path, "--jsonl")
    tok = load_gpt(name)
    doc = json.loads(proc.stdout.decode("utf-8"))
    assert doc["ids"] == tok.encode(TEXT)
    assert doc["tokens"] == [tok.token_wire(i) for i in doc["ids"]]
    plain = cli("encode", "--model", name, stdin=TEXT.encode("utf-8")).stdout.decode("utf-8").splitlines()
    assert plain[-1] == " ".join(map(str, doc["ids"]))


def test_a_directory_named_like_a_model_wins(tmp_path):
    (tmp_path / "words.txt").write_text("low low low lower lower newest newest widest\n", encoding="utf-8")
    trained = cli("train", "words.txt", "--variant", "byte", "--merges", "3", "--out", "gpt2", cwd=tmp_path)
    assert trained.returncode == 0, trained.stderr
    from_dir = ids_of(cli("encode", "--model", "gpt2", "--jsonl", stdin=b"lower", cwd=tmp_path))
    from_name = ids_of(cli("encode", "--model", "gpt2", "--jsonl", stdin=b"lower"))
    assert from_name == load_gpt("gpt2").encode("lower") != from_dir
    assert max(from_dir) < 256 + 3


def test_dropout_and_seed(tmp_path):
    text = corpus_slice(ENGLISH, 100_000, 2_000).encode("utf-8")
    plain = ids_of(cli("encode", "--model", "gpt2", "--jsonl", stdin=text))
    a = ids_of(cli("encode", "--model", "gpt2", "--jsonl", "--dropout", "0.2", "--seed", "7", stdin=text))
    assert a == ids_of(cli("encode", "--model", "gpt2", "--jsonl", "--dropout", "0.2", "--seed", "7", stdin=text))
    assert a == load_gpt("gpt2").encode(text.decode("utf-8"), dropout=0.2, seed=7) != plain
    assert load_gpt("gpt2").decode(a) == text.decode("utf-8")
    assert ids_of(cli("encode", "--model", "gpt2", "--jsonl", "--dropout", "0", stdin=text)) == plain
    everything = ids_of(cli("encode", "--model", "gpt2", "--jsonl", "--dropout", "1", stdin=text))
    assert len(everything) == len(text)


@pytest.mark.parametrize("value", ["1.5", "-0.5"])
def test_dropout_out_of_range_is_one_line_and_exit_2(value):
    proc = cli("encode", "--model", "gpt2", "--dropout", value, stdin=b"hello")
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and err.startswith("bpe_core: --dropout") and err.count("\n") == 1
    assert proc.stdout == b""


def test_unknown_model_name_is_one_line_and_exit_2(tmp_path):
    proc = cli("encode", "--model", "gpt5", stdin=b"hello", cwd=tmp_path)
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and err.count("\n") == 1
    assert "gpt5 is not a model directory" in err and "gpt2, cl100k, o200k" in err
