"""Tests of bpe_core.formats.files: merges.txt / vocab.json / tokenizer.json / bpe_explorer.json, and loading
GPT-2-style files. tokenizer.json is checked against Hugging Face ``tokenizers`` itself."""

from __future__ import annotations

import json

import pytest
from core_checks import assert_one_line_message, cfg_for
from corpus_excerpts import corpus_slice
from textbook import TEXTBOOK_WORDS
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import InputError, TrainConfig, corpus_words, train
from bpe_core.byte_display import to_gpt2
from bpe_core.encoding.encoder import Tokenizer
from bpe_core.formats.files import (
    load_gpt2_files,
    load_model,
    merges_txt,
    save_model,
    tokenizer_json,
    vocab_dict,
)


def trained(variant, pretokenizer, text, merges=300, style="separate", **kw):
    cfg = TrainConfig(variant=variant, pretokenizer=pretokenizer, num_merges=merges, eow_style=style, **kw)
    return train(corpus_words(text, cfg), cfg)


# ------------------------------------------------------------------------------ file contents
def test_textbook_merges_and_vocab_files(tmp_path):
    run = train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=5))
    paths = save_model(run, tmp_path / "m")
    assert sorted(p.name for p in paths) == ["bpe_explorer.json", "merges.txt", "vocab.json"]
    assert (tmp_path / "m" / "merges.txt").read_text(encoding="utf-8") == (
        "#version: 0.2\ne s\nes t\nest </w>\nl o\nlo w\n"
    )
    vocab = json.loads((tmp_path / "m" / "vocab.json").read_text(encoding="utf-8"))
    assert list(vocab.items()) == [
        ("d", 0),
        ("e", 1),
        ("i", 2),
        ("l", 3),
        ("n", 4),
        ("o", 5),
        ("r", 6),
        ("s", 7),
        ("t", 8),
        ("w", 9),
        ("</w>", 10),
        ("es", 11),
        ("est", 12),
        ("est</w>", 13),
        ("lo", 14),
        ("low", 15),
        ("<unk>", 16),
    ]
    manifest = json.loads((tmp_path / "m" / "bpe_explorer.json").read_text(encoding="utf-8"))
    assert (
        manifest["variant"] == "eow"
        and manifest["eow_style"] == "separate"
        and manifest["pretokenizer"] == "whitespace"
    )
    # a step of the run can be saved too
    assert merges_txt(run, step=2) == "#version: 0.2\ne s\nes t\n"
    assert len(vocab_dict(run, step=2)) == 11 + 2 + 1


def test_byte_level_files_use_bytes_to_unicode(tmp_path):
    run = trained("byte", "gpt2", "a a a a\n\u00e9 \u00e9", merges=3)
    # pieces: "a", " a" x3, "\n", "\u00e9", " \u00e9": (0x20, 0x61) 3 times, (0xc3, 0xa9) twice, then
    # (0x20, 0xc3a9) once: below the minimum frequency
    assert merges_txt(run) == "#version: 0.2\nĠ a\nÃ ©\n"
    assert run.stop_reason == "min_frequency"
    vocab = vocab_dict(run)
    assert vocab["Ġ"] == 32 and vocab["Ċ"] == 10 and vocab["a"] == 97 and vocab["Ġa"] == 256
    assert len(vocab) == 258 and "<unk>" not in vocab and vocab["Ã©"] == 257


def test_merges_txt_cannot_hold_tokens_with_spaces(tmp_path):
    run = trained("char", "gpt2", corpus_slice("pg16457.txt", 0, 5_000), merges=50)
    with pytest.raises(ValueError, match="whitespace") as info:
        save_model(run, tmp_path / "strict")
    assert "' " in str(info.value) or " '" in str(info.value)  # names the token
    assert not (tmp_path / "strict").exists()
    paths = save_model(run, tmp_path / "loose", strict=False)
    assert sorted(p.name for p in paths) == ["bpe_explorer.json", "vocab.json"]
    tok = load_model(tmp_path / "loose")
    sample = corpus_slice("pg16457.txt", 5_000, 3_000)
    assert tok.encode(sample) == run.tokenizer().encode(sample)


def test_tokenizer_json_needs_byte_or_attached_eow():
    with pytest.raises(ValueError, match="attached"):
        tokenizer_json(train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=3)))
    with pytest.raises(ValueError):
        tokenizer_json(train(TEXTBOOK_WORDS, TrainConfig(variant="char", num_merges=3)))


# ------------------------------------------------------------------------- HF tokenizer.json
HF_CASES = [
    # (corpus, train start, held-out start, variant, pre-tokenizer, eow style)
    ("pg16457.txt", 0, 200_000, "byte", "gpt2", "separate"),
    ("pg16457.txt", 0, 200_000, "byte", "gpt4", "separate"),
    ("hongloumeng.txt", 0, 400_000, "byte", "gpt2", "separate"),
    ("hongloumeng.txt", 0, 400_000, "byte", "gpt4", "separate"),
    ("emoji-test.txt", 0, 300_000, "byte", "gpt2", "separate"),
    ("emoji-test.txt", 0, 300_000, "byte", "gpt4", "separate"),
    ("pg16457.txt", 0, 200_000, "byte", "whitespace", "separate"),
    ("taylorswift.txt", 0, 100_000, "byte", "none", "separate"),
    ("pg16457.txt", 0, 200_000, "eow", "whitespace", "attached"),
    ("hongloumeng.txt", 0, 400_000, "eow", "whitespace", "attached"),
    ("emoji-test.txt", 0, 300_000, "eow", "whitespace", "attached"),
    ("taylorswift.txt", 0, 100_000, "eow", "gpt2", "attached"),
]


@pytest.mark.parametrize("name, train_at, test_at, variant, pretokenizer, style", HF_CASES)
def test_tokenizer_json_loads_in_hugging_face_and_encodes_to_our_ids(
    tmp_path, name, train_at, test_at, variant, pretokenizer, style
):
    """~50 KB of real text, 300 merges; HF's ids on different text from the same corpus == ours."""
    train_text = corpus_slice(name, train_at, 50_000 if name != "hongloumeng.txt" else 17_000)  # ~50 KB of UTF-8
    held_out = corpus_slice(name, test_at, 20_000 if name != "hongloumeng.txt" else 7_000)
    run = trained(variant, pretokenizer, train_text, merges=300, style=style)
    assert run.num_steps == 300
    # eow + gpt2 has tokens with spaces: no merges.txt, but tokenizer.json holds merges as pairs
    paths = save_model(run, tmp_path, strict=pretokenizer == "whitespace" or variant == "byte")
    assert "tokenizer.json" in [p.name for p in paths]
    hf = HFTokenizer.from_file(str(tmp_path / "tokenizer.json"))
    ours = run.tokenizer()
    our_ids = ours.encode(held_out)
    hf_ids = hf.encode(held_out).ids
    assert hf_ids == our_ids
    assert hf.get_vocab_size() == len(vocab_dict(run))
    if variant == "eow" and name != "pg16457.txt":
        assert ours.unk_id in our_ids  # the held-out text has characters the training text lacked
    if variant == "byte" and pretokenizer != "whitespace":
        assert hf.decode(hf_ids) == held_out == ours.decode(our_ids)
    if variant == "eow" and pretokenizer == "whitespace":
        assert hf.decode(hf_ids) == ours.decode(our_ids)


def test_known_difference_python_whitespace_vs_hf_whitespacesplit():
    """Documented difference, not a bug in either: Python's str.split() (our whitespace pre-tokenizer)
    treats the information separators U+001C..U+001F as whitespace; HF's WhitespaceSplit (Rust
    char::is_whitespace, the Unicode White_Space property) does not. Real text rarely holds them."""
    run = trained("byte", "whitespace", "ab ab ab", merges=1)
    hf = HFTokenizer.from_str(tokenizer_json(run))
    ours = run.tokenizer()
    assert ours.encode("ab\x1fab") == [256, 256]
    assert hf.encode("ab\x1fab").ids == [256, 0x1F, 256]
    assert hf.encode("ab\tab\u3000ab").ids == ours.encode("ab\tab\u3000ab")  # other whitespace agrees


# ----------------------------------------------------------------------------------- round trip
@pytest.mark.parametrize(
    "variant, pretokenizer, style, marker",
    [
        ("byte", "gpt2", "separate", "</w>"),
        ("byte", "gpt4", "separate", "</w>"),
        ("byte", "whitespace", "separate", "</w>"),
        ("eow", "whitespace", "separate", "</w>"),
        ("eow", "whitespace", "attached", "@@"),
        ("char", "whitespace", "separate", "</w>"),
    ],
)
def test_save_load_round_trip_gives_identical_encodings(tmp_path, variant, pretokenizer, style, marker):
    run = trained(
        variant, pretokenizer, corpus_slice("pg16457.txt", 0, 40_000), merges=250, style=style, eow_marker=marker
    )
    save_model(run, tmp_path)
    loaded = load_model(tmp_path)
    ours = run.tokenizer()
    assert (loaded.variant, loaded.pretokenizer) == (ours.variant, ours.pretokenizer)
    assert loaded.vocab == ours.vocab and loaded.merges == ours.merges and loaded.unk_id == ours.unk_id
    sample = corpus_slice("pg16457.txt", 300_000, 15_000) + " Größe 你好 🙂"
    assert loaded.encode(sample) == ours.encode(sample)
    assert loaded.encode_longest_match(sample) == ours.encode_longest_match(sample)
    assert loaded.decode(ours.encode(sample)) == ours.decode(ours.encode(sample))


def test_load_gpt2_files_on_saved_byte_level_files(tmp_path):
    run = trained("byte", "gpt2", corpus_slice("pg16457.txt", 0, 50_000))
    save_model(run, tmp_path)
    tok = load_gpt2_files(
        (tmp_path / "vocab.json").read_text(encoding="utf-8"),
        (tmp_path / "merges.txt").read_text(encoding="utf-8"),
    )
    sample = corpus_slice("pg16457.txt", 250_000, 20_000)
    assert tok.encode(sample) == run.tokenizer().encode(sample)
    assert tok.decode(tok.encode(sample)) == sample
    # a directory holding only the GPT-2 pair loads the same way
    gpt2_dir = tmp_path / "gpt2"
    gpt2_dir.mkdir()
    for name in ("vocab.json", "merges.txt"):
        (gpt2_dir / name).write_bytes((tmp_path / name).read_bytes())
    assert load_model(gpt2_dir).encode(sample) == tok.encode(sample)


def _gpt2_pair(extra_vocab=None, merges=("Ġ t", "Ġt h")):
    alias = [to_gpt2(bytes((b,))) for b in range(256)]
    vocab = {a: i for i, a in enumerate(alias)}
    vocab.update({"Ġt": 256, "Ġth": 257})
    vocab.update(extra_vocab or {})
    return json.dumps(vocab), "#version: 0.2\n" + "\n".join(merges) + "\n"


def test_load_gpt2_files_with_gpt2_style_ids_and_special_tokens():
    # GPT-2's own ids do not follow byte values: remap so "!" is 0, as in the real vocab.json
    vocab_text, merges_text = _gpt2_pair({"<|endoftext|>": 258})
    vocab = json.loads(vocab_text)
    order = sorted(vocab, key=lambda t: (vocab[t] != ord("!"), vocab[t]))
    remapped = {t: i for i, t in enumerate(order)}
    tok = load_gpt2_files(json.dumps(remapped), merges_text.replace("\n", "\r\n"))
    assert tok.encode("!") == [0]
    ids = tok.encode(" the thin")
    assert [tok.token_wire(i) for i in ids] == ["Ġth", "e", "Ġth", "i", "n"]
    assert ids[0] == remapped["Ġth"]
    assert tok.decode([remapped["<|endoftext|>"]]) == "<|endoftext|>"


@pytest.mark.parametrize(
    "vocab_text, merges_text, message",
    [
        ("{not json", "#version: 0.2\n", "vocab.json is not valid JSON"),
        ('["a", "b"]', "#version: 0.2\n", "JSON object"),
        (None, "#version: 0.2\nĠ t\nĠt h x\n", "line 3"),
        (None, "#version: 0.2\nĠ t\nĠt  h\n", "line 3"),
        (None, "#version: 0.2\nĠ t\nĠt q\n", "line 3"),  # result Ġtq not in the vocabulary
        (None, "#version: 0.2\nĠ t\nĠtz h\n", "line 3"),  # side not in the vocabulary
    ],
)
def test_load_gpt2_files_rejects_bad_input_with_one_line(vocab_text, merges_text, message):
    if vocab_text is None:
        vocab_text, _ = _gpt2_pair()
    with pytest.raises(InputError, match=message) as info:
        load_gpt2_files(vocab_text, merges_text)
    assert "\n" not in str(info.value)


def test_load_gpt2_files_needs_every_byte():
    vocab = json.loads(_gpt2_pair()[0])
    del vocab["A"]
    with pytest.raises(InputError, match="0x41"):
        load_gpt2_files(json.dumps(vocab), "#version: 0.2\nĠ t\n")


def test_load_model_errors_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="not a model directory"):
        load_model(tmp_path / "nope")
    with pytest.raises(InputError, match="neither"):
        load_model(tmp_path)
    run = train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=5))
    save_model(run, tmp_path)
    (tmp_path / "merges.txt").write_text("#version: 0.2\ne s\nes q\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 3"):
        load_model(tmp_path)


def test_save_accepts_a_tokenizer_and_loaded_models_save_again(tmp_path):
    run = trained("byte", "gpt4", corpus_slice("emoji-test.txt", 0, 20_000), merges=100)
    save_model(run, tmp_path / "a")
    again = load_model(tmp_path / "a")
    assert isinstance(again, Tokenizer)
    save_model(again, tmp_path / "b")
    for name in ("merges.txt", "vocab.json", "tokenizer.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


# ------------------------------------------------------------------------- model files (vocab/merges)
def _gpt2_vocab() -> dict:
    from bpe_core.byte_display import bytes_to_unicode

    alias = bytes_to_unicode()
    return {alias[b]: b for b in range(256)}


def _model_error(vocab_text, merges_text) -> InputError:
    from bpe_core.formats.files import load_gpt2_files

    with pytest.raises(InputError) as info:
        load_gpt2_files(vocab_text, merges_text)
    return info.value


@pytest.mark.parametrize(
    "vocab, merges, needle",
    [
        ("{not json", "", "not valid JSON"),
        ("[1, 2, 3]", "", "JSON object"),
        ('{"a": -1}', "", "non-negative"),
        ('{"a": "1"}', "", "non-negative"),
        ('{"a": true}', "", "non-negative"),
        ('{"a": 1.5}', "", "non-negative"),
        ('{"a": 0, "b": 0}', "", "id 0"),
        ("VOCAB", "a b c", "line 1"),
        ("VOCAB", "#version: 0.2\na\n", "line 2"),
        ("VOCAB", "a  b", "line 1"),
        ("VOCAB", "a z", "not in vocab.json"),  # the result "az" is missing
        ("VOCAB", "\u4e00 a", "line 1"),
        ('{"a": 0}', "", "256"),  # bytes missing
        (b"\x89PNG\r\n\x1a\n\x00\x00", "", "UTF-8"),
        ("\ufeff{bad", "", "JSON"),
        ("VOCAB", b"\xff\xfe a b", "UTF-8"),
    ],
)
def test_malformed_or_inconsistent_gpt2_files(vocab, merges, needle):
    if vocab == "VOCAB":
        vocab = json.dumps(_gpt2_vocab())
    assert_one_line_message(_model_error(vocab, merges), needle)


def test_consistent_gpt2_files_load():
    from bpe_core.formats.files import load_gpt2_files

    vocab = _gpt2_vocab()
    vocab["ab"] = 256
    tok = load_gpt2_files(json.dumps(vocab), "#version: 0.2\na b\n")
    assert tok.decode(tok.encode("abab ab")) == "abab ab"


def test_saved_model_damaged_on_disk(tmp_path):
    from bpe_core.formats.files import load_model, save_model

    run = train(TEXTBOOK_WORDS, cfg_for("eow", num_merges=5))
    out = tmp_path / "model"
    save_model(run, out)
    load_model(out)  # intact: loads
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    damages = {
        "manifest not JSON": {"bpe_explorer.json": b"{oops"},
        "manifest from elsewhere": {"bpe_explorer.json": b'{"format": "something else"}'},
        "vocab not JSON": {"vocab.json": b"\x89PNG\r\n\x1a\n"},
        "vocab lost entries": {"vocab.json": b'{"l": 0}'},
        "merges garbage": {"merges.txt": b"one two three\n"},
        "merges unknown token": {"merges.txt": b"#version: 0.2\nq\xc3\xa9 z\n"},
        "merges not UTF-8": {"merges.txt": b"\xff\xfe\x00l\x00o"},
    }
    for what, change in damages.items():
        for name, data in files.items():
            (out / name).write_bytes(data)
        for name, data in change.items():
            (out / name).write_bytes(data)
        with pytest.raises(InputError) as info:
            load_model(out)
        assert_one_line_message(info.value)
        print(f"{what}: {info.value}")
    with pytest.raises(InputError):
        load_model(tmp_path / "missing")
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(InputError):
        load_model(tmp_path / "a-file")
    with pytest.raises(InputError):
        load_model(tmp_path)  # a directory without model files
