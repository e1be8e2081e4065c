"""A fair question in a live class, in real Chromium against the app as users run it: the teacher on a laptop
(1280x720), a student on a phone (390x844), both in Chinese, the teacher at step 3 of the textbook corpus, whose
merge 4 (l + o) ties at 7 with o + w. The phone cannot step past the teacher (Next off, → does nothing, no later
step in the page); once the teacher asks, both tied pairs are answer buttons on the phone's first screen with no
expander opened, no screen shows a count, and after the reveal the teacher's chart names a right answer 正確 / 正确.

The module has its own server and store file (the class is started in that store, as the teacher's page does)."""

from __future__ import annotations

import json

import pytest
from browser import (
    app_on_store,
    assert_no_exception,
    assert_on_first_screen,
    assert_stays,
    person_page,
    save_screenshot,
    wait_for_app,
    wait_for_attribute,
)

from bpe_core import train
from bpe_core.teaching.quiz import question
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.corpus import PRESETS
from ui.settings import make_config, preset_settings

pytestmark = pytest.mark.browser
WAIT_MS = 90_000  # a loaded 2-core machine: bounded waits on conditions, never sleeps
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 720}
PRESET = "textbook-low"
#: What the teacher's chart calls a right answer once revealed (the verdict, not the right-hand side 右).
RIGHT = {"zh-Hant": "正確", "zh-Hans": "正确"}

#: The texts of the legend of the teacher's chart (Vega's SVG).
LEGEND = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] .role-legend-label text')]
  .map(t => t.textContent)"""


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    store = tmp_path_factory.mktemp("fair-class") / "corpora.sqlite3"
    with app_on_store(store) as server:  # the app as users run it
        yield server, Classes(CorpusStore(store))


@pytest.fixture(scope="module")
def question4():
    preset = PRESETS[PRESET]
    run = train(preset.words, make_config(preset_settings(preset), words_source=True))
    return question(run, 4)


def _ahead_steps(page) -> list[int]:
    text = page.locator("#bpe-ahead script").first.text_content()
    return sorted(int(k) for k in json.loads(text))


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_a_fair_question_on_a_phone_and_a_laptop(class_server, browser, question4, lang):
    server, classes = class_server
    q = question4
    top = [i for i, o in enumerate(q.options) if o.count == q.count]
    assert len(top) == 2  # l + o and o + w, 7 times each
    code, key = classes.start({"preset": PRESET}, step=3)
    teacher, phone = person_page(browser, LAPTOP, WAIT_MS), person_page(browser, PHONE, WAIT_MS)
    try:
        teacher.goto(f"{server.url}/?class={code}&teacher={key}&lang={lang}", wait_until="domcontentloaded")
        teacher.locator(".st-key-class-ask button:visible").first.wait_for()
        phone.goto(f"{server.url}/?class={code}&lang={lang}", wait_until="domcontentloaded")
        wait_for_attribute(phone, "bpe-class-view", "data-follow", "1")
        wait_for_attribute(phone, "bpe-step-label", "data-step", "3")
        wait_for_app(phone, timeout=WAIT_MS)

        # The follower cannot step ahead: Next and Last off, → does nothing, no step past 3 in the page.
        nxt = phone.locator(".st-key-stepper-next button:visible").first
        assert nxt.is_disabled() and phone.locator(".st-key-stepper-last button:visible").first.is_disabled()
        assert phone.locator(".st-key-stepper-prev button:visible").first.is_enabled()
        assert phone.locator("#bpe-ahead").get_attribute("data-n") == "3" and max(_ahead_steps(phone)) == 3
        phone.keyboard.press("ArrowRight")
        assert_stays(phone, "() => document.getElementById('bpe-step-label').dataset.step", 2_000,
                     "a following student's step after →")  # fmt: skip
        assert classes.state(code).step == 3

        # The teacher asks about merge 4 (the button's own label is in Chinese).
        teacher.locator(".st-key-class-ask button:visible").first.click()
        teacher.locator("#bpe-class-answered").wait_for()
        assert classes.tally(code, 4).grades == option_grades(q)
        phone.locator("#bpe-class-question").wait_for()
        wait_for_app(phone, timeout=WAIT_MS)

        # The phone: every pair offered is a button, both tied pairs on the first screen, no expander; no counts.
        assert phone.locator("[data-testid='stMain'] [data-testid='stExpander']").count() == 0
        labels = []
        for i in range(len(q.options)):
            button = phone.locator(f".st-key-class-pick-{i} button").first
            labels.append(button.inner_text().strip())
            assert button.bounding_box()["height"] >= 44  # a touch target
        for i in top:
            assert_on_first_screen(phone, phone.locator(f".st-key-class-pick-{i} button"))
        assert {labels[i].split(". ", 1)[1] for i in top} == {"l + o", "o + w"}, labels
        assert not any("·" in label for label in labels), labels
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The projector: a "?" for every count.
        counts = teacher.locator("#bpe-quiz-pairs td.count").all_inner_texts()
        assert counts == ["?"] * len(q.options), counts
        save_screenshot(phone, f"class_fair/{lang}-phone-question")
        save_screenshot(teacher, f"class_fair/{lang}-laptop-question")

        # The phone picks the rule's pair; the reveal: its verdict is right, its counts come back, the chart says 正確.
        phone.locator(f".st-key-class-pick-{q.answer} button").first.click()
        phone.locator(f".st-key-class-pick-{q.answer} [data-testid='stBaseButton-primary']").wait_for()
        wait_for_attribute(teacher, "bpe-class-answered", "data-answered", "1")
        teacher.locator(".st-key-class-reveal button:visible").first.click()
        teacher.locator("#bpe-class-shares").wait_for()
        wait_for_attribute(phone, "bpe-quiz-verdict", "data-grade", "right")
        wait_for_app(phone, timeout=WAIT_MS)
        assert phone.locator("#bpe-quiz-pairs td.count").all_inner_texts() == [f"{o.count}" for o in q.options]
        assert phone.locator(".st-key-stepper-next button:visible").first.is_disabled()  # the teacher is still at 3
        teacher.wait_for_function(f"() => ({LEGEND})().length === 3", timeout=WAIT_MS)
        save_screenshot(phone, f"class_fair/{lang}-phone-reveal")
        save_screenshot(teacher, f"class_fair/{lang}-laptop-reveal")
        legend = teacher.evaluate(LEGEND)
        assert RIGHT[lang] in legend and "右" not in legend, legend
        assert_no_exception(phone)
        assert_no_exception(teacher)
    finally:
        for page in (teacher, phone):
            page.context.close()


def test_the_solo_quiz_on_a_phone_offers_every_pair_without_counts(class_server, browser, question4):
    server, _ = class_server
    phone = person_page(browser, PHONE, WAIT_MS)
    try:
        phone.goto(f"{server.url}/?preset={PRESET}&step=3&quiz=1&lang=zh-Hant", wait_until="domcontentloaded")
        phone.locator("#bpe-quiz-pairs").wait_for()
        wait_for_app(phone, timeout=WAIT_MS)
        # Every pair and its button drawn open (an expander's closed content is not visible).
        assert phone.locator("#bpe-quiz-pairs tbody tr").count() == len(question4.options)
        assert phone.locator("#bpe-quiz-pairs").is_visible()
        counts = phone.locator("#bpe-quiz-pairs td.count").all_inner_texts()
        assert counts == ["?"] * len(question4.options), counts
        for i in range(1, len(question4.options) + 1):
            button = phone.locator(f".st-key-quiz-pick-{i} button:visible").first
            assert button.is_visible(), i
            box = button.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, (i, box)  # touch targets
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_no_exception(phone)
    finally:
        phone.context.close()
