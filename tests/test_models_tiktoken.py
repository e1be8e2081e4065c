"""The shipped GPT tokenizers (bpe_core.models): ids equal tiktoken's ``encode_ordinary`` built offline
from the same rank files and patterns, on held-out text of every kind; the recovered merges."""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

import pytest
from tiktoken.load import load_tiktoken_bpe
from tiktoken_offline import SHA256, TEXTS, ref

import bpe_core
from bpe_core.encoding.apply_merges import bpe_simple
from bpe_core.models import HERE, MODELS, load_gpt, load_rank_file, write_pairs

PRE = importlib.import_module("bpe_core.pretokenize")
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "tokenizers"


def test_shipped_rank_files_are_the_documented_ones():
    for stem, digest in SHA256.items():
        data = (HERE / f"{stem}.tiktoken").read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest
        assert data == (SHARED / f"{stem}.tiktoken").read_bytes()
        assert digest in (HERE / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("kind", list(TEXTS))
def test_ids_equal_tiktoken_encode_ordinary(name, kind):
    text = TEXTS[kind]
    tok = load_gpt(name)
    expected = ref(name).encode_ordinary(text)
    assert tok.encode(text) == expected
    assert tok.encode(text) == expected  # again, from the piece cache
    assert tok.decode(expected) == text
    # The merge-by-merge trace (no whole-token short cut) reaches the same ids.
    if kind in ("english", "chinese", "edge cases"):
        ids, _ = tok.encode_with_trace(text[:3_000])
        assert ids == ref(name).encode_ordinary(text[:3_000])


@pytest.mark.parametrize("name", list(MODELS))
def test_every_token_is_its_own_merge_and_ids_are_ranks(name):
    tok = load_gpt(name)
    stem = MODELS[name][0]
    ranks = load_tiktoken_bpe(str(HERE / f"{stem}.tiktoken"))
    assert tok.vocab == ranks
    assert tok.num_merges == len(ranks) - 256
    for k in (0, 1, 1000, tok.num_merges - 1):
        left, right = tok.merges[k]
        assert ranks[left] < 256 + k and ranks[right] < 256 + k and ranks[left + right] == 256 + k
        assert tok.merge_number(256 + k) == k + 1
    # A token encodes to itself through the merges alone (what the whole-token short cut assumes).
    for tid in range(256, len(ranks), 997):
        start = [tok.vocab[bytes((b,))] for b in tok.values[tid]]
        assert bpe_simple(start, tok._ranks, tok._pair_of_rank) == [tid]


def test_load_gpt_is_cached_once_per_process_and_names_are_checked():
    assert load_gpt("gpt2") is load_gpt("gpt2")
    assert bpe_core.load_gpt is load_gpt and bpe_core.MODEL_NAMES == ("gpt2", "cl100k", "o200k", "qwen3", "deepseek_v3")
    with pytest.raises(ValueError, match="unknown model"):
        load_gpt("gpt5")


@pytest.mark.parametrize("stem", ["r50k_base", "cl100k_base"])
def test_pairs_files_are_regenerated_byte_for_byte(tmp_path, stem):
    (tmp_path / f"{stem}.tiktoken").write_bytes((HERE / f"{stem}.tiktoken").read_bytes())
    out = write_pairs(tmp_path / f"{stem}.tiktoken")
    assert out.read_bytes() == (HERE / f"{stem}.pairs").read_bytes()


def test_a_stale_or_missing_pairs_file_is_not_trusted(tmp_path):
    """Without a matching .pairs file the merges are recovered from the ranks (same tokenizer)."""
    small = b"".join((HERE / "r50k_base.tiktoken").read_bytes().splitlines(keepends=True)[:3_000])
    path = tmp_path / "small.tiktoken"
    path.write_bytes(small)
    recovered = load_rank_file(path, "gpt2")
    first = recovered.first_merges(100)
    assert recovered._merges is None  # the first 100 without listing all 2,744
    write_pairs(path)
    assert load_rank_file(path, "gpt2").merges == recovered.merges
    (tmp_path / "small.pairs").write_bytes((HERE / "r50k_base.pairs").read_bytes())  # another file's hash
    assert load_rank_file(path, "gpt2").merges == recovered.merges
    assert recovered.merges == load_gpt("gpt2").merges[: 3_000 - 256]
    assert first == recovered.merges[:100] == recovered.first_merges(100) and len(first) == 100


def test_a_broken_rank_file_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(b"IQ== 0\nIg== 2\n")
    with pytest.raises(ValueError, match="ranks 0..N-1"):
        load_rank_file(path, "gpt2")


def test_piece_cache_stays_within_its_size_and_never_changes_ids():
    tok = load_rank_file(HERE / "r50k_base.tiktoken", "gpt2")
    tok.CACHE_SIZE = 50
    text = TEXTS["english"][:5_000]
    expected = ref("gpt2").encode_ordinary(text)
    assert len(set(tok.pieces(text))) > 100
    assert tok.encode(text) == expected
    assert len(tok._cache) <= 50
    tok.encode(TEXTS["code"][:200])
    assert len(tok._cache) <= 50
    assert tok.encode(text) == expected


def test_sessions_loading_at_once_share_one_tokenizer():
    from concurrent.futures import ThreadPoolExecutor

    from bpe_core import models

    models._load_gpt.cache_clear()
    with ThreadPoolExecutor(4) as pool:
        loaded = list(pool.map(load_gpt, ["gpt2"] * 4))
    assert all(tok is loaded[0] for tok in loaded) and load_gpt("gpt2") is loaded[0]
    assert models._load_gpt.cache_info().misses == 1
