"""``python -m bpe_core compare FILE... --model gpt2,cl100k,o200k[,DIR] [--jsonl]``, run as a real process: the
counts equal tiktoken's on the Declaration's 20 files, a saved character-level model reports ``<unk>``, bad input
is one line."""

from __future__ import annotations

import json

import pytest
from cli_process import assert_clean_error, cli, write
from tiktoken_offline import get_encodings

from bpe_core.languages import declaration as decl


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("udhr")
    return {key: write(folder / f"{key}.txt", text) for key, text in decl.texts().items()}


def test_jsonl_counts_equal_tiktoken_on_all_20_files(files):
    proc = cli(["compare", *files.values(), "--model", "gpt2,cl100k,o200k", "--jsonl"], timeout=300)
    assert proc.returncode == 0, proc.err
    assert proc.err == ""
    records = [json.loads(line) for line in proc.out.splitlines()]
    assert [r["file"] for r in records] == [str(p) for p in files.values()]
    encodings = get_encodings()
    for record, (key, path) in zip(records, files.items()):
        text = path.read_text(encoding="utf-8")
        assert set(record) == {"file", "chars", "bytes", "tokens"}  # no <unk> key: no model has one
        assert record["chars"] == len(text) and record["bytes"] == len(text.encode("utf-8"))
        assert list(record["tokens"]) == ["gpt2", "cl100k", "o200k"]
        for name, enc in encodings.items():
            assert record["tokens"][name] == len(enc.encode_ordinary(text)), (key, name)


def test_plain_table_with_tax_spread_and_a_saved_char_model(files, tmp_path):
    model = tmp_path / "char-en"
    trained = cli(["train", files["eng"], "--variant", "char", "--merges", "100", "--out", model])
    assert trained.returncode == 0, trained.err
    chosen = [files["eng"], files["cmn_hans"], files["tha"]]
    proc = cli(["compare", *chosen, "--model", f"o200k,{model}"])
    assert proc.returncode == 0, proc.err
    lines = proc.out.splitlines()
    heads = ["file", "chars", "bytes", "o200k", str(model), str(model), "<unk>", "o200k", "tax", str(model), "tax"]
    assert lines[0].split() == heads
    eng, zh = lines[1].split(), lines[2].split()
    assert eng[0] == str(files["eng"]) and eng[-2:] == ["1.00", "1.00"]
    zh_text = files["cmn_hans"].read_text(encoding="utf-8")
    assert zh[1] == f"{len(zh_text):,}" and zh[2] == f"{len(zh_text.encode()):,}"
    assert int(zh[5].replace(",", "")) > 1000  # <unk>: the English model never saw a Chinese character
    assert lines[-2].startswith("# o200k: spread ") and "Gini" in lines[-2]
    # The JSON lines give the <unk> counts for the model that has them.
    js = cli(["compare", files["cmn_hans"], "--model", f"gpt2,{model}", "--jsonl"])
    record = json.loads(js.out)
    assert record["unknown"] == {str(model): int(zh[5].replace(",", ""))} and record["tokens"]["gpt2"] > 0


def test_bad_input_is_one_line(tmp_path, files):
    assert_clean_error(cli(["compare", tmp_path / "missing.txt"]), "no such file")
    assert_clean_error(cli(["compare", write(tmp_path / "latin1.txt", "caf\xe9".encode("latin-1"))]), "utf-8")
    assert_clean_error(cli(["compare", files["eng"], "--model", "gpt2,nope"]), "nope", "not a model")
    assert_clean_error(cli(["compare", files["eng"], "--model", "gpt2,gpt2"]), "twice")
    assert_clean_error(cli(["compare", files["eng"], "--model", ""]), "--model")
    assert_clean_error(cli(["compare", "-", "-"]), "once")
    assert_clean_error(cli(["compare"]), "required")
    # stdin once is fine; an empty text has no tax but still has counts.
    proc = cli(["compare", "-", "--model", "gpt2", "--jsonl"], stdin=b"")
    assert proc.returncode == 0 and json.loads(proc.out)["tokens"] == {"gpt2": 0}
