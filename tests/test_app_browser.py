"""The stepper in a real Chromium against ``streamlit run app.py`` (the ``app_server`` fixture).

Screenshots go to test-artifacts/ (the README's picture is refreshed by scripts/refresh_screenshot.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import (
    assert_no_dialog,
    assert_no_exception,
    assert_stays,
    open_app,
    paste_text,
    save_screenshot,
    wait_for_app,
    wait_for_layout,
    wait_for_server_step,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
STEP_LABEL = "#bpe-step-label"
#: The step the label shows, for :func:`browser.assert_stays`.
STEP_OF = "() => document.getElementById('bpe-step-label').dataset.step"


def step_of(page) -> int:
    return int(page.locator(STEP_LABEL).get_attribute("data-step"))


def wait_for_step(page, step: int, timeout: int = 30_000) -> None:
    wait_for_server_step(page, step, timeout)


def merge_text(page) -> str:
    return " ".join(page.locator("#bpe-merge").inner_text().split())


def test_step_1_of_the_textbook_corpus(app_server, page):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, f"{app_server}/?preset=textbook-low&step=1")
    assert_no_exception(page)
    assert step_of(page) == 1
    assert merge_text(page) == "Merge 1: e + s → es count 9"
    expect(page.locator("#bpe-merge-card")).to_contain_text("e + s occurs 9 times: 6 in newest, 3 in widest")
    # The pair table marks the chosen pair and the two tied ones.
    expect(page.locator("#bpe-pairs .bpe-badge.chosen")).to_have_count(1)
    expect(page.locator("#bpe-pairs .bpe-badge.tied")).to_have_count(2)
    # The words this merge changed are marked, and the new token is highlighted in them.
    expect(page.locator("#bpe-corpus tr.changed")).to_have_count(2)
    expect(page.locator("#bpe-corpus tr.changed .bpe-chip.new")).to_have_count(2)
    # Tall enough to show the corpus with the changed words under the merge.
    page.set_viewport_size({"width": 1280, "height": 1300})
    wait_for_layout(page)
    save_screenshot(page, "app")
    assert not errors, errors


def test_next_button_and_arrow_keys(app_server, page):
    open_app(page, f"{app_server}/?preset=textbook-low&step=1")
    page.get_by_role("button", name=re.compile("Next")).click()
    wait_for_step(page, 2)
    assert merge_text(page) == "Merge 2: es + t → est count 9"
    expect(page).to_have_url(re.compile(r"[?&]step=2(&|$)"))

    page.keyboard.press("ArrowLeft")
    wait_for_step(page, 1)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 2)
    assert merge_text(page).startswith("Merge 2: es + t")
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 3)

    # While typing in a text box the arrow keys move the cursor, not the stepper.
    marker = page.get_by_label("Marker text")
    marker.click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert_stays(page, STEP_OF, 1_000, "the arrow keys in a text box moved the stepper")
    wait_for_app(page)
    assert step_of(page) == 3
    assert_no_exception(page)


def test_url_opens_at_step_5(app_server, page):
    open_app(page, f"{app_server}/?preset=textbook-low&step=5")
    assert step_of(page) == 5
    assert merge_text(page) == "Merge 5: lo + w → low count 7"
    expect(page.locator(STEP_LABEL)).to_have_text(re.compile(r"Step 5\s*of 10"))


def test_chinese_preset_in_byte_mode_shows_hex_for_partial_tokens(app_server, page):
    open_app(page, f"{app_server}/?preset=nihao&step=1")
    assert_no_exception(page)
    new = page.locator("#bpe-merge .bpe-chip.new")
    expect(new).to_have_class(re.compile(r"\bpartial\b"))
    expect(new).to_contain_text("\\xe4\\xbd")
    expect(new.locator(".of")).to_have_text("e.g. 你 1–2/3")  # the character of the corpus it is part of
    assert "bytes e4 bd" in new.get_attribute("title")
    assert "not a whole UTF-8 character" in new.get_attribute("title")
    # A partial chip looks different: dashed border.
    style = new.evaluate("e => getComputedStyle(e).borderTopStyle")
    assert style == "dashed"
    save_screenshot(page, "nihao-bytes")

    open_app(page, f"{app_server}/?preset=nihao&step=3&bytes=hex")
    expect(page.locator("#bpe-merge .bpe-chip.new")).to_contain_text("e4 bd a0 e5")
    expect(page.locator("#bpe-merge .bpe-chip.partial").first).to_be_visible()

    open_app(page, f"{app_server}/?preset=nihao&step=1&bytes=gpt2")
    expect(page.locator("#bpe-merge .bpe-chip.new .hex")).to_have_text("e4 bd")


def test_pasted_html_shows_literally(app_server, page):
    evil = "<img src=x onerror=alert(1)><style>*{display:none}</style>"
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_app(page, f"{app_server}/?preset=textbook-low&step=0")
    paste_text(page, evil)
    assert_no_exception(page)
    corpus = page.locator("#bpe-corpus")
    expect(corpus).to_be_visible()
    expect(corpus).to_contain_text("<img")
    expect(corpus).to_contain_text("onerror=alert(1)><style>*{display:none}</style>")
    assert page.locator("img[src='x']").count() == 0
    # Nothing was hidden by the user's <style>: the step label, buttons and sidebar are visible.
    expect(page.locator(STEP_LABEL)).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("Next"))).to_be_visible()
    expect(page.get_by_label("Text to train on")).to_be_visible()
    # An injected handler would open its dialog as the page draws the corpus.
    assert_no_dialog(page)
    assert dialogs == []
    save_screenshot(page, "pasted-html")


def test_presentation_mode(app_server, page):
    open_app(page, f"{app_server}/?preset=textbook-low&step=3&present=1")
    assert_no_exception(page)
    assert step_of(page) == 3
    # Large type, and no jump slider on screen.
    size = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert size == "21px"
    expect(page.get_by_label("Jump to step")).to_have_count(0)
    # The sidebar starts folded for the class, and the teacher can open it again.
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert sidebar.evaluate("e => e.getBoundingClientRect().width") < 5
    save_screenshot(page, "presentation")
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    expect(page.get_by_text("Presentation mode")).to_be_visible()


def test_autoplay_advances(app_server, page):
    open_app(page, f"{app_server}/?preset=textbook-lowest&step=0")
    page.get_by_text("Autoplay", exact=True).click()
    wait_for_step(page, 2, timeout=60_000)  # a bound for a busy machine, not a pace: the pace is benchmarked
    page.get_by_text("Autoplay", exact=True).click()
    # Off once the server has drawn the label without its beat (a press already under way may still come).
    page.wait_for_function(f"() => !document.querySelector('{STEP_LABEL}').dataset.autoplay", timeout=60_000)
    wait_for_app(page, timeout=60_000)
    # Autoplay off: no step comes in 2.5 s (at its pace, 1 s per step, two would have).
    assert_stays(page, STEP_OF, 2_500, "autoplay went on after it was switched off")


#: Keeps in ``window.__mostLabels`` the most step labels the page has shown at once, from now on.
COUNT_LABELS = """() => {
    const count = () => document.querySelectorAll('#bpe-step-label').length;
    window.__mostLabels = count();
    new MutationObserver(() => { window.__mostLabels = Math.max(window.__mostLabels, count()); })
        .observe(document.body, {subtree: true, childList: true});
}"""


def test_large_corpus_streams_its_steps_while_training(app_server, page):
    # Settings no other test uses, so this session trains the book itself; byte-level with no
    # pre-tokenizer (the book is one sequence) and 60,000 merges takes about 15 s even on an idle
    # machine, so the training is still going while the steps already trained are stepped through.
    url = f"{app_server}/?preset=pg16457-book&variant=byte&pre=none&merges=60000&minf=1&step=3000"
    page.goto(url.replace("step=3000", "step=1"), wait_until="domcontentloaded")
    # A second student opens a link to step 3,000 of the same run: the two share one training.
    linked = page.context.new_page()
    linked.goto(url, wait_until="domcontentloaded")
    linked.evaluate(COUNT_LABELS)  # its first run waits, with a progress bar, for step 3,000 to be trained
    progress = page.locator('[data-testid="stProgress"]')
    expect(progress.first).to_contain_text("of 60,000 merges so far", timeout=30_000)
    # Step 1 is on screen before training ends: the label says how far it has got ("of n so far"),
    # and Next and Prev move over the steps trained so far.
    label = page.locator(STEP_LABEL)
    expect(label).to_contain_text("so far")
    page.get_by_role("button", name=re.compile("Next")).click()
    wait_for_step(page, 2)
    page.get_by_role("button", name=re.compile("Prev")).click()
    wait_for_step(page, 1)
    assert "so far" in label.inner_text(), "the training ended too soon to test streaming"
    # Once trained, the bar is gone and the label counts every merge. The page then reruns whole, and
    # draws everything at the places it had: never two labels, the old one stale beside the new one.
    page.evaluate(COUNT_LABELS)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#bpe-step-label')].some(e => /of 60,000$/.test(e.innerText.trim()))",
        timeout=180_000,
    )
    wait_for_app(page)
    assert page.evaluate("window.__mostLabels") == 1
    expect(label).to_have_text(re.compile(r"of 60,000$"))
    expect(progress).to_have_count(0)
    assert_no_exception(page)
    # The link's step was kept while it was not trained yet, and shown once it was.
    wait_for_step(linked, 3000, timeout=30_000)
    assert_no_exception(linked)
    linked.wait_for_function(
        "() => /of 60,000$/.test(document.querySelector('#bpe-step-label').innerText.trim())", timeout=30_000
    )
    wait_for_app(linked)
    assert linked.evaluate("window.__mostLabels") == 1
    # The one word is the whole book; quoted in the merge card, it wraps inside the card instead of
    # running over the pair table beside it.
    card = linked.locator("#bpe-merge-card")
    expect(card).to_contain_text("486,084")  # the book in characters, its CR LF stored as LF
    assert card.evaluate("e => e.scrollWidth <= e.clientWidth"), "the merge card's text overflows the card"
    save_screenshot(linked, "book-step-3000")
    linked.close()


def _page_paths() -> list[tuple[str, str]]:
    from ui.page import PAGES

    return [("main" if not spec.url_path else spec.url_path, "/" + spec.url_path) for spec in PAGES]


@pytest.mark.parametrize("name, path", _page_paths(), ids=[n for n, _ in _page_paths()])
def test_screenshot_of_every_page(app_server, page, name, path):
    open_app(page, f"{app_server}{path}?preset=textbook-low&step=3")
    assert_no_exception(page)
    # Streamlit loads some widgets' code lazily (grey placeholders until then): wait for it, so the
    # screenshot shows the page as a class sees it.
    page.wait_for_load_state("networkidle")
    save_screenshot(page, f"page-{name}")
    # Nothing the app draws runs out of its box (into the column beside it).
    overflowing = page.evaluate(
        """() => Array.from(document.querySelectorAll('.bpe-card, .bpe-pairs-wrap'))
             .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id || e.className)"""
    )
    assert overflowing == [], overflowing
