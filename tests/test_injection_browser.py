"""Injection (issue 6): every string a student types reaches the page as literal text.

In a real Chromium against ``streamlit run app.py``: the payloads are pasted, a group at a time, into the
sidebar's text box (each twice, so that a merge exists), the app steps once, and then

* the payloads' words show literally in the corpus table and the new token's chip is a piece of them;
* no dialog opened (``alert``), no request left for a URL the payload names, no element carries an
  inline event handler (``on*`` attribute) or a ``javascript:`` URL, no ``<img>``/``<svg>``/``<link>``
  of the payload exists;
* no style leaked: ``body`` and known elements (step label, Next button, the text box) are still
  displayed and visible, and no ``<style>`` element holds the payload's CSS;
* Markdown and Streamlit directives stayed text (no ``<strong>bold</strong>``, no red ``:red[...]``).

Also the same checks for a file name (uploads show it) and for the Encode page's text box. A
screenshot of each case goes to ``test-artifacts/injection/``.
"""

from __future__ import annotations

import re

import pytest
from browser import (
    assert_no_dialog,
    assert_no_exception,
    open_app,
    paste_text,
    rerun,
    save_screenshot,
    wait_for_layout,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

STEP_LABEL = "#bpe-step-label"
MARKER = "</w>"  # the default corpus settings are end-of-word BPE with this marker

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<style>*{display:none}</style>",
    "<link rel=stylesheet href=/evil.css>",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<iframe src=javascript:alert(1)></iframe>",
    '"><img src=x onerror=alert(1)>',
    "x' onmouseover='alert(1)' y='",
    'x" onmouseover="alert(1)" y="',
    "&lt;b&gt;",
    "&#60;script&#62;alert(1)&#60;/script&#62;",
    "[x](javascript:alert(1))",
    "![x](x)",
    ":red[red]",
    ":material/warning: :blue-background[blue]",
    "**bold**",
    "<b>bold</b>",
    "$x^2$",
    "`code`",
    "{{7*7}} ${7*7}",
]

#: JavaScript that lists what a successful injection would leave in the document.
FIND_INJECTED = """() => {
  const out = [];
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) {
      if (a.name.toLowerCase().startsWith('on')) out.push(`${e.tagName} ${a.name}=${a.value}`);
      if (/^\\s*javascript:/i.test(a.value)) out.push(`${e.tagName} ${a.name}=${a.value}`);
    }
  }
  for (const e of document.querySelectorAll('img[src="x"], img[alt="x"], svg[onload], iframe, script:not([src])')) {
    // The steps drawn ahead (#bpe-ahead) are a JSON block holding the corpus as data: a browser never
    // runs it. It must stay that: JSON, in its one place.
    if (e.tagName === 'SCRIPT' && e.type === 'application/json' && e.parentElement.id === 'bpe-ahead') {
      try { JSON.parse(e.textContent); continue; } catch (err) { out.push(`element SCRIPT not JSON: ${e.outerHTML.slice(0, 120)}`); }
    }
    if (e.tagName === 'SCRIPT' && !/alert/.test(e.textContent)) continue;
    out.push(`element ${e.tagName}: ${e.outerHTML.slice(0, 120)}`);
  }
  for (const e of document.querySelectorAll('link[href*="evil"]')) out.push(`element LINK: ${e.outerHTML}`);
  for (const e of document.querySelectorAll('style')) {
    if (e.textContent.replace(/\\s+/g, '').includes('*{display:none}')) out.push(`element STYLE: ${e.outerHTML.slice(0, 120)}`);
  }
  for (const e of document.querySelectorAll('strong, b, code, em')) {
    if (['bold', 'code'].includes(e.textContent.trim())) out.push(`markdown ${e.tagName}: ${e.textContent}`);
  }
  return out;
}"""

#: JavaScript: is this element rendered and visible (not display:none / visibility:hidden / zero-size)?
IS_SHOWN = """(e) => {
  const s = getComputedStyle(e);
  const r = e.getBoundingClientRect();
  return s.display !== 'none' && s.visibility !== 'hidden' && s.opacity !== '0' && r.width > 0 && r.height > 0;
}"""


class Watch:
    """Records dialogs, page errors and requests for URLs a payload names."""

    def __init__(self, page):
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("request", self._request)

    def _request(self, request) -> None:
        url = request.url
        if "evil" in url or re.search(r"/x(\?|$)", url) or url.startswith("javascript:"):
            self.requests.append(url)


def assert_nothing_injected(page, watch: Watch) -> None:
    # An injected handler would open a dialog as the page draws; then the page's styles apply.
    assert_no_dialog(page)
    wait_for_layout(page)
    assert_no_exception(page)
    assert watch.dialogs == [], f"a dialog opened: {watch.dialogs}"
    assert watch.requests == [], f"the page requested URLs from the payload: {watch.requests}"
    injected = page.evaluate(FIND_INJECTED)
    assert injected == [], f"injected into the page: {injected}"
    # (body itself has no height: Streamlit's app container is positioned inside it)
    body = page.evaluate(
        "() => { const s = getComputedStyle(document.body); return [s.display, s.visibility, s.opacity]; }"
    )
    assert body[0] != "none" and body[1] == "visible" and body[2] != "0", f"body is hidden: {body}"
    assert page.locator('[data-testid="stApp"]').evaluate(IS_SHOWN), "the app container is hidden"
    assert not any("alert" in e for e in watch.errors), watch.errors


def assert_shown(page, locator) -> None:
    expect(locator).to_be_visible()
    assert locator.evaluate(IS_SHOWN), f"{locator} is not shown"


def paste_and_step(page, app_server: str, text: str) -> None:
    open_app(page, f"{app_server}/?preset=textbook-low&step=0")
    paste_text(page, text)
    page.wait_for_selector(f'{STEP_LABEL}[data-step="0"]')
    with rerun(page):
        page.get_by_role("button", name=re.compile("Next")).click()
    page.wait_for_selector(f'{STEP_LABEL}[data-step="1"]')


#: The payloads, pasted a group at a time: one corpus (each payload twice, so that a merge exists) and one page
#: per group instead of one per payload; each group's word types fit the corpus table's 25 rows, and an
#: injection by any one payload is found as well beside the others.
GROUPS = [PAYLOADS[i::4] for i in range(4)]
TABLE_ROWS = 25


@pytest.mark.parametrize("group", range(len(GROUPS)), ids=[f"group-{i}" for i in range(len(GROUPS))])
def test_pasted_payloads_are_literal_text(app_server, page, group):
    payloads = GROUPS[group]
    words = [w for payload in payloads for w in payload.split()]
    assert len(set(words)) <= TABLE_ROWS, "a group's words must fit the corpus table"
    watch = Watch(page)
    paste_and_step(page, app_server, "\n".join(payloads * 2))
    assert_nothing_injected(page, watch)

    # The payloads' words, literally, in the corpus table (one row per word type).
    cells = [c.strip() for c in page.locator("#bpe-corpus td.word").all_inner_texts()]
    for word in words:
        assert any(c.startswith(word) for c in cells), (word, cells)
    # The chip of the token merge 1 made is a piece of one of those words (end-of-word marker included).
    new_chip = page.locator("#bpe-merge .bpe-chip.new").first.inner_text().strip()
    assert new_chip and any(new_chip in w + MARKER for w in words), (new_chip, words)
    page_text = page.locator("body").inner_text()
    for word in words:
        assert word in page_text

    # No style leaked: the app's own elements are still displayed.
    assert_shown(page, page.locator(STEP_LABEL))
    assert_shown(page, page.get_by_role("button", name=re.compile("Next")))
    assert_shown(page, page.get_by_label("Text to train on"))
    assert_shown(page, page.locator("#bpe-corpus"))
    save_screenshot(page, f"injection/paste-group-{group}")


FILENAME_PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "**bold** :red[red] ![x](x)",
    "[x](javascript:alert(1))",
    "&lt;b&gt; x' onmouseover='alert(1)'",
]


CORPUS = b"low low lower lower newest newest"


def test_uploaded_file_name_is_literal_text(app_server, page):
    watch = Watch(page)
    open_app(page, f"{app_server}/?preset=textbook-low&step=0")
    with rerun(page):
        page.get_by_text("Upload .txt", exact=True).click()
    upload = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    for i, name in enumerate(FILENAME_PAYLOADS):
        with rerun(page):
            upload.set_input_files(files=[{"name": f"{name}.txt", "mimeType": "text/plain", "buffer": CORPUS}])
        page.wait_for_selector(f'{STEP_LABEL}[data-step="0"]')
        assert_nothing_injected(page, watch)
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert f"{name}.txt" in sidebar, (name, sidebar[-400:])
        assert_shown(page, page.locator(STEP_LABEL))
        save_screenshot(page, f"injection/upload-{i:02d}")


def test_encode_page_text_is_literal(app_server, page):
    watch = Watch(page)
    # A byte-level model (no pre-tokenizer): every character of the text becomes chips, none <unk>.
    open_app(page, f"{app_server}/?preset=aaabdaaabac&step=3")
    with rerun(page):
        page.get_by_role("link", name=re.compile("Encode")).first.click()
    box = page.get_by_label("Text to encode")
    text = "\n".join(PAYLOADS)
    box.fill(text)
    with rerun(page):
        box.press("Control+Enter")
    assert_nothing_injected(page, watch)
    # The chips, in order (ids under them left out; spaces and line ends are drawn as ␣ and ↵).
    chips = "".join(page.locator("#enc-tokens .bpe-chip").all_inner_texts())
    for payload in PAYLOADS:
        assert payload.replace(" ", "␣") in chips, (payload, chips[:300])
    assert_shown(page, box)
    save_screenshot(page, "injection/encode-page", full_page=True)
