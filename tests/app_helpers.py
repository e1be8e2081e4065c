"""Helpers every AppTest-based test shares: start the app (``app.py``, the st.navigation entry point)
with URL parameters, open a page, and read what it drew."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import NamedTuple

from streamlit.testing.v1 import AppTest

#: Seconds one script run may take before AppTest fails it: a bound for a hang, not a pace (a 2-core machine
#: shared with a CPU hog and other jobs took over 60 s for the GPT page).
TIMEOUT = 240
REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")

#: The page scripts, by a short name (open them with :func:`open_page` or ``at.switch_page``).
PAGES = {
    "stepper": "app_pages/0_Step_through_BPE.py",
    "side": "app_pages/1_Side_by_side.py",
    "bbpe": "app_pages/2_BPE_vs_BBPE.py",
    "encode": "app_pages/3_Encode_and_decode.py",
    "files": "app_pages/4_Files.py",
    "how": "app_pages/8_How_BPE_works.py",
}


def new_app(opened: tuple[str, ...] = (), **params) -> AppTest:
    """app.py (its default page, the stepper) run once with ``params`` in the URL; the lazy expanders whose keys
    are in ``opened`` (``ui.page.lazy_expander``) drawn open, as a click on them leaves them."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = str(value)
    for key in opened:
        at.session_state[key] = True
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


def page_text(at: AppTest) -> str:
    """Visible text of every st.html element plus errors, warnings and infos, whitespace collapsed."""
    parts = [text_of(h.proto.body) for h in at.get("html")]
    parts += [m.value for m in list(at.error) + list(at.warning) + list(at.info)]
    return " ".join(" ".join(parts).replace("\\", "").split())


class StepShown(NamedTuple):
    """What the stepper's label (``#bpe-step-label``) shows: ``step`` (its ``data-step``) of ``total``."""

    step: int
    total: int | None


def shown_step(at: AppTest) -> StepShown | None:
    """The step the stepper shows and the steps it counts ("Step 3 of 10"), or None when no stepper is drawn."""
    for body in bodies(at):
        tag = re.search(r"<div[^>]*id=.bpe-step-label.[^>]*>", body)
        if tag:
            step = re.search(r"data-step=.(\d+)", tag.group(0))
            total = re.search(r"of ([\d,]+)", text_of(body[tag.end() :]))
            return StepShown(int(step.group(1)), int(total.group(1).replace(",", "")) if total else None)
    return None


def paste(at: AppTest, text: str) -> AppTest:
    """Choose "Paste text" in the sidebar and paste ``text``."""
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input(text).run()
    return at


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    """Choose "Upload a file" in the sidebar and upload ``data`` as ``name``."""
    at.radio(key="w.source").set_value("upload").run()
    at.file_uploader(key="w.upload").set_value((name, data, "text/plain")).run()
    return at


def token_ids(fragment: str) -> list[int]:
    """The ids of the chips in an HTML fragment, in order."""
    return [int(t) for t in re.findall(r'data-token="(\d+)"', fragment)]


def jump_widget(at: AppTest, kind: str, key: str = "stepper"):
    """Stepper ``key``'s slider (``kind="slider"``) or number box (``"box"``): keyed by the step it shows
    (:func:`ui.stepper.jump_keys`), so found by the start of its key."""
    widgets = at.slider if kind == "slider" else at.number_input
    found = [w for w in widgets if w.key and w.key.startswith(f"{key}.{kind}.")]
    assert len(found) == 1, [w.key for w in widgets]
    return found[0]
