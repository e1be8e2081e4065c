"""``python -m bpe_core check CORPUS YOURS [the train options] [--jsonl]`` as a real process: exit 0 when
identical, 1 when the lists part, 2 (one line on stderr) for bad input; the --jsonl object's exact keys."""

from __future__ import annotations

import json

import pytest
from cli_process import assert_clean_error, cli

from tests.test_check_inputs import minbpe_model
from tests.textbook import TEXTBOOK_TEXT

KEYS = ["identical", "merges", "agree", "tie_break", "step", "yours", "reference", "cause"]


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    return path


def write(tmp_path, name: str, data) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(path)


def check(*args):
    proc = cli(["check", *args])
    assert "Traceback" not in proc.err, proc.err
    return proc


def test_identical_exits_0_and_the_jsonl_object_has_exactly_the_keys(tmp_path, corpus):
    yours = write(tmp_path, "merges.txt", "#version: 0.2\ne s\nes t\nest </w>\nl o\nlo w\n")
    proc = check(corpus, yours, "--variant", "eow", "--jsonl")
    assert (proc.returncode, proc.err) == (0, "")
    (line,) = proc.out.splitlines()
    obj = json.loads(line)
    assert list(obj) == KEYS
    assert obj == {"identical": True, "merges": 5, "agree": 5, "tie_break": "first-seen", "step": None,
                   "yours": None, "reference": None, "cause": "identical"}  # fmt: skip
    plain = check(corpus, yours, "--variant", "eow")
    assert plain.returncode == 0 and plain.out.startswith("identical: all 5 merges agree")


def test_a_tie_broken_another_way_exits_1(tmp_path, corpus):
    yours = write(tmp_path, "yours.json", json.dumps([["e", "s"], ["es", "t"], ["est", "</w>"], ["o", "w"]]))
    proc = check(corpus, yours, "--variant", "eow", "--jsonl")
    assert proc.returncode == 1, proc.err
    assert json.loads(proc.out) == {"identical": False, "merges": 4, "agree": 3, "tie_break": "first-seen",
                                    "step": 4, "yours": ["o", "w"], "reference": ["l", "o"], "cause": "tie-break"}  # fmt: skip
    plain = check(corpus, yours, "--variant", "eow")
    assert plain.returncode == 1
    assert plain.out.splitlines()[:3] == [
        "parted at merge 4: 3 of 4 merges agree (reference tie-break first-seen)",
        '  yours:     "o" + "w"  (count 7)',
        '  reference: "l" + "o"  (count 7)',
    ]


def test_settings_and_stop_rule_exit_1(tmp_path, corpus):
    # Attached </w> where the settings say separate: a settings mismatch, found at merge 3.
    attached = write(tmp_path, "att.txt", "e s\nes t</w>\n")
    obj = json.loads(check(corpus, attached, "--variant", "eow", "--jsonl").out)
    assert (obj["cause"], obj["step"], obj["yours"]) == ("settings", 2, ["es", "t</w>"])
    # --merges asks for more than the list holds: the reference's next merge, yours null.
    short = write(tmp_path, "short.txt", "e s\nes t\n")
    proc = check(corpus, short, "--variant", "eow", "--merges", "3", "--jsonl")
    assert proc.returncode == 1
    obj = json.loads(proc.out)
    assert (obj["cause"], obj["step"], obj["yours"], obj["reference"]) == ("stop-rule", 3, None, ["est", "</w>"])


def test_a_minbpe_model_is_checked(tmp_path):
    text = "aaabdaaabac aaabdaaabac"
    path = write(tmp_path, "corpus.txt", text)
    model = write(tmp_path, "toy.model", minbpe_model([("a", "a"), ("aa", "a"), ("aaa", "b")]))
    proc = check(path, model, "--variant", "byte", "--pretokenizer", "whitespace", "--jsonl")
    assert proc.returncode == 0, proc.out + proc.err
    assert json.loads(proc.out)["merges"] == 3


@pytest.mark.parametrize(
    "name,data,needle",
    [
        ("empty.txt", b"", "empty"),
        ("three.txt", b"a b c\n", "line 1"),
        ("bad.json", b'{"vocab": {}}', "no list of merges"),
        ("latin1.txt", "é s".encode("latin-1"), "UTF-8"),
        ("ids.model", b"minbpe v1\n\n0\n999 1\n", "id 999"),
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path, corpus, name, data, needle):
    assert_clean_error(check(corpus, write(tmp_path, name, data), "--variant", "eow"), needle)


def test_missing_files_exit_2(tmp_path, corpus):
    assert_clean_error(check(corpus, tmp_path / "nope.txt"), "no such file")
    assert_clean_error(check(tmp_path / "nope.txt", write(tmp_path, "m.txt", "a b\n")), "no such file")
