"""A BPE ``tokenizer.json`` over characters (SentencePiece style: Llama 2, Mistral, Gemma; ``▁`` for a space, byte
fallback ``<0xE5>`` for a character the vocabulary lacks) as a character-level
:class:`~bpe_core.encoding.encoder.Tokenizer`, so its merges replay on a text as GPT-2's do. Its ids come from
``tokenizers`` (:class:`HFCharTokenizer` is also a :class:`~bpe_core.models.hf_model.HFOtherTokenizer`); the tests
check that our own encoding by the file's merges gives the same ids.

Public API: :func:`char_bpe` (the tokenizer from a loaded file, or None when its merges are not ours to replay).
"""

from __future__ import annotations

from ..encoding.encoder import Tokenizer
from .hf_model import HFOtherTokenizer


class HFCharTokenizer(HFOtherTokenizer, Tokenizer):
    """A character-level BPE ``tokenizer.json``: ids from ``tokenizers``; pre-tokens from ``tokenizers``' own
    pre-tokenizer; the replay, merge numbers and merge trees by the file's merges. Built by :func:`char_bpe`."""

    can_dropout = True

    def encode(self, text: str, dropout: float = 0.0, seed: int | None = None) -> list[int]:
        """``tokenizers``' ids; with ``dropout``, a BPE-dropout sample by our own merges."""
        return Tokenizer.encode(self, text, dropout, seed) if dropout else self.hf_ids(text)

    def own_encode(self, text: str) -> list[int]:
        """Our own encoding by merge rank (what the replay shows)."""
        return Tokenizer.encode(self, text)

    def symbol_ids(self, piece: str) -> list[int]:
        """The characters' ids; a character the vocabulary lacks is its UTF-8 bytes' ``<0xNN>`` tokens (byte
        fallback) or the unknown token (consecutive ones fused when the file says so), as ``tokenizers`` does."""
        tid = self.added.get(piece)
        if tid is not None:
            return [tid]
        out: list[int] = []
        get = self.vocab.get
        for ch in piece:
            tid = get(ch)
            if tid is not None:
                out.append(tid)
                continue
            fallback = [get(f"<0x{b:02X}>") for b in ch.encode("utf-8")] if self._byte_fallback else [None]
            if None not in fallback:
                out.extend(fallback)
            elif not (self._fuse_unk and out and out[-1] == self.unk_id):
                out.append(self.unk_id)
        return out

    def _encode_uncached(self, piece: str) -> tuple:
        return Tokenizer._encode_uncached(self, piece)

    def pieces(self, text: str) -> list[str]:
        return HFOtherTokenizer.pieces(self, text)

    token_value = HFOtherTokenizer.token_value
    decode = HFOtherTokenizer.decode
    merges = Tokenizer.merges  # the file's merges (HFOtherTokenizer shows none)

    def __repr__(self) -> str:
        return f"HFCharTokenizer({self.name!r}, merges={self.num_merges}, vocab={len(self.values)})"


def char_bpe(other: HFOtherTokenizer, doc: dict) -> HFCharTokenizer | None:
    """``other`` (a loaded BPE file that is not byte-level) as a :class:`HFCharTokenizer`, or None when its merges
    cannot be replayed by our own code (a continuing-subword prefix or end-of-word suffix, merges whose sides or
    result are not in the vocabulary)."""
    model = doc["model"]
    if model["type"] != "BPE" or model.get("continuing_subword_prefix") or model.get("end_of_word_suffix"):
        return None
    vocab = model["vocab"]
    merges = []
    for item in model.get("merges") or []:
        pair = item.split(" ", 1) if isinstance(item, str) else item
        if len(pair) != 2 or pair[0] not in vocab or pair[1] not in vocab or pair[0] + pair[1] not in vocab:
            return None
        merges.append((pair[0], pair[1]))
    try:
        base = Tokenizer("char", "none", merges, vocab)
    except ValueError:
        return None
    tok = HFCharTokenizer.__new__(HFCharTokenizer)
    tok.__dict__.update(base.__dict__)
    tok.__dict__.update(other.__dict__)  # the tokenizers side: hf, added tokens, every token by its id
    tok.vocab = dict(vocab)  # the model's own pieces (the added tokens are matched before)
    tok._byte_fallback, tok._fuse_unk = bool(model.get("byte_fallback")), bool(model.get("fuse_unk"))
    return tok
