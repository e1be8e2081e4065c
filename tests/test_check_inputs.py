"""The checker's inputs: every merge-list format (bpe_core.formats.merge_lists), merges exported by this project
and by Hugging Face ``tokenizers``, and the encoder check (bpe_core.checking.check_encoder)."""

from __future__ import annotations

import json

import pytest
from hf_reference import hf_setup

from bpe_core import InputError, load_gpt, save_model, train
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.byte_display import from_gpt2
from bpe_core.checking.check import check_merges
from bpe_core.checking.check_encoder import check_encoding, parse_tokens_or_ids
from bpe_core.config import TrainConfig
from bpe_core.encoding.encoder import Tokenizer as OurTokenizer
from bpe_core.formats.merge_lists import read_merge_list
from bpe_core.formats.snapshots import snapshots_jsonl
from tests.corpus_excerpts import named_excerpt
from tests.student_trainers import Settings, train_correct

PAIRS = [("e", "s"), ("es", "t"), ("est", "</w>")]
GPT4_SPLIT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"""
)


@pytest.mark.parametrize(
    "data,fmt",
    [
        ("#version: 0.2\ne s\nes t\nest </w>\n", "merges.txt"),
        ("e s\r\nes t\r\nest </w>", "merges.txt"),
        ('{"model": {"type": "BPE", "merges": ["e s", "es t", "est </w>"]}}', "tokenizer.json"),
        ('{"model": {"type": "BPE", "merges": [["e", "s"], ["es", "t"], ["est", "</w>"]]}}', "tokenizer.json"),
        ('[["e", "s"], ["es", "t"], ["est", "</w>"]]', "json"),
        ('{"step": 1, "left": "e", "right": "s"}\n{"step": 2, "left": "es", "right": "t"}\n'
         '{"step": 3, "left": "est", "right": "</w>"}\n{"stop": "num_merges", "merges": 3}\n', "jsonl"),
    ],
)  # fmt: skip
def test_every_text_format_reads_the_same_pairs(data, fmt):
    got = read_merge_list(data.encode("utf-8"), "x")
    assert (got.pairs, got.format) == (PAIRS, fmt)


def minbpe_model(merges: list, pattern: str = GPT4_SPLIT) -> str:
    """A karpathy/minbpe ``.model`` file (``base.py`` ``save``) of byte-level wire merges."""
    ids = {bytes((b,)): b for b in range(256)}
    lines = ["minbpe v1", pattern, "0"]
    for left, right in merges:
        a, b = from_gpt2(left), from_gpt2(right)
        lines.append(f"{ids[a]} {ids[b]}")
        ids.setdefault(a + b, 256 + len(lines) - 4)
    return "\n".join(lines) + "\n"


def test_a_minbpe_model_is_read_as_byte_aliases_and_checks_identical():
    text = named_excerpt("english", 3_000)
    yours = train_correct(text, Settings("byte", "gpt4"), 30)
    model = minbpe_model(yours)
    assert model.splitlines()[3] == " ".join(str(b) for b in b"".join(from_gpt2(s) for s in yours[0]))
    got = read_merge_list(model.encode(), "toy.model")
    assert (got.pairs, got.format) == (yours, "minbpe")
    cfg = TrainConfig(variant="byte", pretokenizer="gpt4")
    assert check_merges(corpus_words(text, cfg), cfg, got.pairs, text).identical


def test_id_pairs_in_json_are_minbpe_ids():
    assert read_merge_list("[[104, 105], [256, 33]]").pairs == [("h", "i"), ("hi", "!")]


@pytest.mark.parametrize(
    "data,message",
    [
        (b"", "empty"),
        (b"#version: 0.2\n", "holds no merges"),
        (b"[]", "holds no merges"),
        (b"\xff\xfe\x00", "not valid UTF-8"),
        (b"a b c\n", "line 1: expected 'left right'"),
        (b'{"vocab": {}}', "holds no list of merges"),
        (b'[["a", "b"], ["c"]]', "merge 2 is not a pair"),
        (b"[1, 2", "not valid JSON"),
        (b"minbpe v1\n\n0\n300 1\n", "line 4: id 300 is not a byte"),
        (b'{"left": "a"}\n{"left": "b", "right": "c"}\n', "line 1: a merge line needs"),
    ],
)
def test_bad_files_get_one_line_messages(data, message):
    with pytest.raises(InputError, match=message) as err:
        read_merge_list(data, "yours")
    assert "\n" not in str(err.value)


def test_merges_exported_by_this_project_check_identical_under_first_seen(tmp_path):
    text = named_excerpt("wiki", 8_000)
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=120)
    run = train(corpus_words(text, cfg), cfg)
    out = tmp_path / "model"
    save_model(run, out)
    check_cfg = TrainConfig(variant="byte", pretokenizer="gpt2")
    words = corpus_words(text, check_cfg)
    for name in ("merges.txt", "tokenizer.json"):
        pairs = read_merge_list((out / name).read_bytes(), name).pairs
        report = check_merges(words, check_cfg, pairs, text)
        assert (report.identical, report.tie_break, report.merges) == (True, "first-seen", 120)
    jsonl = read_merge_list(snapshots_jsonl(run), "train.jsonl")
    assert jsonl.format == "jsonl" and check_merges(words, check_cfg, jsonl.pairs, text).identical


def test_merges_of_hugging_face_tokenizers_check_identical_under_hf(tmp_path):
    text = named_excerpt("english", 12_000)
    tok, trainer = hf_setup("byte", vocab_size=256 + 150, min_frequency=2)
    tok.train_from_iterator([text], trainer)
    tok.save(str(tmp_path / "tokenizer.json"))
    tok.model.save(str(tmp_path))  # vocab.json + merges.txt, with the #version line
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", tie_break="hf")
    words = corpus_words(text, cfg)
    for name in ("tokenizer.json", "merges.txt"):
        data = (tmp_path / name).read_bytes()
        got = read_merge_list(data, name)
        assert got.format == name and len(got.pairs) == 150
        report = check_merges(words, cfg, got.pairs, text)
        assert (report.identical, report.tie_break) == (True, "hf"), report.as_json()
    # The settings naming another rule still find the equal list, under hf.
    other = check_merges(words, TrainConfig(variant="byte", pretokenizer="gpt2"), got.pairs, text)
    assert (other.identical, other.tie_break) == (True, "hf")
    assert json.loads((tmp_path / "tokenizer.json").read_text())["model"]["merges"][0] == list(got.pairs[0])


# ------------------------------------------------------------------------------- encoder check
def test_an_encoder_with_longest_match_parts_at_the_right_token():
    tok = load_gpt("gpt2")
    text = "The cat sat. MacNicholl said so."
    expected = tok.encode(text)
    longest = [t for piece in tok.pieces(text) for t in tok.longest_match_piece(piece)]
    report = check_encoding(tok, text, longest)
    pieces = tok.pieces(text)
    assert report.piece == " MacNicholl" and report.piece_index == pieces.index(" MacNicholl")
    assert report.position == next(i for i, (a, b) in enumerate(zip(expected, longest)) if a != b)
    assert report.expected_piece == tok.encode(" MacNicholl") and report.longest_match
    ranks = [m[0] for m in report.merges]
    assert ranks == sorted(ranks) and report.merges[-1][3] in report.expected_piece
    assert check_encoding(tok, text, expected).identical


def test_an_encoder_check_reads_tokens_as_well_as_ids():
    cfg = TrainConfig(variant="eow", num_merges=10)
    run = train({"low": 5, "lower": 2, "newest": 6, "widest": 3}, cfg)
    tok = OurTokenizer.from_run(run)
    ids = tok.encode("lowest newer")
    spelled = " ".join(tok.token_wire(i) for i in ids)
    assert parse_tokens_or_ids(tok, spelled) == ids
    assert parse_tokens_or_ids(tok, json.dumps([tok.token_wire(i) for i in ids])) == ids
    assert parse_tokens_or_ids(tok, str(ids)) == ids
    with pytest.raises(InputError, match="not a token"):
        parse_tokens_or_ids(tok, "low zzz")
    # Applying merges in another order: "newer" split another way from its second token on.
    first = tok.encode("lowest")
    wrong = first + [tok.vocab[s] for s in ("n", "e", "w", "e", "r", "</w>")]
    report = check_encoding(tok, "lowest newer", wrong)
    assert (report.position, report.piece, report.piece_start) == (len(first), "newer", len(first))
    assert [m[0] for m in report.merges] == sorted(m[0] for m in report.merges) and report.merges
