"""Pictures for slides: one merge step as a PNG, a series of steps as an animated GIF (Pillow).

A picture holds what a class needs to see of a step, in type large enough for the back of a room: the
merge (pair → new token, its count), why it won (the tie and its rule), the most frequent pairs before
it with the chosen and tied ones marked, and the words it changed, before → after; a partial byte chip
names its character (很 1–2/3). Token colours are the app's (:func:`ui.text.palette`), Chinese and emoji
are drawn with the fonts :mod:`ui.fonts` finds.

No Streamlit here: the page hands in the translations (``ui.i18n.tr()``) and the run. What a picture shows of a
step is :func:`bpe_core.teaching.step_view.step_view`'s value, as in the app's panels, drawn by the step's kind
(:data:`_PICTURES`); a kind without its own picture is drawn from the parts every step view has.
"""

from __future__ import annotations

import gettext
import io

from PIL import Image, ImageDraw

from bpe_core.teaching.explain import rule_summary
from bpe_core.teaching.handout_parts import byte_note, pair_places, word_places
from bpe_core.teaching.step_view import CHOSEN, MERGE, START, TIED, StepView, pair_rows, step_view, word_views
from ui.fonts import FontSet, Writer, find_fonts
from ui.text import colour_index, palette, visible

_ENGLISH = gettext.NullTranslations()

#: Canvas (16:9, the shape of a slide); every size below is for this width and scales with it.
SIZE = (1600, 900)
#: The most frames a GIF may hold (one merge per frame).
MAX_FRAMES = 50
#: Longest token text drawn whole in a chip (characters), longer ones end with "…".
CHIP_CHARS = 16
#: The size of the note a partial byte chip carries after its bytes (很 1–2/3), for the chip's size 1.
NOTE_SIZE = 0.55

_INK, _MUTED, _RULE_LINE = (17, 17, 17), (90, 90, 90), (200, 200, 200)
_CHOSEN, _TIED = (255, 236, 160), (255, 247, 214)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


class _Canvas:
    """One picture being drawn: the image, the text writer, the scale and the colours."""

    def __init__(self, run, size, fonts: FontSet, presentation: bool):
        self.run = run
        self.img = Image.new("RGB", size, "white")
        self.draw = ImageDraw.Draw(self.img)
        self.k = size[0] / SIZE[0]
        self.w = Writer(fonts)
        self.colours = [_rgb(c) for c in palette(presentation)]

    def px(self, value: float) -> int:
        return round(value * self.k)

    def text(self, x, baseline, text, size, fill=_INK, bold=False) -> int:
        return self.w.draw(self.img, (x, baseline), text, self.px(size), fill, bold)

    def label(self, tid: int) -> str:
        return _short(self.run.token_text(tid, "utf8"))

    def notes(self, ids, word: str | None = None) -> list[str]:
        """Each chip's note (:func:`bpe_core.teaching.handout_parts.byte_note`): the character a partial byte chip
        belongs to in ``word`` (the word they spell; ``None``: one of the corpus), ``""`` for a whole one."""
        return [byte_note(self.run, t, at) for t, at in zip(ids, word_places(self.run, ids, word))]

    def pair_notes(self, ids) -> list[str]:
        """The notes of tokens side by side (a pair): each names its character where they first occur together."""
        return [byte_note(self.run, t, at) for t, at in zip(ids, pair_places(self.run, ids))]

    def chip_width(self, tid: int, size: int, note: str | None = None) -> int:
        pad = self.px(size * 0.32)
        note = self.notes([tid])[0] if note is None else note
        extra = self.w.width(note, self.px(size * NOTE_SIZE)) + pad if note else 0
        return self.w.width(self.label(tid), self.px(size)) + 2 * pad + extra

    def chip(self, x, baseline, tid: int, size: int, new: bool = False, note: str | None = None) -> int:
        """A token chip with its text's baseline at ``baseline`` (a partial byte chip: then its ``note``, the
        character it belongs to; ``None``: one of the corpus); returns its width."""
        fs, pad = self.px(size), self.px(size * 0.32)
        note = self.notes([tid])[0] if note is None else note
        width = self.chip_width(tid, size, note)
        top, bottom = baseline - fs * 0.98, baseline + fs * 0.32
        # the app's colour for the same token value (ui.text)
        colour = self.colours[colour_index(self.run.token_value(tid), len(self.colours))]
        outline, line = ((0, 0, 0), max(3, self.px(5))) if new else ((110, 110, 110), max(1, self.px(2)))
        box = (x, top, x + width, bottom)
        if self.run.variant.is_bytes and self.run.is_partial(tid):
            # a byte token that is not a whole UTF-8 character: dashed border, as in the app
            self.draw.rectangle(box, fill=colour)
            _dashed_box(self.draw, box, outline if new else (40, 40, 40), max(2, line))
        else:
            self.draw.rounded_rectangle(box, radius=self.px(8), fill=colour, outline=outline, width=line)
        used = self.text(x + pad, baseline, self.label(tid), size, bold=new)
        if note:
            self.text(x + 2 * pad + used, baseline, note, size * NOTE_SIZE, _INK)
        return width

    def chips(self, x, baseline, ids, size: int, max_width: int, new: int | None = None, skip=0, word=None) -> int:
        """Chips side by side up to ``max_width``, then ``+N`` for the tokens left out; returns the width.
        ``skip`` leaves out the first tokens (drawn as ``…``) so that a merge far into a long word shows;
        ``word``: the word the tokens spell (partial byte chips name their character in it)."""
        gap = self.px(size * 0.18)
        start = x
        notes = self.notes(ids, word)[skip:]
        if skip:
            x += self.text(x, baseline, "…", size, _MUTED) + gap
            ids = ids[skip:]
        for n, tid in enumerate(ids):
            more = f"+{len(ids) - n:,}"
            reserve = self.w.width(more, self.px(size)) + gap if n < len(ids) - 1 else 0
            if x + self.chip_width(tid, size, notes[n]) + reserve > start + max_width:
                x += self.text(x, baseline, more, size, _MUTED) + gap
                break
            x += self.chip(x, baseline, tid, size, new=tid == new, note=notes[n]) + gap
        return round(x - start)


def _dashed_box(draw, box, fill, width: int) -> None:
    x0, y0, x1, y1 = (round(v) for v in box)
    dash = width * 3
    for x in range(x0, x1, 2 * dash):
        for y in (y0, y1 - width + 1):
            draw.rectangle((x, y, min(x + dash, x1), y + width - 1), fill=fill)
    for y in range(y0, y1, 2 * dash):
        for x in (x0, x1 - width + 1):
            draw.rectangle((x, y, x + width - 1, min(y + dash, y1)), fill=fill)


def _short(token: str) -> str:
    """A token as visible text of at most :data:`CHIP_CHARS` characters (then ``…``): a chip never holds
    a megabyte (merges of a pasted run of one character)."""
    text = visible(token[: CHIP_CHARS + 1])
    return text if len(token) <= CHIP_CHARS and len(text) <= CHIP_CHARS else text[:CHIP_CHARS] + "…"


def _fits(c: _Canvas, ids, size: int, width: int, word: str | None = None) -> bool:
    """True when the chips of ``ids`` (spelling ``word``) fit in ``width`` pixels (stops measuring once they do not)."""
    used = 0
    for tid, note in zip(ids, c.notes(ids, word)):
        used += c.chip_width(tid, size, note) + c.px(size * 0.18)
        if used > width:
            return False
    return True


def _pair_text(run, left: int, right: int) -> str:
    return f"{_short(run.token_text(left, 'utf8'))} + {_short(run.token_text(right, 'utf8'))}"


def _headline(c: _Canvas, view: StepView, t) -> int:
    """Step label, the merge line and the reason; returns the y where the columns start."""
    run, step = c.run, view.step
    c.text(
        c.px(56),
        c.px(62),
        t.gettext("Step {step} of {n}").format(step=f"{step:,}", n=f"{view.num_steps:,}"),
        32,
        _MUTED,
    )
    if step == 0:
        c.text(c.px(56), c.px(160), t.gettext("Before the first merge"), 64, bold=True)
        return c.px(250)
    snap = view.merge
    x, base = c.px(56), c.px(165)
    left, right = c.pair_notes((snap.left, snap.right))
    x += c.chip(x, base, snap.left, 64, note=left)
    x += c.text(x + c.px(18), base, "+", 64) + c.px(36)
    x += c.chip(x, base, snap.right, 64, note=right)
    x += c.text(x + c.px(18), base, "→", 64) + c.px(36)
    x += c.chip(x, base, snap.token, 64, new=True)
    times = t.ngettext("{count} time", "{count} times", snap.count).format(count=f"{snap.count:,}")
    c.text(x + c.px(36), base, times, 52, bold=True)
    if snap.ties > 1:
        why = t.ngettext(
            "{ties} pair has the highest count, {count}: a tie. The tie-break rule {rule} chose {pair}.",
            "{ties} pairs have the highest count, {count}: a tie. The tie-break rule {rule} chose {pair}.",
            snap.ties,
        ).format(
            ties=f"{snap.ties:,}",
            count=f"{snap.count:,}",
            rule=rule_summary(snap.tie_break, t),
            pair=_pair_text(run, snap.left, snap.right),
        )
    else:
        why = t.gettext("{pair} has the highest count, {count}; no other pair has as many.").format(
            pair=_pair_text(run, snap.left, snap.right), count=f"{snap.count:,}"
        )
    y = c.px(238)
    for line in c.w.wrap(why, c.px(30), c.img.width - c.px(112))[:2]:
        c.text(c.px(56), y, line, 30)
        y += c.px(42)
    return y + c.px(10)


def _pairs(c: _Canvas, view: StepView, top: int, x: int, y: int, width: int, t) -> None:
    """The pair rows before the merge, the chosen and tied ones marked; at step 0 the pairs now, unmarked."""
    step = view.step
    heading = t.gettext("Most frequent pairs before this merge") if step else t.gettext("Most frequent pairs")
    c.text(x, y + c.px(40), heading, 32, bold=True)
    rows = view.pairs.rows if step else pair_rows(c.run, 0, top, exact=True).rows
    _rows(c, rows, x, y + c.px(60), width, t, marked=step > 0)


def _rows(c: _Canvas, rows, x: int, y: int, width: int, t, marked: bool) -> None:
    """Candidate rows (pairs, or another kind of step's candidates): rank, the tokens joined by ``+``, the count;
    with ``marked``, the chosen and tied ones marked."""
    row_h = c.px(66)
    for row in rows:
        rank, count = row.rank, row.count
        mark, bg = "", None
        if marked and row.mark == CHOSEN:
            mark, bg = t.gettext("chosen"), _CHOSEN
        elif marked and row.mark == TIED:
            mark, bg = t.gettext("tied"), _TIED
        if bg:
            c.draw.rectangle((x - c.px(8), y, x + width, y + row_h), fill=bg)
        base = y + c.px(47)
        c.text(x, base, f"{rank}", 32, _MUTED)
        cx = x + c.px(50)
        for i, (tid, note) in enumerate(zip(row.tokens, c.pair_notes(row.tokens))):
            if i:
                cx += c.text(cx + c.px(10), base, "+", 34) + c.px(20)
            cx += c.chip(cx, base, tid, 34, note=note)
        count_text = f"{count:,}"
        right = x + width - c.px(150)
        c.text(right - c.w.width(count_text, c.px(34), True), base, count_text, 34, bold=True)
        if mark:
            c.text(right + c.px(22), base, mark, 28, bold=rank == 1)
        c.draw.line((x - c.px(8), y + row_h, x + width, y + row_h), fill=_RULE_LINE, width=max(1, c.px(2)))
        y += row_h


def _words(c: _Canvas, view: StepView, x: int, y: int, width: int, bottom: int, t, title: str | None = None) -> None:
    """The word types the step changed, before → after, under ``title`` (``{n}``: how many; by default the one of a
    merge); at step 0 the first word types of the corpus."""
    run, step = c.run, view.step
    if step:
        total = view.words_changed
        if title is None:
            title = t.ngettext("The word type this merge changed", "The {n} word types this merge changed", total)
        words = view.changed
        new = view.headline.made
    else:
        total = run.num_words
        title = t.ngettext("The corpus: {n} word type", "The corpus: {n} word types", total)
        words = word_views(run, 0, range(min(8, total)))
        new = None
    c.text(x, y + c.px(40), title.format(n=f"{total:,}"), 32, bold=True)
    y += c.px(64)
    block = c.px(138 if step else 96)
    shown = 0
    for row in words:
        word, freq, after = row.word, row.freq, row.after.ids
        before = row.before.ids if row.before is not None else None
        if y + block > bottom - c.px(34):
            break
        head = t.ngettext("{word}, {count} time", "{word}, {count} times", freq).format(
            word=visible(word[:24]) + ("…" if len(word) > 24 else ""), count=f"{freq:,}"
        )
        c.text(x, y + c.px(30), c.w.fit(head, c.px(28), width), 28, _MUTED)
        if before is not None:
            # both rows start two tokens before the first change (they are equal up to it)
            arrow = c.w.width("→", c.px(30)) + c.px(14)
            fits = _fits(c, before, 30, width - arrow, word)
            skip = max(0, after.index(new) - 2) if new in after and not fits else 0
            c.chips(x + arrow, y + c.px(76), before, 30, width - arrow, skip=skip, word=word)
            c.text(x, y + c.px(124), "→", 30)
            c.chips(x + arrow, y + c.px(124), after, 30, width - arrow, new=new, skip=skip, word=word)
        else:
            c.chips(x, y + c.px(76), after, 30, width, word=word)
        y += block
        shown += 1
    rest = total - shown
    if rest > 0:
        more = t.ngettext("…and {n} more word type", "…and {n} more word types", rest).format(n=f"{rest:,}")
        c.text(x, y + c.px(30), more, 28, _MUTED)


def _draw_step(run, step: int, t, fonts: FontSet, presentation: bool, size, top: int) -> Image.Image:
    c = _Canvas(run, size, fonts, presentation)
    view = step_view(run, step, pairs=top, words=8)
    _PICTURES.get(view.kind, _draw_event)(c, view, t, top)
    return c.img


def _draw_merge(c: _Canvas, view: StepView, t, top: int) -> None:
    """A merge, or step 0: the merge line and why, the pairs before it, the words it changed, the sizes."""
    y = _headline(c, view, t)
    c.draw.line((c.px(56), y, c.img.width - c.px(56), y), fill=_RULE_LINE, width=max(1, c.px(3)))
    left_w = c.px(700)
    _pairs(c, view, top, c.px(64), y + c.px(10), left_w, t)
    right_x = c.px(64) + left_w + c.px(60)
    _words(c, view, right_x, y + c.px(10), c.img.width - right_x - c.px(56), c.img.height - c.px(56), t)
    if view.step:
        snap = view.merge
        sizes = t.gettext("Vocabulary: {vocab} tokens · corpus: {tokens} tokens after this merge.").format(
            vocab=f"{snap.vocab_size:,}", tokens=f"{snap.corpus_tokens:,}"
        )
        c.text(c.px(56), c.img.height - c.px(28), sizes, 26, _MUTED)


def _draw_event(c: _Canvas, view: StepView, t, top: int) -> None:
    """A step of a kind with no picture of its own, from the parts every step view has: the step's number, its
    headline (the tokens involved → the token made, − the token removed), its numbers, the candidates and the
    words changed."""
    step_label = t.gettext("Step {step} of {n}").format(step=f"{view.step:,}", n=f"{view.num_steps:,}")
    c.text(c.px(56), c.px(62), step_label, 32, _MUTED)
    head, x, base = view.headline, c.px(56), c.px(165)
    for i, tid in enumerate(head.tokens):
        if i:
            x += c.text(x + c.px(18), base, "+", 64) + c.px(36)
        x += c.chip(x, base, tid, 64)
    for op, tid, new in (("→", head.made, True), ("−", head.removed, False)):
        if tid is not None:
            x += c.text(x + c.px(18), base, op, 64) + c.px(36)
            x += c.chip(x, base, tid, 64, new=new)
    c.text(c.px(56), c.px(238), " · ".join(f"{t.gettext(n.label)} {n.value:,}" for n in view.numbers), 30)
    y = c.px(290)
    c.draw.line((c.px(56), y, c.img.width - c.px(56), y), fill=_RULE_LINE, width=max(1, c.px(3)))
    left_w = c.px(700)
    if view.candidates is not None:
        _rows(c, view.candidates.rows[:top], c.px(64), y + c.px(10), left_w, t, marked=True)
    right_x = c.px(64) + left_w + c.px(60)
    title = t.ngettext("The word type this step changed", "The {n} word types this step changed", view.words_changed)
    _words(c, view, right_x, y + c.px(10), c.img.width - right_x - c.px(56), c.img.height - c.px(56), t, title)


#: How a picture draws a step of each kind; any other kind: :func:`_draw_event`.
_PICTURES = {START: _draw_merge, MERGE: _draw_merge}


def step_image(
    run,
    step: int,
    tr: gettext.NullTranslations | None = None,
    lang: str = "en",
    presentation: bool = True,
    size: tuple[int, int] = SIZE,
    top: int = 6,
) -> Image.Image:
    """Step ``step`` (0: before the first merge, 1..``run.num_steps``: that merge) as a Pillow RGB image.

    Args:
        run: a :class:`bpe_core.TrainedRun`.
        tr: translations of the interface language (``None``: English); ``lang`` picks the Chinese font.
        presentation: the colour-blind-safe palette (the app's presentation mode) or the normal one.
        size: pixels ``(width, height)``; text scales with the width (16:9 at 1600 px is the design).
        top: pair rows drawn (at most the run's ``config.top_k``).

    Raises:
        ValueError: ``step`` outside ``0..run.num_steps``.
        ui.fonts.FontError: no font with Chinese characters on this machine.
    """
    if not 0 <= step <= run.num_steps:
        raise ValueError(f"step {step} is outside 0..{run.num_steps}")
    return _draw_step(run, step, tr or _ENGLISH, find_fonts(lang), presentation, size, top)


def step_png(run, step: int, tr=None, lang: str = "en", presentation: bool = True, size=SIZE, top: int = 6) -> bytes:
    """Step ``step`` as PNG bytes (see :func:`step_image` for the arguments and errors)."""
    buf = io.BytesIO()
    step_image(run, step, tr, lang, presentation, size, top).save(buf, "PNG")
    return buf.getvalue()


def steps_gif(
    run,
    first: int,
    last: int,
    tr: gettext.NullTranslations | None = None,
    lang: str = "en",
    presentation: bool = True,
    size: tuple[int, int] = SIZE,
    seconds: float = 1.2,
) -> bytes:
    """Steps ``first..last`` (inclusive, one step per frame) as a looping animated GIF.

    Raises:
        ValueError: a step outside ``0..run.num_steps``, ``last < first``, or more than :data:`MAX_FRAMES` frames.
        ui.fonts.FontError: no font with Chinese characters.
    """
    if not 0 <= first <= last <= run.num_steps:
        raise ValueError(f"steps {first}..{last} are not inside 0..{run.num_steps}")
    if last - first + 1 > MAX_FRAMES:
        raise ValueError(f"a GIF holds at most {MAX_FRAMES} steps; {first}..{last} is {last - first + 1}")
    t, fonts = tr or _ENGLISH, find_fonts(lang)
    # Quantized here with the fast octree: Pillow's default conversion of RGB frames takes four times as long.
    frames = [
        _draw_step(run, k, t, fonts, presentation, size, 6).quantize(255, method=Image.Quantize.FASTOCTREE)
        for k in range(first, last + 1)
    ]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=round(seconds * 1000), loop=0)
    return buf.getvalue()
