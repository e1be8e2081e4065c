"""bpe_core.inputs: what reaches the library from a paste, a file or a word-frequency list (issue 6).

Every bad input is refused with an :class:`InputError` whose message is one line for a person; text
that is accepted (control characters, CR, BOM) trains with every variant and pre-tokenizer.
"""

from __future__ import annotations

import pytest
from core_checks import (
    KINDS,
    PRETOKENIZERS,
    assert_one_line_message,
    cfg_for,
    check_run,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import (
    InputError,
    TrainConfig,
    clean_text,
    corpus_words,
    decode_bytes,
    looks_like_word_counts,
    parse_word_counts,
    train,
)
from bpe_core.inputs import DEFAULT_MAX_BYTES, MAX_WORD_COUNT, max_input_bytes


# ------------------------------------------------------------------------------------- size limit
def test_a_20_mb_paste_is_refused_naming_the_limit():
    text = "word " * 4_000_000  # 20 MB
    with pytest.raises(InputError) as info:
        clean_text(text)
    assert_one_line_message(info.value, "20.0 MB", f"up to {DEFAULT_MAX_BYTES / 1e6:.1f} MB", "shorter text")
    # the variable that raises the limit is for whoever runs the server (README), not for the student
    assert "BPE_EXPLORER_MAX_BYTES" not in str(info.value)
    with pytest.raises(InputError) as info:
        decode_bytes(text.encode())
    assert_one_line_message(info.value, "20.0 MB", "up to 5.0 MB", "shorter text")
    assert "BPE_EXPLORER_MAX_BYTES" not in str(info.value)


def test_the_limit_is_configurable_and_counts_utf8_bytes(monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "1000")
    assert max_input_bytes() == 1000
    assert clean_text("a" * 1000) == "a" * 1000
    assert decode_bytes(b"a" * 1000) == "a" * 1000
    with pytest.raises(InputError) as info:
        clean_text("a" * 1001)
    assert_one_line_message(info.value, "1.0 kB")
    with pytest.raises(InputError):
        clean_text("你" * 334)  # 1,002 bytes of UTF-8 in 334 characters
    for bad in ("", "abc", "-5", "0"):
        monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", bad)
        assert max_input_bytes() == DEFAULT_MAX_BYTES
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "30000000")
    assert len(clean_text("word " * 4_000_000)) == 20_000_000


# ---------------------------------------------------------------------------------- files, encodings
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256))


@pytest.mark.parametrize(
    "data, needle",
    [
        (PNG, "binary"),
        (ZIP, "binary"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "binary"),
        (b"\x7fELF\x02\x01\x01" + bytes(9), "binary"),
        (b"GIF89a\x01\x00", "binary"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "binary"),
        (bytes(range(256)) * 4, "binary"),
        ("low lower newest".encode("utf-16"), "UTF-16"),
        ("low lower newest".encode("utf-16-le"), "NUL"),  # no BOM: ASCII in UTF-16 is full of NULs
        ("low lower newest".encode("utf-16-be"), "NUL"),
        ("café crème".encode("latin-1"), "UTF-8"),
        ("naïve façade".encode("cp1252"), "byte 2"),
        ("你好".encode("gbk"), "UTF-8"),
        (b"abc\xed\xa0\x80def", "UTF-8"),  # a surrogate encoded in UTF-8 (CESU) is not UTF-8
        (b"trailing \xe4\xbd", "UTF-8"),  # a cut multi-byte character
    ],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_undecodable_files_are_refused_with_a_message(data, needle):
    with pytest.raises(InputError) as info:
        decode_bytes(data)
    assert_one_line_message(info.value, needle)


def test_utf8_bom_is_dropped():
    assert decode_bytes(b"\xef\xbb\xbflow lower") == "low lower"
    assert clean_text("\ufefflow lower") == "low lower"
    assert clean_text("low\ufefflower") == "low\ufefflower"  # inside the text it is a character


def test_nul_is_refused_other_control_characters_are_text():
    with pytest.raises(InputError) as info:
        clean_text("low\x00lower")
    assert_one_line_message(info.value, "NUL")
    with pytest.raises(InputError):
        decode_bytes(b"low\x00lower")
    text = "a\x01b \x1b[31mred\x1b[0m \x7f\x08\x0b\x0c\x1c\x85 low\x07"
    assert clean_text(text) == text
    for variant in KINDS:
        for pre in PRETOKENIZERS:
            cfg = cfg_for(variant, pretokenizer=pre, num_merges=20, min_frequency=1)
            words = corpus_words(text, cfg)
            check_run(train(words, cfg), words, cfg)


def test_crlf_and_lone_cr():
    text = clean_text("low lower\r\nnewest\rwidest\r\n\r\nlow\n")
    cfg = cfg_for("eow", pretokenizer="whitespace", num_merges=20)
    assert corpus_words(text, cfg) == {"low": 2, "lower": 1, "newest": 1, "widest": 1}
    for variant in KINDS:
        for pre in ("gpt2", "gpt4", "none"):
            cfg = cfg_for(variant, pretokenizer=pre, num_merges=20, min_frequency=1)
            words = corpus_words(text, cfg)
            assert sum(len(w) * f for w, f in words.items()) == len(text)
            check_run(train(words, cfg), words, cfg)


def test_lone_surrogates_are_refused():
    for text in ("a\ud800b", "\udfff", "low \udc80lower"):
        with pytest.raises(InputError) as info:
            clean_text(text)
        assert_one_line_message(info.value, "surrogate", "U+")


# ---------------------------------------------------------------------------- word-frequency lists
@pytest.mark.parametrize(
    "text, needles",
    [
        ("low 5\nlower -2", ["Line 2", "positive"]),
        ("low 5\nlower 0", ["Line 2", "positive"]),
        ("low five", ["Line 1", "whole number"]),
        ("low 5.0", ["Line 1", "whole number"]),
        ("low 1e3", ["Line 1", "whole number"]),
        ("low +5", ["Line 1", "whole number"]),
        ("low 0x10", ["Line 1", "whole number"]),
        (f"low {MAX_WORD_COUNT + 1}", ["Line 1", "limit"]),
        ("low 10000000000000000000000000000000000000", ["Line 1", "limit"]),
        ("low " + "9" * 5000, ["Line 1", "limit"]),  # longer than Python's int-from-str limit (4300 digits)
        ("low", ["Line 1", "word count"]),
        ("low 5 6", ["Line 1", "word count"]),
        ("low 5\n\n\nnewest", ["Line 4"]),
        ("", ["empty"]),
        ("  \n\t\n", ["empty"]),
        ("low\x005", []),
    ],
    ids=lambda x: x[:20] if isinstance(x, str) else None,
)
def test_bad_word_count_lines_are_refused_naming_the_line(text, needles):
    with pytest.raises(InputError) as info:
        parse_word_counts(clean_text(text))
    assert_one_line_message(info.value, *needles)


def test_word_count_formats_and_huge_counts_that_are_allowed():
    text = "'low': 5,\n\"lower\": 2,\nnewest: 6\nwidest 3\r\nlow 1\n"
    assert parse_word_counts(text) == {"low": 6, "lower": 2, "newest": 6, "widest": 3}
    words = parse_word_counts(f"low {MAX_WORD_COUNT}\nlower {MAX_WORD_COUNT}\nnewest 1")
    for variant in KINDS:
        cfg = cfg_for(variant, num_merges=10)
        run = train(words, cfg)
        check_run(run, words, cfg)
        assert run.snapshots[0].count == 2 * MAX_WORD_COUNT


FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(text=st.lists(st.characters() | st.sampled_from(["\n", " ", "-", ":", "'", ",", "\r", "low", "0", "1", "5", "-3",
                                                        str(10**12), str(10**13), " " + "9" * 4000 + "\n", "9" * 4400]),
                     max_size=40).map("".join))  # fmt: skip
def test_fuzz_word_counts_only_input_errors(text):
    try:
        words = parse_word_counts(text)
    except InputError as err:
        assert_one_line_message(err)
        return
    assert words and all(w and not any(c.isspace() for c in w) for w in words)
    assert all(0 < c for c in words.values())
    if looks_like_word_counts(text):
        assert sum(words.values()) > 0
    cfg = TrainConfig(variant="eow", num_merges=5)
    check_run(train(words, cfg), words, cfg)


@FUZZ
@given(data=st.binary(max_size=200) | st.text(max_size=60).map(lambda t: t.encode("utf-8")))
def test_fuzz_decode_bytes(data):
    try:
        text = decode_bytes(data)
    except InputError as err:
        assert_one_line_message(err)
        return
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    assert text.encode("utf-8") == body and "\x00" not in text


def test_a_model_file_that_is_not_json_is_refused_in_one_line(tmp_path):
    from bpe_core.algorithms.boundless_encode import load_boundless_model
    from bpe_core.formats.field_models import load_field_model

    (tmp_path / "tokenizer.json").write_text('{"model": ', encoding="utf-8")
    (tmp_path / "boundless.json").write_bytes(b"\xff\xfe")
    for load, name in ((load_field_model, "tokenizer.json"), (load_boundless_model, "boundless.json")):
        with pytest.raises(InputError, match=rf"{name} cannot be read as JSON \(.+\)\.$") as err:
            load(tmp_path)
        assert "\n" not in str(err.value)
    assert load_field_model(tmp_path / "nothing") is None and load_boundless_model(tmp_path / "nothing") is None
