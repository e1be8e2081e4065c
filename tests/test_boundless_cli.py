"""``train --boundless`` and ``encode --model DIR`` of a BoundlessBPE folder (:mod:`bpe_core.cli.boundless`): the
printed steps are the library's, the folder encodes as the library does (``compare`` reads it too), and each
setting that does not apply is one clear line, in English and, through the catalogs, in Chinese."""

from __future__ import annotations

import json

import pytest
from cli_process import assert_clean_error, cli, write
from corpus_excerpts import ENGLISH, excerpt

from bpe_core.algorithms.boundless import BoundlessTrainer, document_pieces
from bpe_core.algorithms.boundless_encode import MODEL_FILE, BoundlessModel, load_boundless_model
from bpe_core.byte_display import to_gpt2
from bpe_core.cli import boundless, main
from bpe_core.i18n import translations


def test_train_jsonl_out_and_encode_equal_the_library(tmp_path):
    text = excerpt(ENGLISH, 6_000, 30_000)
    held_out = write(tmp_path / "held.txt", excerpt(ENGLISH, 2_000, 150_000))
    corpus = write(tmp_path / "c.txt", text)
    trained = cli(
        ["train", corpus, "--boundless", "--tau", "0.8", "--merges", "300", "--jsonl", "--out", tmp_path / "m"]
    )
    assert trained.returncode == 0, trained.err
    assert f"# wrote {tmp_path / 'm' / MODEL_FILE}" in trained.err  # (stdout holds JSON lines only)
    lines = [json.loads(line) for line in trained.out.splitlines()]
    stop = lines.pop()
    events = BoundlessTrainer(document_pieces([text]), 0.8, num_merges=300, min_frequency=2).train()
    merges = [e for e in events if e.kind == "merge"]
    assert [(r["step"], r["token"], r["supermerge"]) for r in lines] == [
        (e.merges, to_gpt2(e.token), e.supermerge) for e in merges
    ]
    removed = [x["token"] for r in lines for x in r["removed"]]
    assert removed == [to_gpt2(e.token) for e in events if e.kind == "removal"]
    supers = sum(e.supermerge for e in merges)
    assert stop == {"stop": "num_merges", "merges": 300, "supermerges": supers, "removals": len(removed)}
    assert supers > 10 and removed

    model = load_boundless_model(tmp_path / "m")
    assert model.steps == BoundlessModel.from_events(events).steps and model.tau == 0.8
    encoded = cli(["encode", "--model", tmp_path / "m", "--jsonl", held_out])
    assert encoded.returncode == 0, encoded.err
    ids = json.loads(encoded.out)["ids"]
    held_text = held_out.read_bytes().decode("utf-8")  # (CRLF kept, as the command reads it)
    assert ids == model.encode(held_text)
    assert model.decode(ids) == held_text
    compared = cli(["compare", "--model", f"{tmp_path / 'm'},gpt2", held_out])
    assert compared.returncode == 0, compared.err
    assert f"{len(ids):,}" in compared.out

    plain = cli(["train", corpus, "--boundless", "--merges", "200"])
    assert plain.returncode == 0 and plain.err == ""
    assert " ++ " in plain.out and "   removed " in plain.out
    assert plain.out.strip().splitlines()[-1].startswith("# stopped: num_merges after 200 merges")


ERRORS = [
    (["--boundless", "--variant", "char"], "--variant byte"),
    (["--boundless", "--algorithm", "wordpiece"], "--algorithm"),
    (["--boundless", "--tau", "0"], "--tau"),
    (["--boundless", "--tau", "1.5"], "--tau"),
    (["--boundless", "--tau", "nan"], "--tau"),
    (["--tau", "0.5"], "--boundless only"),
    (["--boundless", "--picky", "0.9"], "--picky"),
    (["--boundless", "--tie-break", "lexical"], "smallest pair"),
    (["--boundless", "--eow-marker", "@"], "--eow-marker does not apply"),
    (["--boundless", "--picky-ties", "smallest"], "--picky-ties does not apply"),
    (["--boundless", "--pretokenizer", "none"], "gpt2, gpt4, o200k, regex, jieba (got none)"),
    (["--boundless", "--pretokenizer", "whitespace"], "(got whitespace)"),
    (["--boundless", "--out", "model/tokenizer.json"], "tokenizer.json"),
]


@pytest.mark.parametrize("options, needle", ERRORS)
def test_settings_that_do_not_apply_are_one_clear_line(tmp_path, capsys, options, needle):
    corpus = write(tmp_path / "c.txt", "the cat sat on the mat, the cat sat.\n")
    assert main(["train", str(corpus), *options]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpe_core: ") and needle in err, err


def test_bad_input_and_commands_that_do_not_apply(tmp_path, capsys):
    counts = write(tmp_path / "w.txt", "low 5\nlower 2\n")
    empty = write(tmp_path / "e.txt", "  \n")
    text = write(tmp_path / "c.txt", "the cat sat on the mat, the cat sat on the mat.\n")
    for path, needle in ((counts, "'word count' list"), (empty, "empty")):
        assert main(["train", str(path), "--boundless"]) == 2
        assert needle in capsys.readouterr().err
    assert main(["train", str(text), "--boundless", "--merges", "20", "--out", str(tmp_path / "m")]) == 0
    capsys.readouterr()
    assert main(["encode", "--model", str(tmp_path / "m"), "--dropout", "0.1", str(text)]) == 2
    assert "BoundlessBPE model" in capsys.readouterr().err
    assert main(["tree", "--model", str(tmp_path / "m"), "cat"]) == 2
    assert "encode --model" in capsys.readouterr().err
    (tmp_path / "m" / MODEL_FILE).write_text('{"format": "bpe_explorer boundless", "version": 1}', encoding="utf-8")
    assert_clean_error(cli(["encode", "--model", tmp_path / "m", text]), "malformed")


@pytest.mark.parametrize("lang, word", [("zh-Hans", "文件夹"), ("zh-Hant", "資料夾")])
def test_the_messages_are_translated(lang, word):
    tr = translations(lang)
    assert word in boundless.no_tokenizer_json(tr)
    with pytest.raises(boundless.UsageError, match="none"):
        boundless.parse_tau("2", tr)
