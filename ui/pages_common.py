"""What the pages in ``pages/`` share beyond :mod:`ui.state`, :mod:`ui.render` and :mod:`ui.training`.

* :func:`start_page` -- page config, the shared sidebar, the shared CSS (plus the few page-only rules).
* Selections for other runs of the same input (:func:`with_variant`), for a page's own text
  (:func:`text_selection`) or word counts (:func:`words_selection`); :func:`get_runs` starts every
  missing run in the shared cache at once (so three variants train in parallel) and then waits
  for each with :func:`ui.training.get_run` (progress bar, messages).
* :class:`TokenView` -- lets :func:`ui.render.chip_html` draw tokens of a :class:`bpe_core.encoder.Tokenizer`
  (an uploaded GPT-2 model) or the ``<unk>`` id of a char-level encoding, which a run does not know.
  :func:`tokens_html` draws an encoding with ids under the chips and ``<unk>`` explained.
* Encoding helpers (:func:`tokenizer_at`, :func:`replay_ranks`, :func:`replay_ids`), file contents
  (:func:`snapshots_frame`, :func:`snapshots_csv`, :func:`snapshots_jsonl`, the others come from
  :mod:`bpe_core.files`), Unicode helpers (:func:`graphemes`, :func:`code_points`) and the byte-level
  measures of the BPE vs BBPE page.
* :func:`seeded` -- page widgets whose value survives a page switch (the pattern of :mod:`ui.state`).

User text goes into HTML only through :func:`ui.text.esc` / :func:`ui.text.esc_raw`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
import unicodedata
import weakref
from collections import OrderedDict

import regex
import streamlit as st

from bpe_core import InputError, TrainConfig, TrainedRun, clean_text, corpus_words, train
from bpe_core.cli import jsonl_line, merge_record  # the CLI's --jsonl line: one definition, reused here
from bpe_core.encoder import Tokenizer

from . import render, state, training
from .presets import words_digest_text
from .text import esc, esc_raw, visible

# ------------------------------------------------------------------------------------------- page
PAGE_CSS = """
<style>
.bpe-toks { display: flex; flex-wrap: wrap; gap: 6px 4px; align-items: flex-start; }
.bpe-tok { display: inline-flex; flex-direction: column; align-items: center; }
.bpe-tok .bpe-id { font-size: .85rem; color: #444; font-variant-numeric: tabular-nums; margin-top: 1px; }
.bpe-tok .bpe-src { font-size: .8rem; color: #111; margin-top: 1px; }
.bpe-chip.unk { background: #fff !important; border: 2px solid #b00020; color: #b00020; font-weight: 700; }
.bpe-card.bpe-col .bpe-merge { font-size: 1.25rem; gap: .3rem; }
.bpe-card.bpe-col .bpe-merge .bpe-chip { font-size: 1.45rem; padding: 1px 8px; }
.bpe-col-title { font-size: 1.25rem; font-weight: 700; margin: .2rem 0 .3rem 0; }
.bpe-big { font-size: 1.9rem; font-weight: 700; font-variant-numeric: tabular-nums; line-height: 1.1; }
.bpe-big-label { font-size: .85rem; color: #444; }
.bpe-stats { display: flex; gap: 1.6rem; flex-wrap: wrap; margin: .2rem 0 .5rem 0; }
.bpe-delta { font-size: .9rem; font-weight: 400; color: #555; margin-left: .35rem; }
.bpe-glyph { font-size: 2.6rem; line-height: 1.1; }
.bpe-cp { font-family: ui-monospace, "DejaVu Sans Mono", monospace; white-space: nowrap; }
.bpe-byte { display: inline-block; font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  border: 1px solid #888; border-radius: 3px; padding: 0 3px; margin: 1px; background: #f3f3f3; }
.bpe-table td.big { font-size: 1.6rem; }
.bpe-note { font-size: 1rem; margin: .3rem 0; }
.bpe-ok { color: #0b6b2e; font-weight: 700; }
.bpe-bad { color: #b00020; font-weight: 700; }
.bpe-text { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; font-size: 1.1rem;
  white-space: pre-wrap; border: 1px solid #ccc; border-radius: 6px; padding: .4rem .6rem; background: #fafafa; }
</style>
"""

VARIANT_TITLES = {"char": "Characters", "eow": "Characters + end of word", "byte": "Bytes (UTF-8)"}


def start_page(title: str, icon: str) -> state.Selection:
    """Page config, the shared sidebar (its corpus and settings are every page's), the shared CSS.

    Returns the sidebar's :class:`ui.state.Selection` (which may be not ``ok``: a message was shown).
    """
    st.set_page_config(page_title=f"{title} · BPE Explorer", page_icon=icon, layout="wide")
    sel = state.sidebar()
    if sel.presentation:
        st.set_page_config(initial_sidebar_state="collapsed")
    render.setup_page(sel)
    st.html(PAGE_CSS)
    return sel


def variant_title(variant: str, config: TrainConfig | None = None) -> str:
    """A column heading for a variant (the end-of-word marker named)."""
    if variant == "eow" and config is not None:
        return f"Characters + {config.eow_marker}"
    return VARIANT_TITLES[variant]


# ------------------------------------------------------------------------------- session widgets
def seeded(name: str, default):
    """Key of a page widget whose value survives page switches.

    Streamlit forgets the state of widgets that a run does not draw (another page), so the value
    lives under ``pg.<name>`` and the widget (key ``w.pg.<name>``) is re-seeded from it on every
    run; pass ``on_change=keep, args=(name,)`` to the widget.
    """
    ss = st.session_state
    canon = "pg." + name
    if canon not in ss:
        ss[canon] = default
    key = "w.pg." + name
    ss[key] = ss[canon]
    return key


def keep(name: str) -> None:
    """``on_change`` of a :func:`seeded` widget: copy the widget's value to its lasting key."""
    ss = st.session_state
    ss["pg." + name] = ss["w.pg." + name]


def kept(name: str, default=None):
    """The lasting value of a :func:`seeded` widget."""
    return st.session_state.get("pg." + name, default)


def put(name: str, value) -> None:
    """Set the lasting value of a :func:`seeded` widget (before it is drawn)."""
    st.session_state["pg." + name] = value


def short_key(*parts) -> str:
    """A short stable hex key for widget names that depend on an input (digest, config...)."""
    return hashlib.sha1(repr(parts).encode("utf-8")).hexdigest()[:12]


# ------------------------------------------------------------------------------------- selections
def with_variant(sel: state.Selection, variant: str) -> state.Selection:
    """The same input and settings as ``sel`` with another variant.

    The loader of ``sel`` splits the text with its config's pre-tokenizer, which the sidebar always
    sets explicitly, and the variant does not enter the split, so it gives the same words.
    """
    if not sel.ok or sel.config is None:
        return sel
    return dataclasses.replace(sel, config=dataclasses.replace(sel.config, variant=variant))


def _settings_config(
    settings: dict, variant: str, num_merges: int | None, pretokenizer: str | None = None
) -> TrainConfig:
    marker = settings.get("marker") or "</w>"
    cfg = TrainConfig(
        variant=variant,
        pretokenizer=pretokenizer or settings["pre"],
        num_merges=num_merges,
        min_frequency=int(settings["minf"]),
        tie_break=settings["tie"],
        eow_style=settings["eow"],
        eow_marker=marker,
    )
    try:
        return cfg.validate()
    except ValueError as err:
        raise InputError(str(err)) from None


def text_selection(
    sel: state.Selection, text: str, variant: str, num_merges: int, label: str = "Text"
) -> state.Selection:
    """A selection training ``text`` (a page's own text box) with the sidebar's pre-tokenizer,
    minimum frequency and tie-break, ``variant`` and ``num_merges``. Not ``ok`` (with a message,
    not shown) for empty or unusable text."""
    settings = sel.settings

    def bad(message: str) -> state.Selection:
        return state.Selection(
            ok=False, source="paste", preset=None, label=label, digest=None, size_bytes=0, config=None,
            settings=settings, byte_mode=sel.byte_mode, presentation=sel.presentation, message=message,
        )  # fmt: skip

    try:
        text = clean_text(text)
        cfg = _settings_config(settings, variant, num_merges)
    except InputError as err:
        return bad(str(err))
    if not text.strip():
        return bad("The text is empty.")
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    return state.Selection(
        ok=True, source="paste", preset=None, label=label, digest=digest, size_bytes=len(data), config=cfg,
        settings=settings, byte_mode=sel.byte_mode, presentation=sel.presentation, message=None,
        _loader=lambda: corpus_words(text, cfg),
    )  # fmt: skip


def words_selection(
    sel: state.Selection, words: dict, config: TrainConfig, label: str = "Word counts"
) -> state.Selection:
    """A selection training a fixed ``{word: count}`` dict with ``config`` (the worked examples)."""
    canonical = words_digest_text(words).encode("utf-8")
    frozen = dict(words)
    return state.Selection(
        ok=True, source="words", preset=None, label=label, digest=hashlib.sha256(canonical).hexdigest(),
        size_bytes=len(canonical), config=config.validate(), settings=sel.settings, byte_mode=sel.byte_mode,
        presentation=sel.presentation, message=None, _loader=lambda: dict(frozen),
    )  # fmt: skip


def get_runs(selections) -> list[TrainedRun | None]:
    """The runs of several selections: every missing one is started in the shared cache first
    (they train side by side, two at a time), then each is awaited with :func:`ui.training.get_run`
    (progress bar; ``None`` and a message for unusable input or a failed training)."""
    cache = training.shared_cache()
    for sel in selections:
        if sel.ok and cache.get(sel.cache_key) is None:
            cfg, load = sel.config, sel.load_words
            cache.start(
                sel.cache_key,
                lambda progress, cfg=cfg, load=load: train(load(), cfg, progress=progress),
                sel.size_bytes,
                cfg.num_merges,
            )
    return [training.get_run(sel) for sel in selections]


# ---------------------------------------------------------------------------- per-run memo
_MEMO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MEMO_LOCK = threading.Lock()


def memo(obj) -> dict:
    """A dict of derived data kept as long as ``obj`` (a run) lives; shared by sessions."""
    with _MEMO_LOCK:
        found = _MEMO.get(obj)
        if found is None:
            found = _MEMO[obj] = {}
        return found


TOKENIZERS_PER_RUN = 4  #: tokenizers, views and file texts kept per run: the last steps asked for


def cached(run: TrainedRun, name: str, key, make):
    """``make()``, kept per run under ``name`` for the last :data:`TOKENIZERS_PER_RUN` keys."""
    m = memo(run)
    with _MEMO_LOCK:
        table = m.setdefault(name, OrderedDict())
        value = table.get(key)
        if value is not None:
            table.move_to_end(key)
            return value
    value = make()
    with _MEMO_LOCK:
        table[key] = value
        table.move_to_end(key)
        while len(table) > TOKENIZERS_PER_RUN:
            table.popitem(last=False)
    return value


def tokenizer_at(run: TrainedRun, step: int | None = None) -> Tokenizer:
    """``Tokenizer.from_run(run, step)``, kept for the last few steps asked (encode caches stay warm)."""
    n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
    return cached(run, "tokenizers", n, lambda: Tokenizer.from_run(run, n))


# ------------------------------------------------------------------------------------- token chips
class _Lookup:
    """``x[i]`` over a list or dict with a default (the unknown id, ids of an uploaded vocabulary)."""

    def __init__(self, data, default):
        self.data = data
        self.default = default

    def __getitem__(self, i):
        data = self.data
        if isinstance(data, dict):
            return data.get(i, self.default)
        return data[i] if 0 <= i < len(data) else self.default


class TokenView:
    """The part of :class:`bpe_core.TrainedRun` that :func:`ui.render.chip_html` reads, for a
    :class:`bpe_core.encoder.Tokenizer`: so encodings (with ``<unk>``) and uploaded GPT-2 models are
    drawn by the same chip renderer as everything else.

    Args:
        tok: the tokenizer.
        run: the run it was made from (merge steps and sources then come from the run), or ``None``
            (they come from the tokenizer's merges: step = rank).
    """

    def __init__(self, tok: Tokenizer, run: TrainedRun | None = None):
        self.tok = tok
        self.variant = tok.variant
        self.unk_id = tok.unk_id
        if run is not None:
            self.created_step = _Lookup(run.created_step, 0)
            self.created_from = _Lookup(run.created_from, None)
        else:
            steps: dict = {}
            sources: dict = {}
            vocab = tok.vocab
            for rank, (left, right) in enumerate(tok.merges, start=1):
                new = vocab[left + right]
                if new not in steps:
                    steps[new] = rank
                    sources[new] = (vocab[left], vocab[right])
            self.created_step = _Lookup(steps, 0)
            self.created_from = _Lookup(sources, None)

    def token_value(self, tid: int):
        return self.tok.token_value(tid)

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        return self.tok.token_text(tid, mode)

    def is_partial(self, tid: int) -> bool:
        if tid == self.unk_id:
            return False
        return self.variant.is_partial(self.tok.token_value(tid))


def view_of(run: TrainedRun, step: int | None = None) -> TokenView:
    """The :class:`TokenView` of ``tokenizer_at(run, step)`` (kept like the tokenizers)."""
    tok = tokenizer_at(run, step)
    return cached(run, "views", tok.num_merges, lambda: TokenView(tok, run))


@st.cache_resource(max_entries=4, show_spinner="Loading the uploaded model…")
def load_gpt2_view(digest: str, _vocab_data: bytes, _merges_data: bytes) -> TokenView:
    """A :class:`TokenView` of :func:`bpe_core.files.load_gpt2_files` (vocab.json + merges.txt bytes),
    shared by every session that uploads the same pair (``digest``: a hash of both files; the last
    four models are kept). Raises ``InputError`` for files that cannot be loaded."""
    from bpe_core.files import load_gpt2_files

    return TokenView(load_gpt2_files(_vocab_data, _merges_data))


def unknown_symbols(tok: Tokenizer, text: str) -> list[str]:
    """The base symbols of ``text`` that ``tok`` maps to ``<unk>``, in order (char/eow only)."""
    if tok.variant.is_bytes:
        return []
    vocab = tok.vocab
    return [s for piece in tok.pieces(text) for s in tok.variant.symbols(piece) if s not in vocab]


def _code_points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


_TITLE = re.compile(r'title="[^"]*"')


def tokens_html(
    view,
    ids,
    mode: str = "utf8",
    presentation: bool = False,
    with_ids: bool = True,
    unknown: list[str] | None = None,
    new_token: int | None = None,
    limit: int = 1500,
    css_id: str = "",
) -> str:
    """An encoding as chips (drawn by :func:`ui.render.chip_html`), each with its id underneath.

    ``view`` is a run or a :class:`TokenView`. ``<unk>`` chips get a red frame, a tooltip and the
    symbol they stand for underneath (``unknown``, from :func:`unknown_symbols`). Chips equal to
    ``new_token`` are highlighted. At most ``limit`` tokens are drawn.
    """
    unk = getattr(view, "unk_id", None)
    missing = iter(unknown or [])
    parts = []
    ids = list(ids)
    for tid in ids[:limit]:
        if unk is not None and tid == unk:
            src = next(missing, None)
            chip = render.chip_html(view, tid, mode, presentation, "unk")
            tip = "unknown symbol: not in the vocabulary"
            if src is not None:
                tip = f"unknown symbol: {visible(src)} ({_code_points(src)}) is not in the vocabulary"
            chip = _TITLE.sub(f'title="{esc_raw(tip)}"', chip, count=1)
            below = f"<span class='bpe-src'>{esc(src)}</span>" if src is not None else ""
            idline = f"<span class='bpe-id'>{tid}</span>" if with_ids else ""
            parts.append(f"<span class='bpe-tok'>{chip}{below}{idline}</span>")
            continue
        chip = render.chip_html(
            view, tid, mode, presentation, "new" if new_token is not None and tid == new_token else ""
        )
        idline = f"<span class='bpe-id'>{tid}</span>" if with_ids else ""
        parts.append(f"<span class='bpe-tok'>{chip}{idline}</span>")
    more = ""
    if len(ids) > limit:
        more = f"<span class='bpe-muted'>… and {len(ids) - limit:,} more tokens</span>"
    ident = f" id='{esc_raw(css_id)}'" if css_id else ""
    return f"<div class='bpe-toks'{ident}>{''.join(parts)}{more}</div>"


def merge_line_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                    numbered: bool = True) -> str:  # fmt: skip
    """The chosen merge of ``step`` in one line of chips (``e + s → es  count 9``); at step 0 the
    merge that comes next; past the run's end, why it stopped. Drawn by :func:`ui.render.chip_html`."""
    n = run.num_steps
    if n == 0:
        return f"<div class='bpe-reason'>{esc_raw(render.stop_reason_text(run))}</div>"
    if step > n:
        return (
            f"<div class='bpe-reason'><b>Stopped after merge {n:,}.</b> {esc_raw(render.stop_reason_text(run))}</div>"
        )
    snap = run.snapshot(max(1, step))
    label = (f"Merge {step:,}:" if numbered else "") if step >= 1 else "Next:"
    new_css = ("new" if snap.is_new else "part") if step >= 1 else ""
    head = f"<span class='op'>{label}</span>" if label else ""
    return (
        f"<div class='bpe-merge' data-step='{step}' data-count='{snap.count}'>{head}"
        f"{render.chip_html(run, snap.left, mode, presentation)}<span class='op'>+</span>"
        f"{render.chip_html(run, snap.right, mode, presentation)}<span class='op'>→</span>"
        f"{render.chip_html(run, snap.token, mode, presentation, new_css)}"
        f"<span class='bpe-badge chosen'>count {snap.count:,}</span></div>"
    )


def merge_text(run: TrainedRun, step: int, mode: str = "utf8") -> str:
    """``"e + s → es (9)"``: merge ``step`` as plain text (not escaped)."""
    snap = run.snapshot(step)
    label = render.token_label
    return f"{label(run, snap.left, mode)} + {label(run, snap.right, mode)} → {label(run, snap.token, mode)} ({snap.count:,})"


# ------------------------------------------------------------------------------------- charts
MAX_CHART_POINTS = 1500


def lines_chart(series: dict, title: str, step: int | None = None, presentation: bool = False,
                height: int = 230, fmt: str = ",.0f") -> dict:  # fmt: skip
    """A Vega-Lite spec (Altair): one line per ``{name: [value at step 0, 1, ...]}``, a red rule at
    ``step`` (``None``: no rule). Long series are thinned to about 1,500 points."""
    import altair as alt
    import pandas as pd

    rows = []
    for name, values in series.items():
        n = len(values)
        stride = max(1, -(-n // MAX_CHART_POINTS))
        keep_idx = list(range(0, n, stride))
        if keep_idx and keep_idx[-1] != n - 1:
            keep_idx.append(n - 1)
        rows.extend({"step": i, "value": values[i], "series": name} for i in keep_idx)
    frame = pd.DataFrame(rows, columns=["step", "value", "series"])
    font = 16 if presentation else 13
    palette = ["#1b6ca8", "#d95f02", "#1b9e77", "#7570b3"]
    names = list(series)
    line = alt.Chart(frame).mark_line(strokeWidth=3, point=len(frame) <= 3 * 60).encode(
        x=alt.X("step:Q", title="merges (step)", axis=alt.Axis(format="d", tickMinStep=1)),
        y=alt.Y("value:Q", title=title, scale=alt.Scale(zero=False)),
        color=alt.Color("series:N", title=None, sort=names,
                        scale=alt.Scale(domain=names, range=palette[: len(names)]),
                        legend=alt.Legend(orient="top", labelFontSize=font, symbolType="stroke", symbolStrokeWidth=4, labelLimit=400)),
        strokeDash=alt.StrokeDash("series:N", sort=names, legend=None),
        tooltip=[alt.Tooltip("series:N", title="variant"), alt.Tooltip("step:Q"),
                 alt.Tooltip("value:Q", title=title, format=fmt)],
    )  # fmt: skip
    layers = [line]
    if step is not None:
        layers.append(
            alt.Chart(pd.DataFrame({"step": [int(step)]})).mark_rule(color="#d62728", strokeWidth=3).encode(x="step:Q")
        )
    chart = (
        alt.layer(*layers)
        .properties(height=height)
        .configure_axis(labelFontSize=font, titleFontSize=font)
        .configure_legend(labelFontSize=font)
    )
    return chart.to_dict()


# ------------------------------------------------------------------------------------- encoding
def replay_ranks(traces) -> list[tuple[int, int, int, int, int]]:
    """The merges an encoding applied, in rank order: ``[(rank, left, right, token, places)]``
    (``places``: occurrences rewritten, over all pre-tokens)."""
    found: dict = {}
    for trace in traces:
        for s in trace.steps:
            entry = found.get(s.rank)
            if entry is None:
                found[s.rank] = [s.rank, s.left, s.right, s.token, len(s.positions)]
            else:
                entry[4] += len(s.positions)
    return [tuple(found[r]) for r in sorted(found)]


def replay_ids(traces, upto_rank: int) -> list[int]:
    """The whole text's ids once every merge of rank <= ``upto_rank`` was applied (0: base symbols)."""
    out: list[int] = []
    for trace in traces:
        ids = trace.start
        for s in trace.steps:
            if s.rank > upto_rank:
                break
            ids = s.tokens
        out.extend(ids)
    return out


def parse_ids(text: str) -> list[int]:
    """Token ids from ``"12, 5 7"`` / ``"[12, 5, 7]"``. Raises ``InputError`` naming the bad item."""
    items = [x for x in re.split(r"[\s,;\[\]]+", text.strip()) if x]
    out = []
    for item in items:
        if not re.fullmatch(r"\d{1,9}", item):
            raise InputError(f"{item[:20]!r} is not a token id (ids are whole numbers ≥ 0, e.g. 12, 5, 7).")
        out.append(int(item))
    return out


# ------------------------------------------------------------------------------------- files
def snapshot_rows(run: TrainedRun, step: int | None = None) -> list[dict]:
    """One row per merge 1..``step`` (default: all): the CLI's ``--jsonl`` record
    (:func:`bpe_core.cli.merge_record`) plus ``token_id`` and ``stop`` (the stop reason on the last
    row: the run's own when ``step`` is its end, else ``num_merges``)."""
    n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
    rows = []
    for snap in run.snapshots[:n]:
        rec = merge_record(run, snap)
        row = {
            "step": rec["step"], "left": rec["left"], "right": rec["right"], "token": rec["token"],
            "token_id": snap.token, "count": rec["count"], "ties": rec["ties"], "vocab_size": rec["vocab_size"],
            "corpus_tokens": rec["corpus_tokens"], "stop": "", "left_hex": rec["left_hex"], "right_hex": rec["right_hex"],
        }  # fmt: skip
        rows.append(row)
    if rows:
        rows[-1]["stop"] = stop_reason_at(run, n)
    return rows


def stop_reason_at(run: TrainedRun, step: int) -> str:
    """Why a run cut at ``step`` stops: the run's reason at its end, ``num_merges`` before it."""
    return (run.stop_reason or "") if step >= run.num_steps else "num_merges"


def snapshots_frame(run: TrainedRun, step: int | None = None):
    """:func:`snapshot_rows` as a pandas DataFrame (columns in a fixed order even when empty)."""
    import pandas as pd

    columns = ["step", "left", "right", "token", "token_id", "count", "ties", "vocab_size", "corpus_tokens",
               "stop", "left_hex", "right_hex"]  # fmt: skip
    return pd.DataFrame(snapshot_rows(run, step), columns=columns)


def snapshots_csv(run: TrainedRun, step: int | None = None) -> str:
    """The snapshots as CSV (pandas; UTF-8 text, a header line, one line per merge)."""
    return snapshots_frame(run, step).to_csv(index=False, lineterminator="\n")


def snapshots_jsonl(run: TrainedRun, step: int | None = None) -> str:
    """The snapshots as the CLI's ``train --jsonl`` prints them: one merge record per line, then
    ``{"stop": reason, "merges": n}``."""
    n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
    lines = [jsonl_line(merge_record(run, snap)) for snap in run.snapshots[:n]]
    lines.append(jsonl_line({"stop": stop_reason_at(run, n), "merges": n}))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------- Unicode
_GRAPHEME = regex.compile(r"\X")


def graphemes(text: str) -> list[str]:
    """Extended grapheme clusters (what a reader sees as one character: 👨‍👩‍👧, 🇨🇳, é)."""
    return _GRAPHEME.findall(text)


def code_points(grapheme: str) -> list[tuple[str, str, str, bytes]]:
    """``[(char, "U+1F468", NAME, utf8_bytes)]`` for each code point of ``grapheme``."""
    out = []
    for c in grapheme:
        name = unicodedata.name(c, "")
        if not name:
            name = {0x200D: "ZERO WIDTH JOINER"}.get(ord(c), f"(no name; category {unicodedata.category(c)})")
        out.append((c, f"U+{ord(c):04X}", name, c.encode("utf-8")))
    return out


def first_single_token_step(run: TrainedRun, text: str) -> int | None:
    """The step whose merge first made ``text`` one vocabulary token (0: a base symbol), or ``None``."""
    value = text.encode("utf-8") if run.variant.is_bytes else text
    tid = run.value_to_id.get(value)
    if tid is None:
        return None
    return run.created_step[tid]


def partial_series(run: TrainedRun) -> list[int]:
    """For steps 0..n: how many merged tokens of the vocabulary are not whole UTF-8 characters."""
    m = memo(run)
    if "partial_series" not in m:
        out = [0]
        for snap in run.snapshots:
            out.append(out[-1] + (1 if snap.is_new and run.is_partial(snap.token) else 0))
        m["partial_series"] = out
    return m["partial_series"]


def corpus_size(run: TrainedRun) -> tuple[int, int]:
    """``(characters, UTF-8 bytes)`` of the run's words, frequency-weighted."""
    m = memo(run)
    if "corpus_size" not in m:
        chars = sum(len(w) * f for w, f in zip(run.words, run.freqs))
        data = sum(len(w.encode("utf-8")) * f for w, f in zip(run.words, run.freqs))
        m["corpus_size"] = (chars, data)
    return m["corpus_size"]


def partial_corpus_tokens(run: TrainedRun, step: int) -> int:
    """Frequency-weighted tokens of the corpus at ``step`` that are not whole UTF-8 characters."""
    m = memo(run)
    key = ("partial_corpus", step)
    if key not in m:
        total = 0
        partial = run.is_partial
        for i, f in enumerate(run.freqs):
            total += f * sum(1 for t in run.segmentation(i, step) if partial(t))
        m[key] = total
    return m[key]


def top_words(run: TrainedRun, count: int = 6, min_chars: int = 2) -> list[str]:
    """The ``count`` most frequent word types (first appearance breaks ties), preferring words of at
    least ``min_chars`` characters."""
    order = sorted(range(run.num_words), key=lambda i: (-run.freqs[i], i))
    long = [run.words[i] for i in order if len(run.words[i].strip()) >= min_chars]
    pick = long[:count]
    if len(pick) < count:
        pick += [run.words[i] for i in order if run.words[i] not in pick][: count - len(pick)]
    return pick
