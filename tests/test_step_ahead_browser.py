"""Stepping in the browser, in a real Chromium: a press shows the next step's label, merge card and pair
table at once (from ``#bpe-ahead``), the server's rerun then draws the very same HTML, a press the
server never got is undone, and quick presses each move one step."""

from __future__ import annotations

import re

import pytest
from browser import (
    ServerHold,
    assert_no_exception,
    assert_stays,
    open_app,
    rerun,
    wait_for_app,
    wait_for_server_step,
)

pytestmark = pytest.mark.browser

#: The swapped elements as the page shows them now.
READ = """() => ({
  step: document.getElementById('bpe-step-label').dataset.step,
  label: document.getElementById('bpe-step-label').outerHTML,
  card: document.getElementById('bpe-merge-card').outerHTML,
  pairs: document.getElementById('bpe-pair-panel').outerHTML,
})"""

# Reads the swapped elements, presses, and reads them again in the same task: nothing from the server
# can have arrived in between, so what the second read sees was drawn by the page's script.
PRESS_AND_READ = (
    """(which) => {
  const read = """
    + READ
    + """;
  const before = read();
  if (which === 'right') {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
  } else {
    document.querySelector('.st-key-stepper-' + which + ' button').click();
  }
  return [before, read()];
}"""
)


def _open(page, url: str) -> None:
    open_app(page, url)
    # Streamlit loads a kind of element's code on first use: the label can be there before the buttons.
    page.wait_for_selector(".st-key-stepper-last button")
    wait_for_app(page)


#: The step the server drew (``#bpe-ahead``), for ``page.evaluate`` and :func:`browser.assert_stays`.
SERVER_STEP = "() => document.getElementById('bpe-ahead').dataset.step"


def _server_step(page) -> str:
    return page.evaluate(SERVER_STEP)


def test_a_press_shows_the_next_step_at_once_and_the_server_agrees(app_server, page):
    _open(page, f"{app_server}/?preset=textbook-low&step=1")
    for which, want, merge in (("next", "2", "Merge 2:"), ("right", "3", "Merge 3:"), ("prev", "2", "Merge 2:"),
                               ("first", "0", "Start:"), ("last", None, "Last merge.")):  # fmt: skip
        with rerun(page):
            before, after = page.evaluate(PRESS_AND_READ, which)
        assert after["step"] != before["step"], which
        if want is not None:
            assert after["step"] == want, which
        assert merge in after["card"] or merge in after["card"].replace("&nbsp;", " "), (which, after["card"][:300])
        assert _server_step(page) == after["step"]
        assert page.evaluate(READ) == after, which  # the server drew the same HTML
    assert_no_exception(page)


def test_a_press_the_server_never_got_is_undone(app_server, page):
    _open(page, f"{app_server}/?preset=textbook-low&step=4")
    # The click stops at the button, so Streamlit (which listens higher up) never hears of it; the page's
    # script, which listens first, still shows step 5.
    page.evaluate(
        "() => document.querySelector('.st-key-stepper-next button')"
        ".addEventListener('click', e => e.stopPropagation(), {once: true})"
    )
    before, after = page.evaluate(PRESS_AND_READ, "next")
    assert (before["step"], after["step"]) == ("4", "5")
    page.wait_for_function("() => document.getElementById('bpe-step-label').dataset.step === '4'", timeout=10_000)
    assert page.evaluate(READ) == before
    assert _server_step(page) == "4"


def test_six_presses_at_once_move_six_steps(app_server, page):
    # A class's held → key, at its fastest: six presses in one task, at step 5,000 of a book. The page
    # holds each press until the server has drawn the step before, and every one counts.
    _open(page, f"{app_server}/?preset=pg16457-book&step=5000")
    # A link to a step opens as soon as that step is trained: "Step 5,000 of 5,000 so far", Next disabled
    # (a press then rightly does nothing). Press once the whole book is trained.
    page.wait_for_function(
        "() => { const l = document.getElementById('bpe-step-label'); return l && !l.classList.contains('training'); }",
        timeout=120_000,
    )
    wait_for_server_step(page, 5000)
    page.evaluate(
        "() => { for (let i = 0; i < 6; i++) "
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true})); }"
    )
    wait_for_server_step(page, 5006, timeout=60_000)
    # Nothing more arrives: no press was given twice.
    assert_stays(page, "() => document.getElementById('bpe-step-label').dataset.step", 2_000, "a press counted twice")
    wait_for_server_step(page, 5006)
    assert_no_exception(page)


# The times the step label changed, in the page's clock.
WATCH = """() => {
  window.__steps = [];
  let last = document.getElementById('bpe-step-label').dataset.step;
  new MutationObserver(() => {
    const e = document.getElementById('bpe-step-label');
    if (e && e.dataset.step !== last) { last = e.dataset.step; window.__steps.push([performance.now(), +last]); }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-step']});
}"""


def test_autoplay_steps_one_at_a_time_in_the_browser(app_server, page):
    _open(page, f"{app_server}/?preset=pg16457-chapter&step=0")
    with rerun(page):  # focus and key in one call: a redraw in between would lose a separate focus()
        page.locator('input[aria-label="Seconds per step"]').press("Home")  # the fastest, 0.5 s per step
    page.evaluate(WATCH)
    page.get_by_text("Autoplay", exact=True).click()
    # Eight steps, however long the machine takes to draw them.
    page.wait_for_function("() => window.__steps.length >= 8", timeout=120_000)
    page.get_by_text("Autoplay", exact=True).click()
    # Off once the server has drawn the label without its beat (a press already under way may still come).
    page.wait_for_function("() => !document.getElementById('bpe-step-label').dataset.autoplay", timeout=60_000)
    wait_for_app(page, timeout=60_000)
    stamps = page.evaluate("() => window.__steps")
    steps = [s for _, s in stamps]
    assert steps == list(range(1, len(steps) + 1)), stamps  # one step at a time, none skipped, never back
    # Its beat (0.5 s a step, on time on a busy server) is measured by benchmarks/classroom_speed.py.
    assert_stays(page, "() => document.getElementById('bpe-step-label').dataset.step", 2_500, "autoplay is off")
    assert_no_exception(page)


def test_a_message_sent_before_the_page_has_the_last_step_does_not_move_the_step_back(app_server, page):
    # Every message a page sends carries every widget as the page has it, the jump slider and the number box
    # too. The server's answer to a press is held back here, so the page still has them at the step before
    # when another widget (autoplay's speed) sends its message, as a busy machine does by chance. That old
    # step once came back as a drag of the slider: the step went back (autoplay: 1..11, then 9).
    server = ServerHold(page)
    runs = server.runs
    _open(page, f"{app_server}/?preset=textbook-low&step=3")
    asked = runs.requests
    server.hold()
    page.get_by_role("button", name=re.compile("Next")).click()
    page.locator('input[aria-label="Seconds per step"]').press("End")  # 3 s per step
    runs.wait(lambda: runs.requests >= asked + 2, 30_000, "send the press and the speed")
    server.release()
    wait_for_app(page)
    assert (_server_step(page), page.evaluate(READ)["step"]) == ("4", "4")
    assert_no_exception(page)


def _timer_copy_of_a_press(message) -> list:
    """A copy of ``message`` as a fragment's timer sends it, if it is a press of a step button: flagged
    ``is_auto_rerun``, with the press in it (a timer sends every widget state the page has)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    if not isinstance(message, bytes):
        return []
    msg = BackMsg.FromString(message)
    if msg.WhichOneof("type") != "rerun_script" or msg.rerun_script.is_auto_rerun:
        return []
    widgets = msg.rerun_script.widget_states.widgets
    if not any(w.id.endswith("stepper.next") and w.WhichOneof("value") == "trigger_value" for w in widgets):
        return []
    msg.rerun_script.is_auto_rerun = True
    return [msg.SerializeToString()]


def test_a_press_a_fragment_timer_also_sends_moves_one_step(app_server, page):
    # Streamlit's frontend sends a press from a task it schedules after the click; a fragment's timer (the step view
    # of a run still training) that fires in between sends every widget state, the press too. Here the server gets
    # each press of Next that way as well, the timer's copy first: one press once moved two steps
    # (ui/streamlit_patches.py, timer presses).
    ServerHold(page, before_up=_timer_copy_of_a_press)
    _open(page, f"{app_server}/?preset=textbook-low&step=3")
    page.get_by_role("button", name=re.compile("Next")).click()
    wait_for_server_step(page, 4)
    assert_stays(page, SERVER_STEP, 2_000, "one press moved on")
    assert _server_step(page) == "4"
    assert_no_exception(page)
