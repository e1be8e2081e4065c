"""The Side by side page's bytes-per-token measure (ui.across_chart): nothing trains until Measure is pressed, then
the chart and the table of the three methods on the English book, the numbers those of bpe_core's measure."""

from __future__ import annotations

from app_helpers import no_exception, open_page

from bpe_core import TrainConfig
from bpe_core.across_measure import compression_curves
from ui.across_chart import SIZES, TEXTS
from ui.corpus import read_preset_file


def test_measure_draws_the_three_curves_of_the_book_when_asked():
    at = open_page("side")
    no_exception(at)
    assert not at.dataframe  # the first view trains nothing
    at.button(key="sbs.across.go").click().run()
    no_exception(at)
    (table,) = at.dataframe
    frame = table.value
    assert list(frame.columns) == ["vocabulary size", "BPE", "SuperBPE", "BoundlessBPE"]
    assert list(frame["vocabulary size"]) == [f"{s:,}" for s in SIZES]
    text = read_preset_file(TEXTS["en"][1])
    expected = compression_curves(text, SIZES, TrainConfig(variant="byte", pretokenizer="gpt2"), methods=["superbpe"])
    assert list(frame["SuperBPE"]) == [f"{p.bytes_per_token:.2f}" for p in expected]
    for name in ("BPE", "SuperBPE", "BoundlessBPE"):
        values = [float(v) for v in frame[name]]
        assert values == sorted(values) and values[0] > 1.5
    # At the largest size both methods that merge across words beat plain BPE on held-out English.
    assert float(frame["SuperBPE"].iloc[-1]) > float(frame["BPE"].iloc[-1])
    assert float(frame["BoundlessBPE"].iloc[-1]) > float(frame["BPE"].iloc[-1])
    (chart,) = [c for c in at.get("vega_lite_chart") if "bytes_per_token" in c.proto.spec]
    assert "SuperBPE" in chart.proto.spec
