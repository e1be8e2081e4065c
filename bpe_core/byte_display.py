"""How a byte-level token is shown to a person.

Three renderings of a token's bytes (see GPT-2's ``encoder.py`` for the alias table):

* ``utf8``  -- the bytes decoded as UTF-8; bytes that do not form a whole character are
  shown as ``\\xNN`` escapes, so ``b"\\xe4\\xbd"`` (the first two bytes of 你) reads ``\\xe4\\xbd``.
* ``hex``   -- lowercase hex pairs separated by spaces: ``e4 bd a0``.
* ``escaped`` -- Python's byte-escape form used by many tutorials: ``\\xe4\\xbd\\xa0``.
* ``gpt2``  -- GPT-2's ``bytes_to_unicode`` alias, one printable character per byte
  (a space is ``Ġ``, a newline ``Ċ``); this is the form stored in ``vocab.json``/``merges.txt``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

BYTE_RENDERINGS = ("utf8", "hex", "escaped", "gpt2")


@lru_cache(maxsize=1)
def bytes_to_unicode() -> dict[int, str]:
    """Return GPT-2's byte → printable-character table (256 entries).

    Printable Latin-1 bytes map to themselves; the other 68 bytes map to code points
    from U+0100 upward, in byte order. Source: openai/gpt-2 ``src/encoder.py``.
    """
    printable = (
        list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    )
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


@lru_cache(maxsize=1)
def unicode_to_bytes() -> dict[str, int]:
    """Inverse of :func:`bytes_to_unicode`: alias character → byte value."""
    return {c: b for b, c in bytes_to_unicode().items()}


@lru_cache(maxsize=1)
def _to_gpt2_table() -> dict[int, str]:
    """A ``str.translate`` table from the Latin-1 character of each byte to its alias (bytes that are their
    own alias left out)."""
    return {b: c for b, c in bytes_to_unicode().items() if ord(c) != b}


def to_gpt2(data: bytes) -> str:
    """Render bytes as GPT-2 alias characters (``b" the"`` → ``"Ġthe"``)."""
    return data.decode("latin-1").translate(_to_gpt2_table())


def to_gpt2_many(values: list[bytes]) -> list[str]:
    """:func:`to_gpt2` of each value, translated as one joined string (one alias character per byte, so
    the lengths in bytes cut it apart)."""
    text = b"".join(values).decode("latin-1").translate(_to_gpt2_table())
    ends = list(accumulate(map(len, values)))
    return list(map(text.__getitem__, map(slice, [0, *ends], ends)))


@lru_cache(maxsize=1)
def _from_gpt2_table() -> dict[int, int]:
    """A ``str.translate`` table that turns each alias character into the Latin-1 character of its byte,
    and each character below U+0100 that is *not* an alias into one that Latin-1 cannot encode."""
    table = {ord(c): b for c, b in unicode_to_bytes().items()}
    table.update({c: 0xFFFF for c in range(256) if c not in table})
    return table


def from_gpt2(text: str) -> bytes:
    """Turn a GPT-2 alias string back into bytes.

    Raises:
        ValueError: a character is not one of the 256 alias characters.
    """
    # translate + encode run in C: this is most of reading a 50,000-merge vocab.json and merges.txt.
    try:
        return text.translate(_from_gpt2_table()).encode("latin-1")
    except UnicodeEncodeError as err:
        raise ValueError(f"{text[err.start]!r} is not a GPT-2 byte alias character") from None


def from_gpt2_many(texts: list[str]) -> list[bytes]:
    """:func:`from_gpt2` of each string, translated as one joined string (an alias character is one byte,
    so the lengths in characters cut the bytes apart). Raises ``ValueError`` like :func:`from_gpt2`."""
    try:
        data = "".join(texts).translate(_from_gpt2_table()).encode("latin-1")
    except UnicodeEncodeError:
        return list(map(from_gpt2, texts))  # raises, naming the character
    ends = list(accumulate(map(len, texts)))
    return list(map(data.__getitem__, map(slice, [0, *ends], ends)))


def to_hex(data: bytes) -> str:
    """Lowercase hex pairs separated by spaces: ``b"\\xe4\\xbd"`` → ``"e4 bd"``."""
    return data.hex(" ")


def to_escaped(data: bytes) -> str:
    """Every byte as ``\\xNN``: ``b"\\xe4\\xbd"`` → ``"\\\\xe4\\\\xbd"``."""
    return "".join(f"\\x{b:02x}" for b in data)


def is_complete_utf8(data: bytes) -> bool:
    """True when ``data`` decodes as UTF-8 on its own (whole characters only)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def to_utf8_marked(data: bytes) -> str:
    """Decode as UTF-8, writing each byte of an incomplete or invalid sequence as ``\\xNN``.

    ``b"a\\xe4\\xbd"`` → ``"a\\xe4\\xbd"`` (the ``a`` decoded, the two orphan bytes escaped).
    """
    out = []
    i = 0
    n = len(data)
    while i < n:
        try:
            out.append(data[i:].decode("utf-8"))
            break
        except UnicodeDecodeError as err:
            out.append(data[i : i + err.start].decode("utf-8"))
            bad_end = i + max(err.end, err.start + 1)
            out.append(to_escaped(data[i + err.start : bad_end]))
            i = bad_end
    return "".join(out)


def render_bytes(data: bytes, mode: str = "utf8") -> str:
    """Render a byte token in one of :data:`BYTE_RENDERINGS`.

    Raises:
        ValueError: unknown mode.
    """
    if mode == "utf8":
        return to_utf8_marked(data)
    if mode == "hex":
        return to_hex(data)
    if mode == "escaped":
        return to_escaped(data)
    if mode == "gpt2":
        return to_gpt2(data)
    raise ValueError(f"unknown byte rendering {mode!r}; choose one of {', '.join(BYTE_RENDERINGS)}")
