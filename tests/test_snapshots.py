"""bpe_core.formats.snapshots: history rows, CSV and JSON lines; the CLI prints the same lines."""

from __future__ import annotations

import io

import pandas as pd

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.cli import build_parser
from bpe_core.cli.train import run as cmd_train
from bpe_core.formats.snapshots import SNAPSHOT_COLUMNS, snapshot_rows, snapshots_csv, snapshots_jsonl

TEXT = 'low lower, newest "widest" 你好 你好 a,b\n'


def test_rows_csv_and_pandas_agree():
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=12, min_frequency=1)
    run = train(corpus_words(TEXT * 3, cfg), cfg)
    rows = snapshot_rows(run)
    assert len(rows) == run.num_steps and list(rows[0]) == list(SNAPSHOT_COLUMNS)
    assert rows[-1]["stop"] == run.stop_reason and all(r["stop"] == "" for r in rows[:-1])
    frame = pd.DataFrame(rows, columns=list(SNAPSHOT_COLUMNS))
    assert snapshots_csv(run) == frame.to_csv(index=False, lineterminator="\n")
    cut = snapshot_rows(run, 3)
    assert len(cut) == 3 and cut[-1]["stop"] == "num_merges"
    assert snapshots_csv(run, 0) == ",".join(SNAPSHOT_COLUMNS) + "\n"


def test_csv_of_a_character_run_has_empty_hex_columns():
    cfg = TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=5)
    run = train({"low": 5, "lower": 2, "newest": 6, "widest": 3}, cfg)
    frame = pd.DataFrame(snapshot_rows(run), columns=list(SNAPSHOT_COLUMNS))
    assert snapshots_csv(run) == frame.to_csv(index=False, lineterminator="\n")


def test_jsonl_is_what_the_cli_prints(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(TEXT, encoding="utf-8")
    args = build_parser().parse_args(["train", str(path), "--variant", "byte", "--merges", "8", "--min-frequency",
                                      "1", "--jsonl"])  # fmt: skip
    out = io.StringIO()
    assert cmd_train(args, out=out, err=io.StringIO()) == 0
    cfg = TrainConfig(variant="byte", num_merges=8, min_frequency=1)
    run = train(corpus_words(TEXT, cfg), cfg)
    assert snapshots_jsonl(run) == out.getvalue()
