"""A live class in real Chromium against ``streamlit run app.py``: one teacher and three students (one on a phone,
390x844), joining by link and by code, following the teacher's steps, answering a question (one pick changed), the
projector's counts, a server restart mid-question, the reveal, a forged teacher link, an unknown code and the
summary. One test: a class is one story, and its own server (restarted in the middle) is started once."""

from __future__ import annotations

import pytest
from browser import StreamlitServer, assert_no_exception, save_screenshot

from ui.corpus_store import CorpusStore
from ui.live_class import Classes

pytestmark = pytest.mark.browser
WAIT_MS = 90_000  # a loaded 2-core machine: bounded waits on conditions, never sleeps


def _wait_step(page, step: int) -> None:
    page.wait_for_function(
        "(s) => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step === s; }",
        arg=str(step), timeout=WAIT_MS,
    )  # fmt: skip


def _wait_attr(page, element_id: str, attr: str, value: str) -> None:
    page.wait_for_function(
        "([id, a, v]) => { const e = document.getElementById(id); return e && e.getAttribute(a) === v; }",
        arg=[element_id, attr, value], timeout=WAIT_MS,
    )  # fmt: skip


# A class tab reruns its polling fragment every 0.75 s, so "the script is not running" comes and goes on a busy
# machine: these wait for what each action shows instead.
def _open(page, url: str, selector: str = "#bpe-step-label") -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator(selector).first.wait_for()


def _click(page, name: str, then: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    page.locator(then).first.wait_for()


def _next(page) -> int:
    """Press the teacher's Next; return the step the teacher's page then shows (the class's step)."""
    before = page.locator("#bpe-step-label").first.get_attribute("data-step")
    page.locator(".st-key-stepper-next button:visible").first.click()
    page.wait_for_function(
        "(b) => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step !== b; }",
        arg=before, timeout=WAIT_MS,
    )  # fmt: skip
    return int(page.locator("#bpe-step-label").first.get_attribute("data-step"))


def _pick(page, option: int) -> None:
    page.locator(f".st-key-class-pick-{option} button").click()
    page.locator(f".st-key-class-pick-{option} [data-testid='stBaseButton-primary']").wait_for()


def test_a_class_of_three(browser, tmp_path):
    store = tmp_path / "corpora.sqlite3"
    server = StreamlitServer("app.py", log_path=None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_STORE", str(store))
        url = server.start(timeout=60)
        try:
            _class_story(browser, server, url, store)
        finally:
            server.stop()


def _class_story(browser, server, url, store):
    contexts = []

    def new_page(width=1280, height=900):
        ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light")
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(WAIT_MS)
        return page

    try:
        # The teacher starts a class on the default preset.
        teacher = new_page()
        _open(teacher, url)
        teacher.get_by_text("Live class", exact=True).click()
        _click(teacher, "Start a class", "#bpe-class-code")
        code = teacher.locator("#bpe-class-code").inner_text().strip()
        assert len(code) == 6 and "teacher" not in teacher.url and f"class={code}" in teacher.url
        assert teacher.locator("#bpe-class-join img[src^='data:image/svg+xml']").count() == 1  # the QR code
        classes = Classes(CorpusStore(store))
        assert classes.state(code).students == 0

        # Two students by the link (one on a phone), one by the code box with a nickname that is markup.
        laptop, phone, third = new_page(), new_page(390, 844), new_page()
        for page in (laptop, phone):
            _open(page, f"{url}/?class={code}", "#bpe-class-status")
        _open(third, url)
        third.get_by_text("Join a class", exact=True).click()
        third.get_by_role("textbox", name="Class code").fill(code.lower())
        third.get_by_role("textbox", name="Nickname (optional)").fill("<b>Zoë</b>")
        _click(third, "Join", "#bpe-class-status")
        third.locator("#bpe-class-status").get_by_text("you are <b>Zoë</b>").wait_for()
        _wait_attr(teacher, "bpe-class-status", "data-students", "3")
        students = (laptop, phone, third)

        # Three steps: every student follows.
        for _ in range(3):
            step = _next(teacher)
            for page in students:
                _wait_step(page, step)

        # A question on the next merge: three picks, one changed.
        merge = step + 1
        _click(teacher, "Ask the class", "#bpe-class-answered")
        for page in students:
            page.locator("#bpe-class-question").wait_for()
            assert page.locator("#bpe-merge-card").count() == 0  # the merge would give the answer away
        _pick(laptop, 0)
        _pick(phone, 1)
        _pick(third, 2)
        _pick(laptop, 1)
        n = len(classes.tally(code, merge).grades)
        counts = [0, 2, 1] + [0] * (n - 3)
        _wait_attr(teacher, "bpe-class-answered", "data-counts", ",".join(map(str, counts)))
        assert classes.tally(code, merge).counts == tuple(counts)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no horizontal overflow
        save_screenshot(teacher, "live_class/teacher-question")
        save_screenshot(phone, "live_class/phone-question")

        # The server restarts mid-question: every page reconnects and finds the class as it was.
        port = server.port
        server.stop()
        server.start(timeout=60, port=port)
        for page in (teacher, *students):
            page.locator("#bpe-class-question").wait_for(timeout=60_000)
        _wait_attr(teacher, "bpe-class-answered", "data-counts", ",".join(map(str, counts)))
        assert (
            phone.locator(".st-key-class-pick-1 [data-testid='stBaseButton-primary']").count() == 1
        )  # the phone's pick kept

        # Reveal: each student's verdict is the grade of their pick; the teacher sees the shares.
        _click(teacher, "Reveal", "#bpe-class-shares")
        grades = classes.tally(code, merge).grades
        for page, pick in zip(students, (1, 1, 2), strict=True):
            _wait_attr(page, "bpe-quiz-verdict", "data-grade", grades[pick])
        picked = [grades[1], grades[1], grades[2]]
        for g in ("right", "tied", "wrong"):
            _wait_attr(teacher, "bpe-class-shares", f"data-{g}", str(picked.count(g)))

        # A student with a forged teacher link is a student; an unknown code gets its message and the code box.
        other = new_page()
        _open(other, f"{url}/?class={code}&teacher=forged-key-forged-key", "#bpe-class-status")
        other.get_by_text("This teacher link is not valid for this class").wait_for()
        assert other.get_by_role("button", name="Ask the class").count() == 0
        assert "teacher=" not in other.url
        version = classes.poll(code).version
        _open(other, f"{url}/?class=ZZZZZZ")
        other.get_by_text("There is no class ZZZZZZ on this server").wait_for()
        assert other.get_by_role("textbox", name="Class code").count() == 1
        assert classes.poll(code).version == version

        # The end: the summary on every screen, each student's own score.
        step = _next(teacher)
        assert step >= merge  # past the revealed question: its merge may be shown now
        for page in students:
            _wait_step(page, step)
        teacher.get_by_role("button", name="More", exact=True).click()
        _click(teacher, "End the class", "text=The class is over: summary")
        for page, pick in zip(students, (1, 1, 2), strict=True):
            right = "1" if grades[pick] == "right" else "0"
            _wait_attr(page, "bpe-class-score", "data-right", right)
            _wait_attr(page, "bpe-class-score", "data-asked", "1")
        save_screenshot(phone, "live_class/phone-summary", full_page=True)
        for page in (teacher, *students):
            assert_no_exception(page)
    except BaseException:
        for i, ctx in enumerate(contexts):
            for page in ctx.pages:
                save_screenshot(page, f"failures/live_class_{i}", full_page=True)
        raise
    finally:
        for ctx in contexts:
            ctx.close()
