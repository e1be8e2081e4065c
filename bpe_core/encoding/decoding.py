"""Turning token ids back into text: the decoding methods of :class:`bpe_core.encoding.encoder.Tokenizer`.

A mix-in, as :class:`~bpe_core.encoding.longest_match.LongestMatchEncoder` is: it uses the tokenizer's ``variant``,
``values`` (``{id: value}``) and ``unk_id``. char/eow tokens are text; byte-level tokens are bytes, shown
as UTF-8 (with ``\\xNN`` for bytes that are not whole characters) or written in GPT-2's byte alphabet in
files and JSON lines.
"""

from __future__ import annotations

from ..byte_display import is_complete_utf8, to_gpt2_many

#: The unknown token of char/eow (a base symbol the vocabulary lacks); byte-level never needs one.
UNK_TOKEN = "<unk>"


class Decoder:
    """The decoding methods of :class:`bpe_core.encoding.encoder.Tokenizer` (a mix-in)."""

    def token_value(self, tid: int):
        """The value of a token id (``"<unk>"`` for the unknown token). Raises ``ValueError``."""
        if tid in self.values:
            return self.values[tid]
        if tid == self.unk_id and tid is not None:
            return UNK_TOKEN
        raise ValueError(f"unknown token id {tid!r}")

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """A token as display text: char/eow as themselves; bytes in ``mode`` (utf8, hex, escaped, gpt2)."""
        value = self.token_value(tid)
        if tid == self.unk_id:
            return UNK_TOKEN
        return self.variant.display(value, mode)

    def token_wire(self, tid: int) -> str:
        """The token as written in files and JSON (text for char/eow, GPT-2 alias for bytes)."""
        if tid == self.unk_id and tid is not None:
            return UNK_TOKEN
        return self.variant.wire(self.token_value(tid))

    def token_wires(self, ids) -> list[str]:
        """:meth:`token_wire` of each id, converted together (a byte-level model's 50,000 token spellings
        take one ``str.translate``). Raises ``ValueError`` for an id that is not in the vocabulary."""
        if not self.variant.is_bytes:
            return list(map(self.token_wire, ids))
        return to_gpt2_many(list(map(self.token_value, ids)))

    def decode(self, ids) -> str:
        """Turn ids back into text.

        byte-level: the bytes joined and decoded as UTF-8 (invalid sequences → U+FFFD).
        eow: token texts joined; the end-of-word marker ends a word, words are separated by one
        space (no trailing space). char: token texts joined. ``<unk>`` stays visible as ``<unk>``.

        Raises:
            ValueError: an id that is not in the vocabulary.
        """
        if self.variant.is_bytes:
            return b"".join(self.token_value(t) for t in ids).decode("utf-8", errors="replace")
        texts = [UNK_TOKEN if t == self.unk_id else self.token_value(t) for t in ids]
        if self.variant.kind != "eow":
            return "".join(texts)
        marker = self.variant.eow_marker
        words = []
        buf: list[str] = []
        for t, text in zip(ids, texts):
            if t != self.unk_id and text.endswith(marker):
                buf.append(text[: -len(marker)])
                words.append("".join(buf))
                buf = []
            else:
                buf.append(text)
        if buf:
            words.append("".join(buf))
        return " ".join(words)

    def decode_detail(self, ids) -> list[tuple[int, str, bool]]:
        """``[(id, text, complete_utf8)]`` per token: byte tokens shown as UTF-8 with ``\\xNN`` for bytes
        that are not whole characters, and whether the token's bytes are complete UTF-8 on their own
        (always True for char/eow)."""
        out = []
        for t in ids:
            value = self.token_value(t)
            if self.variant.is_bytes:
                out.append((t, self.variant.display(value, "utf8"), is_complete_utf8(value)))
            else:
                out.append((t, UNK_TOKEN if t == self.unk_id else value, True))
        return out
