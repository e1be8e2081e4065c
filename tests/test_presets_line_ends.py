"""presets/*.txt: the sources' CR LF line ends are stored as LF, so no preset opens with a CR + LF merge."""

from __future__ import annotations

import pytest

from bpe_core import TrainConfig, corpus_words, train
from ui.corpus import PRESETS, PRESETS_DIR

FILE_PRESETS = [p for p in PRESETS.values() if p.file]


@pytest.mark.parametrize("preset", FILE_PRESETS, ids=lambda p: p.id)
def test_preset_files_have_no_carriage_returns_and_say_so(preset):
    data = (PRESETS_DIR / preset.file).read_bytes()
    assert b"\r" not in data
    if preset.id not in ("zh-emoji", "zh-hant-emoji"):  # written for the app: their source never had CR LF
        assert "CR LF line ends are stored as LF" in preset.provenance
    readme = (PRESETS_DIR / "README.md").read_text(encoding="utf-8")
    assert "every CR LF is stored as LF" in readme


@pytest.mark.parametrize("preset", FILE_PRESETS, ids=lambda p: p.id)
def test_no_preset_learns_cr_lf_among_its_first_merges(preset):
    s = preset.settings
    if preset.id == "pg16457-book":
        s = {**s, "merges": 50}  # the first merges are what a student sees first
    cfg = TrainConfig(
        variant=s.get("variant", "byte"),
        pretokenizer=s.get("pre"),
        num_merges=min(int(s.get("merges", 50)), 50),
        min_frequency=int(s.get("minf", 2)),
    )
    run = train(corpus_words(preset.load_text(), cfg), cfg)
    for step in range(1, run.num_steps + 1):
        snap = run.snapshot(step)
        value = run.token_value(snap.token)
        assert (b"\r" if isinstance(value, bytes) else "\r") not in value, (step, value)
