"""Token chips: a token drawn as a coloured box with its text, a tooltip saying what it is, and a hatched border
for byte tokens that are not whole UTF-8 characters, with a line naming their character (``很 1–2/3`` in a text,
``e.g. 你 1–2/3`` from the corpus where it stands alone; :mod:`bpe_core.byte_pieces`).

Chips draw from a :class:`TokenSource`, the few questions a chip asks about a token: a :class:`bpe_core.TrainedRun`
answers them through :class:`RunTokens` (made for you: every function here takes a run or a source), a
:class:`bpe_core.encoding.encoder.Tokenizer` through :class:`TokenizerTokens` (``<unk>``, uploaded GPT-2 models).

User text goes into HTML only through :func:`ui.text.esc_raw` / :func:`ui.text.esc`.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Protocol

from bpe_core import TrainedRun
from bpe_core import byte_pieces as bp
from bpe_core.scripts import has_right_to_left

from . import run_cache
from .i18n import _, current_language, ngettext, tr
from .text import colour_index, esc, esc_raw, palette, visible

#: Token background colours in normal mode (ColorBrewer Set3) and in presentation mode (Paul Tol's
#: colour-blind-safe "light"); see :mod:`ui.text`, whose colours chips and pictures share.
PALETTE = palette(False)
PALETTE_COLOURBLIND = palette(True)

#: Longest token drawn whole, in symbols (bytes or characters); a longer one (merges of a pasted run
#: of one character) is cut, with its length, so a chip never holds a megabyte of text.
TOKEN_CLIP = 48

#: Most chips one sequence draws; a longer one (a 1 MB pasted "word") ends with a count of the rest,
#: so one student's paste cannot make every rerun send megabytes of HTML.
MAX_CHIPS = 400


# ------------------------------------------------------------------------------------ the protocol
class TokenSource(Protocol):
    """What a chip needs to know about token ids.

    ``variant`` is the :class:`bpe_core.variants.Variant`; ``unk_id`` the id of ``<unk>`` (or ``None``); ``owner`` the
    object the chip memo is kept for (it must live as long as the source). A tokenizer.json's source may also answer
    ``added_kind(tid)``: ``(chip class, why)`` for a special or added token, else None (:mod:`ui.added_tokens`)."""

    variant: object
    unk_id: int | None
    owner: object

    def token_value(self, tid: int) -> str | bytes: ...

    def is_partial(self, tid: int) -> bool: ...

    def origin(self, tid: int) -> tuple[int, int, int] | None:
        """``(step, left, right)`` of the merge that made the token; ``None`` for a base symbol."""

    def example(self, value: bytes):
        """Where the bytes ``value`` first occur in the corpus (:func:`bpe_core.byte_pieces.example_in`) or ``None``."""


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

    def example(self, value: bytes):
        # The corpus's words as one byte string, built once per run: finding a token in it is one C search.
        blob = run_cache.once(self.run, "byte_blob", lambda: bp.corpus_blob(self.run.words))
        return bp.example_in(blob, value)


class TokenizerTokens:
    """The :class:`TokenSource` of a :class:`bpe_core.encoding.encoder.Tokenizer`.

    Args:
        tok: the tokenizer.
        steps, sources: a run's ``created_step`` and ``created_from`` lists when the tokenizer comes from a run
            (merge steps then are the run's); otherwise they come from the tokenizer's merges (step = rank).
    """

    def __init__(self, tok, steps=None, sources=None):
        self.tok, self.owner, self.token_value = tok, self, tok.token_value
        self.variant, self.unk_id, self._steps, self._sources = tok.variant, tok.unk_id, steps, sources
        self._made = None  # a Tokenizer's merges are looked up on first use, in its id tables (GPT-4o's: ms)
        if steps is None and not hasattr(type(tok), "_token_ranks"):  # another model: its merges, listed
            made = self._made = {}
            vocab = tok.vocab
            for rank, (left, right) in enumerate(tok.merges, start=1):
                made.setdefault(vocab[left + right], (rank, vocab[left], vocab[right]))

    def is_partial(self, tid: int) -> bool:
        return tid != self.unk_id and self.variant.is_partial(self.tok.token_value(tid))

    def origin(self, tid: int) -> tuple[int, int, int] | None:
        if self._made is not None:
            return self._made.get(tid)
        if self._steps is None:
            k = self.tok._token_ranks().get(tid)
            return None if k is None else (k + 1, *self.tok._pair_of_rank[k][:2])
        if not 0 <= tid < len(self._steps) or not self._steps[tid]:
            return None
        left, right = self._sources[tid]
        return self._steps[tid], left, right

    def example(self, value: bytes):
        return None  # a tokenizer keeps no corpus


def source_of(tokens) -> TokenSource:
    """``tokens`` as a :class:`TokenSource` (a run is wrapped)."""
    return RunTokens(tokens) if isinstance(tokens, TrainedRun) else tokens


# ------------------------------------------------------------------------------------------ labels
def token_label(tokens, tid: int, mode: str = "utf8") -> str:
    """The token as readable plain text (not escaped): visible whitespace; bytes per ``mode`` (``"utf8"``, ``"hex"``
    or ``"gpt2"``); a token over :data:`TOKEN_CLIP` symbols is cut."""
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


def _title(src: TokenSource, tid: int, mode: str = "utf8", pieces=None) -> str:
    """The chip's tooltip; ``pieces``: where it stands in a text (:func:`bpe_core.byte_pieces.pieces_in_text`)."""
    parts = [_("token {id}").format(id=tid)]
    if src.variant.is_bytes:
        value = src.token_value(tid)
        shown = value[:TOKEN_CLIP].hex(" ") + ("…" if len(value) > TOKEN_CLIP else "")
        parts.append(_("bytes {hex}").format(hex=shown))
        if mode == "gpt2":
            parts.append(
                _("GPT-2 writes each byte as one character: {letters}").format(letters=token_label(src, tid, mode))
            )
        if pieces is not None or src.is_partial(tid):
            ex = src.example(value) if pieces is None else None
            parts.extend(bp.byte_notes(value[:TOKEN_CLIP], tr(), visible, pieces, ex))
    elif len(text := src.token_value(tid)) <= 4:
        parts.append(" ".join(f"U+{ord(c):04X}" for c in text))
    made, kind = src.origin(tid), getattr(src, "added_kind", None)  # a tokenizer.json's special or added token
    if kind is not None and (kind := kind(tid)):
        parts.append(kind[1])
    elif made:
        step, left, right = made
        parts.append(
            _("made at step {step} from {left} + {right}").format(
                step=step, left=token_label(src, left), right=token_label(src, right)
            )
        )
    else:
        parts.append(_("base symbol"))
    return " · ".join(parts)


# ------------------------------------------------------------------------------------------- chips
def chip_html(
    tokens, tid: int, mode: str = "utf8", presentation: bool = False, css: str = "", title: str | None = None
) -> str:
    """One token as an HTML chip (escaped): colour by its value (:func:`ui.text.colour_index`), a dashed hatched border
    for partial UTF-8 byte tokens (hex below in GPT-2 mode), a class for a special token (:mod:`ui.added_tokens`), a
    tooltip (``title``, default: bytes or code points and the merge that made it). ``css`` adds classes (``"new"``)."""
    return _chip_maker(source_of(tokens), mode, presentation)(tid, css, title)


def chip_maker(tokens, mode: str = "utf8", presentation: bool = False):
    """:func:`chip_html` for many chips of one source (a run or a :class:`TokenSource`), mode and language:
    ``chip(tid, css="", title=None, at=None)``, with the memo and the language looked up once per table.
    ``at``: ``(text, start)`` (a :class:`bpe_core.byte_pieces.TextPieces`, the token's first byte) where the chip
    stands in a text: a partial chip then names its character(s) and bytes (``很 1–2/3``); ``(text, start, True)``:
    an example of where it occurs (``e.g. 好 3/3``); without ``at``, where it first occurs in the corpus."""
    return _chip_maker(source_of(tokens), mode, presentation)


def _chip_maker(src, mode: str, presentation: bool):
    """:func:`chip_maker` of a :class:`TokenSource`."""
    # The tooltip is in the reader's language and runs are shared by every session: the language is in the key.
    lang = current_language()
    table = run_cache.memo(src.owner)

    def chip(tid: int, css: str = "", title: str | None = None, at: tuple[bp.TextPieces, int] | None = None) -> str:
        key = ("chip", tid, mode, presentation, lang)
        base = table.get(key)
        if base is None:
            colours = palette(presentation)
            classes, extra, note = "bpe-chip", "", ""
            if (kind := getattr(src, "added_kind", None)) and (kind := kind(tid)):  # ui.added_tokens marks it
                classes += f" {kind[0]}"
            value = src.token_value(tid)
            partial = src.variant.is_bytes and src.is_partial(tid)
            if partial:
                classes += " partial"
                if mode == "gpt2":
                    extra = f'<span class="hex">{esc_raw(value[:TOKEN_CLIP].hex(" "))}</span>'
                ex = src.example(value)
                if ex is not None:
                    note = _("e.g. {piece}").format(piece=bp.short_label(ex.pieces, visible))
            label = esc_raw(token_label(src, tid, mode))
            # Colour by value, not id: the same token looks the same in every run, page and picture.
            colour = colours[colour_index(value, len(colours))]
            base = (classes, colour, esc_raw(_title(src, tid, mode)), f"{label}{extra}", partial, note)
            run_cache.remember(src.owner, key, base)
        classes, colour, shown, body, partial, note = base
        if partial and at is not None and len(src.token_value(tid)) <= TOKEN_CLIP:
            pieces = tuple(at[0].at(at[1], len(src.token_value(tid))))
            if len(at) > 2:  # an example (a pair's place): the tooltip stays the token's own
                note = _("e.g. {piece}").format(piece=bp.short_label(pieces, visible))
            else:
                where = ("chip-in", tid, mode, lang, pieces)
                shown = table.get(where)
                if shown is None:
                    shown = esc_raw(_title(src, tid, mode, pieces))
                    run_cache.remember(src.owner, where, shown)
                note = bp.short_label(pieces, visible)
        if css:
            classes = f"{classes} {css}"
        if title is not None:
            shown = esc_raw(title)
        tail = f'<span class="of">{esc_raw(note)}</span></span>' if note else "</span>"
        return f'<span class="{classes}" style="background:{colour}" title="{shown}" data-token="{tid}">{body}{tail}'

    return chip


def _positioned(chip, src: TokenSource, ids, cut: bool):
    """``chip`` as ``chip(n, tid, css="", title=None)`` for token ``n`` of ``ids``, told where it stands when they
    spell a text (``cut``: only its first tokens), else alone (``ids`` ``None``: separate tokens)."""
    # Only a partial chip names its character: without one, the text is not segmented (a long word's is costly).
    partial = ids is not None and src.variant.is_bytes and any(map(src.is_partial, ids))
    starts = bp.token_starts(values := [src.token_value(t) for t in ids], cut) if partial else None
    if starts is None:
        return lambda n, t, css="", title=None: chip(t, css, title)
    text = bp.TextPieces(b"".join(values))
    return lambda n, t, css="", title=None: chip(t, css, title, (text, starts[n]))


def pair_chips(chip, tokens, ids) -> list[str]:
    """The chips (``chip``: :func:`chip_maker`'s) of a pair: a partial one names, as an example, its character where
    the two first occur together (``\\xbd`` beside ``\\xa5`` ends 好, though first seen inside 你)."""
    src = source_of(tokens)
    partial = src.variant.is_bytes and any(map(src.is_partial, ids))
    ex = src.example(b"".join(map(src.token_value, ids))) if partial else None
    if ex is None:
        return [chip(t) for t in ids]
    text, starts = bp.TextPieces(ex.data), accumulate((len(src.token_value(t)) for t in ids), initial=ex.start)
    return [chip(t, at=(text, start, True)) for t, start in zip(ids, starts)]


def merge_html(
    tokens,
    left: int,
    right: int,
    token: int,
    mode: str = "utf8",
    presentation: bool = False,
    *,
    label: str = "",
    badge: str = "",
    new_css: str = "new",
    attrs: str = "",
) -> str:
    """The head of every merge display, one line of chips: ``label  left + right → token  badge``
    (``.bpe-merge``), on the stepper's merge card, the quiz, Side by side, How BPE works, the Encode
    page's replay and the GPT tokenizers' replay.

    ``label`` and ``badge`` are plain text (escaped here; empty: left out); ``new_css`` the new token's
    chip class (``"new"``, ``"part"`` or ``""``); ``attrs`` the element's own attributes, already
    escaped (``id='bpe-merge' data-count='9'``)."""
    chip = _chip_maker(source_of(tokens), mode, presentation)
    first, second = pair_chips(chip, tokens, (left, right))
    head = f"<span class='op'>{esc_raw(label)}</span>" if label else ""
    tail, space = (f"<span class='bpe-badge chosen'>{esc_raw(badge)}</span>" if badge else ""), " " if attrs else ""
    return (
        f"<div class='bpe-merge'{space}{attrs}>{head}{first}<span class='op'>+</span>{second}"
        f"<span class='op'>→</span>{chip(token, new_css)}{tail}</div>"
    )


def chips_html(
    tokens,
    ids,
    mode: str = "utf8",
    new_token: int | None = None,
    presentation: bool = False,
    css: str = "",
    max_chips: int = MAX_CHIPS,
    clip_at: int | None = None,
    total: int | None = None,
    alone: bool = False,
) -> str:
    """A sequence of token chips, those equal to ``new_token`` highlighted (thick outline). Chips that spell a
    text (a word's segmentation) name the character of a partial chip; ``alone``: separate tokens (the vocabulary).

    At most ``max_chips`` chips, then ``… N more tokens``. With ``clip_at`` (tokens), a longer sequence shows its
    first ``clip_at`` chips and folds the rest (up to ``max_chips``) into a ``<details>`` whose summary counts
    them: a 2,000-character word without spaces stays one or two lines high. ``total``: the whole sequence's
    length when ``ids`` holds only its first tokens (see :meth:`bpe_core.TrainedRun.corpus_view`)."""
    src, ids = source_of(tokens), list(ids)
    count = len(ids) if total is None else total
    shown = ids if len(ids) <= max_chips else ids[:max_chips]

    chip = _positioned(_chip_maker(src, mode, presentation), src, None if alone else shown, len(shown) < count)

    def draw(part, first=0) -> str:
        return "".join([chip(first + n, t, "new" if t == new_token else "") for n, t in enumerate(part)])

    hidden = count - len(shown)
    more = ngettext("… {n} more token", "… {n} more tokens", hidden).format(n=f"{hidden:,}") if hidden else ""
    if clip_at is not None and count > clip_at:
        rest = count - clip_at
        summary = ngettext("… {n} more token", "… {n} more tokens", rest).format(n=f"{rest:,}")
        inner = (
            f"{draw(shown[:clip_at])}<details class='bpe-more'><summary>{esc_raw(summary)}</summary>"
            f"<span class='bpe-chips'>{draw(shown[clip_at:], clip_at)}"
        )
        inner += (f"<span class='bpe-muted'>{esc_raw(more)}</span>" if more else "") + "</span></details>"
    else:
        inner = draw(shown) + (f"<span class='bpe-muted'> {esc_raw(more)}</span>" if more else "")
    return f'<span class="bpe-chips {css}">{inner}</span>'


def tokens_html(
    tokens,
    ids,
    mode: str = "utf8",
    presentation: bool = False,
    with_ids: bool = True,
    unknown: list[str] | None = None,
    new_token: int | None = None,
    limit: int = 1500,
    css_id: str = "",
) -> str:
    """An encoding as chips, each with its id underneath. ``<unk>`` chips get a red frame, a tooltip
    and the symbol they stand for underneath (``unknown``, from :func:`bpe_core.encoding.replay.unknown_symbols`).
    Chips equal to ``new_token`` are highlighted. At most ``limit`` tokens are drawn."""
    src = source_of(tokens)
    unk = src.unk_id
    missing, parts, ids = iter(unknown or []), [], list(ids)
    chip_in = _positioned(
        chip_maker(src, mode, presentation), src, ids[:limit] if unk is None else None, len(ids) > limit
    )
    for n, tid in enumerate(ids[:limit]):
        idline = f"<span class='bpe-id'>{tid}</span>" if with_ids else ""
        if unk is not None and tid == unk:
            symbol = next(missing, None)
            tip = _("unknown symbol: not in the vocabulary")
            if symbol is not None:
                tip = _("unknown symbol: {symbol} ({code_points}) is not in the vocabulary").format(
                    symbol=visible(symbol), code_points=" ".join(f"U+{ord(c):04X}" for c in symbol)
                )
            chip = chip_html(src, tid, mode, presentation, "unk", title=tip)
            below = f"<span class='bpe-src'>{esc(symbol)}</span>" if symbol is not None else ""
            parts.append(f"<span class='bpe-tok'>{chip}{below}{idline}</span>")
            continue
        chip = chip_in(n, tid, "new" if new_token is not None and tid == new_token else "")
        parts.append(f"<span class='bpe-tok'>{chip}{idline}</span>")
    more = ""
    if len(ids) > limit:
        rest = len(ids) - limit
        text = ngettext("… and {n} more token", "… and {n} more tokens", rest).format(n=f"{rest:,}")
        more = f"<span class='bpe-muted'>{esc_raw(text)}</span>"
    ident = f" id='{esc_raw(css_id)}'" if css_id else ""
    return f"<div class='bpe-toks'{ident}>{''.join(parts)}{more}</div>"


def rtl_note() -> str:
    """The one note said wherever chips show right-to-left tokens (plain text: escape it for HTML)."""
    return _(
        "Arabic, Hebrew and Urdu read right to left, but chips show tokens in logical order (the order they are "
        "stored), left to right."
    )


def run_rtl_note(run: TrainedRun) -> str | None:
    """:func:`rtl_note` when ``run``'s corpus holds a right-to-left letter, else ``None`` (found once per run)."""
    return rtl_note() if run_cache.once(run, "has_rtl", lambda: has_right_to_left(run.words)) else None
