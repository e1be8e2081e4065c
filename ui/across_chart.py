"""The Side by side page's measure of merges across words: bytes per token on held-out text against vocabulary size,
for plain BPE, SuperBPE and BoundlessBPE trained on the same text (computed by :mod:`bpe_core.across_measure`).

Training three methods on a book takes seconds, so the section measures when asked (a button); the server keeps
each text's result, and a session that has measured a text draws it again at once on the page's later runs.
"""

from __future__ import annotations

from dataclasses import asdict

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import TrainConfig
from bpe_core.across_measure import METHODS, compression_curves
from bpe_core.i18n import format_number
from ui.corpus import read_preset_file
from ui.i18n import N_, _, current_language
from ui.text import md_escape

#: Vocabulary sizes measured (the 256 bytes + merges).
SIZES = (512, 1024, 2048, 4096)

#: Each line's name in the legend: the papers' names, the same in every language, and for Chinese plain BPE under
#: GPT-2's pattern, which keeps a run of Chinese characters whole (translated where shown).
METHOD_NAMES = {
    "bpe": "BPE",
    "superbpe": "SuperBPE",
    "boundless": "BoundlessBPE",
    "bpe-runs": N_("BPE, GPT-2's pattern"),
}
LINES = (*METHODS, "bpe-runs")

#: One colour per line, far apart for a projector (the comparison charts' palette, :func:`ui.charts.lines_chart`).
PALETTE = ("#1b6ca8", "#d95f02", "#1b9e77", "#7570b3")


def line_name(method: str) -> str:
    """The legend's name of a line (:data:`METHOD_NAMES`)."""
    return _(METHOD_NAMES[method]) if method == "bpe-runs" else METHOD_NAMES[method]


#: The texts: id -> (label, file in ``presets/``, stage-1 pre-tokenizer). Chinese stage 1 runs on jieba's words:
#: under GPT-2's pattern a run of Chinese characters is one pre-token, and there is no boundary to cross.
TEXTS = {
    "en": (N_("All Around the Moon, whole book (English)"), "pg16457.txt", "gpt2"),
    "zh": (N_("红楼梦, chapters 1–10 (Chinese; stage 1 on jieba words)"), "hongloumeng-chapters1-10.txt", "jieba"),
}


@st.cache_data(show_spinner=False, max_entries=6)
def _curves(text: str, pretokenizer: str, sizes: tuple[int, ...]) -> list[dict]:
    """The curves as table rows (cached: a whole book trains three times)."""
    config = TrainConfig(variant="byte", pretokenizer=pretokenizer)
    rows = [asdict(p) for p in compression_curves(text, sizes, config)]
    if pretokenizer == "jieba":  # the line without word cuts, for "what is a word?"
        runs = compression_curves(text, sizes, TrainConfig(variant="byte", pretokenizer="gpt2"), methods=["bpe"])
        rows += [dict(asdict(p), method="bpe-runs") for p in runs]
    return rows


def chart_spec(rows: list[dict], present: bool) -> alt.Chart:
    """Bytes per token (y) against vocabulary size (x, log scale), one line per method, points marked."""
    frame = pd.DataFrame(rows)
    frame["name"] = [line_name(m) for m in frame["method"]]
    names = [line_name(m) for m in LINES if m in set(frame["method"])]
    font = 16 if present else 13
    return (
        alt.Chart(frame)
        .mark_line(strokeWidth=3, point=alt.OverlayMarkDef(size=90))
        .encode(
            x=alt.X(
                "vocab_size:Q",
                title=_("vocabulary size"),
                scale=alt.Scale(type="log", base=2),
                axis=alt.Axis(values=sorted(set(frame["vocab_size"])), format=",d"),
            ),
            y=alt.Y("bytes_per_token:Q", title=_("bytes per token"), scale=alt.Scale(zero=False)),
            color=alt.Color(
                "name:N",
                title=None,
                sort=names,
                scale=alt.Scale(domain=names, range=PALETTE[: len(names)]),
                legend=alt.Legend(orient="top", labelFontSize=font, labelLimit=400, columns=2),
            ),
            strokeDash=alt.StrokeDash("name:N", sort=names, legend=None),
            tooltip=[
                alt.Tooltip("name:N", title=_("method")),
                alt.Tooltip("vocab_size:Q", title=_("vocabulary size"), format=",d"),
                alt.Tooltip("bytes_per_token:Q", title=_("bytes per token"), format=".3f"),
                alt.Tooltip("tokens:Q", title=_("tokens"), format=",d"),
            ],
        )
        .configure_axis(labelFontSize=font, titleFontSize=font)
        .properties(height=300)
    )


def section(choice) -> None:
    """The section: what is measured, the text picker, the Measure button, then the chart and its table."""
    st.subheader(_("Merges across words: bytes per token"), anchor="across-words")
    st.caption(
        _(
            "Plain BPE, SuperBPE and BoundlessBPE, byte-level, trained on the same text; the last tenth of the "
            "text is held out and encoded by each. Higher is better: fewer tokens for the same bytes. SuperBPE's "
            "transition point is at 90 percent of each vocabulary's merges, as in its paper's main model; BoundlessBPE's "
            "sizes count the tokens it removed, as its reference does."
        )
    )
    key = st.radio(_("Text"), list(TEXTS), format_func=lambda k: _(TEXTS[k][0]), horizontal=True, key="sbs.across.text")
    text = read_preset_file(TEXTS[key][1])
    if key == "zh":
        st.caption(
            _(
                "Stage 1 of all three runs on words cut by jieba. The fourth line is plain BPE under GPT-2's pattern, "
                "which keeps a run of Chinese characters whole: its merges already cross the words jieba sees."
            )
        )
    done = st.session_state.setdefault("sbs.across.done", set())
    ident = (key, hash(text))
    if ident not in done and not st.button(_("Measure"), key="sbs.across.go", type="primary"):
        return
    try:
        with st.spinner(_("Training three tokenizers on the text…")):
            rows = _curves(text, TEXTS[key][2], SIZES)
    except ValueError as e:
        st.warning(md_escape(_("Cannot measure this text: {reason}").format(reason=str(e))))
        return
    done.add(ident)
    present = choice.display.presentation
    st.altair_chart(chart_spec(rows, present), width="stretch")
    table(rows)


def table(rows: list[dict]) -> None:
    """Bytes per token by vocabulary size (rows) and line (columns): one short table a phone shows whole."""
    lang = current_language()
    sizes = sorted({r["vocab_size"] for r in rows})
    cells = {(r["method"], r["vocab_size"]): r["bytes_per_token"] for r in rows}
    lines = [m for m in LINES if any(r["method"] == m for r in rows)]
    frame = {_("vocabulary size"): [format_number(v, lang) for v in sizes]}
    for m in lines:
        frame[line_name(m)] = [f"{cells[m, v]:.2f}" if (m, v) in cells else "" for v in sizes]
    st.caption(_("Bytes per token on the held-out text:"))
    st.dataframe(pd.DataFrame(frame), hide_index=True)
