"""Token colours, shared by the chips of every page (:mod:`ui.chips`) and the pictures for slides
(:mod:`ui.pictures`). No Streamlit here, so the picture code and the tests can import it alone.

A token's colour comes from its VALUE, not its id: the same token (``es``; the bytes ``b"es"`` of a
byte-level run are the same text) has the same colour in every column of *Side by side*, on every
page and in every picture, whatever id each run gave it.
"""

from __future__ import annotations

import functools
import zlib


@functools.cache
def palette(presentation: bool) -> tuple[str, ...]:
    """Token colours as ``#rrggbb``.

    Normal mode: ColorBrewer "Set3" (Cynthia Brewer, colorbrewer2.org, as shipped in matplotlib's
    colormaps), light enough for black text. Presentation mode: Paul Tol's colour-blind-safe
    qualitative scheme "light", from his ``tol_colors`` package (Tol, "Colour Schemes",
    SRON/EPS/TN/09-002), designed for cells with black labels."""
    if presentation:
        import tol_colors

        return tuple(c.lower() for c in tol_colors.light)
    import matplotlib
    from matplotlib.colors import to_hex

    return tuple(to_hex(c) for c in matplotlib.colormaps["Set3"].colors)


def colour_index(value: str | bytes, n: int) -> int:
    """Index ``0..n-1`` into a palette of ``n`` colours for a token's value.

    ``value`` is the token's text (char and end-of-word runs) or its bytes (byte-level runs); text is
    taken as its UTF-8 bytes, so ``"es"`` and ``b"es"`` agree. The index is CRC-32 of those bytes
    modulo ``n``: stable across processes and Python versions (unlike ``hash()``, which is salted).

    Raises:
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"a palette needs at least one colour, not {n}")
    data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)
    return zlib.crc32(data) % n


def token_colour(value: str | bytes, presentation: bool) -> str:
    """The ``#rrggbb`` colour of a token's value in the chosen palette (see :func:`colour_index`)."""
    colours = palette(presentation)
    return colours[colour_index(value, len(colours))]
