"""The classroom in a real Chromium (issue 12, and issue 15's "any text, any width"): one screen per
step in presentation mode, the merges so far, the handout and pictures, and long space-free text that
stays inside its columns.

Screenshots go to test-artifacts/classroom/.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from browser import assert_no_exception, open_app, paste_text, rerun, save_screenshot, wait_for_app, wait_for_layout
from html_doc import Doc, merge_headlines
from playwright.sync_api import expect
from textbook import TEXTBOOK_HANDOUT_ROWS as HANDOUT_ROWS

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
HONGLOUMENG = REPO.parent / "shared" / "corpora" / "hongloumeng.txt"
VIEWPORTS = [pytest.param(1280, 720, id="1280x720"), pytest.param(1920, 1080, id="1920x1080")]

#: The four parts a class must see on one screen: step controls, the merge, the first word it
#: changed, the fifth pair of the table.
ONE_SCREEN = {
    "step label": "#bpe-step-label",
    "Next button": "button:has-text('Next')",
    "merge": "#bpe-merge",
    "first changed word": "#bpe-changed .bpe-changed-row >> nth=0",
    "fifth pair": "#bpe-pairs tbody tr >> nth=4",
}


#: How many pixels of the zoom picker's value ("🔍 100%") its box cuts off (0: the whole value shows).
ZOOM_CUT = "() => { const i = document.querySelector('input[aria-label=Zoom]'); return i.scrollWidth - i.clientWidth; }"


def _inside_viewport(page, width: int, height: int) -> dict[str, dict]:
    outside = {}
    for name, selector in ONE_SCREEN.items():
        # While the book still trains behind the page, its step view is redrawn ("so far"): an element can be
        # between its old and new copy at the moment it is measured, so wait until it is there (bounded).
        box = None
        for _attempt in range(20):
            element = page.locator(selector).first
            element.wait_for(state="visible", timeout=30_000)
            box = element.bounding_box()
            if box is not None:
                break
        assert box is not None, f"{name} ({selector}) is not shown"
        if not (
            box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
        ):
            outside[name] = box
    return outside


@pytest.mark.parametrize("width, height", VIEWPORTS)
@pytest.mark.parametrize(
    "preset, step",
    [pytest.param("textbook-low", 1, id="textbook-step-1"), pytest.param("pg16457-book", 5000, id="book-step-5000")],
)
def test_one_screen_per_step_in_presentation_mode(app_server, page, width, height, preset, step):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/?preset={preset}&present=1&step={step}", timeout=240_000)
    page.wait_for_selector(f'#bpe-step-label[data-step="{step}"]', timeout=240_000)
    wait_for_app(page)
    assert_no_exception(page)
    # Nothing is scrolled: the page opens at its top and everything needed is already there.
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0
    outside = _inside_viewport(page, width, height)
    save_screenshot(page, f"classroom/present-{preset}-{step}-{width}x{height}")
    assert not outside, f"outside the {width}×{height} viewport: {outside}"
    assert page.evaluate(ZOOM_CUT) <= 0, "the zoom picker cuts its value"
    # The chosen pair and the tied ones are marked in the visible rows.
    expect(page.locator("#bpe-pairs .bpe-badge.chosen")).to_have_count(1)
    if preset == "textbook-low":
        expect(page.locator("#bpe-pairs .bpe-badge.tied")).to_have_count(2)
        expect(page.locator("#bpe-changed .bpe-changed-row")).to_have_count(2)
        expect(page.locator("#bpe-changed")).to_contain_text("newest")
        expect(page.locator("#bpe-changed .bpe-chip.new")).to_have_count(2)


def test_zoom_scales_the_type(app_server, page):
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_app(page, f"{app_server}/?preset=textbook-low&present=1&step=1")
    font = "() => parseFloat(getComputedStyle(document.documentElement).fontSize)"
    # Presentation mode's own type (ui/zoom.py BASE_PX), once its CSS is in.
    page.wait_for_function(f"() => ({font})() === 21")
    page.get_by_role("combobox", name="Zoom").click()
    with rerun(page):
        page.get_by_role("option", name="🔍 130%").click()
    page.wait_for_function(f"() => Math.abs(({font})() - 21 * 1.3) < 0.1")
    # Still one screen at 1920×1080 with the larger type, and the picker's value whole at it.
    assert not _inside_viewport(page, 1920, 1080)
    expect(page.get_by_role("combobox", name="Zoom")).to_have_value("🔍 130%")
    assert page.evaluate(ZOOM_CUT) <= 0, "the zoom picker cuts its value"
    save_screenshot(page, "classroom/zoom-130")


def test_presentation_step_row_on_a_phone(app_server, page):
    """Presentation mode at 390×844: First, Prev, Next and Last share a row with their labels whole and touch-sized
    (autoplay and zoom wrap below them), and the zoom picker shows its whole value."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, f"{app_server}/?preset=textbook-low&present=1&step=1")
    page.wait_for_selector('#bpe-step-label[data-step="1"]')
    wait_for_app(page)
    boxes = [page.get_by_role("button", name=re.compile(name)).bounding_box() for name in ("⏮", "Prev", "Next", "⏭")]
    assert len({round(box["y"]) for box in boxes}) == 1, f"the step buttons are not in one row: {boxes}"
    assert all(box["width"] >= 44 and box["height"] >= 44 for box in boxes), boxes
    cut = page.evaluate(
        "() => [...document.querySelectorAll('[class*=stepbar] button p')]"
        ".filter(p => p.scrollWidth > p.clientWidth).map(p => p.textContent)"
    )
    assert cut == [], f"step buttons with a cut label: {cut}"
    assert page.evaluate(ZOOM_CUT) <= 0, "the zoom picker cuts its value"
    save_screenshot(page, "classroom/present-390x844")


def test_merges_so_far_table_markdown_and_csv(app_server, page):
    open_app(page, f"{app_server}/?preset=textbook-low&step=5")
    page.get_by_text("The merges so far (5)").click()
    wait_for_app(page)
    assert_no_exception(page)
    code = page.locator('[data-testid="stCode"]').first
    text = code.inner_text()
    for row in ("| 1 | e + s | es | 9 |", "| 2 | es + t | est | 9 |", "| 5 | lo + w | low | 7 |"):
        assert row in text, text
    with page.expect_download() as info:
        page.get_by_role("button", name="⬇ CSV").click()
    data = Path(info.value.path()).read_text(encoding="utf-8")
    assert data.splitlines()[1].startswith("1,e,s,es,9,") and len(data.splitlines()) == 6, data
    assert info.value.suggested_filename == "bpe-merges-5.csv"


def test_handout_png_and_gif_downloads(app_server, page):
    from PIL import Image

    open_app(page, f"{app_server}/?preset=textbook-low&step=2")
    page.get_by_text("Handout and pictures for slides").click()
    wait_for_app(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="⬇ Handout (HTML, print-ready)").click()
    html = Path(info.value.path()).read_text(encoding="utf-8")
    assert info.value.suggested_filename == "bpe-handout-first-10-merges.html"
    # The first five of its ten merges, in order (read back as tests/test_handout.py does).
    assert merge_headlines(Doc(html))[:5] == HANDOUT_ROWS
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="⬇ This step as PNG").click()
    png = Image.open(io.BytesIO(Path(info.value.path()).read_bytes()))
    assert png.format == "PNG" and png.width >= 1000
    page.get_by_role("spinbutton", name="Merges in the GIF").fill("3")
    with rerun(page):
        page.get_by_role("spinbutton", name="Merges in the GIF").press("Enter")
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="⬇ First merges as GIF").click()
    gif = Image.open(io.BytesIO(Path(info.value.path()).read_bytes()))
    assert gif.format == "GIF" and gif.n_frames == 3
    assert info.value.suggested_filename == "bpe-first-3-merges.gif"
    assert_no_exception(page)


# ------------------------------------------------------------------------- any text, any width

#: Every app element that holds user text, and whether it sticks out of the Streamlit block it is in.
OVERFLOW = """() => {
  const out = [];
  const sel = '.bpe-table, .bpe-card, .bpe-chips, .bpe-chip, .bpe-changed, .bpe-toks, .bpe-merge';
  for (const e of document.querySelectorAll(sel)) {
    const block = e.closest('[data-testid="stVerticalBlock"]');
    if (!block) continue;
    const r = e.getBoundingClientRect(), b = block.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > b.right + 1 || r.left < b.left - 1)
      out.push(`${e.className}: ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(b.left)}..${Math.round(b.right)}`);
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page ${doc.scrollWidth} wide in ${doc.clientWidth}`);
  return out;
}"""


def _texts() -> dict[str, str]:
    chinese = HONGLOUMENG.read_text(encoding="utf-8")
    chinese = "".join(c for c in chinese if not c.isspace())[:2000]
    emoji = "👨‍👩‍👧‍👦🇨🇳🇹🇼👍🏽❤️‍🔥"
    letters = "abcdefghijklmnopqrstuvwxyz"
    return {
        "chinese-emoji": chinese[:1000] + emoji + chinese[1000:] + emoji * 3,
        "one-100kb-word": "".join(letters[(i * 7 + i // 26) % 26] for i in range(100_000)),
        "emoji-sequences": " ".join([emoji * 40, "👩🏽‍💻" * 60, emoji]),
    }


@pytest.mark.parametrize("width", [1024, 1280, 1920])
@pytest.mark.parametrize("name", ["chinese-emoji", "one-100kb-word", "emoji-sequences"])
def test_long_text_stays_inside_its_columns(app_server, page, width, name):
    text = _texts()[name]
    height = 1080 if width == 1920 else 800
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/?preset=textbook-low&step=0")
    paste_text(page, text, timeout=180_000)
    page.wait_for_selector("#bpe-corpus", timeout=180_000)
    for _ in range(3):
        with rerun(page, timeout=60_000):
            page.get_by_role("button", name=re.compile("Next")).click()
    assert_no_exception(page)
    wide = page.evaluate(OVERFLOW)
    tall = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    assert not wide, wide
    assert tall < 8 * height, f"the page is {tall} px long at {width} px wide"
    # The merge card quotes clipped words, and long segmentations fold their rest.
    card = page.locator("#bpe-merge-card").inner_text()
    assert max(len(w) for w in card.split()) < 200, card
    # The whole page in one picture (Streamlit scrolls inside stMain, so the viewport grows to it).
    page.set_viewport_size({"width": width, "height": tall})
    wait_for_layout(page)
    save_screenshot(page, f"classroom/long-{name}-{width}")
