"""A GPT-2 model folder (``vocab.json`` + ``merges.txt``, as Hugging Face and OpenAI publish it) read with
``load_model``: the same ids as tiktoken, and the whole-token short cut only for a merge list known to allow it."""

from __future__ import annotations

import hashlib
import json

import pytest
from tiktoken_offline import TEXTS, ref

from bpe_core.byte_display import from_gpt2, from_gpt2_many, to_gpt2, to_gpt2_many
from bpe_core.encoding.apply_merges import bpe_leftmost
from bpe_core.formats.files import load_model, merges_txt, vocab_dict
from bpe_core.formats.gpt2_files import layout_vocab, merge_ids, parse_merges, parse_vocab
from bpe_core.inputs import InputError
from bpe_core.models import KNOWN_MERGES, MODELS, load_gpt, mark_known_merges


def write_folder(path, tok, merges_text: str | None = None, extra: dict | None = None):
    """``tok`` as GPT-2 files: vocab.json (plus ``extra`` entries) and merges.txt with its #version line."""
    path.mkdir()
    vocab = {**vocab_dict(tok), **(extra or {})}
    (path / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (path / "merges.txt").write_text(merges_text or merges_txt(tok), encoding="utf-8", newline="")
    return path


@pytest.fixture(scope="module")
def gpt2_folder(tmp_path_factory):
    return write_folder(tmp_path_factory.mktemp("gpt2") / "gpt2", load_gpt("gpt2"), extra={"<|endoftext|>": 50256})


@pytest.mark.parametrize("name", list(MODELS))
def test_known_merge_digests_are_the_shipped_merge_lists(name):
    tok = load_gpt(name)
    lines = "\n".join(f"{to_gpt2(left)} {to_gpt2(right)}" for left, right in tok.merges)
    assert KNOWN_MERGES[hashlib.sha256(lines.encode("utf-8")).hexdigest()] == name


def test_every_gpt2_token_encodes_to_itself_through_the_merges():
    # What the whole-token short cut assumes, for every one of the 50,000 merged tokens.
    tok = load_gpt("gpt2")
    byte_id = tok._byte_ids.__getitem__
    for tid in range(256, len(tok.values)):
        assert bpe_leftmost(list(map(byte_id, tok.values[tid])), tok._ranks, tok._pair_of_rank) == [tid], tid


@pytest.mark.parametrize("kind", list(TEXTS))
def test_a_gpt2_folder_gives_tiktokens_ids(gpt2_folder, kind):
    tok = load_model(gpt2_folder)
    assert tok._whole_tokens is not None  # the shipped GPT-2 merges: the short cut is taken
    text = TEXTS[kind] + " <|endoftext|> the end"  # a special token's text is encoded as text
    ids = tok.encode(text)
    assert ids == ref("gpt2").encode_ordinary(text)
    assert tok.decode(ids) == text
    assert tok.vocab[b"<|endoftext|>"] == 50256 and b"<|endoftext|>" not in tok._whole_tokens


def test_the_folder_read_back_matches_the_shipped_model(gpt2_folder):
    tok, shipped = load_model(gpt2_folder), load_gpt("gpt2")
    assert tok.merges == shipped.merges and tok.num_merges == 50_000
    assert {v: i for v, i in tok.vocab.items() if i < 50256} == shipped.vocab
    assert tok.merge_number(50255) == 50_000 and tok.merge_tree(50255).token == 50255
    ids = list(range(0, 50257, 97))
    assert tok.token_wires(ids) == [tok.token_wire(i) for i in ids] == to_gpt2_many([tok.values[i] for i in ids])


def test_crlf_and_no_final_newline_read_the_same(tmp_path, gpt2_folder):
    text = (gpt2_folder / "merges.txt").read_text(encoding="utf-8")
    crlf = write_folder(tmp_path / "crlf", load_gpt("gpt2"), text.rstrip("\n").replace("\n", "\r\n"))
    tok = load_model(crlf)
    assert tok._whole_tokens is not None and tok.merges == load_gpt("gpt2").merges


def test_another_merge_list_gets_no_short_cut_and_still_encodes_by_the_merges(tmp_path):
    # GPT-2's merges with two swapped: not a known list, so every pre-token goes through the merges.
    lines = merges_txt(load_gpt("gpt2")).split("\n")
    lines[1], lines[2] = lines[2], lines[1]
    folder = write_folder(tmp_path / "swapped", load_gpt("gpt2"), "\n".join(lines))
    tok = load_model(folder)
    assert tok._whole_tokens is None
    text = TEXTS["english"][:5_000] + TEXTS["edge cases"]
    by_trace, _ = tok.encode_with_trace(text)  # merge by merge, no short cut anywhere
    assert tok.encode(text) == by_trace


def test_results_out_of_merge_order_are_looked_up_not_taken_from_the_layout(tmp_path):
    # Merges 1 and 2 swapped, vocab.json as shipped (ids 256, 257, ... in order): each result is then the entry
    # after or before its line's, so the layout's short cut (merge k makes id 256 + k) must not be taken.
    shipped = load_gpt("gpt2")
    lines = merges_txt(shipped).split("\n")
    lines[1], lines[2] = lines[2], lines[1]
    folder = write_folder(tmp_path / "swapped", shipped, "\n".join(lines))
    _, (_, _, new_ids) = _wire(folder)
    assert not isinstance(new_ids, range) and new_ids[:3] == [257, 256, 258]
    tok = load_model(folder)
    assert tok.merges[:2] == shipped.merges[1::-1] and [new for _, _, new in tok._pair_of_rank[:2]] == [257, 256]


def _wire(folder):
    vocab = parse_vocab((folder / "vocab.json").read_text(encoding="utf-8"))
    return vocab, merge_ids(parse_merges((folder / "merges.txt").read_text(encoding="utf-8")), vocab)


def test_gpt2s_layout_gives_each_token_the_bytes_its_written_string_stands_for(gpt2_folder):
    vocab_wire, ids = _wire(gpt2_folder)
    assert isinstance(ids[2], range)  # merge k makes entry 256 + k
    by_layout = layout_vocab(vocab_wire, ids)
    assert list(by_layout.items()) == list(zip(from_gpt2_many(list(vocab_wire)), vocab_wire.values()))


def test_a_file_out_of_layout_is_read_entry_by_entry(tmp_path):
    tok = load_gpt("gpt2")
    # Merge 1 ("Ġ t") and its token moved to the end, ids in the new order: the results are in the layout, but
    # later merges use "Ġt" before it is made.
    lines = merges_txt(tok).split("\n")  # a #version line, then the merges
    entries = list(vocab_dict(tok))
    late = tmp_path / "late"
    late.mkdir()
    order = entries[:256] + entries[257:] + entries[256:257]
    (late / "vocab.json").write_text(json.dumps(dict(zip(order, range(len(order)))), ensure_ascii=False), "utf-8")
    (late / "merges.txt").write_text("\n".join(lines[:1] + lines[2:] + lines[1:2]), encoding="utf-8")
    vocab_wire, ids = _wire(late)
    assert isinstance(ids[2], range) and layout_vocab(vocab_wire, ids) is None
    # The base bytes not at ids 0..255 (two swapped): every token still gets its own bytes.
    vocab = vocab_dict(tok)
    first, second = list(vocab)[:2]
    vocab[first], vocab[second] = vocab[second], vocab[first]
    swapped = tmp_path / "swapped"
    swapped.mkdir()
    (swapped / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (swapped / "merges.txt").write_text(merges_txt(tok), encoding="utf-8")
    assert layout_vocab(*_wire(swapped)) is None
    loaded = load_model(swapped)
    assert loaded.vocab[from_gpt2(first)] == vocab[first] and loaded.decode(loaded.encode("hi")) == "hi"


def test_an_entry_outside_the_alphabet_after_the_merges_is_judged_as_in_any_file(tmp_path):
    # "\x00" is not in GPT-2's byte alphabet, so it stands for its UTF-8 byte 0x00, which the base entry "Ā"
    # already stands for: the layout leaves it to the general reading, whose message names the clash.
    folder = write_folder(tmp_path / "clash", load_gpt("gpt2"), extra={"<|endoftext|>": 50256, "\x00": 50257})
    assert layout_vocab(*_wire(folder)) is None
    with pytest.raises(InputError, match="stand for the same bytes"):
        load_model(folder)


def test_the_layouts_short_cut_table_is_the_one_the_merges_give(gpt2_folder):
    # In GPT-2's layout every id below the last merge's is made, so only the entries after it are left out of
    # the whole-token table; read from the merges themselves, the table is the same.
    tok = load_model(gpt2_folder)
    by_layout = tok._whole_tokens
    tok._whole_tokens = None
    text = parse_merges((gpt2_folder / "merges.txt").read_text(encoding="utf-8")).text
    assert mark_known_merges(tok, text) == "gpt2"
    assert tok._whole_tokens == by_layout and len(by_layout) == 50256 and b"<|endoftext|>" not in by_layout


def test_more_merges_than_entries_after_the_bytes_is_not_the_layout(tmp_path):
    # "ab c" and "a bc" both make "abc": four merges, three entries after the 256 bytes. The results that are
    # there match merges 1-3 in order, but merge 4's id is abc's, not a 260th entry.
    folder = tmp_path / "twice"
    folder.mkdir()
    base = [to_gpt2(bytes((b,))) for b in range(256)]
    vocab = dict(zip([*base, "bc", "ab", "abc"], range(259)))
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (folder / "merges.txt").write_text("b c\na b\nab c\na bc\n", encoding="utf-8")
    assert _wire(folder)[1][2] == [256, 257, 258, 258]
    tok = load_model(folder)
    assert tok.encode("abc") == [258] and tok.decode(tok.encode("abcab")) == "abcab"
