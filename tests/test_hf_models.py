"""Hugging Face tokenizer.json models: Qwen3 (shipped), DeepSeek-V3 (by path) and files of every model type, id
for id against ``tokenizers`` (issue 42).

The big files load once per session (about a second each); the small ones are trained here with ``tokenizers``'
own trainers on a few sentences.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
import tokenizers
from tokenizers import decoders, models, normalizers, pre_tokenizers, trainers

from bpe_core.cli import main as cli_main
from bpe_core.inputs import InputError
from bpe_core.languages import declaration
from bpe_core.models import HERE, HF_DIR_ENV, HF_MODELS, available_models, load_gpt
from bpe_core.models.hf_char_bpe import HFCharTokenizer
from bpe_core.models.hf_json import bpe_merges, read_tokenizer_json
from bpe_core.models.hf_model import HFOtherTokenizer, HFTokenizer, load_tokenizer_json

SHARED = Path(__file__).resolve().parent.parent / ".." / "shared" / "tokenizers" / "hf"
DEEPSEEK = SHARED / "deepseek_v3"

#: Held-out text of every kind the issue names: Chinese (简体 and 繁體), English, emoji (a ZWJ sequence and a skin
#: tone), code, and CJK Extension B characters (beyond U+FFFF).
HELD_OUT = [
    "机器学习让计算机从数据中学习规律，很有趣。",
    "機器學習讓電腦從資料中學習規律，很有趣。",
    "The quick brown fox doesn't jump over 1234 lazy dogs.",
    "Family: 👨‍👩‍👧 thumbs 👍🏽 and 😀!",
    "def f(x):\n    return x ** 2  # square\r\n\tpass",
    "𠀀𠀁𠀂 are CJK Extension B; 𪚥 too.",
    "  leading and trailing spaces  \n\n",
]

TRAIN_TEXT = [
    "自然语言处理是人工智能的一个分支。我们学习分词和子词。",
    "Natural language processing is a branch of artificial intelligence.",
    "Tokenizers cut text into tokens; byte pair encoding merges the most frequent pair.",
    "for i in range(10): print(i * i)",
    "Emoji 😀 and numbers 2024 appear in chat messages.",
] * 20


@pytest.fixture(scope="session")
def qwen3():
    return load_gpt("qwen3")


@pytest.fixture(scope="session")
def deepseek():
    return load_tokenizer_json(DEEPSEEK, name="deepseek_v3")


def _trained(kind: str) -> str:
    """A small tokenizer.json of one model type, trained by tokenizers' own trainers on :data:`TRAIN_TEXT`."""
    if kind.startswith("byte-level BPE"):
        tok = tokenizers.Tokenizer(models.BPE(ignore_merges=kind.endswith("ignore_merges")))
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<|endoftext|>"]
        )
    elif kind == "SentencePiece BPE":
        tok = tokenizers.Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.decoder = decoders.Sequence([decoders.Metaspace(), decoders.ByteFallback()])
        bytes_ = [f"<0x{b:02X}>" for b in range(256)]
        trainer = trainers.BpeTrainer(vocab_size=500, special_tokens=["<unk>", "<s>", *bytes_])
    elif kind == "WordPiece":
        tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.normalizer = normalizers.BertNormalizer()
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]", "[CLS]", "[SEP]"])
    else:
        tok = tokenizers.Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.decoder = decoders.Metaspace()
        trainer = trainers.UnigramTrainer(vocab_size=200, special_tokens=["<unk>"], unk_token="<unk>")
    tok.train_from_iterator(TRAIN_TEXT, trainer)
    return tok.to_str()


KINDS = ["byte-level BPE", "byte-level BPE, ignore_merges", "SentencePiece BPE", "WordPiece", "Unigram"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_file_of_each_model_type_gives_tokenizers_ids_on_held_out_text(kind, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(_trained(kind), encoding="utf-8")
    reference = tokenizers.Tokenizer.from_file(str(path))
    tok = load_tokenizer_json(tmp_path)  # the folder holding it
    byte_level = kind.startswith("byte-level")
    assert type(tok) is (HFTokenizer if byte_level else HFCharTokenizer if kind.endswith("BPE") else HFOtherTokenizer)
    for text in HELD_OUT:
        expected = reference.encode(text, add_special_tokens=False).ids
        assert tok.encode(text) == expected, (kind, text)
        if hasattr(tok, "own_encode"):  # what we show is built by our own code: it must give the same ids
            assert tok.own_encode(text) == expected, (kind, text)
            replay = tok.replay(text)
            assert replay.ids_at(len(replay)) == expected, (kind, text)
        if isinstance(tok, HFTokenizer):
            assert tok.decode(expected) == text
        else:
            assert tok.encode_tokens(text) == reference.encode(text, add_special_tokens=False).tokens


def test_the_shipped_qwen3_is_the_documented_file_and_its_hash_is_checked(tmp_path):
    data = gzip.decompress((HERE / HF_MODELS["qwen3"][0]).read_bytes())
    assert hashlib.sha256(data).hexdigest() == HF_MODELS["qwen3"][1]
    assert data == (SHARED / "qwen3" / "tokenizer.json").read_bytes()
    assert HF_MODELS["qwen3"][1] in (HERE / "README.md").read_text(encoding="utf-8")
    with pytest.raises(InputError, match="sha256"):
        load_tokenizer_json(data[:-2] + b" }", name="qwen3", sha256=HF_MODELS["qwen3"][1])


@pytest.mark.parametrize("which", ["qwen3", "deepseek_v3"])
def test_the_two_models_give_tokenizers_ids_on_the_20_languages_of_the_declaration(which, qwen3, deepseek):
    tok = qwen3 if which == "qwen3" else deepseek
    reference = tokenizers.Tokenizer.from_file(str(SHARED / which / "tokenizer.json"))
    texts = list(declaration.texts().values())
    assert len(texts) == 20
    for text in texts + HELD_OUT:
        expected = reference.encode(text, add_special_tokens=False).ids
        assert tok.encode(text) == expected
        assert tok.own_encode(text) == expected  # the replay shows what tokenizers does


def test_the_issues_example_qwen3_cuts_inside_the_bytes_deepseek_keeps_the_word(qwen3, deepseek):
    assert [qwen3.token_value(t) for t in qwen3.encode(" 很有趣")] == [
        " 很".encode()[:3],
        "很".encode()[2:],
        "有趣".encode(),
    ]
    assert [deepseek.token_value(t) for t in deepseek.encode(" 很有趣")] == [b" ", "很有趣".encode()]
    replay = qwen3.replay(" 很有趣")
    assert replay.ids_at(len(replay)) == qwen3.encode(" 很有趣")
    numbers = [qwen3.merge_number(t) for t in qwen3.encode(" 很有趣")]
    assert numbers[1] is None and numbers[0] and numbers[2]  # the lone byte Ī (0x88) is a base symbol


def test_added_tokens_in_plain_text_follow_tokenizers_and_are_marked_special(qwen3, deepseek):
    assert 151644 in qwen3.encode("hi <|im_start|>user")
    assert qwen3.own_encode("hi <|im_start|>user") == qwen3.encode("hi <|im_start|>user")
    assert qwen3.is_special(151644) and not qwen3.is_special(qwen3.encode("hi")[0])
    bos = "<｜begin▁of▁sentence｜>"
    assert deepseek.encode(bos + "Hello")[0] == 0 and deepseek.is_special(0)
    assert deepseek.decode(deepseek.encode(bos + "Hello")) == bos + "Hello"


def test_bpe_merges_are_the_files_merges_as_ids():
    doc = read_tokenizer_json(_trained("byte-level BPE"))
    tables = bpe_merges(doc)
    merges = doc["model"]["merges"]
    first = merges[0].split(" ") if isinstance(merges[0], str) else merges[0]
    a, b, c = tables.pairs[0]
    assert (a, b, c) == (
        doc["model"]["vocab"][first[0]],
        doc["model"]["vocab"][first[1]],
        doc["model"]["vocab"]["".join(first)],
    )
    assert tables.values[c] == tables.values[a] + tables.values[b]
    assert len(tables.pairs) == len(merges)
    with pytest.raises(InputError, match="not a byte-level BPE"):
        bpe_merges(read_tokenizer_json(_trained("WordPiece")))


def test_bpe_merges_read_both_spellings_alike_and_name_the_first_bad_merge():
    doc = read_tokenizer_json(_trained("byte-level BPE"))
    merges = [m if isinstance(m, list) else m.split(" ") for m in doc["model"]["merges"]]
    doc["model"]["merges"] = merges
    as_lists = bpe_merges(doc)
    doc["model"]["merges"] = [" ".join(m) for m in merges]  # tokenizers < 0.20 wrote "a b"
    assert bpe_merges(doc) == as_lists
    vocab = doc["model"]["vocab"]
    # The k-th merge is named whichever way it is wrong (the whole-list reading leaves it to the one-by-one one).
    for bad, message in (
        ("zzz", r"merge 3: a merge must be"),
        (["Ġ", ""], r"merge 3: a merge must be"),
        (["Ġ", "ĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠ"], r"merge 3 \(Ġ ĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠ\) has a side or result not in the vocabulary"),
        (7, r"merge 3: a merge must be"),
    ):
        doc["model"]["merges"] = [*merges[:2], bad, *merges[3:]]
        with pytest.raises(InputError, match=message):
            bpe_merges(doc)
    assert "ĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠ" not in vocab


def test_deepseek_loads_by_path_only(monkeypatch):
    monkeypatch.delenv(HF_DIR_ENV, raising=False)
    assert "deepseek_v3" not in available_models() and "qwen3" in available_models()
    monkeypatch.setenv(HF_DIR_ENV, str(SHARED))
    assert "deepseek_v3" in available_models()
    assert load_gpt("deepseek_v3").name == "deepseek_v3"
    monkeypatch.delenv(HF_DIR_ENV)
    with pytest.raises(InputError, match="not shipped"):  # loaded once, yet not offered once its folder is unset
        load_gpt("deepseek_v3")


def _cli(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli_main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_encode_and_compare_take_a_tokenizer_json_and_the_names(tmp_path, qwen3, deepseek, monkeypatch, capsys):
    text = tmp_path / "t.txt"
    text.write_text("你好，世界！ 很有趣 hi <|im_start|>user", encoding="utf-8")
    code, out, _ = _cli(capsys, "encode", "--model", "qwen3", str(text))
    assert code == 0 and out.splitlines()[1] == " ".join(map(str, qwen3.encode(text.read_text(encoding="utf-8"))))
    code, out, _ = _cli(capsys, "encode", "--model", str(SHARED / "qwen3" / "tokenizer.json"), "--jsonl", str(text))
    assert code == 0 and json.loads(out)["ids"] == qwen3.encode(text.read_text(encoding="utf-8"))
    monkeypatch.delenv(HF_DIR_ENV, raising=False)
    code, _, err = _cli(capsys, "encode", "--model", "deepseek_v3", str(text))
    assert code == 2 and "not shipped" in err and HF_DIR_ENV in err
    code, out, _ = _cli(capsys, "compare", "--model", f"qwen3,{DEEPSEEK},gpt2", "--jsonl", str(text))
    tokens = json.loads(out)["tokens"]
    assert code == 0 and tokens["qwen3"] == len(qwen3.encode(text.read_text(encoding="utf-8")))
    assert tokens[str(DEEPSEEK)] == len(deepseek.encode(text.read_text(encoding="utf-8"))) < tokens["gpt2"]


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [', "truncated"),
        ('{"model": {"type": "BPE", "vocab": {"a": 0, "hel', "truncated"),  # cut inside a string
        ("not json at all", "not valid JSON"),
        ('{"version": "1.0"}', "no model with a vocabulary"),
        ('{"model": {"type": "Magic", "vocab": {}}}', "'Magic' is not one"),
        (
            '{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}, "pre_tokenizer": {"type": "Nope"}}',
            "tokenizers cannot read it",
        ),
    ],
)
def test_a_bad_tokenizer_json_is_one_clear_line_and_exit_status_2(tmp_path, content, message, capsys):
    bad = tmp_path / "tokenizer.json"
    bad.write_text(content, encoding="utf-8")
    text = tmp_path / "t.txt"
    text.write_text("hello", encoding="utf-8")
    code, out, err = _cli(capsys, "encode", "--model", str(bad), str(text))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err and "Cannot instantiate" not in err, err


@pytest.mark.parametrize("kind", ["WordPiece", "Unigram"])
def test_our_longest_match_and_lattice_cuts_give_tokenizers_tokens(kind, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(_trained(kind), encoding="utf-8")
    reference = tokenizers.Tokenizer.from_file(str(path))
    tok = load_tokenizer_json(path)
    for text in HELD_OUT:
        cuts = tok.cuts(text)
        if kind == "WordPiece":
            ours = [t for _piece, cut in cuts for t in cut.tokens]
        else:
            ours = [p for _piece, cut in cuts for _s, _e, p in cut.best]
        # Ids: for an unknown run, tokenizers' Unigram gives the text it stands for as its token.
        assert [tok.vocab[t] for t in ours] == reference.encode(text, add_special_tokens=False).ids, (kind, text)
    if kind == "WordPiece":  # the steps: longest candidate first, each shorter one after it until one is known
        _piece, cut = tok.cuts("tokenizers")[0]
        first = cut.steps[0]
        assert first.tried[0] == "tokenizers" and first.found == first.tried[-1] == cut.tokens[0]
        assert [len(t) for t in first.tried] == sorted((len(t) for t in first.tried), reverse=True)
    else:  # the best path is one of the lattice's edges, and no other path through them scores more
        _piece, lattice = tok.cuts("tokenizers")[0]
        assert set(lattice.best) <= {(s, e, p) for s, e, p, _score in lattice.edges}
        assert lattice.best[0][0] == 0 and lattice.best[-1][1] == len(lattice.word)


def test_a_lazy_load_gives_ids_at_once_and_builds_the_merges_once_on_first_use():
    tok = load_tokenizer_json(_trained("byte-level BPE").encode(), lazy=True)
    assert "_pair_of_rank" not in tok.__dict__  # only tokenizers has read it so far
    text = HELD_OUT[0]
    ids = tok.encode(text)
    assert "_pair_of_rank" not in tok.__dict__
    assert tok.own_encode(text) == ids and tok.num_merges > 0
    tables = tok._pair_of_rank
    tok._build()
    assert tok._pair_of_rank is tables  # built once
    with pytest.raises(AttributeError):
        tok.no_such_attribute  # noqa: B018


def test_cli_encodes_with_a_wordpiece_file_showing_its_own_unknown_token(tmp_path, capsys):
    model = tmp_path / "bert"
    model.mkdir()
    (model / "tokenizer.json").write_text(_trained("WordPiece"), encoding="utf-8")
    text = tmp_path / "t.txt"
    text.write_text("tokens world", encoding="utf-8")  # no "w" in the training text: world is unknown
    reference = tokenizers.Tokenizer.from_file(str(model / "tokenizer.json")).encode(
        "tokens world", add_special_tokens=False
    )
    code, out, _ = _cli(capsys, "encode", "--model", str(model), str(text))
    assert code == 0 and out.splitlines() == [" ".join(reference.tokens), " ".join(map(str, reference.ids))]
    assert "[UNK]" in out
    code, _, err = _cli(capsys, "encode", "--model", str(model), "--dropout", "0.5", str(text))
    assert code == 2 and "byte-level BPE" in err


def test_a_byte_level_file_without_all_256_bytes_still_gives_tokenizers_ids_and_says_why_no_replay(tmp_path):
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(["plain ascii text only"] * 5, trainers.BpeTrainer(vocab_size=60))  # no initial alphabet
    loaded = load_tokenizer_json(tok.to_str().encode())
    assert isinstance(loaded, HFOtherTokenizer) and "256 bytes" in loaded.unsupported
    assert loaded.encode("ascii only") == tok.encode("ascii only", add_special_tokens=False).ids


def test_a_tokenizers_chip_source_names_the_first_merge_making_each_token(qwen3):
    from ui.chips import TokenizerTokens

    gpt2 = load_gpt("gpt2")
    for tok in (gpt2, qwen3):
        src = TokenizerTokens(tok)
        made: dict = {}
        for rank, (left, right) in enumerate(tok.merges, start=1):  # the merge list as bytes, read the slow way
            made.setdefault(tok.vocab[left + right], (rank, tok.vocab[left], tok.vocab[right]))
        ids = tok.encode("很有趣 tokenization <|im_start|> 😀") + [tok._byte_ids[65], 1000, 50_000]
        assert [src.origin(t) for t in ids] == [made.get(t) for t in ids]
        assert src.origin(tok._byte_ids[65]) is None and src.origin(1000) is not None


def _pairs_file(path: Path, sha: str, changed: bool = False) -> Path:
    """The shipped qwen3.pairs rewritten under the header of ``sha``, its first merge's left id changed."""
    import zlib
    from array import array

    _head, _, body = (HERE / "qwen3.pairs").read_bytes().partition(b"\n")
    ids = array("I", zlib.decompress(body))
    if changed:
        ids[256] = (ids[256] + 1) % 256  # another byte: the file stays consistent
    path.write_bytes(b"bpe_core pairs 1 sha256=" + sha.encode() + b"\n" + zlib.compress(ids.tobytes()))
    return path


def test_qwen3s_shipped_pairs_give_the_tables_of_its_json_and_are_used_only_for_its_bytes(tmp_path):
    from bpe_core.models import _load_hf
    from bpe_core.models.hf_pairs import write_hf_pairs

    data = gzip.decompress((HERE / "qwen3.tokenizer.json.gz").read_bytes())
    assert write_hf_pairs(data, tmp_path / "q.pairs").read_bytes() == (HERE / "qwen3.pairs").read_bytes()
    from_json = load_tokenizer_json(data, name="qwen3")  # not lazy: built from the JSON
    fast = _load_hf("qwen3")
    assert fast.pairs_file == HERE / "qwen3.pairs"
    tables = ("values", "vocab", "_pair_of_rank", "_ranks", "_byte_ids", "_ignore_merges", "unsupported")
    for name in tables:
        assert getattr(fast, name) == getattr(from_json, name), name
    ours, theirs = fast._pieces, from_json._pieces
    assert (ours.added, ours.special, ours._normal) == (theirs.added, theirs.special, theirs._normal)
    assert [p.pattern for p in ours._splits] == [p.pattern for p in theirs._splits]
    text = "你好，世界！ 很有趣 hi <|im_start|>user 😀 " + HELD_OUT[5]
    assert fast.own_encode(text) == from_json.own_encode(text) == fast.encode(text)
    # The file is read when it names these bytes (a changed merge shows), never when it names others.
    sha = HF_MODELS["qwen3"][1]
    for header, used in ((sha, True), ("0" * 64, False)):
        tok = _load_hf("qwen3")
        tok.pairs_file = _pairs_file(tmp_path / "x.pairs", header, changed=True)
        assert (tok._pair_of_rank[0] != from_json._pair_of_rank[0]) is used


@pytest.mark.parametrize("which", ["qwen3", "deepseek_v3"])
def test_a_tokens_bytes_before_the_tables_are_built_are_the_tables_values_for_every_id(which):
    from bpe_core.models import _load_hf

    tok = _load_hf("qwen3") if which == "qwen3" else load_tokenizer_json(DEEPSEEK, name=which, lazy=True)
    size = tok.hf.get_vocab_size(with_added_tokens=True)
    ids = range(-1, size + 3)  # past both ends too: unknown ids
    cheap = {}
    for tid in ids:
        try:
            cheap[tid] = tok.token_value(tid)
        except ValueError:
            cheap[tid] = None
    assert "values" not in tok.__dict__  # read from tokenizers, one id at a time: the tables are not built
    values = tok.values  # now built (Qwen3: from its shipped pairs file; DeepSeek-V3: from its JSON)
    assert cheap == {tid: values.get(tid) for tid in ids}
    with pytest.raises(ValueError, match="unknown token id"):
        tok.token_value(size + 2)  # after the build too
    assert [tid for tid in tok._added_ids if cheap[tid] != tok.hf.id_to_token(tid).encode()] == []  # as UTF-8 text


@pytest.mark.parametrize("which", ["qwen3", "deepseek_v3"])
def test_merge_numbers_read_alone_are_the_tables_merges_and_stay_when_the_tables_are_built(which):
    from bpe_core.models import _load_hf
    from ui.chips import TokenizerTokens

    tok = _load_hf("qwen3") if which == "qwen3" else load_tokenizer_json(DEEPSEEK, name=which, lazy=True)
    data = tok._data
    src = TokenizerTokens(tok)
    ids = tok.encode("很有趣 tokenization <|im_start|> 😀 <｜begin▁of▁sentence｜>")
    made = [src.origin(t) for t in ids]  # a chip's "made at merge k from a + b"
    assert not {"values", "vocab", "_pieces"} & set(tok.__dict__)  # the merges as ids alone
    pairs = tok._pair_of_rank
    assert pairs == bpe_merges(read_tokenizer_json(data)).pairs  # the JSON's merges, however they were read
    tok.own_encode("很有趣")  # now every table is built
    assert tok._pair_of_rank is pairs and [src.origin(t) for t in ids] == made
    assert [o for o in made if o is not None] and all(tok.values[t] for t in ids)
