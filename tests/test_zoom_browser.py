"""A projector that survives zoom, and a join link phones can open (issue 39), in real Chromium.

A 1280×720 projector with the browser zoomed to 100, 115, 130 and 150 %: presentation mode (a step of a byte-level
corpus whose long tokens pushed the pair table past the screen's edge, and quiz mode), and a live class with an open
question on the teacher's projector and on a student's laptop, each in 繁體 (the longest labels) and English. At
every zoom: nothing scrolls sideways, every button and toggle shows its whole label, and the question is the largest
text on the screen. Then the join box of a teacher who opened the app at 127.0.0.1 says phones cannot open that link,
and how to give one they can.

Zoom Z is emulated as the browser does it: a CSS viewport of (1280/Z)×(720/Z) at device scale factor Z (130 % is
985×554 at 1.3), set on an open page through Chromium's DevTools protocol (``Emulation.setDeviceMetricsOverride``), so
one page serves every zoom; the screenshots are taken the same way, as Playwright's own would put its viewport back
for the shot. Screenshots: ``test-artifacts/zoom/<view>-<language>-<zoom>.png`` (not tracked).
"""

from __future__ import annotations

import base64

import pytest
from browser import (
    ARTIFACTS_DIR,
    NEXT_FRAMES,
    StreamlitServer,
    assert_no_exception,
    save_screenshot,
    track_runs,
    wait_for_app,
)
from playwright.sync_api import expect

from bpe_core import train
from bpe_core.teaching.quiz import question
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.corpus import PRESETS
from ui.settings import make_config, preset_settings

pytestmark = pytest.mark.browser
WAIT_MS = 90_000  # a loaded 2-core machine: bounded waits on conditions
ZOOMS = (1.0, 1.15, 1.3, 1.5)
LANGS = ("zh-Hant", "en")
SHOTS = ARTIFACTS_DIR / "zoom"

#: What the screen shows wrong at the zoom it is at: ``wide`` (anything past the screen's right edge, a page or a main
#: area wider than the screen), ``cut`` (a button's, toggle's or option's label, or the zoom picker's value, that its
#: box cuts), ``bigger`` (text as large as the question or larger; ``question`` is its size, or null without one), and
#: ``labels``, the labels looked at (so the test sees the step buttons were among them).
SCREEN = """() => {
  const W = window.innerWidth, doc = document.documentElement;
  const main = document.querySelector('[data-testid="stMain"]');
  // Shown: drawn, and not off the screen's left edge as the folded sidebar is (past the right edge is a fault).
  const shown = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > 0 && e.checkVisibility({visibilityProperty: true, opacityProperty: true}); };
  const name = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className.toString().split(' ')[0])
    + ' "' + (e.innerText || e.value || '').trim().slice(0, 40).replace(/\\s+/g, ' ') + '"';
  const out = {wide: [], cut: [], bigger: [], labels: [], question: null};
  if (doc.scrollWidth > doc.clientWidth) out.wide.push(`the page is ${doc.scrollWidth} px wide in ${doc.clientWidth}`);
  if (main.scrollWidth > main.clientWidth) out.wide.push(`the main area is ${main.scrollWidth} px wide in ${main.clientWidth}`);
  const boxes = 'button, input, table, .bpe-card, .bpe-changed, .bpe-chips, .bpe-step-label, .bpe-quiz-q, '
    + '[data-testid="stVegaLiteChart"], [data-testid="stCheckbox"], [data-testid="stExpander"]';
  for (const e of document.querySelectorAll(boxes)) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.right > W + 0.5 || r.left < -0.5) out.wide.push(`${name(e)} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
  }
  const labels = 'button [data-testid="stMarkdownContainer"], label [data-testid="stMarkdownContainer"], '
    + '[data-testid="stWidgetLabel"] [data-testid="stMarkdownContainer"]';
  for (const e of document.querySelectorAll(labels)) {
    if (!shown(e)) continue;
    out.labels.push(e.innerText.trim());
    for (const part of [e.closest('button, label') || e, e, ...e.querySelectorAll('*')]) {
      if (part.scrollWidth > part.clientWidth + 1) { out.cut.push(`${name(e)}: ${part.scrollWidth} px of text in ${part.clientWidth}`); break; }
    }
  }
  for (const e of document.querySelectorAll('input[aria-label="Zoom"]')) {
    if (shown(e) && e.scrollWidth > e.clientWidth) out.cut.push(`the zoom picker's value "${e.value}"`);
  }
  const q = document.querySelector('#bpe-class-question, #bpe-quiz-question');
  if (q && shown(q)) {
    out.question = parseFloat(getComputedStyle(q).fontSize);
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) {
      const t = texts.currentNode, e = t.parentElement;
      if (!t.textContent.trim() || !e || q.contains(e) || !shown(e)) continue;
      if (e.closest('[data-testid="stIconMaterial"], style, script')) continue;  // icons are glyphs, not text
      const size = parseFloat(getComputedStyle(e).fontSize);
      if (size >= out.question) out.bigger.push(`${size} px: "${t.textContent.trim().slice(0, 40)}"`);
    }
  }
  return out;
}"""

#: The step buttons' labels, one of which every view shows (Prev: First and Last are icons in presentation mode).
PREV = {"zh-Hant": "上一步", "en": "Prev"}


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """This module's app server and store, with a class at step 3 of the textbook whose question on merge 4 is open:
    ``(server, classes, code, key)``."""
    store = tmp_path_factory.mktemp("zoom") / "corpora.sqlite3"
    server = StreamlitServer()  # the app as users run it
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_STORE", str(store))
        server.start(timeout=60)
        try:
            classes = Classes(CorpusStore(store))
            preset = PRESETS["textbook-low"]
            run = train(preset.words, make_config(preset_settings(preset), words_source=True))
            code, key = classes.start({"preset": "textbook-low"}, step=3)
            classes.ask(code, key, option_grades(question(run, 4)))
            yield server, classes, code, key
        finally:
            server.stop()


def _views(url: str, code: str, key: str, lang: str) -> dict[str, tuple[str, str]]:
    """Each view's address and the element it is ready with."""
    return {
        "present": (f"{url}/?preset=zh-emoji&present=1&step=39&lang={lang}", "#bpe-pairs"),
        "quiz": (f"{url}/?preset=textbook-low&present=1&quiz=1&step=3&lang={lang}", "#bpe-quiz-question"),
        "teacher": (f"{url}/?class={code}&teacher={key}&present=1&lang={lang}", "#bpe-class-question"),
        "student": (f"{url}/?class={code}&lang={lang}", "#bpe-class-question"),
    }


def _zoom(cdp, zoom: float) -> None:
    """The page as a 1280×720 screen shows it with the browser at ``zoom`` (the module docstring says how)."""
    metrics = {"width": round(1280 / zoom), "height": round(720 / zoom), "deviceScaleFactor": zoom, "mobile": False}
    cdp.send("Emulation.setDeviceMetricsOverride", metrics)


#: A signature of the page's layout: it is settled once two frames apart give the same.
LAYOUT = """() => [window.innerWidth, document.querySelector('[data-testid="stMain"]').scrollHeight,
  ...[...document.querySelectorAll('button, .bpe-quiz-q, table')].map(e => Math.round(e.getBoundingClientRect().right))].join()"""


def _settle(page) -> None:
    """Wait until the page's layout at its new size stops changing (charts and columns follow a resize a frame or two
    later)."""
    page.wait_for_function(
        f"""async () => {{ const frames = {NEXT_FRAMES};
            const before = ({LAYOUT})(); await frames(); return before === ({LAYOUT})(); }}""",
        timeout=WAIT_MS,
        polling=50,
    )


#: Streamlit's stand-ins for elements whose code is still loading (a fresh page draws a button's first as a grey box).
SKELETONS = '[data-testid="stSkeleton"], [data-testid="stSkeletonElement"], [data-testid="stAppSkeleton"]'


def _drawn(page) -> None:
    """Wait until the app has answered the page and drawn every element with its own code (no stand-in left)."""
    wait_for_app(page, timeout=WAIT_MS)
    page.wait_for_selector(SKELETONS, state="detached", timeout=WAIT_MS)


def test_every_control_whole_and_nothing_sideways_at_every_zoom(class_server, browser):
    server, _, code, key = class_server
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts, problems = [], []
    try:
        pages = {}
        for view in ("present", "quiz", "teacher", "student"):  # each a person of their own (cookies)
            context = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light", locale="en-US")
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            track_runs(page)  # wait_for_app then waits for every run the page asked for
            pages[view] = (page, context.new_cdp_session(page))
        for lang in LANGS:
            views = _views(server.url, code, key, lang)
            for view, (page, cdp) in pages.items():  # all four load at once
                _zoom(cdp, 1.0)
                page.goto(views[view][0], wait_until="commit")
            for view, (page, cdp) in pages.items():
                page.locator(views[view][1]).first.wait_for()
                _drawn(page)
                assert_no_exception(page)
                for zoom in ZOOMS:
                    _zoom(cdp, zoom)
                    _settle(page)
                    got = page.evaluate(SCREEN)
                    shot = SHOTS / f"{view}-{lang}-{round(zoom * 100)}.png"
                    shot.write_bytes(base64.b64decode(cdp.send("Page.captureScreenshot", {"format": "png"})["data"]))
                    where = f"{view}, {lang}, {zoom:.0%} ({shot.name})"
                    problems += [f"{where}: {p}" for p in got["wide"] + got["cut"]]
                    if not any(PREV[lang] in label for label in got["labels"]):
                        problems.append(f"{where}: no whole {PREV[lang]} button among {got['labels']}")
                    if view != "present":
                        if got["question"] is None:
                            problems.append(f"{where}: no question shown")
                        problems += [
                            f"{where}: as large as the question ({got['question']} px): {b}" for b in got["bigger"]
                        ]
    finally:
        for context in contexts:
            context.close()
    assert not problems, "\n".join(problems)


def test_the_join_box_says_phones_cannot_open_a_link_to_this_computer(class_server, browser):
    """The app's server is reached at 127.0.0.1 and ``BPE_EXPLORER_PUBLIC_URL`` is unset: beside the QR code the
    teacher reads that phones cannot open the link, and the two ways to a link they can (``tests/test_class_join.py``
    checks which addresses are this computer's own)."""
    server, classes, _, _ = class_server
    code, key = classes.start({"preset": "textbook-low"}, step=0)  # step 0: the join box opens by itself
    context = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light", locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        track_runs(page)
        for lang, phones in (("en", "Phones cannot open this link"), ("zh-Hant", "手機打不開這個連結")):
            for present in ("0", "1"):
                page.goto(f"{server.url}/?class={code}&teacher={key}&lang={lang}&present={present}")
                warning = page.locator("#bpe-class-join-warning")
                expect(warning).to_be_visible(timeout=WAIT_MS)
                _drawn(page)
                for words in (phones, "127.0.0.1", "--server.address 0.0.0.0", "BPE_EXPLORER_PUBLIC_URL"):
                    expect(warning).to_contain_text(words)
                expect(page.locator("#bpe-class-join .link")).to_have_text(f"{server.url}/?class={code}")
                qr, box = page.locator("#bpe-class-join .qr img").bounding_box(), warning.bounding_box()
                assert box["x"] >= qr["x"] + qr["width"], f"the warning is not beside the QR code: {box}, QR {qr}"
                assert_no_exception(page)
                save_screenshot(page, f"zoom/join-warning-{lang}-present{present}")
    finally:
        context.close()
