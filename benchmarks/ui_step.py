"""How long one step of the stepper takes, on the whole book (preset ``pg16457-book``: 10,000
merges over Jules Verne's *All Around the Moon*), around step 5,000.

Three measurements, each printed as median and p95 (milliseconds):

1. **render path**: the ``ui`` panel calls the stepper page makes for one step (merge card, pair table,
   corpus table, vocabulary + merge tree, charts), run in-process on the trained run. This is
   the app's own work per step, without Streamlit's websocket.
2. **script rerun (AppTest)**: the whole ``app.py`` run after a click on Next (AppTest reruns the
   whole script; a real browser reruns only the step view, see 3), through
   ``streamlit.testing.v1.AppTest``: sidebar, cache lookup, widgets, render and Streamlit's
   marshalling. AppTest's own parsing of the result is inside the timing, so this is an upper
   bound on server time per step. Target: <= 30 ms.
3. **browser next-step latency**: ``streamlit run app.py`` on a free port and headless Chromium;
   the time from clicking Next (or pressing the Right arrow key) until the page shows the new
   step label; and, inside that real server, the server time per step: a step reruns only the
   app's step view (an ``st.fragment``), which a wrapper around app.py times.

Steps visited are first visits (per-step memos are cold), starting at step 4,990.

Usage::

    .venv/bin/python benchmarks/ui_step.py                # all three
    .venv/bin/python benchmarks/ui_step.py --no-browser   # 1 and 2 only
    .venv/bin/python benchmarks/ui_step.py --steps 200 --clicks 40
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

PRESET = "pg16457-book"
START = 4990


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, max(0, round(0.95 * len(ms)) - 1))]
    return (
        f"{name:<38} n={len(ms):<4} median {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms   max {ms[-1]:7.2f} ms"
    )


def train_book():
    from bpe_core import corpus_words, train
    from ui.corpus import PRESETS
    from ui.settings import make_config, preset_settings

    preset = PRESETS[PRESET]
    config = make_config(preset_settings(preset))
    t0 = time.perf_counter()
    words = corpus_words(preset.load_text(), config)
    run = train(words, config)
    took = time.perf_counter() - t0
    print(f"trained {PRESET}: {len(words):,} word types, {run.num_steps:,} merges in {took:.2f} s "
          f"(estimated size {run.memory_bytes() / 1e6:.1f} MB)")  # fmt: skip
    return run


def bench_render(run, steps: int) -> None:
    import streamlit as st
    from streamlit import config
    from streamlit.logger import set_log_level

    from ui import charts, chips, corpus_panel, panels

    # Bare mode (no script run) warns at every element. Streamlit's loggers do not propagate to a parent,
    # and reading its config (on first use) sets their level again: so read it first, then quiet them.
    config.get_option("logger.level")
    set_log_level("error")
    mode, present = "utf8", False
    charts.charts(run, 0)  # per-run chart data is built once (on the first visit of any step)
    parts: dict[str, list[float]] = {k: [] for k in ("merge card and pair table", "corpus", "vocabulary", "charts")}
    total = []
    for step in range(START, START + steps):
        t_all = time.perf_counter()
        t = time.perf_counter()
        for html in panels.step_panels(run, step, mode, present).values():  # what the page draws
            st.html(html)
        parts["merge card and pair table"].append(time.perf_counter() - t)
        t = time.perf_counter()
        st.html(corpus_panel.corpus_table_html(run, step, mode, present, 25))
        parts["corpus"].append(time.perf_counter() - t)
        t = time.perf_counter()
        size = run.vocab_size_at(step)
        ids = list(range(size - 1, max(run.num_base, size - 60) - 1, -1))
        st.html(chips.chips_html(run, ids, mode, run.snapshot(step).token, present))
        st.html(corpus_panel.merge_tree_html(run, run.snapshot(step).token, mode, present))
        parts["vocabulary"].append(time.perf_counter() - t)
        t = time.perf_counter()
        charts.charts(run, step, present)
        parts["charts"].append(time.perf_counter() - t)
        total.append(time.perf_counter() - t_all)
    print("\n1. render path, in-process, per step")
    for name, values in parts.items():
        print("   " + summary(name, values))
    print("   " + summary("all render calls for one step", total))


def bench_apptest(steps: int) -> list[float]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.query_params["preset"] = PRESET
    at.query_params["step"] = str(START)
    t0 = time.perf_counter()
    at.run()
    first = time.perf_counter() - t0
    assert not at.exception, [e.value for e in at.exception]
    times = []
    for _ in range(steps):
        at.button(key="stepper.next").click()
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
    assert not at.exception, [e.value for e in at.exception]
    label = next(h.proto.body for h in at.get("html") if "bpe-step-label" in h.proto.body)
    print(f"\n2. script rerun through AppTest (first run incl. cache lookup/training: {first:.2f} s; "
          f"ended at {label.split('>')[1].split('<')[0].strip()})")  # fmt: skip
    print("   " + summary("app.py rerun after Next", times))
    return times


_TIMED_APP = """\
# Written by benchmarks/ui_step.py: runs app.py and logs how long each run took: whole-script
# runs, and fragment reruns (a step reruns only the app's step view, an st.fragment).
import functools as _ft
import time as _time

import streamlit as _st


def _log(kind, t0):
    with open({log!r}, "a") as _f:
        _f.write(f"{{kind}} {{(_time.perf_counter() - t0) * 1000:.3f}}\\n")


if not getattr(_st.fragment, "_bpe_timed", False):
    _plain_fragment = _st.fragment

    def _timed_fragment(func=None, **kwargs):
        def decorate(f):
            @_ft.wraps(f)
            def timed(*a, **k):
                t0 = _time.perf_counter()
                try:
                    return f(*a, **k)
                finally:
                    _log("fragment", t0)

            return _plain_fragment(timed, **kwargs)

        return decorate(func) if func is not None else decorate

    _timed_fragment._bpe_timed = True
    _st.fragment = _timed_fragment

_t0 = _time.perf_counter()
try:
    exec(compile(open({app!r}, encoding="utf-8").read(), {app!r}, "exec"), {{"__name__": "__main__", "__file__": {app!r}}})
finally:
    _log("script", _t0)
"""


def bench_browser(clicks: int) -> None:
    import os
    import tempfile

    from browser import StreamlitServer, launch_chromium, wait_for_app
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="ui_step_"))
    log = tmp / "script_ms.log"
    wrapper = tmp / "timed_app.py"
    wrapper.write_text(_TIMED_APP.format(app=str(REPO / "app.py"), log=str(log)), encoding="utf-8")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    server = StreamlitServer(str(wrapper), log_path=REPO / "test-artifacts" / "ui-step-benchmark-server.log")
    url = server.start(timeout=60)
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            t0 = time.perf_counter()
            page.goto(f"{url}/?preset={PRESET}&step={START}", wait_until="domcontentloaded")
            page.wait_for_selector(f'#bpe-step-label[data-step="{START}"]', timeout=300_000)
            wait_for_app(page)
            print(f"\n3. real browser (first load incl. training on a fresh server: {time.perf_counter() - t0:.2f} s)")
            results = {}
            log.write_text("")
            for how in ("click Next", "Right arrow key"):
                times = []
                for _ in range(clicks):
                    step = int(page.locator("#bpe-step-label").get_attribute("data-step"))
                    t = time.perf_counter()
                    if how == "click Next":
                        page.get_by_role("button", name="Next").first.click()
                    else:
                        page.keyboard.press("ArrowRight")
                    page.wait_for_selector(f'#bpe-step-label[data-step="{step + 1}"]', timeout=30_000)
                    shown = time.perf_counter() - t
                    wait_for_app(page)
                    times.append(shown)
                results[how] = times
                print("   " + summary(f"{how}: new step label shown", times))
            browser.close()
        rows = [line.split() for line in log.read_text().splitlines() if line.strip()]
        # A fragment run inside a full script run is counted with the script, not on its own.
        fragments = [float(ms) / 1000 for kind, ms in rows if kind == "fragment"]
        scripts = [float(ms) / 1000 for kind, ms in rows if kind == "script"]
        if scripts:
            print("   " + summary("server: whole app.py runs", scripts))
        print("   " + summary("server: step view (fragment) per step", fragments))
        print("   (server times are measured inside the real server by a wrapper around app.py)")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100, help="steps timed in-process and through AppTest")
    parser.add_argument("--clicks", type=int, default=30, help="Next clicks (and key presses) timed in the browser")
    parser.add_argument("--no-browser", action="store_true", help="skip the real-browser measurement")
    args = parser.parse_args()
    run = train_book()
    bench_render(run, args.steps)
    times = bench_apptest(args.steps)
    if not args.no_browser:
        bench_browser(args.clicks)
    ms = sorted(1000 * t for t in times)
    verdict = "OK" if statistics.median(ms) <= 30 else "ABOVE TARGET"
    print(
        f"\ntarget: server time per step <= 30 ms at step ~5,000 -> AppTest rerun median {statistics.median(ms):.1f} ms: {verdict}"
    )


if __name__ == "__main__":
    main()
