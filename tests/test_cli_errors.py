"""bpe_core.cli on bad input (issue 6): ``python -m bpe_core train|encode`` on bad files and settings.

Every bad input ends with exit status 2 and exactly one line on stderr (``bpe_core: ...``), never a
traceback. Inputs that are merely small (a single character, no pair left, a minimum frequency
above every count, more merges than possible) train, stop early and say why (exit status 0).
1 MB of one character and a 1 MB word finish in bounded time.

Each case runs the real CLI in a subprocess (``sys.executable -m bpe_core``) from a temporary
directory, with the repository on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_process import assert_clean_error, assert_trained, cli, write

BPE_MAX = "BPE_EXPLORER_MAX_BYTES"


@pytest.fixture
def work(tmp_path):
    return tmp_path


# ------------------------------------------------------------------------------- bad input files
BAD_FILES = {
    "png": (bytes.fromhex("89504e470d0a1a0a0000000d49484452") + bytes(64), ["binary"]),
    "zip": (b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)), ["binary"]),
    "random-binary": (random.Random(1).randbytes(4096), []),
    "utf16-bom": ("low lower newest widest\n".encode("utf-16"), ["UTF-16"]),
    "utf16-no-bom": ("low lower newest widest\n".encode("utf-16-le"), ["NUL"]),
    "latin1": ("café crème brûlée\n".encode("latin-1"), ["UTF-8", "byte 3"]),
    "cp1252-quotes": ("\u201cquoted\u201d text".encode("cp1252"), ["UTF-8"]),
    "surrogate-in-utf8": (b"low \xed\xa0\x80 lower", ["UTF-8"]),
    "nul": (b"low lower\x00newest", ["NUL"]),
    "cut-utf8": ("你好".encode()[:-1], ["UTF-8"]),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_text_files_exit_2_with_one_line(work, name):
    data, needles = BAD_FILES[name]
    path = write(work / f"{name}.txt", data)
    line = assert_clean_error(cli(["train", path.name, "--merges", "5"], work), path.name, *needles)
    # ... on stdin too, and as input of encode.
    assert_clean_error(cli(["train", "-", "--merges", "5"], work, stdin=data), "stdin", *needles)
    model = work / "model"
    assert cli(["train", write(work / "ok.txt", "low low lower lower"), "--out", model], work).returncode == 0
    assert_clean_error(cli(["encode", "--model", model, path.name], work), *needles)
    print(line)


def test_20_mb_file_is_refused_naming_the_limit(work):
    big = write(work / "big.txt", b"word " * 4_000_000)
    line = assert_clean_error(cli(["train", big.name], work), "20.0 MB", "5.0 MB", BPE_MAX)
    print(line)
    assert_clean_error(cli(["train", "-"], work, stdin=big.read_bytes()), "5.0 MB", BPE_MAX)
    model = work / "model"
    assert cli(["train", write(work / "ok.txt", "low low lower lower"), "--out", model], work).returncode == 0
    assert_clean_error(cli(["encode", "--model", model, big.name], work), "5.0 MB")


def test_the_limit_is_configurable(work):
    path = write(work / "text.txt", "low lower newest widest " * 100)  # 2,400 bytes
    assert_clean_error(cli(["train", path.name], work, env={BPE_MAX: "1000"}), "1.0 kB", BPE_MAX)
    assert cli(["train", path.name], work, env={BPE_MAX: "3000"}).returncode == 0
    assert cli(["train", path.name], work, env={BPE_MAX: "nonsense"}).returncode == 0  # default limit


def test_missing_file_and_directory(work):
    assert_clean_error(cli(["train", "no-such-file.txt"], work), "no-such-file.txt")
    assert_clean_error(cli(["train", "."], work), "directory")
    assert_clean_error(cli(["encode", "--model", "no-such-model"], work, stdin=b"low"), "no-such-model")


@pytest.mark.parametrize(
    "data",
    [b"", b"   \n\t \r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf \n"],
    ids=["empty", "whitespace", "bom-only", "bom-space"],
)
def test_empty_or_whitespace_only_input(work, data):
    path = write(work / "empty.txt", data)
    assert_clean_error(cli(["train", path.name, "--variant", "eow"], work), "empty")


# ------------------------------------------------------------------------------ word-frequency lists
@pytest.mark.parametrize(
    "text, needles",
    [
        pytest.param("low 5\nlower 2\nnewest -6\nwidest 3\n", ["Line 3"], id="negative"),
        pytest.param("low 5\nlower two\nnewest 6\n", ["Line 2"], id="non-numeric"),
        pytest.param("low 5\nlower 2.5\n", ["Line 2"], id="fraction"),
        pytest.param("low 5\nlower 0\n", ["Line 2", "positive"], id="zero"),
        pytest.param("low 5\nlower 10000000000000\n", ["Line 2", "limit"], id="huge"),
        pytest.param("low 5\nlower " + "9" * 5000 + "\n", ["Line 2"], id="5000-digits"),
    ],
)
def test_word_frequency_list_with_a_bad_line(work, text, needles):
    path = write(work / "counts.txt", text)
    print(assert_clean_error(cli(["train", path.name, "--variant", "eow"], work), *needles))


def test_good_word_frequency_list_with_huge_counts(work):
    path = write(work / "counts.txt", "low 1000000000000\nlower 2\nnewest 6\nwidest 3\n")
    proc = cli(["train", path.name, "--variant", "eow", "--merges", "3", "--jsonl"], work)
    assert proc.returncode == 0, proc.err
    first = json.loads(proc.out.splitlines()[0])
    assert first["count"] >= 1_000_000_000_000


# --------------------------------------------------------------------------------------- settings
@pytest.mark.parametrize(
    "args",
    [
        ["--merges", "-1"],
        ["--merges", "ten"],
        ["--vocab-size", "0"],
        ["--merges", "5", "--vocab-size", "300"],
        ["--min-frequency", "0"],
        ["--variant", "words"],
        ["--pretokenizer", "spaces"],
        ["--tie-break", "random"],
        ["--variant", "eow", "--eow-marker", ""],
        ["--variant", "eow", "--eow-marker", "a b"],
        ["--no-such-option"],
    ],
)
def test_bad_settings_exit_2_with_one_line(work, args):
    path = write(work / "t.txt", "low lower newest widest")
    print(assert_clean_error(cli(["train", path.name, *args], work)))


def test_no_command_or_unknown_command(work):
    assert_clean_error(cli([], work))
    assert_clean_error(cli(["fit", "x.txt"], work))


# ---------------------------------------------------------------------------- runs that stop early
@pytest.mark.parametrize(
    "text, args, reason",
    [
        ("a", ["--variant", "char"], "no_pairs"),
        ("abc abc", ["--variant", "char", "--min-frequency", "1", "--merges", "50"], "no_pairs"),
        ("low lower newest widest", ["--variant", "eow", "--min-frequency", "1000"], "min_frequency"),
        ("low low lower lower zq", ["--variant", "byte", "--merges", "100000"], "min_frequency"),
        ("low low lower lower", ["--variant", "char", "--merges", "100000", "--min-frequency", "1"], "no_pairs"),
        ("low low", ["--variant", "byte", "--vocab-size", "100"], "vocab_size"),
    ],
)
def test_runs_that_stop_early_say_why(work, text, args, reason):
    path = write(work / "t.txt", text)
    assert_trained(cli(["train", path.name, *args], work), reason)
    proc = cli(["train", path.name, *args, "--jsonl"], work)
    assert json.loads(proc.out.splitlines()[-1])["stop"] == reason


# ------------------------------------------------------------------------------- awkward but valid
VALID = {
    "bom": b"\xef\xbb\xbflow low lower lower",
    "crlf-and-cr": b"low low\r\nlower lower\rnewest newest\r\n",
    "control-chars": b"low\x01low \x1b[31mlow\x1b[0m \x7flower\x07 lower\x0c",
    "rtl-and-bidi": "שלום שלום مرحبا مرحبا \u202eevil\u202c \u200fx\u200f".encode(),
    "combining": "e\u0301te\u0301 e\u0301te\u0301 n\u0303 n\u0303".encode(),
    "zwj-flags-skin": "👨\u200d👩\u200d👧 👨\u200d👩\u200d👧 🇨🇳🇺🇸 🇨🇳 👍🏽 👍🏽".encode(),
}


@pytest.mark.parametrize("name", sorted(VALID))
@pytest.mark.parametrize("variant", ["char", "eow", "byte"])
def test_awkward_valid_text_trains_and_encodes(work, name, variant):
    path = write(work / "t.txt", VALID[name])
    model = work / "model"
    proc = cli(
        ["train", path.name, "--variant", variant, "--min-frequency", "1", "--merges", "20", "--out", model], work
    )
    assert proc.returncode == 0, proc.err
    assert "Traceback" not in proc.err
    enc = cli(["encode", "--model", model, path.name, "--jsonl"], work)
    assert enc.returncode == 0, enc.err
    result = json.loads(enc.out)
    assert len(result["ids"]) == len(result["tokens"]) > 0
    if variant == "byte":  # byte-level tokens cover the text exactly (GPT-2 aliases -> bytes)
        from bpe_core.byte_display import from_gpt2

        text = VALID[name].removeprefix(b"\xef\xbb\xbf")
        assert b"".join(from_gpt2(t) for t in result["tokens"]) == text


# ------------------------------------------------------------------------------------- 1 MB inputs
@pytest.mark.parametrize("variant", ["byte", "char", "eow"])
@pytest.mark.parametrize("kind", ["one-character", "one-word"])
def test_one_megabyte_in_bounded_time(work, kind, variant):
    if kind == "one-character":
        text = "a" * 1_000_000
    else:
        text = "".join(random.Random(0).choices("abcdefghij", k=1_000_000))
    path = write(work / "big.txt", text)
    model = work / "model"
    args = ["train", path.name, "--variant", variant, "--merges", "40", "--min-frequency", "1", "--jsonl"]
    if variant == "byte":
        args += ["--out", model]
    proc = cli(args, work, timeout=90)
    assert proc.returncode == 0, proc.err[-2000:]
    stop = json.loads(proc.out.splitlines()[-1])
    assert stop["stop"] == ("no_pairs" if kind == "one-character" else "num_merges"), stop
    print(f"train: {proc.seconds:.1f} s, {stop}")
    if variant == "byte":
        enc = cli(["encode", "--model", model, path.name, "--jsonl"], work, timeout=90)
        assert enc.returncode == 0, enc.err[-2000:]
        ids = json.loads(enc.out)["ids"]
        assert ids and (kind != "one-character" or len(ids) < 100)
        print(f"encode: {enc.seconds:.1f} s, {len(ids)} tokens")


# --------------------------------------------------------------------------------- model files
def _saved_model(work: Path) -> Path:
    model = work / "model"
    proc = cli(
        ["train", write(work / "ok.txt", "low low lower lower newest newest"), "--variant", "byte", "--out", model],
        work,
    )
    assert proc.returncode == 0, proc.err
    return model


@pytest.mark.parametrize(
    "damage",
    [
        {"vocab.json": b"{not json"},
        {"vocab.json": b"[1, 2]"},
        {"vocab.json": b'{"a": -1}'},
        {"vocab.json": b"\x89PNG\r\n\x1a\n\x00"},
        {"vocab.json": "{}".encode("utf-16")},
        {"merges.txt": b"#version: 0.2\nthree tokens here\n"},
        {"merges.txt": b"#version: 0.2\nq z\n"},
        {"merges.txt": b"\xff\xfe\x00\x00"},
        {"bpe_explorer.json": b"{oops"},
        {"bpe_explorer.json": b'{"format": "not ours"}'},
        {"bpe_explorer.json": None, "vocab.json": b'{"a": 0}'},  # GPT-2 pair lacking the 256 bytes
    ],
    ids=lambda d: ",".join(d),
)
def test_malformed_or_inconsistent_model_files(work, damage):
    model = _saved_model(work)
    for name, data in damage.items():
        if data is None:
            (model / name).unlink()
        else:
            (model / name).write_bytes(data)
    print(assert_clean_error(cli(["encode", "--model", model], work, stdin=b"low lower")))


def test_model_directory_without_model_files(work):
    (work / "empty-model").mkdir()
    assert_clean_error(cli(["encode", "--model", "empty-model"], work, stdin=b"low"))
    write(work / "a-file", "x")
    assert_clean_error(cli(["encode", "--model", "a-file"], work, stdin=b"low"))
