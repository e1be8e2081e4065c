"""Shared rendering for every page: token chips, merge card with its reason, pair table, corpus
table, vocabulary, merge tree, Altair charts and the step controls.

All functions take a finished :class:`bpe_core.TrainedRun` and a step (0 = the starting
segmentation, k = after merges 1..k) and draw with Streamlit; the ``*_html`` helpers return HTML
strings instead. Token arguments are token ids. ``mode`` is the byte display (``"utf8"``,
``"hex"`` or ``"gpt2"``; ignored for char/eow runs).

Safety: every piece of user text (words, tokens, file names) goes through :func:`ui.text.esc`
(visible whitespace + ``html.escape``) before it becomes HTML; no user text is ever passed to
Markdown.

Speed: a step is lookups in the run plus small HTML strings. What is the same for every step of a
run (chart data, per-token HTML, merge reasons) is memoised per run (a weak-key map, so it goes
away with the run when the shared cache evicts it).

Typical page::

    sel = state.sidebar(); render.setup_page(sel)
    run = training.get_run(sel) or st.stop()
    step = render.step_controls(run, presentation=sel.presentation)
    render.merge_card(run, step, sel.byte_mode)
    render.pair_table(run, step, sel.byte_mode)
    render.corpus_table(run, step, sel.byte_mode)
    render.vocabulary(run, step, sel.byte_mode)
    render.charts(run, step, presentation=sel.presentation)
"""

from __future__ import annotations

import functools
import threading
import unicodedata
import weakref

import altair as alt
import matplotlib
import streamlit as st
import tol_colors
from matplotlib.colors import to_hex

from bpe_core import RULES, TrainedRun

from . import state
from .text import clip, esc, esc_raw, visible

# ------------------------------------------------------------------------------------ palettes
#: Token background colours in normal mode: ColorBrewer "Set3" (Cynthia Brewer, colorbrewer2.org, as
#: shipped in matplotlib's colormaps), light enough for black text.
PALETTE = tuple(to_hex(c) for c in matplotlib.colormaps["Set3"].colors)
#: Presentation mode: Paul Tol's colour-blind-safe qualitative scheme "light", from his ``tol_colors``
#: package (Tol, "Colour Schemes", SRON/EPS/TN/09-002), designed for cells with black labels.
PALETTE_COLOURBLIND = tuple(c.lower() for c in tol_colors.light)

_MEMO: weakref.WeakKeyDictionary[TrainedRun, dict] = weakref.WeakKeyDictionary()
_MEMO_LOCK = threading.Lock()


#: Most small per-run memo entries (chip HTML, merge reasons) kept before they are dropped; bounds
#: what a 20,000-merge run can add to the cached run's size (about 10 MB at most).
MAX_MEMO_ENTRIES = 40_000


def _memo(run: TrainedRun) -> dict:
    """Per-run cache of derived data (shared by sessions; dropped with the run)."""
    with _MEMO_LOCK:
        memo = _MEMO.get(run)
        if memo is None:
            memo = _MEMO[run] = {}
        return memo


def _remember(memo: dict, key, value):
    """Store a small per-step/per-token entry, clearing those entries when there are too many
    (whole-run entries such as chart specs, keyed by strings, stay)."""
    if len(memo) >= MAX_MEMO_ENTRIES:
        with _MEMO_LOCK:
            for k in [k for k in memo if isinstance(k, tuple) and k[0] in ("chip", "reason")]:
                memo.pop(k, None)
    memo[key] = value
    return value


# --------------------------------------------------------------------------------------- CSS
_CSS = """
<style>
.bpe-chips { display: inline-flex; flex-wrap: wrap; gap: 3px; align-items: center; line-height: 1.2; }
.bpe-chip { display: inline-flex; flex-direction: column; align-items: center; padding: 1px 6px;
  border-radius: 5px; border: 1px solid rgba(0,0,0,.35); color: #111; font-family: ui-monospace,
  "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; font-size: 1.05rem; white-space: pre;
  min-width: .9em; }
.bpe-chip .hex { font-size: .68em; color: #333; letter-spacing: .02em; }
.bpe-chip.partial { border: 2px dashed #222; background-image: repeating-linear-gradient(135deg,
  rgba(0,0,0,.13) 0 3px, transparent 3px 8px) !important; }
.bpe-chip.new { outline: 3px solid #000; outline-offset: 1px; font-weight: 700;
  box-shadow: 0 0 0 6px rgba(255, 200, 0, .55); }
.bpe-chip.part { outline: 2px solid #555; outline-offset: 1px; }
.bpe-chips.before .bpe-chip { opacity: .55; font-size: .8rem; }
.bpe-badge { display: inline-block; border-radius: 4px; padding: 0 5px; font-size: .75rem;
  font-weight: 700; border: 1px solid #333; margin-left: 4px; white-space: nowrap; }
.bpe-badge.chosen { background: #111; color: #fff; }
.bpe-badge.tied { background: #fff; color: #111; border-style: dashed; }
.bpe-badge.changed { background: #111; color: #fff; }
.bpe-step-label { font-size: 1.6rem; font-weight: 700; white-space: nowrap; }
.bpe-step-label .of { font-weight: 400; color: #555; font-size: 1.1rem; }
.bpe-card { border: 1px solid #ccc; border-radius: 8px; padding: .6rem .9rem; margin-bottom: .6rem;
  overflow-wrap: anywhere; }  /* a 500,000-character word (pre-tokenizer none) must wrap, not overflow */
.bpe-merge { font-size: 1.5rem; display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.bpe-merge .bpe-chip { font-size: 1.6rem; padding: 2px 10px; }
.bpe-merge .op { color: #444; font-weight: 700; }
.bpe-reason { font-size: 1.1rem; margin: .5rem 0 .2rem 0; }
.bpe-rule { font-size: .85rem; color: #444; margin-top: .3rem; }
.bpe-table { border-collapse: collapse; width: 100%; }
.bpe-table th { text-align: left; font-size: .8rem; color: #555; border-bottom: 2px solid #bbb; padding: 2px 6px; }
.bpe-table td { border-bottom: 1px solid #e3e3e3; padding: 3px 6px; vertical-align: middle; }
.bpe-table td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bpe-table td.pair { white-space: nowrap; }
.bpe-table tr.chosen td { background: #fff4c2; font-weight: 700; }
.bpe-table tr.changed td { background: #fff4c2; }
.bpe-table tr.changed td:first-child { border-left: 6px solid #111; }
.bpe-table .word { font-family: ui-monospace, monospace; white-space: pre; }
.bpe-bar { height: .8rem; background: #4c78a8; border-radius: 2px; min-width: 2px; }
.bpe-tree, .bpe-tree ul { list-style: none; margin: 0; padding: 0; }
.bpe-tree ul { display: flex; justify-content: center; padding-top: 14px; position: relative; }
.bpe-tree li { display: flex; flex-direction: column; align-items: center; position: relative;
  padding: 14px 4px 0 4px; }
.bpe-tree li::before, .bpe-tree li::after { content: ""; position: absolute; top: 0; width: 50%;
  height: 14px; border-top: 2px solid #888; }
.bpe-tree li::before { right: 50%; } .bpe-tree li::after { left: 50%; border-left: 2px solid #888; }
.bpe-tree li:only-child::before, .bpe-tree li:only-child::after { display: none; }
.bpe-tree li:first-child::before, .bpe-tree li:last-child::after { border: 0 none; }
.bpe-tree li:last-child::before { border-right: 2px solid #888; }
.bpe-tree li > ul::before { content: ""; position: absolute; top: 0; left: 50%; height: 14px; border-left: 2px solid #888; }
.bpe-tree > li { padding-top: 0; } .bpe-tree > li::before, .bpe-tree > li::after { display: none; }
.bpe-tree .stepnum { font-size: .7rem; color: #555; }
.bpe-muted { color: #555; font-size: .9rem; }
.bpe-table td.barcell { width: 22%; min-width: 2.5rem; }
/* In a narrow column (three variants side by side) the pair table drops its bars and tightens, so the
   chosen/tied badges stay inside their own column. */
.bpe-pairs-wrap { container-type: inline-size; }
@container (max-width: 340px) {
  .bpe-pairs-wrap .bpe-table td.barcell, .bpe-pairs-wrap .bpe-table th.barcell { display: none; }
  .bpe-pairs-wrap .bpe-table td, .bpe-pairs-wrap .bpe-table th { padding: 3px 3px; }
}

[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
</style>
"""

_CSS_PRESENTATION = """
<style>
html { font-size: 21px; }
[data-testid="stToolbarActions"], [data-testid="stMainMenu"], [data-testid="stDecoration"] { display: none; }
.bpe-chip { font-size: 1.15rem; border-width: 2px; }
.bpe-merge .bpe-chip { font-size: 1.35rem; }
.bpe-merge { font-size: 1.2rem; }
.bpe-chip { padding: 1px 5px; }
.bpe-step-label { font-size: 2rem; }
.bpe-reason { font-size: 1.25rem; }
.bpe-bar { background: #33528a; height: 1rem; }
</style>
"""


def setup_page(selection=None, title: str = "BPE Explorer") -> None:
    """Inject the app's CSS (chips, tables, tree; large type in presentation mode).

    Args:
        selection: the :class:`ui.state.Selection` (only its ``presentation`` flag is used), or
            ``None`` for normal mode.
        title: unused placeholder for symmetry with ``st.set_page_config`` (call that yourself
            first, at the top of the page).
    """
    presentation = bool(selection is not None and selection.presentation)
    st.html(_CSS + (_CSS_PRESENTATION if presentation else ""))


def palette(presentation: bool) -> tuple[str, ...]:
    """Token colours: ColorBrewer Set3, or Paul Tol's colour-blind-safe "light" scheme."""
    return PALETTE_COLOURBLIND if presentation else PALETTE


def plural(count: int, noun: str) -> str:
    """``"1 word"``, ``"2 words"`` (thousands separated)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


# --------------------------------------------------------------------------------------- chips
#: Longest token drawn whole, in symbols (bytes or characters); a longer one (merges of a pasted run
#: of one character) is cut, with its length, so a chip never holds a megabyte of text.
TOKEN_CLIP = 48


def token_label(run: TrainedRun, tid: int, mode: str = "utf8") -> str:
    """The token as readable plain text (not escaped): visible whitespace; bytes per ``mode``."""
    value = run.token_value(tid)
    more = ""
    if len(value) > TOKEN_CLIP:
        unit = "bytes" if run.variant.is_bytes else "characters"
        value, more = value[:TOKEN_CLIP], f"… ({len(value):,} {unit})"
    if run.variant.is_bytes:
        if mode in ("hex", "gpt2"):
            return run.variant.display(value, mode) + more
        return visible(run.variant.display(value, "utf8")) + more
    return visible(value) + more


def _token_title(run: TrainedRun, tid: int) -> str:
    made = run.created_step[tid]
    parts = [f"token {tid}"]
    if run.variant.is_bytes:
        value = run.token_value(tid)
        parts.append("bytes " + value[:TOKEN_CLIP].hex(" ") + ("…" if len(value) > TOKEN_CLIP else ""))
        if run.is_partial(tid):
            parts.append("not a whole UTF-8 character")
    else:
        text = run.token_value(tid)
        if len(text) <= 4:
            parts.append(" ".join(f"U+{ord(c):04X}" for c in text))
    if made:
        left, right = run.created_from[tid]
        parts.append(f"made at step {made} from {token_label(run, left)} + {token_label(run, right)}")
    else:
        parts.append("base symbol")
    return " · ".join(parts)


def chip_html(run: TrainedRun, tid: int, mode: str = "utf8", presentation: bool = False, css: str = "") -> str:
    """One token as an HTML chip (escaped): colour by id, a dashed hatched border for partial
    UTF-8 byte tokens (with their hex below in GPT-2 mode), a tooltip with bytes/code points and
    the merge that made it. ``css`` adds classes (``"new"`` for this step's token, ``"part"``)."""
    memo = _memo(run)
    key = ("chip", tid, mode, presentation)
    base = memo.get(key)
    if base is None:
        colours = palette(presentation)
        classes = "bpe-chip"
        extra = ""
        if run.variant.is_bytes and run.is_partial(tid):
            classes += " partial"
            if mode == "gpt2":
                extra = f'<span class="hex">{esc_raw(run.token_value(tid)[:TOKEN_CLIP].hex(" "))}</span>'
        label = esc_raw(token_label(run, tid, mode))
        title = esc_raw(_token_title(run, tid))
        colour = colours[(tid * 5) % len(colours)]
        base = (classes, f' style="background:{colour}" title="{title}" data-token="{tid}">{label}{extra}</span>')
        _remember(memo, key, base)
    classes, rest = base
    if css:
        classes = f"{classes} {css}"
    return f'<span class="{classes}"{rest}'


#: Most chips one sequence draws; a longer one (a 1 MB pasted "word") ends with a count of the rest,
#: so one student's paste cannot make every rerun send megabytes of HTML.
MAX_CHIPS = 400


def chips_html(
    run: TrainedRun,
    ids,
    mode: str = "utf8",
    new_token: int | None = None,
    presentation: bool = False,
    css: str = "",
    max_chips: int = MAX_CHIPS,
) -> str:
    """A sequence of token chips; chips equal to ``new_token`` are highlighted (thick outline).

    At most ``max_chips`` chips are drawn, then ``… N more tokens``."""
    shown = ids if len(ids) <= max_chips else ids[:max_chips]
    inner = "".join(chip_html(run, t, mode, presentation, "new" if t == new_token else "") for t in shown)
    if len(shown) < len(ids):
        rest = len(ids) - len(shown)
        inner += f"<span class='bpe-muted'> … {rest:,} more token{'s' if rest != 1 else ''}</span>"
    return f'<span class="bpe-chips {css}">{inner}</span>'


# ------------------------------------------------------------------------------- step controls
_SPEEDS = (0.5, 1.0, 2.0, 3.0)
_KEEP = "bpe.keep."  # canonical copies of widget values (a widget not drawn in a run loses its state)


def _kept(widget_key: str, default):
    """Re-seed a widget from its canonical value (set on first use to ``default``); return the value.

    Use with ``on_change=_keep, args=(widget_key,)``. Needed because Streamlit forgets a widget's
    value when a run does not draw it (an input error, another page).
    """
    ss = st.session_state
    canon = _KEEP + widget_key
    if canon not in ss:
        ss[canon] = default
    ss[widget_key] = ss[canon]
    return ss[canon]


def _keep(widget_key: str) -> None:
    st.session_state[_KEEP + widget_key] = st.session_state[widget_key]


def _set_kept(widget_key: str, value) -> None:
    st.session_state[_KEEP + widget_key] = value


def _go(target: str, n: int) -> None:
    step = state.get_step()
    new = {"first": 0, "prev": step - 1, "next": step + 1, "last": n}[target]
    state.set_step(max(0, min(n, new)))


def _from_widget(key: str, n: int) -> None:
    state.set_step(max(0, min(n, int(st.session_state[key]))))


def step_label_html(step: int, n: int) -> str:
    """The big "Step k of n" label (``#bpe-step-label``, ``data-step`` = k: tests wait on it)."""
    return (
        f'<div class="bpe-step-label" id="bpe-step-label" data-step="{int(step)}">'
        f'Step {int(step):,} <span class="of">of {int(n):,}</span></div>'
    )


def step_controls(run: TrainedRun, presentation: bool = False, key: str = "stepper") -> int:
    """First / previous / next / last buttons (Left and Right arrow keys press Prev/Next), the step
    label, a slider and a number box to jump (hidden in presentation mode), and autoplay with a
    speed control. Returns the current step, clamped to ``0..run.num_steps`` and saved in the
    session (:func:`ui.state.get_step`)."""
    n = run.num_steps
    step = max(0, min(n, state.get_step()))
    state.set_step(step)
    auto_key = f"{key}.autoplay"
    if _kept(auto_key, False) and step >= n:
        _set_kept(auto_key, False)  # nothing left to play
        _kept(auto_key, False)

    widths = [0.7, 1.5, 1.5, 0.7, 2.6, 1.6] if presentation else [1, 1.1, 1.1, 1, 2.4, 2]
    cols = st.columns(widths, vertical_alignment="center")
    cols[0].button("⏮" if presentation else "⏮ First", key=f"{key}.first", on_click=_go, args=("first", n),
                   disabled=step == 0, width="stretch", help="First: step 0, the starting segmentation")  # fmt: skip
    cols[1].button("◀ Prev", key=f"{key}.prev", on_click=_go, args=("prev", n), disabled=step == 0,
                   shortcut="Left", width="stretch", help="Previous step (← key)")  # fmt: skip
    cols[2].button("Next ▶", key=f"{key}.next", on_click=_go, args=("next", n), disabled=step >= n,
                   shortcut="Right", width="stretch", help="Next step (→ key)")  # fmt: skip
    cols[3].button("⏭" if presentation else "Last ⏭", key=f"{key}.last", on_click=_go, args=("last", n),
                   disabled=step >= n, width="stretch", help="Last step")  # fmt: skip
    with cols[4]:
        st.html(step_label_html(step, n))
    with cols[5]:
        autoplay = st.toggle("Autoplay", key=auto_key, disabled=step >= n, on_change=_keep, args=(auto_key,))
        speed_key = f"{key}.speed"
        speed = _kept(speed_key, 1.0)
        if not presentation:
            speed = st.select_slider("Seconds per step", _SPEEDS, key=speed_key, label_visibility="collapsed",
                                     format_func=lambda s: f"{s:g} s / step", on_change=_keep,
                                     args=(speed_key,))  # fmt: skip

    if not presentation and n > 0:
        c1, c2 = st.columns([5, 1], vertical_alignment="bottom")
        slider_key, box_key = f"{key}.slider", f"{key}.box"
        st.session_state[slider_key] = step
        st.session_state[box_key] = step
        c1.slider("Jump to step", 0, n, key=slider_key, on_change=_from_widget, args=(slider_key, n))
        c2.number_input("Step", min_value=0, max_value=n, step=1, key=box_key, on_change=_from_widget,
                        args=(box_key, n))  # fmt: skip

    if autoplay and step < n:
        _autoplay(key, n, float(speed))
    return step


def _autoplay(key: str, n: int, seconds: float) -> None:
    armed = f"{key}.tick_armed"
    st.session_state[armed] = False

    @st.fragment(run_every=seconds)
    def tick() -> None:
        # The first call happens inside the full run (arming the timer); later calls are the timer.
        if not st.session_state.get(armed):
            st.session_state[armed] = True
            return
        step = state.get_step()
        if st.session_state.get(_KEEP + f"{key}.autoplay") and step < n:
            state.set_step(step + 1)
            st.rerun(scope="app")

    tick()


# -------------------------------------------------------------------------------- merge reason
def _pair_text(run: TrainedRun, left: int, right: int, mode: str) -> str:
    return f"{token_label(run, left, mode)} + {token_label(run, right, mode)}"


def _word_ref(word: str) -> str:
    """A word for a sentence: quoted when it has anything but letters, digits and marks."""
    shown = visible(clip(word))
    if all(c.isalnum() or unicodedata.category(c).startswith("M") for c in word):
        return shown
    return f"“{shown}”"


def merge_reason(run: TrainedRun, step: int, mode: str = "utf8", max_words: int = 3) -> str:
    """Plain-language reason for merge ``step`` (>= 1), built from the data (plain text, not escaped).

    E.g. ``"e + s occurs 9 times: 6 in newest, 3 in widest. 3 pairs were tied at 9 and the
    first-seen rule chose e + s (its first occurrence comes first)."``
    """
    memo = _memo(run)
    key = ("reason", step, mode, max_words)
    if key in memo:
        return memo[key]
    snap = run.snapshot(step)
    a, b = snap.left, snap.right
    contributions = []
    for idx, word, freq, before, _after in run.changed_words(step):
        windows = sum(1 for x, y in zip(before, before[1:]) if x == a and y == b)
        if windows:
            contributions.append((windows * freq, idx, word, windows, freq))
    contributions.sort(key=lambda c: (-c[0], c[1]))
    pair = _pair_text(run, a, b, mode)
    times = "time" if snap.count == 1 else "times"
    parts = []
    for total, _idx, word, windows, freq in contributions[:max_words]:
        detail = f" ({windows} × {freq:,})" if windows > 1 and freq > 1 else ""
        parts.append(f"{total:,} in {_word_ref(word)}{detail}")
    rest = contributions[max_words:]
    if rest:
        other = sum(c[0] for c in rest)
        parts.append(f"{other:,} in {len(rest):,} other word{'s' if len(rest) != 1 else ''}")
    text = f"{pair} occurs {snap.count:,} {times}"
    if len(contributions) == 1 and not rest:
        text += f": all in {_word_ref(contributions[0][2])}"
        if contributions[0][3] > 1 and contributions[0][4] > 1:
            text += f" ({contributions[0][3]} × {contributions[0][4]:,})"
        text += "."
    else:
        text += ": " + ", ".join(parts) + "."
    if a == b:
        text += " Overlapping windows all count (a a a holds the pair twice); the merge rewrites them left to right."
    if snap.ties > 1:
        why = {
            "first-seen": "its first occurrence comes earliest in the corpus",
            "hf": "it has the smallest pair of token ids",
            "lexical": "it is the lexicographically largest pair of strings",
        }.get(snap.tie_break, "")
        others = [p for p in snap.tied[1:4]]
        listed = ", ".join(_pair_text(run, a, b, mode) for a, b in others)
        more = snap.ties - 1 - len(others)
        listed += f" and {more:,} more" if more > 0 else ""
        text += (
            f" {snap.ties:,} pairs were tied at {snap.count:,} and the {snap.tie_break} rule chose {pair}"
            f" ({why}); also tied: {listed}."
        )
    else:
        text += f" No other pair occurs {snap.count:,} {times}."
    if not snap.is_new:
        made = run.created_step[snap.token]
        text += (
            f" The result {token_label(run, snap.token, mode)} is already a token (made at step {made}),"
            " so the vocabulary does not grow."
        )
    return _remember(memo, key, text)


def stop_reason_text(run: TrainedRun) -> str:
    """Why training stopped, in words (plain text)."""
    cfg = run.config
    n = run.num_steps
    reason = run.stop_reason
    if reason == "num_merges":
        if cfg.vocab_size is not None:
            return (
                f"Training stopped at the app's limit of {n:,} merges before the vocabulary reached "
                f"{cfg.vocab_size:,} tokens."
            )
        return f"Training stopped after the {n:,} merge{'s' if n != 1 else ''} asked for."
    if reason == "vocab_size":
        return f"Training stopped when the vocabulary reached {run.vocab_size_at(n):,} tokens (the size asked for)."
    if reason == "no_pairs":
        if run.num_words == 0:
            return "There is nothing to train on: the pre-tokenizer found no words in the text."
        return "Training stopped: no adjacent pair is left (every word is a single token)."
    if reason == "min_frequency":
        memo = _memo(run)
        best = memo.get("best_left")
        if best is None:
            table = run.pair_table(n, 1)
            best = memo["best_left"] = table[0][2] if table else 0
        return (
            f"Training stopped: the most frequent pair left occurs {best:,} time{'s' if best != 1 else ''}, "
            f"below the minimum frequency of {cfg.min_frequency:,}."
        )
    return "Training has not finished."


_TIE_SHORT = {
    "first-seen": "the pair that appears first in the corpus wins",
    "hf": "the pair with the smallest (left id, right id) wins",
    "lexical": "the lexicographically largest (left, right) pair of strings wins",
}


def rules_html(run: TrainedRun) -> str:
    """The trainer's rules (bpe_core.trainer.RULES) as HTML, the run's tie-break rule named."""
    rule = run.config.tie_break
    items = [
        ("Counting", RULES["counting"]),
        (f"Tie-break ({rule})", RULES[rule]),
        ("Applying", RULES["applying"]),
        ("Tokens", RULES["tokens"]),
        ("Stopping", RULES["stopping"]),
    ]
    lis = "".join(f"<li><b>{esc_raw(k)}.</b> {esc_raw(v)}</li>" for k, v in items)
    return f"<ul class='bpe-muted'>{lis}</ul>"


# ---------------------------------------------------------------------------------- merge card
def merge_card(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False) -> None:
    """The chosen merge of ``step`` (left + right → token, count), its plain-language reason and the
    tie-break rule in use. Step 0 describes the starting segmentation and names the next merge."""
    n = run.num_steps
    if step == 0:
        words = _memo_total_words(run)
        lines = [
            f"<div class='bpe-merge'><span>Start: every word is split into its "
            f"{'bytes' if run.variant.is_bytes else 'characters'}</span></div>",
            f"<div class='bpe-reason'>{plural(run.num_words, 'word type')} ({plural(words, 'word')}), "
            f"{plural(run.corpus_tokens(0), 'token')}, a vocabulary of {plural(run.vocab_size_at(0), 'base symbol')}.</div>",
        ]
        if n:
            first = run.snapshot(1)
            lines.append(
                f"<div class='bpe-reason'>Next: {chip_html(run, first.left, mode, presentation)} + "
                f"{chip_html(run, first.right, mode, presentation)} is the most frequent pair "
                f"({first.count:,} times). Press Next ▶ or the → key.</div>"
            )
        else:
            lines.append(f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>")
        st.html(f"<div class='bpe-card' id='bpe-merge-card'>{''.join(lines)}</div>")
        return
    snap = run.snapshot(step)
    new_css = "new" if snap.is_new else "part"
    head = (
        f"<div class='bpe-merge' id='bpe-merge' data-count='{snap.count}'>"
        f"<span class='op'>Merge {step:,}:</span>"
        f"{chip_html(run, snap.left, mode, presentation)}<span class='op'>+</span>"
        f"{chip_html(run, snap.right, mode, presentation)}<span class='op'>→</span>"
        f"{chip_html(run, snap.token, mode, presentation, new_css)}"
        f"<span class='bpe-badge chosen'>count {snap.count:,}</span></div>"
    )
    reason = f"<div class='bpe-reason'>{esc_raw(merge_reason(run, step, mode))}</div>"
    stats = (
        f"<div class='bpe-muted'>Rewrote {snap.occurrences:,} place{'s' if snap.occurrences != 1 else ''} in "
        f"{snap.words_changed:,} word type{'s' if snap.words_changed != 1 else ''}; the corpus now has "
        f"{snap.corpus_tokens:,} tokens (was {run.corpus_tokens(step - 1):,}); vocabulary {snap.vocab_size:,}.</div>"
    )
    rule = (
        f"<div class='bpe-rule'><b>Rules:</b> the highest count wins; overlapping windows all count; "
        f"ties: <b>{esc_raw(snap.tie_break)}</b>, {esc_raw(_TIE_SHORT.get(snap.tie_break, ''))}."
        + ("" if presentation else f"<details><summary>All the rules</summary>{rules_html(run)}</details>")
        + "</div>"
    )
    stop = ""
    if step == run.num_steps and run.stop_reason:
        stop = f"<div class='bpe-reason'><b>Last merge.</b> {esc_raw(stop_reason_text(run))}</div>"
    st.html(f"<div class='bpe-card' id='bpe-merge-card'>{head}{reason}{stats}{stop}{rule}</div>")


def _memo_total_words(run: TrainedRun) -> int:
    memo = _memo(run)
    if "total_words" not in memo:
        memo["total_words"] = sum(run.freqs)
    return memo["total_words"]


# ---------------------------------------------------------------------------------- pair table
def pair_table_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 10) -> str:
    """Top pairs with counts and a bar, the chosen pair and the tied ones marked.

    For step k >= 1 these are the counts just before merge k (what it chose from); for step 0 the
    counts the first merge will choose from.
    """
    n = run.num_steps
    if n == 0:
        return f"<p class='bpe-muted'>{esc_raw(stop_reason_text(run))}</p>"
    snap = run.snapshot(max(1, step))
    rows = snap.top_pairs[:limit]
    top = rows[0][2] if rows else 1
    body = []
    for rank, (left, right, c) in enumerate(rows, start=1):
        chosen = rank == 1
        tied = (not chosen) and c == snap.count
        if chosen:
            badge = (
                "<span class='bpe-badge chosen'>chosen</span>"
                if step >= 1
                else "<span class='bpe-badge chosen'>next</span>"
            )
        elif tied:
            badge = "<span class='bpe-badge tied'>tied</span>"
        else:
            badge = ""
        width = max(1.0, 100.0 * c / top)
        body.append(
            f"<tr class='{'chosen' if chosen else ''}'><td class='num'>{rank}</td>"
            f"<td class='pair'>{chip_html(run, left, mode, presentation)} + {chip_html(run, right, mode, presentation)}</td>"
            f"<td class='num'>{c:,}</td><td class='barcell'><div class='bpe-bar' style='width:{width:.1f}%'></div></td>"
            f"<td>{badge}</td></tr>"
        )
    extra = snap.ties - sum(1 for _, _, c in rows if c == snap.count)
    note = (
        f"<p class='bpe-muted'>… and {extra:,} more pair{'s' if extra != 1 else ''} tied at {snap.count:,}.</p>"
        if extra > 0
        else ""
    )
    when = f"before merge {step:,}" if step >= 1 else "now (merge 1 takes the top one)"
    return (
        f"<div class='bpe-pairs-wrap'><p class='bpe-muted'>Pair counts {when}</p>"
        f"<table class='bpe-table' id='bpe-pairs'><thead><tr><th>#</th><th>pair</th>"
        f"<th>count</th><th class='barcell'></th><th></th></tr></thead><tbody>{''.join(body)}</tbody></table>{note}</div>"
    )


def pair_table(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 10) -> None:
    """Draw :func:`pair_table_html`."""
    st.html(pair_table_html(run, step, mode, presentation, limit))


# ------------------------------------------------------------------------------------- corpus
def corpus_table_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 25, offset: int = 0
) -> str:
    """Word, frequency and segmentation (chips) of ``limit`` word types at ``step``; the words this
    merge changed come first, marked, with their previous segmentation faded below."""
    snap_token = run.snapshot(step).token if step >= 1 else None
    rows = run.corpus_view(step, offset=offset, limit=limit, changed_first=True)
    body = []
    for row in rows:
        seg = chips_html(run, row.tokens, mode, snap_token if row.changed else None, presentation)
        badge = "<span class='bpe-badge changed'>changed</span>" if row.changed else ""
        before = ""
        if row.changed and row.before is not None:
            before = f"<div>{chips_html(run, row.before, mode, None, presentation, css='before')}</div>"
        body.append(
            f"<tr class='{'changed' if row.changed else ''}'><td class='word'>{esc(clip(row.word))}{badge}</td>"
            f"<td class='num'>{row.freq:,}</td><td>{seg}{before}</td><td class='num'>{len(row.tokens)}</td></tr>"
        )
    return (
        "<table class='bpe-table' id='bpe-corpus'><thead><tr><th>word</th><th>freq</th>"
        f"<th>segmentation after step {step:,}</th><th>tokens</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def corpus_table(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, key: str = "corpus"
) -> None:
    """Draw the corpus table with a line of totals; for large corpora, a rows-shown picker
    (hidden in presentation mode)."""
    n_words = run.num_words
    changed = run.snapshot(step).words_changed if step >= 1 else 0
    limit = 12 if presentation else 25
    if n_words > limit and not presentation:
        rows_key = f"{key}.rows"
        options = [x for x in (25, 50, 100, 250) if x < n_words] + [min(n_words, 1000)]
        if _kept(rows_key, options[0]) not in options:
            _set_kept(rows_key, options[0])
            _kept(rows_key, options[0])
        limit = st.selectbox("Word types shown", options, key=rows_key, on_change=_keep, args=(rows_key,))
    total = _memo_total_words(run)
    head = (
        f"{plural(n_words, 'word type')}, {plural(total, 'word')}; {plural(run.corpus_tokens(step), 'token')} now "
        f"(was {run.corpus_tokens(0):,} at step 0)."
    )
    if step >= 1:
        head += f" This merge changed {changed:,} word type{'s' if changed != 1 else ''}" + (
            " (listed first)." if n_words > 1 else "."
        )
    if n_words > limit:
        head += f" Showing {limit:,} of {n_words:,}."
    st.html(f"<p class='bpe-muted'>{esc_raw(head)}</p>" + corpus_table_html(run, step, mode, presentation, limit))


# --------------------------------------------------------------------------------- vocabulary
def vocabulary(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
               recent: int = 60, key: str = "vocab") -> None:  # fmt: skip
    """The vocabulary at ``step``: merged tokens (newest first, this step's token marked; at most
    ``recent`` of them), the base alphabet folded away, then a picker and the merge tree of the
    chosen token (default: this step's token)."""
    size = run.vocab_size_at(step)
    base = run.num_base
    merged = size - base
    new_token = run.snapshot(step).token if step >= 1 else None
    first = max(base, size - recent)
    ids = list(range(size - 1, first - 1, -1))
    st.html(
        f"<p class='bpe-muted'>{size:,} tokens: {base:,} base symbols + {merged:,} made by merges"
        + (f" (newest {len(ids):,} shown, newest first)" if merged > len(ids) else " (newest first)")
        + ".</p>"
        + (chips_html(run, ids, mode, new_token, presentation) if ids else "<p class='bpe-muted'>No merges yet.</p>")
    )
    if not presentation:
        with st.expander(f"Base symbols ({base:,})"):
            st.html(chips_html(run, range(base), mode, None, presentation))
    merge_tree_picker(run, step, mode, presentation, candidates=ids[:recent], key=key)


_NEW = -1  # picker option: "this step's new token"


def merge_tree_picker(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                      candidates=(), key: str = "vocab") -> None:  # fmt: skip
    """A token picker (a list of ``candidates`` ids; any other token can be typed) and the merge
    tree of the picked token; by default this step's new token."""
    pick_key = f"{key}.tree"
    size = run.vocab_size_at(step)
    options = [_NEW] + [t for t in candidates if t >= 0]
    current = _kept(pick_key, _NEW)
    if isinstance(current, int) and not (0 <= current < size or current == _NEW):
        current = _NEW  # picked in another run or at a later step
        _set_kept(pick_key, _NEW)
        _kept(pick_key, _NEW)
    if current not in options:
        options.append(current)

    def fmt(option) -> str:
        if option == _NEW:
            return "this step's new token" if step >= 1 else "(no merge yet: pick or type a token)"
        if isinstance(option, int):
            return token_label(run, option, mode)
        return str(option)

    choice = st.selectbox(
        "Merge tree of",
        options,
        key=pick_key,
        format_func=fmt,
        accept_new_options=True,
        on_change=_keep,
        args=(pick_key,),
        help="Pick a token, or type one exactly as it is shown (e.g. est</w>, ␣the, e4 bd).",
    )
    tid: int | None
    if choice == _NEW or choice is None:
        tid = run.snapshot(step).token if step >= 1 else None
    elif isinstance(choice, int):
        tid = choice if choice < size else None
    else:
        tid = find_token(run, str(choice), mode, step)
        if tid is None:
            st.warning("No such token in the vocabulary at this step. Type it as the chips show it.")
            return
    if tid is None:
        return
    st.html(merge_tree_html(run, tid, mode, presentation))


def find_token(run: TrainedRun, label: str, mode: str = "utf8", step: int | None = None) -> int | None:
    """The id of the token shown as ``label`` (as :func:`token_label` writes it, or its raw text),
    present at ``step`` (default: any step), or ``None``."""
    memo = _memo(run)
    key = ("labels", mode)
    table = memo.get(key)
    if table is None or len(table[1]) != len(run.values):
        table = ({}, run.values)
        for tid in range(len(run.values)):
            table[0].setdefault(token_label(run, tid, mode), tid)
        memo[key] = table
    tid = table[0].get(label)
    if tid is None:
        value = label.encode("utf-8") if run.variant.is_bytes else label
        tid = run.value_to_id.get(value)
    if tid is None or (step is not None and run.created_step[tid] > step):
        return None
    return tid


def merge_tree_html(
    run: TrainedRun, tid: int, mode: str = "utf8", presentation: bool = False, max_leaves: int = 48
) -> str:
    """How token ``tid`` was built, as a tree of chips (root on top, each node labelled with the
    step that made it). Very long tokens are shown as their list of merges instead."""
    if run.symbol_length(tid) > max_leaves:
        return f"<p class='bpe-muted'>{esc_raw(token_label(run, tid, mode))} is made of {run.symbol_length(tid)} symbols: too big to draw.</p>"

    def node(t: int) -> str:
        made = run.created_step[t]
        label = f"<span class='stepnum'>step {made}</span>" if made else "<span class='stepnum'>base</span>"
        src = run.created_from[t]
        kids = f"<ul>{node(src[0])}{node(src[1])}</ul>" if src else ""
        return f"<li>{chip_html(run, t, mode, presentation)}{label}{kids}</li>"

    return f"<ul class='bpe-tree' id='bpe-tree'>{node(tid)}</ul>"


# ------------------------------------------------------------------------------------- charts
MAX_CHART_POINTS = 600


def _chart_specs(run: TrainedRun, presentation: bool) -> list[dict]:
    memo = _memo(run)
    key = ("charts", presentation)
    specs = memo.get(key)
    if specs is not None:
        return specs
    import pandas as pd

    series = run.series()
    n = len(series["step"])
    stride = max(1, -(-n // MAX_CHART_POINTS))
    keep = list(range(0, n, stride))
    if keep[-1] != n - 1:
        keep.append(n - 1)
    names = {
        "vocab_size": "Vocabulary size",
        "corpus_tokens": "Corpus length (tokens)",
        "count": "Count of each merge",
    }
    font = 16 if presentation else 12
    colour = "#33528a" if presentation else "#4c78a8"
    specs = []
    for col, title in names.items():
        idx = keep if col != "count" else [i for i in keep if i > 0] or [0]
        frame = pd.DataFrame({"step": [series["step"][i] for i in idx], "value": [series[col][i] for i in idx]})
        lo, hi = int(frame["value"].min()), int(frame["value"].max())
        scale = alt.Scale(type="log") if col == "count" and lo > 0 and hi > 100 * lo else alt.Scale(zero=False)
        line = (
            alt.Chart(frame)
            .mark_line(point=len(frame) <= 60, color=colour)
            .encode(
                x=alt.X("step:Q", title="step"),
                y=alt.Y("value:Q", title=None, scale=scale),
                tooltip=[alt.Tooltip("step:Q"), alt.Tooltip("value:Q", title=title.lower())],
            )
        )
        rule = alt.Chart(pd.DataFrame({"step": [0]})).mark_rule(color="#d62728", strokeWidth=3).encode(x="step:Q")
        chart = (
            alt.layer(line, rule)
            .properties(title=title, height=170)
            .configure_axis(labelFontSize=font, titleFontSize=font)
            .configure_title(fontSize=font + 1)
        )
        specs.append(_arrow_datasets(chart.to_dict()))
    memo[key] = specs
    return specs


def _arrow_datasets(spec: dict) -> dict:
    """Serialise the spec's datasets to Arrow once: Streamlit sends Arrow bytes as they are, so a
    step only re-sends the spec, not a re-conversion of every point (15 ms -> under 2 ms)."""
    try:
        import pandas as pd
        from streamlit import dataframe_util

        spec = dict(spec)
        spec["datasets"] = {
            name: dataframe_util.convert_anything_to_arrow_bytes(pd.DataFrame(rows))
            for name, rows in spec.get("datasets", {}).items()
        }
    except Exception:  # an internal API moved: the plain spec still renders, only slower
        pass
    return spec


def charts(run: TrainedRun, step: int, presentation: bool = False, columns: bool = True) -> None:
    """Vocabulary size, corpus length in tokens and the count of each merge over all steps (Altair
    charts, built once per run), with a red rule at the current step. Long runs are thinned to
    about 600 points per line; merge counts use a log scale when they span over 100x.
    ``columns``: side by side (True) or stacked (False)."""
    if run.num_steps == 0:
        return
    specs = _chart_specs(run, presentation)
    places = st.columns(3) if columns else [st.container() for _ in specs]
    for place, spec in zip(places, specs):
        with place:
            st.vega_lite_chart(_with_marker(spec, step), width="stretch")


_MARKER = "bpe_current_step"


def _with_marker(spec: dict, step: int) -> dict:
    """A shallow copy of a cached spec whose rule layer (the second) reads the current step from
    the named dataset ``bpe_current_step``. The spec itself never changes between steps, only that
    one-row dataset, so the browser updates the chart's data instead of rebuilding the chart."""
    out = dict(spec)
    layers = list(spec["layer"])
    rule = dict(layers[1])
    rule["data"] = {"name": _MARKER}
    layers[1] = rule
    out["layer"] = layers
    out["datasets"] = {**spec.get("datasets", {}), _MARKER: _marker_rows(int(step))}
    return out


@functools.lru_cache(maxsize=4096)
def _marker_rows(step: int):
    try:
        import pandas as pd
        from streamlit import dataframe_util

        return dataframe_util.convert_anything_to_arrow_bytes(pd.DataFrame({"step": [step]}))
    except Exception:
        return [{"step": step}]
