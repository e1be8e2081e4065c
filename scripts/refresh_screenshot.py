"""Refresh the README's picture, docs/screenshot.png: the stepper at merge 1 of the textbook corpus.

Tests never write tracked files (their screenshots go to test-artifacts/), so the picture changes only
when someone runs this on purpose and commits the result::

    .venv/bin/python scripts/refresh_screenshot.py

It starts the app (``streamlit run serve.py`` on a free port, as the browser tests do, with the same
helpers from tests/browser.py), opens ``/?preset=textbook-low&step=1`` in headless Chromium at
1280x1300 (tall enough to show the corpus with the changed words under the merge), and writes the PNG
only if it changed.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]  # the library; the browser helpers shared with the tests

from browser import StreamlitServer, assert_no_exception, launch_chromium, open_app, wait_for_layout  # noqa: E402

PICTURE = REPO / "docs" / "screenshot.png"
URL = "/?preset=textbook-low&step=1"


def main() -> int:
    from playwright.sync_api import sync_playwright

    server = StreamlitServer()
    base = server.start(timeout=120)
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1280, "height": 1300}, color_scheme="light", locale="en-US")
            open_app(page, base + URL, timeout=120_000)
            assert_no_exception(page)
            page.wait_for_load_state("networkidle")  # Streamlit loads widget code lazily: placeholders until then
            page.wait_for_selector("[data-testid=stSkeleton]", state="detached")
            page.wait_for_selector("#bpe-corpus tr.changed")
            page.evaluate("document.fonts.ready.then(() => true)")
            wait_for_layout(page)
            png = page.screenshot(animations="disabled")
            browser.close()
    finally:
        server.stop()
    if PICTURE.exists() and PICTURE.read_bytes() == png:
        print(f"{PICTURE.relative_to(REPO)} is up to date")
    else:
        PICTURE.write_bytes(png)
        print(f"wrote {PICTURE.relative_to(REPO)} ({len(png):,} bytes): commit it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
