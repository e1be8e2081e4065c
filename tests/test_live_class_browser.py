"""A live class in real Chromium against ``streamlit run app.py``: one teacher and three students (one on a phone,
390x844), joining by link and by code, following three steps (each press of the teacher's Next moves every screen
exactly one step, and no further), a question with three picks (one changed), the teacher's counts and live
histogram, a server restart mid-question, the reveal, a forged teacher key refused by the server, and the summary;
an unknown code's message; the phone's first screen in a class and the normal stepper's row on a phone.

The module has its own server and store file (the class story restarts it), started once; every wait is a bounded
wait on what the screens show, never on how the page learns of a change (the polling may change)."""

from __future__ import annotations

import os
import re

import pytest
from browser import (
    APP_SELECTOR,
    RECORD_STEPS,
    STEPS_SHOWN,
    ServerHold,
    app_on_store,
    assert_no_exception,
    assert_on_first_screen,
    assert_stays,
    save_screenshot,
    wait_for_app,
    wait_for_attribute,
)
from playwright.sync_api import expect

from bpe_core import train
from bpe_core.teaching.quiz import question
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.class_join import PUBLIC_URL_ENV, qr_img
from ui.corpus import PRESETS
from ui.settings import make_config, preset_settings

pytestmark = pytest.mark.browser
WAIT_MS = 90_000  # a loaded 2-core machine: bounded waits on conditions, never sleeps
#: After a step reached every screen: how long the teacher's screen must then stay on it, with every screen's record
#: of the steps it showed checked afterwards (a second step came within about a second of the press).
STAYS_MS = 2_500
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """This module's own app server and store file: the class story stops and starts it."""
    store = tmp_path_factory.mktemp("live-class") / "corpora.sqlite3"
    with app_on_store(store) as server:  # the app as users run it
        yield server, Classes(CorpusStore(store))


@pytest.fixture
def contexts(browser, request):
    """``new_page(width, height)``: a page in a fresh browser context (its own cookies: a person of its own);
    every context is closed at the end, after a screenshot of each page when the test failed."""
    made, failed = [], request.session.testsfailed

    def new_page(width: int = 1280, height: int = 900):
        ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light", locale="en-US")
        made.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(WAIT_MS)
        return page

    yield new_page
    for i, ctx in enumerate(made):
        if request.session.testsfailed > failed:  # the call's report is in before the teardown
            for page in ctx.pages:
                try:
                    save_screenshot(page, f"failures/{request.node.name}-{i}", full_page=True)
                except Exception as exc:  # noqa: BLE001 - never hide the real failure
                    print(f"no failure screenshot of page {i}: {exc}")
        ctx.close()


def _open(page, url: str, selector: str = "#bpe-step-label") -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator(selector).first.wait_for()


def _click(page, name: str, then: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    page.locator(then).first.wait_for()


def _step(page) -> int:
    return int(page.locator("#bpe-step-label").first.get_attribute("data-step"))


def _wait_step(page, step: int) -> None:
    page.wait_for_function(
        "(s) => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step === s; }",
        arg=str(step), timeout=WAIT_MS,
    )  # fmt: skip


def _press_next_once(teacher, students, classes, code) -> int:
    """The teacher presses Next once: every screen shows the step after, the class's step on the server is it, and
    nothing moves again (each screen's record since the press is exactly the two steps). Returns the new step."""
    before = _step(teacher)
    for page in (teacher, *students):
        _wait_step(page, before)
        page.evaluate(RECORD_STEPS)
    teacher.locator(".st-key-stepper-next button:visible").first.click()
    for page in (teacher, *students):
        _wait_step(page, before + 1)
    assert_stays(teacher, "() => document.getElementById('bpe-step-label').dataset.step", STAYS_MS,
                 "the teacher's step after one press of Next")  # fmt: skip
    assert classes.state(code).step == before + 1
    for i, page in enumerate((teacher, *students)):
        assert page.evaluate(STEPS_SHOWN) == [str(before), str(before + 1)], f"screen {i}"
    return before + 1


def _pick(page, option: int) -> None:
    page.locator(f".st-key-class-pick-{option} button").click()
    page.locator(f".st-key-class-pick-{option} [data-testid='stBaseButton-primary']").wait_for()


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box


def _apart(page, one: str, other: str) -> None:
    a, b = _box(page, one), _box(page, other)
    overlap = min(a["x"] + a["width"], b["x"] + b["width"]) > max(a["x"], b["x"]) and min(
        a["y"] + a["height"], b["y"] + b["height"]
    ) > max(a["y"], b["y"])
    assert not overlap, f"{one} at {a} overlaps {other} at {b}"


def _no_horizontal_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def _press_as_student(page) -> None:
    """A press of Prev on a student's (or a forger's) own screen (Next is off: no student passes the teacher's
    step): their step only."""
    before = _step(page)
    page.locator(".st-key-stepper-prev button:visible").first.click()
    _wait_step(page, before - 1)
    wait_for_app(page, timeout=WAIT_MS)


def test_unknown_code_gets_its_message_and_the_code_box(class_server, contexts):
    server, _ = class_server
    page = contexts(**PHONE)
    _open(page, f"{server.url}/?class=ZZZZZZ")
    page.get_by_text("There is no class ZZZZZZ on this server").wait_for()
    page.get_by_role("textbox", name="Class code").wait_for()  # the code box, open
    expect(page).not_to_have_url(re.compile(r"[?&]class="))
    _no_horizontal_overflow(page)
    assert_no_exception(page)


def test_the_normal_stepper_on_a_phone_keeps_prev_and_next_side_by_side(class_server, contexts):
    server, _ = class_server
    page = contexts(**PHONE)
    _open(page, server.url)
    wait_for_app(page, timeout=WAIT_MS)
    prev, nxt = _box(page, ".st-key-stepper-prev button:visible"), _box(page, ".st-key-stepper-next button:visible")
    assert abs(prev["y"] - nxt["y"]) < 4 and prev["x"] + prev["width"] <= nxt["x"], (prev, nxt)
    assert_on_first_screen(page, page.locator(".st-key-stepper-next button:visible"))
    _no_horizontal_overflow(page)


def test_the_join_link_names_the_address_the_teachers_browser_used(class_server, contexts):
    """No ``BPE_EXPLORER_PUBLIC_URL`` (``tests/test_class_links.py`` sets it): the join link and its QR code name the
    address the teacher's browser used, here the test server's."""
    server, classes = class_server
    assert PUBLIC_URL_ENV not in os.environ
    code, key = classes.start({"preset": "textbook-low"}, step=0)
    teacher = contexts(1280, 720)
    _open(teacher, f"{server.url}/?class={code}&teacher={key}", "#bpe-class-join")
    link = f"{server.url}/?class={code}"
    expect(teacher.locator("#bpe-class-join .link")).to_have_text(link)
    qr_src = re.search(r"src='([^']*)'", qr_img(link)).group(1)
    assert teacher.locator("#bpe-class-join img").get_attribute("src") == qr_src


def test_a_class_of_three(class_server, contexts):
    server, classes = class_server
    url = server.url
    # The teacher starts a class on the default preset, at the projector's 1280x720.
    teacher = contexts(1280, 720)
    _open(teacher, url)
    teacher.get_by_text("Live class", exact=True).click()
    _click(teacher, "Start a class", "#bpe-class-code")
    code = teacher.locator("#bpe-class-code").inner_text().strip()
    assert len(code) == 6
    expect(teacher).to_have_url(re.compile(rf"[?&]class={code}(&|$)"))
    expect(teacher).not_to_have_url(re.compile(r"[?&]teacher="))
    assert teacher.locator("#bpe-class-join img[src^='data:image/svg+xml']").count() == 1  # the QR code
    assert classes.state(code).students == 0

    # Two students by the link (one on a phone), one by the code box, typed in lower case, with a nickname that is
    # markup (shown as text).
    laptop, phone, third = contexts(), contexts(**PHONE), contexts()
    for page in (laptop, phone):
        _open(page, f"{url}/?class={code}", "#bpe-class-status")
    _open(third, url)
    third.get_by_text("Join a class", exact=True).click()
    third.get_by_role("textbox", name="Class code").fill(code.lower())
    third.get_by_role("textbox", name="Nickname (optional)").fill("<b>Zoë</b>")
    _click(third, "Join", "#bpe-class-status")
    third.locator("#bpe-class-status").get_by_text("you are <b>Zoë</b>").wait_for()
    wait_for_attribute(teacher, "bpe-class-status", "data-students", "3")
    students = (laptop, phone, third)

    # Three steps: one press, one step, on every screen.
    for _ in range(3):
        step = _press_next_once(teacher, students, classes, code)

    # The phone in a class: the step label and the merge card on the first screen, nothing wider than the phone.
    wait_for_app(phone, timeout=WAIT_MS)
    for selector in ("#bpe-step-label", "#bpe-merge-card"):
        assert_on_first_screen(phone, phone.locator(selector))
    _no_horizontal_overflow(phone)
    _apart(phone, "#bpe-step-label", ".st-key-stepper-first button:visible")  # the label clear of the buttons

    # A forger: the code, and a teacher key that is not this class's, in the link and in the key's cookie. The server
    # takes them for a student: no teacher controls, the key dropped from the address bar, no step past the
    # teacher's, and their presses move only their own step, never the class's.
    forger = contexts()
    forger.context.add_cookies([{"name": f"bpe_teach_{code}", "value": "forged-key-forged-key", "url": url}])
    _open(forger, f"{url}/?class={code}&teacher=forged-key-forged-key", "#bpe-class-status")
    forger.get_by_text("This teacher link is not valid for this class").wait_for()
    assert forger.get_by_role("button", name="Ask the class").count() == 0
    assert forger.locator(".st-key-stepper-next button:visible").first.is_disabled()
    expect(forger).not_to_have_url(re.compile(r"[?&]teacher="))
    version = classes.poll(code).version
    _press_as_student(forger)
    _press_as_student(forger)
    assert classes.state(code).step == step and classes.poll(code).version == version
    assert _step(phone) == step
    assert_no_exception(forger)
    forger.context.close()  # one tab fewer polling the server

    # The projector: presentation mode, then a question on the next merge, with the live histogram on.
    teacher.get_by_text("Presentation mode", exact=True).click()
    teacher.locator(".st-key-stepper-next button:visible").first.wait_for()
    wait_for_app(teacher, timeout=WAIT_MS)
    merge = step + 1
    _click(teacher, "Ask the class", "#bpe-class-answered")
    n = len(classes.tally(code, merge).grades)
    teacher.get_by_role("button", name="Display", exact=True).click()
    teacher.get_by_label("Show live answers").check()
    _wait_histogram(teacher, [0] * n)
    teacher.keyboard.press("Escape")
    for page in students:
        page.locator("#bpe-class-question").wait_for()
        assert page.locator("#bpe-merge-card").count() == 0  # the merge would give the answer away

    # Three picks, one changed; the teacher's counts and histogram show each pick once.
    _pick(laptop, 0)
    _pick(phone, 1)
    _pick(third, 2)
    _pick(laptop, 1)
    counts = [0, 2, 1] + [0] * (n - 3)
    wait_for_attribute(teacher, "bpe-class-answered", "data-counts", ",".join(map(str, counts)))
    assert classes.tally(code, merge).counts == tuple(counts)
    wait_for_attribute(teacher, "bpe-class-answered", "data-answered", "3")  # of four: the forger counts as a student
    _wait_histogram(teacher, counts)

    # The phone with an open question: the step label and the answer buttons on the first screen.
    wait_for_app(phone, timeout=WAIT_MS)
    assert_on_first_screen(phone, phone.locator("#bpe-step-label"))
    for i in range(min(n, 4)):
        assert_on_first_screen(phone, phone.locator(f".st-key-class-pick-{i} button"))
        assert _box(phone, f".st-key-class-pick-{i} button")["height"] >= 44  # a touch target
    _no_horizontal_overflow(phone)
    save_screenshot(teacher, "live_class/teacher-presenting-question")
    save_screenshot(phone, "live_class/phone-question")

    # The server restarts mid-question: every page reconnects and finds the class as it was.
    port = server.port
    server.stop()
    for page in (teacher, *students):  # each has seen the server go: what it shows next is the new server's
        page.locator(f"{APP_SELECTOR}:not([data-test-connection-state='CONNECTED'])").wait_for(state="attached")
    server.start(timeout=60, port=port)
    for page in (teacher, *students):
        wait_for_app(page, timeout=WAIT_MS)
        page.locator("#bpe-class-question").wait_for()
    assert teacher.locator(".st-key-stepper-first button:visible").inner_text().strip() == "⏮"  # still presenting
    wait_for_attribute(teacher, "bpe-class-answered", "data-counts", ",".join(map(str, counts)))
    phone.locator(".st-key-class-pick-1 [data-testid='stBaseButton-primary']").wait_for()  # the phone's pick kept

    # Reveal: each student's verdict is the grade of their pick; the teacher sees the shares.
    _click(teacher, "Reveal", "#bpe-class-shares")
    grades = classes.tally(code, merge).grades
    for page, pick in zip(students, (1, 1, 2), strict=True):
        wait_for_attribute(page, "bpe-quiz-verdict", "data-grade", grades[pick])
    picked = [grades[1], grades[1], grades[2]]
    for g in ("right", "tied", "wrong"):
        wait_for_attribute(teacher, "bpe-class-shares", f"data-{g}", str(picked.count(g)))

    # On past the revealed merge, then the end: the summary on every screen, each student's own score.
    step = _press_next_once(teacher, students, classes, code)
    assert step == merge
    teacher.get_by_role("button", name="More", exact=True).click()
    _click(teacher, "End the class", "text=The class is over: summary")
    for page, pick in zip(students, (1, 1, 2), strict=True):
        wait_for_attribute(page, "bpe-class-score", "data-right", "1" if grades[pick] == "right" else "0")
        wait_for_attribute(page, "bpe-class-score", "data-asked", "1")
    _no_horizontal_overflow(phone)
    save_screenshot(phone, "live_class/phone-summary", full_page=True)
    for page in (teacher, *students):
        assert_no_exception(page)


#: True when the live histogram's bars (Vega's SVG marks, labelled "picks: 2; pair: 1. a + b") show ``want``, the
#: counts in the order the pairs are shown, joined by commas.
HISTOGRAM_COUNTS = """(want) => {
  const bars = document.querySelectorAll('[data-testid="stVegaLiteChart"] [aria-roledescription="bar"]');
  const got = [];
  for (const bar of bars) {
    const m = /picks: (\\d+); pair: (\\d+)\\./.exec(bar.getAttribute('aria-label') || '');
    if (!m) return false;
    got[parseInt(m[2], 10) - 1] = m[1];
  }
  return bars.length > 0 && got.join(',') === want;
}"""


def _wait_histogram(page, counts: list[int]) -> None:
    """The teacher's live histogram shows ``counts`` (a bar per pair, in the order shown)."""
    page.wait_for_function(HISTOGRAM_COUNTS, arg=",".join(map(str, counts)), timeout=WAIT_MS)


def _grades(merge: int) -> tuple[str, ...]:
    """The grades the teacher's "Ask the class" stores for ``merge`` of the textbook-low preset (as the page trains it)."""
    preset = PRESETS["textbook-low"]
    run = train(preset.words, make_config(preset_settings(preset), words_source=True))
    return option_grades(question(run, merge))


def test_a_following_student_is_sent_no_step_past_the_teachers(class_server, contexts):
    # The student's server answers nothing while held: what the screen shows then comes from the poll and the steps
    # the page was sent ahead. No step past the teacher's is ever in a student's page (it would show the next merge
    # before the teacher asks about it): the teacher's new step comes with the server's rerun. A step back shows at
    # once; never one whose next merge is asked about (the pair table would give the answer away).
    server, classes = class_server
    code, key = classes.start({"preset": "textbook-low"}, step=1)
    student = contexts(*PHONE.values())
    hold = ServerHold(student)
    _open(student, f"{server.url}/?class={code}")
    wait_for_attribute(student, "bpe-class-view", "data-follow", "1")
    wait_for_attribute(student, "bpe-ahead", "data-n", "1")
    assert student.evaluate(_AHEAD_STEPS) == [0, 1]

    hold.hold()
    classes.set_step(code, key, 2)  # the teacher's press, as the page makes it
    assert_stays(student, "() => document.getElementById('bpe-step-label').dataset.step", 2_000,
                 "a student's step before the server drew the teacher's next one")  # fmt: skip
    hold.release()
    wait_for_attribute(student, "bpe-class-view", "data-step", "2")
    _wait_step(student, 2)
    expect(student.locator("#bpe-merge-card")).to_contain_text("Merge 2")
    assert student.evaluate(_AHEAD_STEPS) == [0, 1, 2]
    wait_for_app(student)

    hold.hold()
    classes.set_step(code, key, 1)  # a step back: sent ahead, shown at once
    _wait_step(student, 1)
    assert student.locator("#bpe-class-view").get_attribute("data-step") == "2"  # the server has not drawn it
    hold.release()
    wait_for_attribute(student, "bpe-class-view", "data-step", "1")
    wait_for_app(student)

    hold.hold()
    classes.set_step(code, key, 0)
    classes.ask(code, key, _grades(1))  # within one poll: the poll says step 0 and a question
    assert classes.poll(code).asking
    assert_stays(student, "() => document.getElementById('bpe-step-label').dataset.step", 2_500,
                 "a student's step while the question on its next merge is open")  # fmt: skip
    hold.release()
    wait_for_attribute(student, "bpe-class-question", "data-merge", "1")
    expect(student.locator("#bpe-merge-card")).to_have_count(0)
    assert_no_exception(student)


#: The steps in a page's ``#bpe-ahead`` block, in order.
_AHEAD_STEPS = """() => Object.keys(JSON.parse(document.querySelector('#bpe-ahead script').textContent))
  .map(Number).sort((a, b) => a - b)"""


#: Swallows the page's presses of the hidden "sync" button before Streamlit hears them (a capturing listener on the
#: window runs before React's, at the page's root): the step view is never redrawn, whatever the class does.
_LOSE_SYNC_PRESSES = """() => {
  window.__bpeBeforeReload = true;
  window.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('.st-key-class-sync, .st-key-class-resync')) {
      e.stopImmediatePropagation(); e.preventDefault(); }
  }, true);
}"""


def _a_student_at_step_one(class_server, contexts):
    """A class at step 1 and one student's page following it, drawn: ``(classes, code, key, page)``."""
    server, classes = class_server
    code, key = classes.start({"preset": "textbook-low"}, step=1)
    student = contexts()
    _open(student, f"{server.url}/?class={code}")
    wait_for_attribute(student, "bpe-class-view", "data-step", "1")
    wait_for_app(student)
    return classes, code, key, student


def test_a_screen_whose_step_view_stops_being_redrawn_reloads_and_follows_again(class_server, contexts):
    # Whatever keeps a screen's step view from being redrawn (here its presses of "sync", and of "resync", the whole
    # page's rerun it tries next, are lost), it must not stay behind the class for the rest of the lesson: it reloads
    # by itself, and the class code in its address and its cookie bring it back as the same student, drawn by the
    # server at the teacher's step.
    classes, code, key, student = _a_student_at_step_one(class_server, contexts)
    joined = classes.state(code).students
    student.evaluate(_LOSE_SYNC_PRESSES)
    classes.set_step(code, key, 2)
    wait_for_attribute(student, "bpe-class-view", "data-step", "2")
    assert student.evaluate("() => window.__bpeBeforeReload === undefined"), "the step view came back without a reload"
    _wait_step(student, 2)
    assert classes.state(code).students == joined, "the reload joined the class as a new student"
    wait_for_app(student)
    assert_no_exception(student)


#: The error Streamlit's page threw, uncaught, when a rerun's element came at a place its tree did not have.
_THROW_AS_STREAMLIT_DID = """() => {
  setTimeout(() => { throw new Error('Bad delta path index 11 (should be between [0, 9])'); }, 0);
}"""


def test_a_screen_streamlit_can_no_longer_update_reloads_and_follows_again(class_server, contexts):
    # Under load, Streamlit 1.67's page can be sent a rerun's element at a place its tree does not have; it throws
    # ("Bad delta path index 11 (should be between [0, 9])"), goes blank and follows no more (seen on students'
    # screens in a class of 40). The screen goes by that error: it reloads at once, as the same student.
    classes, code, key, student = _a_student_at_step_one(class_server, contexts)
    joined = classes.state(code).students
    with student.expect_navigation(timeout=WAIT_MS):
        student.evaluate(_THROW_AS_STREAMLIT_DID)
    classes.set_step(code, key, 2)
    wait_for_attribute(student, "bpe-class-view", "data-step", "2")
    _wait_step(student, 2)
    assert classes.state(code).students == joined, "the reload joined the class as a new student"
    wait_for_app(student)
    assert_no_exception(student)
