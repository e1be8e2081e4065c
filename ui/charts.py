"""Charts (Altair / Vega-Lite): the stepper's three series of a run with a rule at the current step,
and line charts comparing several runs. Long series are thinned by :func:`thin` (one rule for both)."""

from __future__ import annotations

import functools

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import TrainedRun

from . import run_cache
from .i18n import N_, _, current_language

#: The x axis of every chart over steps: whole steps only.
_STEP_AXIS = alt.Axis(format=",d", tickMinStep=1)

#: Most points per line in the stepper's charts and in the comparison charts.
STEPPER_POINTS = 600
COMPARISON_POINTS = 1500


def thin(n: int, max_points: int) -> list[int]:
    """Indices ``0..n-1`` keeping about ``max_points`` of them at an even stride, the last one always."""
    if n <= 0:
        return []
    stride = max(1, -(-n // max_points))
    keep = list(range(0, n, stride))
    if keep[-1] != n - 1:
        keep.append(n - 1)
    return keep


def _arrow_datasets(spec: dict) -> dict:
    """Serialise the spec's datasets to Arrow once: Streamlit sends Arrow bytes as they are, so a
    step only re-sends the spec, not a re-conversion of every point (15 ms -> under 2 ms)."""
    try:
        from streamlit import dataframe_util

        spec = dict(spec)
        spec["datasets"] = {
            name: dataframe_util.convert_anything_to_arrow_bytes(pd.DataFrame(rows))
            for name, rows in spec.get("datasets", {}).items()
        }
    except Exception:  # an internal API moved: the plain spec still renders, only slower
        pass
    return spec


def _run_specs(run: TrainedRun, presentation: bool) -> list[dict]:
    series = run.series()
    keep = thin(len(series["step"]), STEPPER_POINTS)
    names = {
        "vocab_size": N_("Vocabulary size"),
        "corpus_tokens": N_("Corpus length (tokens)"),
        "count": N_("Count of each merge"),
    }
    step_title = _("step")
    font = 16 if presentation else 12
    colour = "#33528a" if presentation else "#4c78a8"
    specs = []
    for col, name in names.items():
        title = _(name)
        idx = keep if col != "count" else [i for i in keep if i > 0] or [0]
        frame = pd.DataFrame({"step": [series["step"][i] for i in idx], "value": [series[col][i] for i in idx]})
        lo, hi = int(frame["value"].min()), int(frame["value"].max())
        scale = alt.Scale(type="log") if col == "count" and lo > 0 and hi > 100 * lo else alt.Scale(zero=False)
        line = (
            alt.Chart(frame)
            .mark_line(point=len(frame) <= 60, color=colour)
            .encode(
                # Steps are whole numbers: integer ticks only, labels without decimals (no 0.5, no "2.000000").
                x=alt.X("step:Q", title=step_title, axis=_STEP_AXIS),
                y=alt.Y("value:Q", title=None, scale=scale, axis=alt.Axis(format=",d")),
                tooltip=[
                    alt.Tooltip("step:Q", title=step_title, format=",d"),
                    alt.Tooltip("value:Q", title=title, format=",d"),
                ],
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
    return specs


def charts(run: TrainedRun, step: int, presentation: bool = False, columns: bool = True) -> None:
    """Vocabulary size, corpus length in tokens and the count of each merge over all steps (built once
    per run), with a red rule at the current step; merge counts on a log scale when they span over
    100x. ``columns``: side by side (True) or stacked (False)."""
    if run.num_steps == 0:
        return
    if run.view_of is not None and run.stop_reason is None:
        # Still training: a chart of every step so far would be rebuilt for each new view of the run
        # (hundreds of milliseconds each time), which would slow every step while training.
        st.caption(_("The charts appear when training has finished."))
        return
    specs = run_cache.once(run, f"charts.{presentation}.{current_language()}", lambda: _run_specs(run, presentation))
    places = st.columns(3) if columns else [st.container() for _ in specs]
    for place, spec in zip(places, specs):
        with place:
            st.vega_lite_chart(_with_marker(spec, step), width="stretch")


_MARKER = "bpe_current_step"


def _with_marker(spec: dict, step: int) -> dict:
    """A shallow copy of a cached spec whose rule layer (the second) reads the current step from the
    named dataset ``bpe_current_step``. The spec itself never changes between steps, only that one-row
    dataset, so the browser updates the chart's data instead of rebuilding the chart."""
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
        from streamlit import dataframe_util

        return dataframe_util.convert_anything_to_arrow_bytes(pd.DataFrame({"step": [step]}))
    except Exception:
        return [{"step": step}]


def lines_chart(
    series: dict, title: str, step: int | None = None, presentation: bool = False, height: int = 230, fmt: str = ",.0f"
) -> dict:
    """A Vega-Lite spec: one line per ``{name: [value at step 0, 1, ...]}``, a red rule at ``step``
    (``None``: no rule). Long series are thinned to about :data:`COMPARISON_POINTS` points."""
    rows = []
    for name, values in series.items():
        rows.extend({"step": i, "value": values[i], "series": name} for i in thin(len(values), COMPARISON_POINTS))
    frame = pd.DataFrame(rows, columns=["step", "value", "series"])
    font = 16 if presentation else 13
    palette = ["#1b6ca8", "#d95f02", "#1b9e77", "#7570b3"]
    names = list(series)
    line = (
        alt.Chart(frame)
        .mark_line(strokeWidth=3, point=len(frame) <= 3 * 60)
        .encode(
            x=alt.X("step:Q", title=_("merges (step)"), axis=_STEP_AXIS),
            y=alt.Y("value:Q", title=title, scale=alt.Scale(zero=False)),
            color=alt.Color(
                "series:N",
                title=None,
                sort=names,
                scale=alt.Scale(domain=names, range=palette[: len(names)]),
                legend=alt.Legend(
                    orient="top", labelFontSize=font, symbolType="stroke", symbolStrokeWidth=4, labelLimit=400
                ),
            ),
            strokeDash=alt.StrokeDash("series:N", sort=names, legend=None),
            tooltip=[
                alt.Tooltip("series:N", title=_("variant")),
                alt.Tooltip("step:Q", title=_("step"), format=",d"),
                alt.Tooltip("value:Q", title=title, format=fmt),
            ],
        )
    )
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
