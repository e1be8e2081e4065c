"""Every view passes axe-core's WCAG 2.1 A and AA rules in a real Chromium: in English, and in 简体 and 繁體.

The views are every page of the navigation (``ui.page.PAGES``: a page added there is checked
without a change here), presentation mode and the quiz, each opened at step 3 of the textbook corpus
(so the changed words and their faded "before" chips are on screen). Every view is checked in English.
The colours, the markup and the widgets are the same in every language: what a language changes is the
text, so 简体 and 繁體 are checked on the views whose own HTML is most of the screen and all translated
(the stepper, presentation mode, the quiz: :data:`LANGUAGE_VIEWS`), not on all twelve (each case opens a
page and runs axe, several seconds on a busy machine). axe-core is the engine the
browsers' own accessibility audits use; ``axe-playwright-python`` bundles a pinned copy of it
(requirements-dev.txt). One server and one browser serve every case (the conftest fixtures).

A failure lists each rule broken, the elements and axe's message (for contrast: the two colours
and their ratio); the full report goes to ``test-artifacts/axe/<lang>-<view>.txt``.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import ARTIFACTS_DIR, assert_no_exception, open_app

from ui.page import PAGES

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
#: axe-core's tags for the WCAG 2.0 and 2.1 success criteria at levels A and AA.
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The views: (name, URL path and parameters after the base URL).
VIEWS = [(spec.url_path or "Step_through_BPE", f"{spec.url_path}?preset=textbook-low&step=3") for spec in PAGES] + [
    ("presentation", "?preset=textbook-low&step=3&present=1"),
    ("quiz", "?preset=textbook-low&step=3&quiz=1"),
]

#: The views also checked in 简体 and 繁體.
LANGUAGE_VIEWS = ("Step_through_BPE", "presentation", "quiz")
CASES = [pytest.param(name, path, "en", id=f"{name}-en") for name, path in VIEWS] + [
    pytest.param(name, path, lang, id=f"{name}-{lang}")
    for name, path in VIEWS
    if name in LANGUAGE_VIEWS
    for lang in LANGUAGES[1:]
]

_AXE = Axe()


def violations(page) -> tuple[list[dict], str]:
    """axe-core's A/AA violations on the page as it stands, and its readable report."""
    results = _AXE.run(page, options={"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]})
    return results.response["violations"], results.generate_report()


def summary(found: list[dict]) -> str:
    lines = []
    for rule in found:
        lines.append(f"{rule['id']} ({rule['impact']}, {len(rule['nodes'])} elements): {rule['help']}")
        for node in rule["nodes"][:8]:
            message = "; ".join(check["message"] for check in node["any"] + node["all"] + node["none"])
            lines.append(f"  {' '.join(node['target'])}: {message}")
    return "\n".join(lines)


def test_language_views_are_views():
    """A view renamed in :data:`VIEWS` is not silently dropped from the 简体 / 繁體 checks."""
    assert set(LANGUAGE_VIEWS) <= {name for name, _ in VIEWS}


@pytest.mark.parametrize("name, path, lang", CASES)
def test_no_wcag_a_or_aa_violation(app_server, page, name, path, lang):
    open_app(page, f"{app_server}/{path}&lang={lang}")
    assert_no_exception(page)
    # Streamlit loads widget code lazily, showing grey placeholders until then: axe checks the real widgets.
    page.wait_for_load_state("networkidle")
    page.wait_for_selector("[data-testid=stSkeleton]", state="detached")
    page.evaluate("document.fonts.ready.then(() => true)")  # text sizes final before axe measures them
    found, report = violations(page)
    out = ARTIFACTS_DIR / "axe" / f"{lang}-{name}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    assert not found, f"{sum(len(r['nodes']) for r in found)} elements break WCAG 2.1 A/AA:\n{summary(found)}"
