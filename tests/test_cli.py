"""Tests of the command line, run as a real process: ``python -m bpe_core train|encode``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import assert_clean_error
from cli_process import cli as run_cli
from corpus_excerpts import read_corpus
from textbook import TEXTBOOK_TEXT
from tokenizers import Tokenizer as HFTokenizer

from bpe_core.cli import COMMANDS, build_parser
from bpe_core.cli.train import LINE_BATCH_SECONDS
from bpe_core.cli.train import run as cmd_train

REPO = Path(__file__).resolve().parent.parent


def cli(*args, stdin: bytes | None = None, cwd=None) -> subprocess.CompletedProcess:
    return run_cli(args, cwd=cwd, stdin=stdin, timeout=120)


def lines(proc) -> list[dict]:
    return [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]


def one_error_line(proc) -> str:
    """:func:`cli_process.assert_clean_error`, and nothing on stdout; the whole of stderr."""
    assert_clean_error(proc)
    assert proc.stdout == b""
    return proc.err


@pytest.fixture
def textbook(tmp_path) -> Path:
    path = tmp_path / "textbook.txt"
    path.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- train
def test_textbook_eow_jsonl(textbook):
    proc = cli("train", textbook, "--variant", "eow", "--merges", "5", "--jsonl")
    assert proc.returncode == 0 and proc.stderr == b""
    records = lines(proc)
    merges, stop = records[:-1], records[-1]
    assert [m["token"] for m in merges] == ["es", "est", "est</w>", "lo", "low"]
    assert [m["count"] for m in merges] == [9, 9, 9, 7, 7]
    assert [m["step"] for m in merges] == [1, 2, 3, 4, 5]
    first = merges[0]
    assert list(first) == [
        "step",
        "left",
        "right",
        "token",
        "count",
        "left_hex",
        "right_hex",
        "ties",
        "vocab_size",
        "corpus_tokens",
    ]
    assert (first["left"], first["right"], first["ties"], first["vocab_size"]) == ("e", "s", 3, 12)
    assert (first["left_hex"], first["right_hex"]) == ("65", "73")
    assert merges[2]["right"] == "</w>" and merges[2]["right_hex"] == "3c2f773e"
    assert first["corpus_tokens"] == 95 - 9  # 4+6+7+7 symbols (with </w>) weighted 5,2,6,3, minus 9 merged
    assert stop == {"stop": "num_merges", "merges": 5}


def test_textbook_readable_output_and_tie_break_option(textbook):
    proc = cli("train", textbook, "--variant", "eow", "--merges", "2")
    out = proc.stdout.decode("utf-8").splitlines()
    assert proc.returncode == 0
    assert "1  e + s -> es  (9)" in out and "2  es + t -> est  (9)" in out
    assert any(line.startswith("# stopped: num_merges after 2 merges") for line in out)
    lexical = lines(cli("train", textbook, "--variant", "eow", "--merges", "1", "--tie-break", "lexical", "--jsonl"))
    assert (lexical[0]["left"], lexical[0]["right"]) == ("t", "</w>")  # the largest of the three tied pairs
    attached = lines(
        cli(
            "train",
            textbook,
            "--variant",
            "eow",
            "--eow-style",
            "attached",
            "--eow-marker",
            "@@",
            "--merges",
            "1",
            "--jsonl",
        )
    )
    assert attached[0]["token"] in {"es", "st@@"} and attached[0]["vocab_size"] == 12


def test_minbpe_example_train_then_encode(tmp_path):
    src = tmp_path / "a.txt"
    src.write_bytes(b"aaabdaaabac")
    model = tmp_path / "model"
    proc = cli(
        "train", src, "--pretokenizer", "none", "--merges", "3", "--min-frequency", "1", "--out", model, "--jsonl"
    )
    assert proc.returncode == 0
    records = lines(proc)  # the "wrote" note goes to stderr in --jsonl mode
    assert [r["token"] for r in records[:-1]] == ["aa", "aaa", "aaab"]
    assert sorted(p.name for p in model.iterdir()) == [
        "bpe_explorer.json",
        "merges.txt",
        "tokenizer.json",
        "vocab.json",
    ]
    enc = cli("encode", "--model", model, src, "--jsonl")
    assert enc.returncode == 0
    assert lines(enc) == [{"ids": [258, 100, 258, 97, 99], "tokens": ["aaab", "d", "aaab", "a", "c"]}]
    plain = cli("encode", "--model", model, stdin=b"aaabdaaabac")
    assert plain.stdout.decode("utf-8").splitlines() == ["aaab d aaab a c", "258 100 258 97 99"]
    hf = HFTokenizer.from_file(str(model / "tokenizer.json"))
    assert hf.encode("aaabdaaabac").ids == [258, 100, 258, 97, 99]


def test_chinese_byte_merges(tmp_path):
    src = tmp_path / "zh.txt"
    src.write_text("你好啊 你好 你好啊 你好 我 啊 走", encoding="utf-8")
    records = lines(cli("train", src, "--pretokenizer", "whitespace", "--merges", "3", "--jsonl"))
    assert [(r["left_hex"], r["right_hex"]) for r in records[:3]] == [("e4", "bd"), ("e4bd", "a0"), ("e4bda0", "e5")]
    assert records[0]["left"] == "ä" and records[0]["right"] == "½"  # bytes_to_unicode form
    assert records[2]["vocab_size"] == 259


def test_byte_default_pretokenizer_is_gpt2(tmp_path):
    src = tmp_path / "en.txt"
    src.write_text("x t t t t", encoding="utf-8")  # gpt2 pieces: "x", " t" x4 (whitespace: no pairs at all)
    first = lines(cli("train", src, "--merges", "1", "--jsonl"))[0]
    assert (first["left"], first["right"], first["left_hex"], first["right_hex"]) == ("Ġ", "t", "20", "74")
    assert first["count"] == 4 and first["token"] == "Ġt"


def test_vocab_size_counts_the_base_alphabet(tmp_path):
    src = tmp_path / "en.txt"
    src.write_text(read_corpus("pg16457.txt")[:20_000], encoding="utf-8")
    records = lines(cli("train", src, "--vocab-size", "260", "--jsonl"))
    assert len(records) == 5 and records[-1] == {"stop": "vocab_size", "merges": 4}
    assert records[-2]["vocab_size"] == 260
    eow = lines(cli("train", src, "--variant", "eow", "--min-frequency", "1000", "--jsonl"))
    assert eow[-1]["stop"] == "min_frequency" and all(r["count"] >= 1000 for r in eow[:-1])


def test_empty_input_is_an_error_and_nothing_to_merge_prints_only_the_stop_line(tmp_path):
    src = tmp_path / "empty.txt"
    src.write_bytes(b"")
    proc = cli("train", src, "--jsonl")
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode("utf-8") == "bpe_core: the input is empty: there is nothing to train on\n"
    single = cli("train", "-", "--variant", "char", "--jsonl", stdin=b"x y z")
    assert single.returncode == 0
    assert single.stdout.decode("utf-8") == '{"stop": "no_pairs", "merges": 0}\n'


def test_stdin_and_bom(tmp_path, textbook):
    from_file = cli("train", textbook, "--variant", "eow", "--merges", "5", "--jsonl").stdout
    from_stdin = cli("train", "-", "--variant", "eow", "--merges", "5", "--jsonl", stdin=textbook.read_bytes())
    assert from_stdin.returncode == 0 and from_stdin.stdout == from_file
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + textbook.read_bytes())
    assert cli("train", bom, "--variant", "eow", "--merges", "5", "--jsonl").stdout == from_file


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"caf\xe9 au lait\n", "not valid UTF-8"),  # Latin-1
        ("hello".encode("utf-16"), "UTF-16"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, content, expected):
    src = tmp_path / "bad.bin"
    src.write_bytes(content)
    err = one_error_line(cli("train", src, "--jsonl"))
    assert expected in err
    model = tmp_path / "m"
    cli("train", "-", "--out", model, stdin=b"abab abab")
    assert expected in one_error_line(cli("encode", "--model", model, src))
    assert expected in one_error_line(cli("train", "-", stdin=content))


def test_missing_file_and_bad_settings_exit_2(tmp_path, textbook):
    assert "missing.txt" in one_error_line(cli("train", tmp_path / "missing.txt"))
    one_error_line(cli("train", textbook, "--merges", "3", "--vocab-size", "300"))
    one_error_line(cli("train", textbook, "--merges", "-1"))
    one_error_line(cli("train", textbook, "--min-frequency", "0"))
    one_error_line(cli("train", textbook, "--variant", "eow", "--eow-marker", "a b"))
    one_error_line(cli("train", textbook, "--variant", "words"))
    one_error_line(cli("train", textbook, "--merges", "many"))
    one_error_line(cli("encode", "--model", tmp_path / "no-model", textbook))
    one_error_line(cli("train"))
    one_error_line(cli())


def test_help():
    proc = cli("--help")
    assert proc.returncode == 0 and b"train" in proc.stdout and b"encode" in proc.stdout
    train_help = cli("train", "--help").stdout.decode()
    for flag in (
        "--variant",
        "--pretokenizer",
        "--merges",
        "--vocab-size",
        "--min-frequency",
        "--tie-break",
        "--eow-style",
        "--eow-marker",
        "--out",
        "--jsonl",
    ):
        assert flag in train_help


def console(*args) -> subprocess.CompletedProcess:
    """The ``bpe-explorer`` console script's entry point, run as a process from the repository."""
    code = "import sys; from bpe_core.cli import console_main; sys.exit(console_main())"
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, env=env, timeout=120)


def test_console_script_is_the_same_cli_plus_app(textbook, tmp_path):
    helped = console("--help")
    assert helped.returncode == 0 and helped.stdout.decode().startswith("usage: bpe-explorer")
    assert COMMANDS[:3] == ("train", "encode", "handout")  # a sub-command added later goes after these
    assert "{" + ",".join(("app", *COMMANDS)) + "}" in helped.stdout.decode()
    assert "{" + ",".join(COMMANDS) + "}" in cli("--help").stdout.decode()  # python -m bpe_core: no app
    for args in (["train", textbook, "--variant", "eow", "--merges", "5", "--jsonl"], ["train", textbook]):
        ours, theirs = console(*args), cli(*args)
        assert ours.returncode == theirs.returncode == 0
        assert ours.stdout == theirs.stdout
    bad = console("train", tmp_path / "missing.txt")
    assert bad.returncode == 2 and bad.stderr.decode() == cli("train", tmp_path / "missing.txt").stderr.decode()
    model = tmp_path / "model"
    assert console("train", textbook, "--variant", "eow", "--merges", "5", "--out", model).returncode == 0
    assert console("encode", "--model", model, textbook).stdout == cli("encode", "--model", model, textbook).stdout


def test_console_app_hands_its_arguments_to_streamlit_run():
    # Streamlit is installed here and serve.py is next to bpe_core: `app --help` is `streamlit run --help`.
    proc = console("app", "--help")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert "streamlit run" in out and "--server.port" in out


def test_out_without_jsonl_and_encode_with_it(tmp_path):
    src = tmp_path / "en.txt"
    src.write_text(read_corpus("pg16457.txt")[:30_000], encoding="utf-8")
    model = tmp_path / "eow"
    proc = cli("train", src, "--variant", "eow", "--eow-style", "attached", "--merges", "100", "--out", model)
    assert proc.returncode == 0 and proc.stderr == b""  # no progress bar: stderr is not a terminal
    assert "# wrote" in proc.stdout.decode()
    assert (model / "tokenizer.json").exists() and (model / "merges.txt").exists()
    enc = cli("encode", "--model", model, "--jsonl", stdin=b"The Moon, lower and newer!")
    result = lines(enc)[0]
    hf = HFTokenizer.from_file(str(model / "tokenizer.json"))
    assert result["ids"] == hf.encode("The Moon, lower and newer!").ids
    assert result["tokens"][-1].endswith("</w>")


def test_tokens_with_spaces_skip_merges_txt_but_still_work(tmp_path):
    src = tmp_path / "en.txt"
    src.write_text("the cat the hat the bat the mat " * 5, encoding="utf-8")
    model = tmp_path / "char"
    proc = cli("train", src, "--variant", "char", "--pretokenizer", "gpt2", "--merges", "5", "--out", model, "--jsonl")
    assert proc.returncode == 0
    err = proc.stderr.decode()
    records = lines(proc)
    assert records[-1] == {"stop": "num_merges", "merges": 5}
    step, side = next((r["step"], x) for r in records[:-1] for x in (r["left"], r["right"]) if " " in x)
    assert f"merges.txt cannot hold merge {step}: the token {side!r}" in err
    assert not (model / "merges.txt").exists() and (model / "vocab.json").exists()
    enc = lines(cli("encode", "--model", model, "--jsonl", stdin=b"the cat"))[0]
    assert "".join(enc["tokens"]) == "the cat" and len(enc["tokens"]) < 7


def test_encode_with_a_gpt2_style_pair(tmp_path):
    src = tmp_path / "en.txt"
    text = read_corpus("pg16457.txt")
    src.write_text(text[:50_000], encoding="utf-8")
    model = tmp_path / "m"
    assert cli("train", src, "--merges", "200", "--out", model).returncode == 0
    gpt2 = tmp_path / "gpt2"
    gpt2.mkdir()
    for name in ("vocab.json", "merges.txt"):
        (gpt2 / name).write_bytes((model / name).read_bytes())
    sample = text[200_000:205_000].encode("utf-8")
    a = lines(cli("encode", "--model", model, "-", "--jsonl", stdin=sample))[0]
    b = lines(cli("encode", "--model", gpt2, "--jsonl", stdin=sample))[0]
    assert a == b and len(a["ids"]) < len(sample)
    (gpt2 / "merges.txt").write_text("#version: 0.2\nĠ t\nĠt hx\n", encoding="utf-8")
    assert "line 3" in one_error_line(cli("encode", "--model", gpt2, stdin=b"the"))


def test_progress_bar_only_on_a_terminal(tmp_path):
    import fcntl
    import pty
    import struct
    import termios

    src = tmp_path / "en.txt"
    src.write_text(read_corpus("pg16457.txt")[:30_000], encoding="utf-8")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # a 100-column terminal
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "bpe_core", "train", str(src), "--merges", "300", "--jsonl"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
        timeout=120,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    bar = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "training:" in bar and "/300 [" in bar
    assert len(lines(proc)) == 301  # stdout stays clean JSON lines
    quiet = cli("train", src, "--merges", "300", "--jsonl")
    assert quiet.stderr == b""


class CountingStream(io.StringIO):
    """A text stream that keeps each ``write`` call apart, as an unbuffered stdout makes each one a system call."""

    def __init__(self):
        super().__init__()
        self.writes: list[str] = []

    def write(self, s: str) -> int:
        self.writes.append(s)
        return super().write(s)


def test_merge_lines_go_out_in_batches_not_one_write_each():
    args = build_parser().parse_args(["train", str(REPO / "presets" / "pg16457-chapter1.txt"), "--merges", "400"])
    out = CountingStream()
    start = time.monotonic()
    assert cmd_train(args, out=out) == 0
    seconds = time.monotonic() - start
    merge_writes = [w for w in out.writes if w[:1].isdigit()]
    merges = [line for w in merge_writes for line in w.splitlines()]
    assert [int(line.split()[0]) for line in merges] == list(range(1, 401))
    # One write per LINE_BATCH_SECONDS of training at most, and one for the rest: not 400.
    assert len(merge_writes) <= 2 + seconds / LINE_BATCH_SECONDS, (len(merge_writes), seconds)


def test_merge_lines_stream_through_a_pipe_while_training_goes_on():
    """A reader of the pipe gets the first merges long before the run ends (the book: 10,000 merges)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    book = REPO / "presets" / "pg16457.txt"
    cmd = [sys.executable, "-m", "bpe_core", "train", str(book), "--variant", "eow", "--merges", "10000", "--jsonl"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        first = json.loads(proc.stdout.readline())
        running_at_first_line = proc.poll() is None
        rest = proc.stdout.read().decode("utf-8").splitlines()
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    assert first["step"] == 1
    assert running_at_first_line
    assert len(rest) == 10_000 and json.loads(rest[-1]) == {"stop": "num_merges", "merges": 10_000}
