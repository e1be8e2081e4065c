"""Shared helpers for the real-browser tests (Playwright sync API + Chromium): waiting on the page and reading it.

The pytest fixtures built on these live in ``tests/conftest.py``:
``app_server`` (base URL of the real app), ``browser`` and ``page``.
Tests import the helpers directly (``pytest.ini`` puts ``tests/`` on the path)::

    from browser import open_app, wait_for_app, assert_no_exception, save_screenshot

This module re-exports the helpers of its two neighbours, so every test imports from here alone:
``browser_setup`` starts the app server and Chromium (``StreamlitServer``, ``launch_chromium``, ``ARTIFACTS_DIR``...);
``page_runs`` reads the runs a page asks for off its websocket (``track_runs``, ``ServerHold``...).

What Streamlit 1.67 renders (checked in a real Chromium): besides the run's state on ``stApp`` (``page_runs``),
elements left over from a previous run are marked ``data-stale="true"`` until the rerun replaces them;
``stStatusWidget`` (the "Running..." indicator) exists only while a run is in progress.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

from browser_setup import ARTIFACTS_DIR
from browser_setup import CHROMIUM_ARGS as CHROMIUM_ARGS
from browser_setup import ENTRY as ENTRY
from browser_setup import REPO_ROOT as REPO_ROOT
from browser_setup import BrowserTestSetupError as BrowserTestSetupError
from browser_setup import StreamlitServer as StreamlitServer
from browser_setup import app_on_store as app_on_store
from browser_setup import find_chromium as find_chromium
from browser_setup import free_port as free_port
from browser_setup import launch_chromium as launch_chromium
from page_runs import APP_SELECTOR, describe_app_state, track_runs
from page_runs import WEBSOCKET_FAULT as WEBSOCKET_FAULT
from page_runs import RunTracker as RunTracker
from page_runs import ServerHold as ServerHold

DEFAULT_TIMEOUT_MS = 30_000

#: ``locator.evaluate(SET_TEXTAREA, text)``: put ``text`` into a text box at once, through the setter React
#: watches, as a paste would (typing a long text key by key takes minutes).
SET_TEXTAREA = """(e, value) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
  setter.call(e, value);
  e.dispatchEvent(new Event('input', {bubbles: true}));
}"""

EXCEPTION_SELECTOR = '[data-testid="stException"]'


def wait_for_app(page, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until Streamlit is connected, has answered every run the page asked for, and has drawn it.

    Call it after ``page.goto`` (``open_app`` does). After an action that runs the app again (a click,
    typing + Enter, a slider...), use ``with rerun(page): action`` instead: right after the action the
    page may not have sent its request yet, and the page still shows the run before as finished.
    Ends also on a compilation error (so tests can report the ``stException``), and raises
    AssertionError with the app's state on timeout.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    runs = getattr(page, "_bpe_runs", None)
    if runs is not None:
        runs.wait(lambda: runs.settled, timeout, "get an answer to every run it asked for")
    steps = [
        ("connect to the server", f'{APP_SELECTOR}[data-test-connection-state="CONNECTED"]', "attached"),
        (
            "finish running the script",
            f'{APP_SELECTOR}[data-test-script-state="notRunning"], '
            f'{APP_SELECTOR}[data-test-script-state="compilationError"]',
            "attached",
        ),
        ("hide the running indicator", '[data-testid="stStatusWidget"]', "detached"),
        ("replace stale elements", '[data-stale="true"]', "detached"),
    ]
    for what, selector, state in steps:
        try:
            page.wait_for_selector(selector, state=state, timeout=timeout)
        except PlaywrightTimeoutError:
            raise AssertionError(
                f"Streamlit did not {what} within {timeout} ms at {page.url} ({describe_app_state(page)})"
            ) from None
    # The last messages are in; the page draws them in its next tasks.
    wait_for_layout(page)


@contextmanager
def rerun(page, timeout: int = DEFAULT_TIMEOUT_MS):
    """``with rerun(page): page.click(...)``: the action in the block runs the app again; wait until the page
    has sent that request (a slider or a text box may send it a moment after the action) and the app has
    answered and drawn it (:func:`wait_for_app`). An action that asks for no run fails here."""
    runs = track_runs(page)
    before = runs.requests
    yield
    runs.wait(lambda: runs.requests > before, timeout, "send the server the action (no run was asked for)", "framesent")
    wait_for_app(page, timeout=timeout)


def wait_for_server_step(page, step: int, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the stepper shows ``step`` and the server has drawn it too: the page shows a step the
    moment it is pressed (``ui/step_ahead.py``), before the server's rerun (the URL, the corpus...).
    ``#bpe-ahead`` carries the step the server drew (pages without it: the label is the server's)."""
    try:
        page.wait_for_function(
            """(step) => { const l = document.getElementById('bpe-step-label');
                          const a = document.getElementById('bpe-ahead');
                          return l && l.dataset.step === step && (!a || a.dataset.step === step); }""",
            arg=str(step),
            timeout=timeout,
            polling=100,
        )
    except Exception as exc:  # say what the page shows instead: a step too far, or one the server never drew
        seen = page.evaluate(SHOWN_STEPS)
        raise AssertionError(
            f"step {step} not shown and drawn after {timeout} ms; the page shows {seen} ({describe_app_state(page)})"
        ) from exc
    wait_for_app(page, timeout=timeout)


#: What a stepper page shows, for a failure message (with :func:`describe_app_state`): the step labels, the step the
#: server drew (``#bpe-ahead``) and the address.
SHOWN_STEPS = """() => ({labels: [...document.querySelectorAll('#bpe-step-label')].map(e => e.dataset.step),
  drawn: (document.getElementById('bpe-ahead') || {dataset: {}}).dataset.step, url: location.search})"""


#: ``page.wait_for_function(NEXT_FRAMES)``: true once the browser has drawn two more frames, so a layout
#: change (a new viewport size, a scroll) is on screen: a condition, not a guess at how long that takes.
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def wait_for_layout(page) -> None:
    """Wait until the browser has laid out and drawn the page as it stands (two animation frames)."""
    page.wait_for_function(NEXT_FRAMES)


def wait_for_attribute(page, element_id: str, attr: str, value: str, timeout: int | None = None) -> None:
    """Wait until the element ``element_id`` exists and its attribute ``attr`` is ``value`` (the data attributes
    the class's screens carry for tests: ``data-step``, ``data-grade``...), at most ``timeout`` ms (``None``: the
    page's default timeout)."""
    page.wait_for_function(
        "([id, a, v]) => { const e = document.getElementById(id); return e && e.getAttribute(a) === v; }",
        arg=[element_id, attr, value],
        timeout=timeout,
    )


def person_page(browser, size: dict, timeout: int, locale: str = "zh-TW"):
    """A page in a fresh browser context (its own cookies: a person of their own) of ``size`` (``{"width": ...,
    "height": ...}``), light colours, in ``locale``, waiting at most ``timeout`` ms by default."""
    page = browser.new_context(viewport=size, color_scheme="light", locale=locale).new_page()
    page.set_default_timeout(timeout)
    return page


def assert_on_first_screen(page, locator) -> None:
    """Assert that the first element of ``locator`` is drawn wholly within the viewport's height: on the first
    screen of a projector or a phone, with no scrolling."""
    box, height = locator.first.bounding_box(), page.viewport_size["height"]
    assert box is not None, f"{locator} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{locator} at {box}, the screen is {height} px"


def assert_stays(page, getter: str, ms: int, what: str) -> None:
    """Assert that nothing changes: the value ``getter`` (a JavaScript function, ``"() => ..."``) returns
    stays what it is now for ``ms`` milliseconds. For "autoplay is off: no step comes" and "no press was
    counted twice", whose only end is a time; the wait ends at once, failing, on the first change."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    before = page.evaluate(getter)
    try:
        page.wait_for_function(f"(before) => ({getter})() !== before", arg=before, timeout=ms, polling=50)
    except PlaywrightTimeoutError:
        return
    raise AssertionError(f"{what}: it was {before!r}, then {page.evaluate(getter)!r} within {ms} ms")


def assert_no_dialog(page, ms: int = 1_000) -> None:
    """Assert that no dialog (alert, confirm, prompt) opens within ``ms`` milliseconds: an injected handler
    would open one as the page draws. Like :func:`assert_stays`, the wait ends at once, failing, on the first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        dialog = page.wait_for_event("dialog", timeout=ms)
    except PlaywrightTimeoutError:
        return
    raise AssertionError(f"a dialog opened: {dialog.message!r}")


#: Keeps in ``window.__bpeSteps`` every step the step label showed, in order, as ``[epoch ms, step]`` (a
#: MutationObserver sees each redraw, however short). ``page.evaluate(RECORD_STEPS)`` starts a new record (the
#: observer is set up once per document); ``page.add_init_script(f"({RECORD_STEPS})()")`` records from the start of
#: every document. :data:`STEPS_SHOWN` reads the steps alone.
RECORD_STEPS = """() => {
  const look = () => { const l = document.getElementById('bpe-step-label'), h = window.__bpeSteps;
                       const s = l && l.dataset.step; if (s && (!h.length || h[h.length - 1][1] !== s)) h.push([Date.now(), s]); };
  if (!window.__bpeSteps) new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
  window.__bpeSteps = []; look();
}"""
STEPS_SHOWN = "() => window.__bpeSteps.map(e => e[1])"


def url_query(page) -> dict[str, str]:
    """The parameters of the URL the page shows now, read in the page: ``page.url`` learns of the app's
    ``history.replaceState`` a moment later, so right after a run it can still hold the URL before."""
    pairs = page.evaluate("() => [...new URLSearchParams(location.search)]")
    return {k: v for k, v in pairs}


def wait_for_url_param(page, name: str, timeout: int = DEFAULT_TIMEOUT_MS) -> dict[str, str]:
    """Wait (at most ``timeout`` ms) until the page's URL has the parameter ``name``; return the URL's parameters.
    A failure says what the page shows (a store that could not keep a text says so in the page)."""
    try:
        page.wait_for_function("(n) => new URLSearchParams(location.search).has(n)", arg=name, timeout=timeout)
    except Exception as exc:
        body = page.locator("body").inner_text()[:1500]
        raise AssertionError(f"no {name}= in {url_query(page)} after {timeout} ms; the page shows:\n{body}") from exc
    return url_query(page)


def open_app(page, url: str, timeout: int = DEFAULT_TIMEOUT_MS) -> None:
    """Navigate to ``url`` (the app's base URL, or base URL + "/<page>") and wait."""
    track_runs(page)
    page.goto(url, wait_until="domcontentloaded", timeout=timeout)
    wait_for_app(page, timeout=timeout)


def exception_texts(page) -> list[str]:
    """Texts of the exceptions the app shows: ``stException`` boxes (uncaught
    exceptions in the script) and the dialog Streamlit opens for a script that
    does not compile (``data-test-script-state="compilationError"``, the
    traceback in ``stErrorCodeBlock``)."""
    texts = [t.strip() for t in page.locator(EXCEPTION_SELECTOR).all_inner_texts()]
    state = page.locator(APP_SELECTOR).first.get_attribute("data-test-script-state")
    if state == "compilationError":
        dialog = page.locator('[data-testid="stDialog"]').filter(has=page.locator('[data-testid="stErrorCodeBlock"]'))
        detail = "\n".join(t.strip() for t in dialog.all_inner_texts()) or "(no details shown)"
        texts.append(f"the script does not compile:\n{detail}")
    return texts


def assert_no_exception(page) -> None:
    """Fail with the exception text if the app shows a Streamlit exception
    (an ``stException`` box, or the compilation-error dialog), or if the page could not use a message of its
    server's (:data:`WEBSOCKET_FAULT`)."""
    texts = exception_texts(page)
    assert not texts, "the app shows a Streamlit exception:\n\n" + "\n\n---\n\n".join(texts)
    faults = track_runs(page).faults
    assert not faults, "the page could not use a message from its server:\n" + "\n".join(faults)


# --------------------------------------------------------------------------
# Screenshots
# --------------------------------------------------------------------------

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._/-]+")


def save_screenshot(page, name: str, full_page: bool = False) -> Path:
    """Write ``test-artifacts/<name>.png`` and return its path.

    Tests never write anywhere else (the README's picture, docs/screenshot.png, is refreshed by
    ``scripts/refresh_screenshot.py``). Subfolders are allowed ("failures/test_x"); other unsafe
    characters become "_".
    """
    safe = _SAFE_NAME.sub("_", name).strip("/").replace("..", "_") or "screenshot"
    path = ARTIFACTS_DIR / f"{safe}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(page.screenshot(full_page=full_page, animations="disabled"))
    return path


def paste_text(page, text: str, timeout: int = 60_000) -> None:
    """Paste ``text`` as the corpus through the sidebar's "Paste text" box (Ctrl+Enter applies it) and wait (at
    most ``timeout`` ms) for the app to draw it."""
    page.get_by_text("Paste text", exact=True).click()
    box = page.get_by_label("Text to train on")
    box.wait_for()  # drawn by the run the click asked for (or there already)
    wait_for_app(page)
    box.evaluate(SET_TEXTAREA, text)
    with rerun(page, timeout=timeout):
        box.press("Control+Enter")
