"""Helpers every AppTest-based test shares: start the app (``app.py``, the st.navigation entry point)
with URL parameters, open a page, and read what it drew."""

from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

TIMEOUT = 60
REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")

#: The page scripts, by a short name (open them with :func:`open_page` or ``at.switch_page``).
PAGES = {
    "stepper": "app_pages/0_Step_through_BPE.py",
    "side": "app_pages/1_Side_by_side.py",
    "bbpe": "app_pages/2_BPE_vs_BBPE.py",
    "encode": "app_pages/3_Encode_and_decode.py",
    "files": "app_pages/4_Files.py",
    "how": "app_pages/5_How_BPE_works.py",
}


def new_app(**params) -> AppTest:
    """app.py (its default page, the stepper) run once with ``params`` in the URL."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = str(value)
    return at.run()


def open_page(name: str, **params) -> AppTest:
    """app.py with ``params`` in the URL, then the page ``name`` (a key of :data:`PAGES`)."""
    at = new_app(**params)
    no_exception(at)
    return at.switch_page(PAGES[name]).run()


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def bodies(at: AppTest) -> list[str]:
    """The HTML of every st.html element, in order."""
    return [h.proto.body for h in at.get("html")]


def body_with(at: AppTest, marker: str) -> str:
    """The first st.html element containing ``marker``."""
    for b in bodies(at):
        if marker in b:
            return b
    raise AssertionError(f"no st.html element containing {marker!r}; got {[b[:80] for b in bodies(at)]}")


def text_of(fragment: str) -> str:
    """Visible text of an HTML fragment (tags become spaces, entities decoded; spacing kept)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def flat_text(fragment: str) -> str:
    """:func:`text_of` with runs of whitespace collapsed to one space."""
    return " ".join(text_of(fragment).split())


def errors(at: AppTest) -> str:
    """Every error and warning shown, with Markdown escapes removed."""
    shown = " ".join(e.value for e in at.error) + " " + " ".join(w.value for w in at.warning)
    return re.sub(r"\\(.)", r"\1", shown)


def token_ids(fragment: str) -> list[int]:
    """The ids of the chips in an HTML fragment, in order."""
    return [int(t) for t in re.findall(r'data-token="(\d+)"', fragment)]
