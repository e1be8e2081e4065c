"""Token chips: a token drawn as a coloured box with its text, a tooltip saying what it is, and a
hatched border for byte tokens that are not whole UTF-8 characters.

Chips draw from a :class:`TokenSource`: the few questions a chip asks about a token. A finished
:class:`bpe_core.TrainedRun` answers them through :class:`RunTokens` (made for you: every function
here takes a run or a source), a :class:`bpe_core.encoder.Tokenizer` through
:class:`TokenizerTokens` (encodings with ``<unk>``, uploaded GPT-2 models).

User text goes into HTML only through :func:`ui.text.esc_raw` / :func:`ui.text.esc`.
"""

from __future__ import annotations

from typing import Protocol

import matplotlib
import tol_colors
from matplotlib.colors import to_hex

from bpe_core import TrainedRun

from . import memo
from .i18n import ngettext
from .text import esc, esc_raw, visible

#: Token background colours in normal mode: ColorBrewer "Set3" (Cynthia Brewer, colorbrewer2.org, as
#: shipped in matplotlib's colormaps), light enough for black text.
PALETTE = tuple(to_hex(c) for c in matplotlib.colormaps["Set3"].colors)
#: Presentation mode: Paul Tol's colour-blind-safe qualitative scheme "light", from his ``tol_colors``
#: package (Tol, "Colour Schemes", SRON/EPS/TN/09-002), designed for cells with black labels.
PALETTE_COLOURBLIND = tuple(c.lower() for c in tol_colors.light)

#: Longest token drawn whole, in symbols (bytes or characters); a longer one (merges of a pasted run
#: of one character) is cut, with its length, so a chip never holds a megabyte of text.
TOKEN_CLIP = 48

#: Most chips one sequence draws; a longer one (a 1 MB pasted "word") ends with a count of the rest,
#: so one student's paste cannot make every rerun send megabytes of HTML.
MAX_CHIPS = 400


def palette(presentation: bool) -> tuple[str, ...]:
    """Token colours: ColorBrewer Set3, or Paul Tol's colour-blind-safe "light" scheme."""
    return PALETTE_COLOURBLIND if presentation else PALETTE


# ------------------------------------------------------------------------------------ the protocol
class TokenSource(Protocol):
    """What a chip needs to know about token ids.

    ``variant`` is the :class:`bpe_core.variants.Variant`; ``unk_id`` the id of ``<unk>`` (or
    ``None``); ``owner`` the object the chip memo is kept for (it must live as long as the source).
    """

    variant: object
    unk_id: int | None
    owner: object

    def token_value(self, tid: int) -> str | bytes: ...

    def is_partial(self, tid: int) -> bool: ...

    def origin(self, tid: int) -> tuple[int, int, int] | None:
        """``(step, left, right)`` of the merge that made the token; ``None`` for a base symbol."""


class RunTokens:
    """The :class:`TokenSource` of a finished run (cheap: made per call, never stored)."""

    unk_id = None

    def __init__(self, run: TrainedRun):
        self.run = self.owner = run
        self.variant = run.variant
        self.token_value = run.token_value
        self.is_partial = run.is_partial

    def origin(self, tid: int) -> tuple[int, int, int] | None:
        step = self.run.created_step[tid]
        if not step:
            return None
        left, right = self.run.created_from[tid]
        return step, left, right


class TokenizerTokens:
    """The :class:`TokenSource` of a :class:`bpe_core.encoder.Tokenizer`.

    Args:
        tok: the tokenizer.
        steps, sources: a run's ``created_step`` and ``created_from`` lists when the tokenizer comes
            from a run (merge steps then are the run's); otherwise they come from the tokenizer's
            merges (step = rank).
    """

    def __init__(self, tok, steps=None, sources=None):
        self.tok = tok
        self.owner = self
        self.variant = tok.variant
        self.unk_id = tok.unk_id
        self.token_value = tok.token_value
        if steps is None:
            made: dict[int, tuple[int, int, int]] = {}
            vocab = tok.vocab
            for rank, (left, right) in enumerate(tok.merges, start=1):
                made.setdefault(vocab[left + right], (rank, vocab[left], vocab[right]))
            self._made = made
        else:
            self._made = None
            self._steps, self._sources = steps, sources

    def is_partial(self, tid: int) -> bool:
        if tid == self.unk_id:
            return False
        return self.variant.is_partial(self.tok.token_value(tid))

    def origin(self, tid: int) -> tuple[int, int, int] | None:
        if self._made is not None:
            return self._made.get(tid)
        if not 0 <= tid < len(self._steps) or not self._steps[tid]:
            return None
        left, right = self._sources[tid]
        return self._steps[tid], left, right


def source_of(tokens) -> TokenSource:
    """``tokens`` as a :class:`TokenSource` (a run is wrapped)."""
    return RunTokens(tokens) if isinstance(tokens, TrainedRun) else tokens


# ------------------------------------------------------------------------------------------ labels
def token_label(tokens, tid: int, mode: str = "utf8") -> str:
    """The token as readable plain text (not escaped): visible whitespace; bytes per ``mode``
    (``"utf8"``, ``"hex"`` or ``"gpt2"``); a token over :data:`TOKEN_CLIP` symbols is cut."""
    src = source_of(tokens)
    value = src.token_value(tid)
    more = ""
    if len(value) > TOKEN_CLIP:
        n = len(value)
        if src.variant.is_bytes:
            more = ngettext("… ({n} byte)", "… ({n} bytes)", n).format(n=f"{n:,}")
        else:
            more = ngettext("… ({n} character)", "… ({n} characters)", n).format(n=f"{n:,}")
        value = value[:TOKEN_CLIP]
    if src.variant.is_bytes:
        if mode in ("hex", "gpt2"):
            return src.variant.display(value, mode) + more
        return visible(src.variant.display(value, "utf8")) + more
    return visible(value) + more


def _title(src: TokenSource, tid: int) -> str:
    parts = [f"token {tid}"]
    if src.variant.is_bytes:
        value = src.token_value(tid)
        parts.append("bytes " + value[:TOKEN_CLIP].hex(" ") + ("…" if len(value) > TOKEN_CLIP else ""))
        if src.is_partial(tid):
            parts.append("not a whole UTF-8 character")
    else:
        text = src.token_value(tid)
        if len(text) <= 4:
            parts.append(" ".join(f"U+{ord(c):04X}" for c in text))
    made = src.origin(tid)
    if made:
        step, left, right = made
        parts.append(f"made at step {step} from {token_label(src, left)} + {token_label(src, right)}")
    else:
        parts.append("base symbol")
    return " · ".join(parts)


# ------------------------------------------------------------------------------------------- chips
def chip_html(tokens, tid: int, mode: str = "utf8", presentation: bool = False, css: str = "",
              title: str | None = None) -> str:  # fmt: skip
    """One token as an HTML chip (escaped): colour by id, a dashed hatched border for partial UTF-8
    byte tokens (with their hex below in GPT-2 mode), a tooltip (``title``, default: bytes or code
    points and the merge that made it). ``css`` adds classes (``"new"``, ``"part"``, ``"unk"``)."""
    src = source_of(tokens)
    key = ("chip", tid, mode, presentation)
    table = memo.memo(src.owner)
    base = table.get(key)
    if base is None:
        colours = palette(presentation)
        classes, extra = "bpe-chip", ""
        if src.variant.is_bytes and src.is_partial(tid):
            classes += " partial"
            if mode == "gpt2":
                extra = f'<span class="hex">{esc_raw(src.token_value(tid)[:TOKEN_CLIP].hex(" "))}</span>'
        label = esc_raw(token_label(src, tid, mode))
        base = (classes, colours[(tid * 5) % len(colours)], esc_raw(_title(src, tid)), f"{label}{extra}</span>")
        memo.remember(src.owner, key, base)
    classes, colour, default_title, rest = base
    if css:
        classes = f"{classes} {css}"
    shown = default_title if title is None else esc_raw(title)
    return f'<span class="{classes}" style="background:{colour}" title="{shown}" data-token="{tid}">{rest}'


def chips_html(tokens, ids, mode: str = "utf8", new_token: int | None = None, presentation: bool = False,
               css: str = "", max_chips: int = MAX_CHIPS) -> str:  # fmt: skip
    """A sequence of token chips; chips equal to ``new_token`` are highlighted (thick outline).
    At most ``max_chips`` chips are drawn, then ``… N more tokens``."""
    src = source_of(tokens)
    shown = ids if len(ids) <= max_chips else ids[:max_chips]
    inner = "".join(chip_html(src, t, mode, presentation, "new" if t == new_token else "") for t in shown)
    if len(shown) < len(ids):
        rest = len(ids) - len(shown)
        more = ngettext(" … {n} more token", " … {n} more tokens", rest).format(n=f"{rest:,}")
        inner += f"<span class='bpe-muted'>{esc_raw(more)}</span>"
    return f'<span class="bpe-chips {css}">{inner}</span>'


def _code_points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


def tokens_html(tokens, ids, mode: str = "utf8", presentation: bool = False, with_ids: bool = True,
                unknown: list[str] | None = None, new_token: int | None = None, limit: int = 1500,
                css_id: str = "") -> str:  # fmt: skip
    """An encoding as chips, each with its id underneath. ``<unk>`` chips get a red frame, a tooltip
    and the symbol they stand for underneath (``unknown``, from :func:`bpe_core.replay.unknown_symbols`).
    Chips equal to ``new_token`` are highlighted. At most ``limit`` tokens are drawn."""
    src = source_of(tokens)
    unk = src.unk_id
    missing = iter(unknown or [])
    parts = []
    ids = list(ids)
    for tid in ids[:limit]:
        idline = f"<span class='bpe-id'>{tid}</span>" if with_ids else ""
        if unk is not None and tid == unk:
            symbol = next(missing, None)
            tip = "unknown symbol: not in the vocabulary"
            if symbol is not None:
                tip = f"unknown symbol: {visible(symbol)} ({_code_points(symbol)}) is not in the vocabulary"
            chip = chip_html(src, tid, mode, presentation, "unk", title=tip)
            below = f"<span class='bpe-src'>{esc(symbol)}</span>" if symbol is not None else ""
            parts.append(f"<span class='bpe-tok'>{chip}{below}{idline}</span>")
            continue
        chip = chip_html(src, tid, mode, presentation, "new" if new_token is not None and tid == new_token else "")
        parts.append(f"<span class='bpe-tok'>{chip}{idline}</span>")
    more = ""
    if len(ids) > limit:
        rest = len(ids) - limit
        text = ngettext("… and {n} more token", "… and {n} more tokens", rest).format(n=f"{rest:,}")
        more = f"<span class='bpe-muted'>{esc_raw(text)}</span>"
    ident = f" id='{esc_raw(css_id)}'" if css_id else ""
    return f"<div class='bpe-toks'{ident}>{''.join(parts)}{more}</div>"
