"""The step control in a real Chromium, on a laptop (1280×720) and a phone (390×844): the stepper page,
the Encode page's replay and the GPT tokenizers' replay. On the phone Prev and Next share one row (Streamlit
stacks columns below 640 px; ui/static/app.css keeps the step buttons together), nothing overflows
sideways, and ← / → step every one of them; on the Encode page they step the replay, never the tokenizer's step
control above it (which has no keys), even before the replay's buttons are drawn.
Screenshots: test-artifacts/stepper-<page>-<width>.png."""

from __future__ import annotations

import time

import pytest
from browser import (
    DEFAULT_TIMEOUT_MS,
    ServerHold,
    assert_no_exception,
    open_app,
    rerun,
    save_screenshot,
    wait_for_app,
    wait_for_layout,
)

pytestmark = pytest.mark.browser

#: (name, URL path, stepper key, id of its label, data attribute of the step there)
STEPPERS = [
    ("stepper", "/?preset=textbook-low&step=2", "stepper", "bpe-step-label"),
    ("encode", "/Encode_and_decode?preset=textbook-low", "enc", "enc-replay-label"),
    ("gpt", "/Real_tokenizers?preset=zh-emoji", "rt", "rt-replay-label"),
]

#: The boxes of the four step buttons, the label and the page's sideways overflow (px).
GEOMETRY = """([key, label]) => {
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).find((e) => e.offsetParent !== null);
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const out = {overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
  for (const b of ['first', 'prev', 'next', 'last']) out[b] = box(shown('.st-key-' + key + '-' + b + ' button'));
  out.label = box(document.getElementById(label));
  return out;
}"""


def _page(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce", locale="en-US")
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context, context.new_page()


#: The GPT tokenizers page loads three rank files on its first visit: more than a stepper's 30 s on a busy machine.
OPEN_TIMEOUT_MS = 120_000


def _open(page, url: str, key: str) -> None:
    open_app(page, url, timeout=OPEN_TIMEOUT_MS)
    # Streamlit loads a kind of element's code on first use: the label can be there before the buttons.
    # (While the page settles a stale copy of a button may still be in the page, hidden: wait for one shown.)
    page.wait_for_function(
        "(sel) => Array.from(document.querySelectorAll(sel)).some((e) => e.offsetParent !== null)",
        arg=f".st-key-{key}-last button",
        timeout=OPEN_TIMEOUT_MS,
    )
    wait_for_app(page, timeout=OPEN_TIMEOUT_MS)
    assert_no_exception(page)


def _step(page, label: str) -> str:
    return page.evaluate("(id) => document.getElementById(id).dataset.step", label)


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (390, 844)])
def test_step_buttons_share_a_row_and_nothing_overflows(app_server, browser, width, height):
    context, page = _page(browser, width, height)
    try:
        for name, path, key, label in STEPPERS:
            _open(page, app_server + path, key)
            page.locator(f"#{label}").scroll_into_view_if_needed()
            geo = page.evaluate(GEOMETRY, [key, label])
            save_screenshot(page, f"stepper-{name}-{width}")
            assert geo["overflow"] <= 0, (name, geo)
            prev, nxt = geo["prev"], geo["next"]
            # Prev and Next side by side: the same row, Next to the right of Prev, both tall enough to tap.
            assert abs(prev["y"] - nxt["y"]) < 2 and nxt["x"] >= prev["x"] + prev["w"], (name, geo)
            assert min(prev["h"], nxt["h"]) >= 38, (name, geo)
            assert abs(geo["first"]["y"] - prev["y"]) < 2 and abs(geo["last"]["y"] - nxt["y"]) < 2, (name, geo)
            assert nxt["x"] + nxt["w"] <= width and geo["last"]["x"] + geo["last"]["w"] <= width, (name, geo)
            if width < 640:  # the label has the row above the buttons
                assert geo["label"]["y"] + geo["label"]["h"] <= prev["y"] + 1, (name, geo)
            else:  # beside them
                assert geo["label"]["x"] >= geo["last"]["x"] + geo["last"]["w"], (name, geo)
    finally:
        context.close()


def test_arrow_keys_step_every_stepper(app_server, browser):
    context, page = _page(browser, 390, 844)
    try:
        for _name, path, key, label in STEPPERS:
            _open(page, app_server + path, key)
            start = int(_step(page, label))
            with rerun(page):
                page.locator("body").press("ArrowRight")
            assert _step(page, label) == str(start + 1)
            with rerun(page):
                page.locator("body").press("ArrowLeft")
            assert _step(page, label) == str(start)
            assert_no_exception(page)
    finally:
        context.close()


#: Whether each step control of the Encode page has its Next button on screen (``{key: bool}``), and the
#: tokenizer's step label (``label``): the script hears the arrow keys once a step label is there.
NEXT_SHOWN = """() => Object.assign(Object.fromEntries(['enc-k', 'enc'].map((key) => [key,
  Array.from(document.querySelectorAll('.st-key-' + key + '-next button')).some((e) => e.offsetParent !== null)])),
  {label: document.getElementById('enc-k-label') !== null})"""


def test_an_arrow_key_goes_to_the_encode_pages_replay_even_before_its_buttons_are_drawn(app_server, page):
    # The Encode page draws two step controls: the tokenizer's step k (no keyboard shortcut) above the replay's,
    # which has the arrow keys. A key pressed while only the first has its buttons on screen waits for the replay's
    # (the script's part 2), and steps the replay; it is not spent on the tokenizer's control.
    server = ServerHold(page)
    _open(page, f"{app_server}/?preset=textbook-low", "stepper")  # the code of the buttons is loaded
    server.hold()
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Encode and decode", exact=True).click()
    # The server's messages, one at a time, until the tokenizer's control is drawn and the replay's buttons not yet.
    deadline = time.monotonic() + OPEN_TIMEOUT_MS / 1000
    while (shown := page.evaluate(NEXT_SHOWN)) != {"enc-k": True, "label": True, "enc": False}:
        assert not shown["enc"], f"the replay's buttons came with the tokenizer's: {shown}"
        assert time.monotonic() < deadline, f"the tokenizer's step control was not drawn: {shown}"
        server.release_one()
        wait_for_layout(page)
    page.keyboard.press("ArrowRight")
    server.release()
    page.wait_for_function("() => document.getElementById('enc-replay-label')?.dataset.step === '1'")
    wait_for_app(page)
    assert page.evaluate("() => document.getElementById('enc-replay-label').dataset.step") == "1"
    assert_no_exception(page)
