"""The Files page through AppTest: downloads agree with bpe_core and the CLI, uploads of GPT-2 files."""

from __future__ import annotations

import io

import pandas as pd
from app_helpers import body_with, errors, jump_widget, no_exception, open_page, token_ids
from corpora import TEXTBOOK, ZH_EMOJI, textbook_run

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.cli import build_parser
from bpe_core.cli.train import run as cmd_train
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.formats import files as bfiles
from bpe_core.formats.snapshots import snapshots_csv, snapshots_jsonl


# ---------------------------------------------------------------------------------- files
def test_files_page_offers_what_the_model_supports():
    at = open_page("files")  # textbook: eow with the separate marker
    no_exception(at)
    labels = " ".join(m.value for m in at.markdown)
    run = textbook_run("eow")
    tok = Tokenizer.from_run(run)
    assert len(at.get("download_button")) == 4  # tokenizer.json is not possible for eow separate
    assert any(b.key == "files.no.tokenizer.json" and b.disabled for b in at.button)
    assert "Not available for this model" in " ".join(c.value for c in at.caption)
    size = len(bfiles.merges_txt(tok).encode())
    assert f"· {size} bytes" in labels
    previews = [c.value for c in at.code]
    assert previews[0] == "\n".join(bfiles.merges_txt(tok).splitlines()[:8])
    assert "#version: 0.2\ne s\nes t\nest </w>" in previews[0]

    at = open_page("files", preset="zh-emoji")
    assert len(at.get("download_button")) == 5
    assert [b.proto.id.rsplit("-", 1)[-1] for b in at.get("download_button")] == [
        "files.dl.merges.txt", "files.dl.vocab.json", "files.dl.tokenizer.json", "files.dl.snapshots.csv",
        "files.dl.snapshots.jsonl",
    ]  # fmt: skip
    # The merges number box cuts the model (and the history) at that step.
    jump_widget(at, "box", "files-k").set_value(3).run()
    no_exception(at)
    assert "merges 1–3" in " ".join(c.value for c in at.caption)


def test_snapshot_files_match_the_cli(tmp_path):
    run = textbook_run("eow")
    path = tmp_path / "textbook.txt"
    path.write_text("".join(f"{w} {c}\n" for w, c in TEXTBOOK.items()), encoding="utf-8")
    full = train(dict(TEXTBOOK), TrainConfig(variant="eow", pretokenizer="whitespace", min_frequency=2))
    assert full.stop_reason == "no_pairs" and full.num_steps == 15
    for model, merges, step in ((run, ["--merges", "10"], None), (full, [], None), (full, ["--merges", "3"], 3)):
        out = io.StringIO()
        cmd_train(build_parser().parse_args(["train", str(path), "--variant", "eow", *merges, "--jsonl"]), out=out)
        assert snapshots_jsonl(model, step) == out.getvalue(), merges
    frame = pd.read_csv(io.StringIO(snapshots_csv(run)), keep_default_na=False)
    assert list(frame.columns[:10]) == [
        "step", "left", "right", "token", "token_id", "count", "ties", "vocab_size", "corpus_tokens", "stop",
    ]  # fmt: skip
    assert len(frame) == run.num_steps == 10
    first = frame.iloc[0]
    assert (first.step, first.left, first.right, first.token, first["count"], first.ties) == (1, "e", "s", "es", 9, 3)
    assert first.token_id == run.snapshot(1).token and first.vocab_size == run.snapshot(1).vocab_size
    assert list(frame.stop) == [""] * 9 + [run.stop_reason]
    assert list(frame.corpus_tokens) == [s.corpus_tokens for s in run.snapshots]
    cut = pd.read_csv(io.StringIO(snapshots_csv(run, 3)), keep_default_na=False)
    assert len(cut) == 3 and cut.stop.iloc[-1] == "num_merges"


def test_files_page_upload_gpt2_files_and_encode():
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=40, min_frequency=2)
    run = train(corpus_words(ZH_EMOJI, cfg), cfg)
    vocab, merges = bfiles.vocab_json(run).encode(), bfiles.merges_txt(run).encode()
    at = open_page("files", preset="zh-emoji")
    at.file_uploader(key="files.up.vocab").set_value(("vocab.json", vocab, "application/json")).run()
    assert "Upload both files" in " ".join(i.value for i in at.info)
    at.file_uploader(key="files.up.merges").set_value(("merges.txt", merges, "text/plain")).run()
    no_exception(at)
    model = body_with(at, "files-model")
    assert f"data-merges='{run.num_steps}'" in model
    loaded = bfiles.load_gpt2_files(vocab, merges)
    text = "Hello world! 你好 👋"
    assert token_ids(body_with(at, "files-tokens")) == loaded.encode(text) == Tokenizer.from_run(run).encode(text)
    at.text_area(key="w.pg.files.text").input("一家人 👨‍👩‍👧").run()
    assert token_ids(body_with(at, "files-tokens")) == loaded.encode("一家人 👨‍👩‍👧")
    # Files that do not belong together: a message naming the problem, no exception.
    at.file_uploader(key="files.up.merges").set_value(("merges.txt", b"#version: 0.2\nzz qq\n", "text/plain")).run()
    no_exception(at)
    assert "cannot be loaded" in errors(at) and "not in vocab.json" in errors(at)
    at.file_uploader(key="files.up.vocab").set_value(("vocab.json", b"{not json", "application/json")).run()
    no_exception(at)
    assert "not valid JSON" in errors(at)
