"""The quiz in a real Chromium, with the keyboard only: number keys pick, Enter reveals, → goes on.

At 1280×720 in presentation mode (a projector); the screenshot is test-artifacts/quiz-revealed.png.
"""

from __future__ import annotations

import re

import pytest
from browser import assert_no_exception, open_app, rerun, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def options(page) -> list[str]:
    """The pairs offered, in row order (``"e + s"``)."""
    rows = page.locator("#bpe-quiz-pairs tbody tr td.pair").all_inner_texts()
    return [" ".join(r.split()) for r in rows]


def press_pick(page, pair: str) -> None:
    key = str(options(page).index(pair) + 1)
    # The shortcut listens once its button is mounted (a moment after the table shows).
    expect(page.locator(f".st-key-quiz-pick-{key} button").first).to_be_visible()
    with rerun(page):
        page.keyboard.press(key)
    expect(page.locator(f"#bpe-quiz-pairs tr[data-option='{key}']")).to_have_class(re.compile(r"\bpicked\b"))


def press(page, key: str) -> None:
    with rerun(page):
        page.keyboard.press(key)


def inside_viewport(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 \
        and box["x"] + box["width"] <= size["width"]  # fmt: skip


def test_quiz_with_the_keyboard_only(app_server, page):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/?preset=textbook-low&step=0&quiz=1&present=1")
    assert_no_exception(page)
    expect(page.locator("#bpe-quiz-question")).to_have_text("Which pair does merge 1 join?")
    expect(page.locator("#bpe-quiz-pairs td.count")).to_have_text(["?"] * 9)
    # On a projector the question, the pick buttons and Reveal are on the first screen.
    for selector in (
        "#bpe-quiz-question",
        ".st-key-quiz-pick-9 button",
        ".st-key-quiz-reveal button",
        "#bpe-quiz-score",
    ):
        assert inside_viewport(page, selector), selector

    # A wrong pick: l + o (7) instead of e + s (9).
    press_pick(page, "l + o")
    press(page, "Enter")
    assert_no_exception(page)
    verdict = page.locator("#bpe-quiz-verdict")
    expect(verdict).to_have_attribute("data-grade", "wrong")
    expect(verdict).to_contain_text(
        "Not this one: l + o occurs 7 times, but merge 1 joins e + s, which occurs 9 times."
    )
    expect(verdict).to_contain_text("3 pairs were tied at 9 and the first-seen rule chose e + s")
    expect(page.locator("#bpe-quiz-score")).to_have_text("Score: 0 right, 0 tied, 1 wrong")
    expect(page.locator("#bpe-quiz-pairs tr.chosen td.count")).to_have_text("9")
    expect(page).to_have_url(re.compile(r"[?&]quiz=1(&|$)"))

    # → : the next merge; a right pick.
    press(page, "ArrowRight")
    expect(page.locator("#bpe-quiz-question")).to_have_text("Which pair does merge 2 join?")
    expect(page).to_have_url(re.compile(r"[?&]step=1(&|$)"))
    expect(page).to_have_url(re.compile(r"[?&]quiz=1(&|$)"))
    press_pick(page, "es + t")
    press(page, "Enter")
    expect(page.locator("#bpe-quiz-verdict")).to_have_attribute("data-grade", "right")
    expect(page.locator("#bpe-quiz-verdict")).to_contain_text("Right! Merge 2 joins es + t, which occurs 9 times.")
    expect(page.locator("#bpe-quiz-score")).to_have_text("Score: 1 right, 0 tied, 1 wrong")
    assert inside_viewport(page, "#bpe-quiz-verdict .verdict")
    save_screenshot(page, "quiz-revealed")

    # → again: a tied pick the rule did not choose (merge 4: l + o and o + w at 7, first-seen takes l + o).
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    expect(page.locator("#bpe-quiz-question")).to_have_text("Which pair does merge 4 join?")
    press_pick(page, "o + w")
    press(page, "Enter")
    expect(page.locator("#bpe-quiz-verdict")).to_have_attribute("data-grade", "tied")
    expect(page.locator("#bpe-quiz-verdict")).to_contain_text("Tied: o + w occurs 7 times, as often as l + o")
    expect(page.locator("#bpe-quiz-verdict")).to_contain_text("Counted as tied, apart from right and wrong.")
    # The tied pick is its own tally, not a wrong one.
    expect(page.locator("#bpe-quiz-score")).to_have_text("Score: 1 right, 1 tied, 1 wrong")
    expect(page.locator("#bpe-quiz-score")).to_have_attribute("data-tied", "1")
    assert_no_exception(page)
    assert not errors, errors
