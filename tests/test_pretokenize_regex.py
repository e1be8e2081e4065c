"""The ``regex`` pre-tokenizer (a user's own pattern): pieces against a slow reference, the three errors,
training against the reference trainer, the CLI flags, the saved model and Hugging Face parity."""

from __future__ import annotations

import gettext
import json
import subprocess
import sys
import time

import pytest
import regex
from corpus_excerpts import corpus_slice, named_excerpt
from reference_bpe import reference_for, run_differences
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import InputError, TrainConfig, corpus_words, train
from bpe_core.cli import main
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.formats.files import load_model, save_model, tokenizer_json
from bpe_core.pretokenize import (
    EXAMPLE_PATTERN,
    PatternError,
    check_pattern,
    pretokenize,
    regex_pieces,
    split_with_pattern,
    word_counts,
)

LETTERS = r"\p{L}+"  # leaves spaces, digits and punctuation unmatched
PATTERNS = [
    EXAMPLE_PATTERN,
    LETTERS,
    r"\p{N}{1,3}|[\p{Han}]|\s+",
    r"(?i:the)|(\w)\1|[aeiou]+",  # a group and a back-reference: a piece is still the whole match
    r" ?[^\s]+",
]
SAMPLES = {
    "english": corpus_slice("pg16457.txt", 40_000, 6_000),
    "chinese": corpus_slice("hongloumeng.txt", 5_000, 3_000),
    "emoji": corpus_slice("emoji-test.txt", 400_000, 3_000),
    "mixed": "It's 2024: café, naïve — 你好！ 👨\u200d👩\u200d👧 ok\r\n\tend  \n",
}


def slow_pieces(text: str, pattern: str) -> list[tuple[str, bool]]:
    """The textbook loop: at each position try the pattern; a (non-empty) match is a piece, anything
    else is one character added to the current run of unmatched text."""
    compiled = regex.compile(pattern)
    out: list[tuple[str, bool]] = []
    gap = ""
    pos = 0
    while pos < len(text):
        m = compiled.match(text, pos)
        if m is None:
            gap += text[pos]
            pos += 1
            continue
        assert m.end() > pos
        if gap:
            out.append((gap, False))
            gap = ""
        out.append((m.group(0), True))
        pos = m.end()
    if gap:
        out.append((gap, False))
    return out


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("key", list(SAMPLES))
def test_split_equals_the_slow_reference_and_drops_nothing(key, pattern):
    text = SAMPLES[key]
    got = split_with_pattern(text, pattern)
    assert got == slow_pieces(text, pattern)
    assert "".join(piece for piece, _ in got) == text
    assert all(piece for piece, _ in got)
    assert regex_pieces(text, pattern) == [piece for piece, _ in got] == pretokenize(text, "regex", pattern)


def test_unmatched_text_is_kept_and_marked():
    assert split_with_pattern("ab, cd!", LETTERS) == [("ab", True), (", ", False), ("cd", True), ("!", False)]
    assert split_with_pattern("  ", LETTERS) == [("  ", False)]
    assert split_with_pattern("", LETTERS) == []
    assert word_counts("ab ab, ab", "regex", LETTERS) == {"ab": 3, " ": 1, ", ": 1}


def test_the_example_pattern_is_gpt2_on_ascii():
    gpt2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
    text = corpus_slice("pg16457.txt", 40_000, 20_000)
    assert text.isascii()
    assert regex_pieces(text, EXAMPLE_PATTERN) == regex.findall(gpt2, text)
    assert regex_pieces("café", EXAMPLE_PATTERN) == ["caf", "é"]


# ------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    "pattern, reason, words",
    [
        ("a(b", "invalid", ["not a valid regular expression", "missing )", "position 3"]),
        ("[a-", "invalid", ["not a valid regular expression"]),
        ("a*", "empty", ["empty string"]),
        (r"\b", "empty", ["empty string"]),
        ("(?=x)", "empty", ["empty string"]),
        ("", "missing", ["needs a pattern"]),
        (None, "missing", ["needs a pattern"]),
    ],
)
def test_bad_patterns_raise_pattern_errors_with_plain_messages(pattern, reason, words):
    with pytest.raises(PatternError) as info:
        check_pattern(pattern)
    err = info.value
    assert err.reason == reason and isinstance(err, InputError) and isinstance(err, ValueError)
    for word in words:
        assert word in str(err)
    assert "Traceback" not in str(err) and "\n" not in str(err)
    with pytest.raises(PatternError):
        TrainConfig(pretokenizer="regex", pattern=pattern).validate()


def test_an_empty_match_found_only_in_the_text_names_its_position():
    # (?<=☃) matches the empty string only after a snowman: none of the probe texts has one
    pattern = r"(?<=☃)|\p{L}+"
    check_pattern(pattern)
    with pytest.raises(PatternError) as info:
        regex_pieces("ab ☃c", pattern)
    assert info.value.reason == "empty" and info.value.position == 4 and "character 5" in str(info.value)


#: Margins of the time-out tests: a time-out is a time, so they do time it, but with room for a busy
#: machine (a 2-core runner with other jobs takes seconds to start Python). Without its time-out,
#: ``(a|aa)+$`` on 60 ``a``s and a ``b`` backtracks through about 10**12 ways (the Fibonacci numbers) and
#: never ends: any bound that ends proves the stop.
BUDGET_MARGIN = 10.0  # seconds over a 0.3 s budget, in-process
CLI_MARGIN = 60.0  # seconds for the whole `python -m bpe_core train` with its 2 s budget


def test_a_pattern_that_runs_too_long_is_stopped_within_its_budget():
    text = "a" * 60 + "b"
    start = time.perf_counter()
    with pytest.raises(PatternError) as info:
        regex_pieces(text, r"(a|aa)+$", timeout=0.3)
    assert time.perf_counter() - start < 0.3 + BUDGET_MARGIN
    assert info.value.reason == "timeout" and "0.3 seconds" in str(info.value)


def test_the_default_budget_is_two_seconds_plus_one_per_million_characters():
    from bpe_core.pretokenize import pattern_timeout

    assert pattern_timeout(0) == 2.0 and pattern_timeout(3_000_000) == 5.0


def test_messages_go_through_the_translation():
    class Marked(gettext.NullTranslations):
        def gettext(self, message):
            return "[zh] " + message

    with pytest.raises(PatternError) as info:
        check_pattern("a(b")
    translated = info.value.message(Marked())
    assert translated == "[zh] The pattern is not a valid regular expression: missing ) at position 3."


def test_train_config_needs_a_pattern_exactly_with_regex():
    assert TrainConfig(pretokenizer="regex", pattern=LETTERS).validate().pattern == LETTERS
    with pytest.raises(ValueError, match="only used by the regex pre-tokenizer"):
        TrainConfig(pretokenizer="gpt2", pattern=LETTERS).validate()
    with pytest.raises(ValueError, match="only used by the regex pre-tokenizer"):
        Tokenizer("byte", "gpt2", [], {bytes((b,)): b for b in range(256)}, pattern=LETTERS)


# ----------------------------------------------------------------------------------- training
@pytest.mark.parametrize(
    "variant, key, pattern",
    [("byte", "english", EXAMPLE_PATTERN), ("char", "chinese", r"\p{Han}{1,2}|\s+"), ("eow", "english", LETTERS)],
)
def test_training_with_a_pattern_equals_the_reference_trainer(variant, key, pattern):
    text = named_excerpt(key, 8_000)
    cfg = TrainConfig(variant=variant, pretokenizer="regex", pattern=pattern, num_merges=150, min_frequency=1)
    words = corpus_words(text, cfg)
    expected: dict = {}  # word types in first-appearance order, with their counts
    for piece, _ in slow_pieces(text, pattern):
        expected[piece] = expected.get(piece, 0) + 1
    assert list(words.items()) == list(expected.items())
    run = train(words, cfg)
    assert run_differences(run, reference_for(words, cfg)) == []


def test_a_tokenizer_from_a_regex_run_splits_with_its_pattern():
    text = named_excerpt("english", 6_000)
    cfg = TrainConfig(variant="byte", pretokenizer="regex", pattern=LETTERS, num_merges=60)
    run = train(corpus_words(text, cfg), cfg)
    tok = Tokenizer.from_run(run)
    assert run.config.pattern == LETTERS and run.num_steps == 60
    assert tok.pattern == LETTERS and tok.pieces("ab, cd") == ["ab", ", ", "cd"]
    assert tok.decode(tok.encode(text)) == text


# -------------------------------------------------------------------------- files and Hugging Face
@pytest.mark.parametrize(
    "key, pattern",
    [
        ("english", EXAMPLE_PATTERN),
        ("english", LETTERS),
        ("chinese", r"\p{Han}|\p{L}+|\p{N}+"),
        ("emoji", r"[^\s]+|\s"),
        ("wiki", r" ?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+"),
    ],
)
def test_byte_level_tokenizer_json_encodes_to_our_ids_in_hugging_face(tmp_path, key, pattern):
    name, _, start = {
        "english": ("pg16457.txt", 0, 20_000),
        "chinese": ("hongloumeng.txt", 0, 5_000),
        "emoji": ("emoji-test.txt", 0, 300_000),
        "wiki": ("taylorswift.txt", 0, 0),
    }[key]
    train_text = corpus_slice(name, start, 30_000)
    held_out = corpus_slice(name, start + 60_000, 15_000) + " Größe 你好 🙂\r\n\t x"
    cfg = TrainConfig(variant="byte", pretokenizer="regex", pattern=pattern, num_merges=300)
    run = train(corpus_words(train_text, cfg), cfg)
    save_model(run, tmp_path / "m")
    doc = json.loads((tmp_path / "m" / "tokenizer.json").read_text(encoding="utf-8"))
    split, byte_level = doc["pre_tokenizer"]["pretokenizers"]
    assert split == {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    assert byte_level["type"] == "ByteLevel" and byte_level["use_regex"] is False
    hf = HFTokenizer.from_file(str(tmp_path / "m" / "tokenizer.json"))
    ours = load_model(tmp_path / "m")
    assert ours.pattern == pattern
    ids = ours.encode(held_out)
    assert hf.encode(held_out).ids == ids
    assert hf.decode(ids) == held_out == ours.decode(ids)


def test_attached_eow_tokenizer_json_with_a_pattern_encodes_to_our_ids():
    text = corpus_slice("pg16457.txt", 20_000, 30_000)
    cfg = TrainConfig(variant="eow", eow_style="attached", pretokenizer="regex", pattern=LETTERS, num_merges=200)
    run = train(corpus_words(text, cfg), cfg)
    hf = HFTokenizer.from_str(tokenizer_json(run))
    held_out = corpus_slice("pg16457.txt", 70_000, 10_000)
    assert hf.encode(held_out).ids == Tokenizer.from_run(run).encode(held_out)


def test_a_manifest_with_a_bad_pattern_is_an_input_error(tmp_path):
    cfg = TrainConfig(variant="byte", pretokenizer="regex", pattern=LETTERS, num_merges=5)
    save_model(train(corpus_words("ab ab ab cd cd", cfg), cfg), tmp_path / "m")
    path = tmp_path / "m" / "bpe_explorer.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["pattern"] = "a("
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match="bpe_explorer.json: The pattern is not a valid regular expression"):
        load_model(tmp_path / "m")
    del manifest["pattern"]
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match="needs a pattern"):
        load_model(tmp_path / "m")


# ---------------------------------------------------------------------------------------- CLI
def run_cli(args, capsys):
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_trains_with_a_pattern_and_encode_uses_it(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text(corpus_slice("pg16457.txt", 0, 20_000), encoding="utf-8")
    out = tmp_path / "model"
    code, stdout, stderr = run_cli(
        ["train", str(src), "--pretokenizer", "regex", "--pattern", LETTERS, "--merges", "50", "--out", str(out)],
        capsys,
    )
    assert code == 0, stderr
    assert f"pre-tokenizer regex (pattern {LETTERS})" in stdout
    assert json.loads((out / "bpe_explorer.json").read_text(encoding="utf-8"))["pattern"] == LETTERS
    sample = tmp_path / "sample.txt"
    sample.write_text("Hello, world: 42!", encoding="utf-8")
    code, stdout, stderr = run_cli(["encode", "--model", str(out), str(sample), "--jsonl"], capsys)
    assert code == 0, stderr
    ids = json.loads(stdout)["ids"]
    assert ids == load_model(out).encode("Hello, world: 42!")
    assert ids == HFTokenizer.from_file(str(out / "tokenizer.json")).encode("Hello, world: 42!").ids


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--pretokenizer", "regex"], "--pretokenizer regex needs --pattern PATTERN"),
        (["--pattern", LETTERS], "--pattern is only used with --pretokenizer regex"),
        (["--pretokenizer", "gpt2", "--pattern", LETTERS], "--pattern is only used with --pretokenizer regex"),
        (["--pretokenizer", "regex", "--pattern", "a(b"], "not a valid regular expression: missing ) at position 3"),
        (["--pretokenizer", "regex", "--pattern", "x*"], "can match the empty string"),
    ],
)
def test_cli_pattern_errors_exit_2_with_one_line(tmp_path, capsys, extra, message):
    src = tmp_path / "in.txt"
    src.write_text("low lower newest widest\n", encoding="utf-8")
    code, stdout, stderr = run_cli(["train", str(src), *extra], capsys)
    assert code == 2 and stdout == ""
    assert stderr.startswith("bpe_core: ") and message in stderr and stderr.count("\n") == 1


def test_cli_stops_a_slow_pattern_with_exit_2(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("a" * 5_000 + "b\n", encoding="utf-8")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "bpe_core", "train", str(src), "--pretokenizer", "regex", "--pattern", "(a|aa)+$"],
        capture_output=True,
        text=True,
        timeout=2 * CLI_MARGIN,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "took longer than 2 seconds" in proc.stderr and "Traceback" not in proc.stderr
    assert time.perf_counter() - start < CLI_MARGIN


def test_the_preview_splits_the_first_lines():
    from bpe_core.pretokenize import split_preview

    text = corpus_slice("hongloumeng.txt", 0, 20_000)
    lines = text.splitlines(keepends=True)
    preview = split_preview(text, r"\p{Han}+", max_lines=3)
    assert "".join(piece for piece, _ in preview) == "".join(lines[:3])
    assert ("\r\n\r\n\r\n", False) in preview and ("《", False) in preview  # what the pattern leaves out
    assert len("".join(p for p, _ in split_preview(text, r"\p{Han}+", max_lines=100, max_chars=50))) == 50
    with pytest.raises(PatternError):
        split_preview(text, "(")


def test_pattern_errors_survive_pickling():
    import pickle

    with pytest.raises(PatternError) as info:
        check_pattern("a(b")
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.reason, copy.pattern, copy.position, copy.detail, str(copy)) == (
        "invalid",
        "a(b",
        3,
        "missing )",
        str(info.value),
    )
