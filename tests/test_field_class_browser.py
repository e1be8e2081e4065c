"""A live class on WordPiece and Unigram in real Chromium against the app as users run it: the teacher on a laptop
(1280x720), a student on a phone (390x844), in 繁體中文. The phone follows the teacher and cannot step past them;
once the teacher asks, every option is an answer button on the phone's first screen (WordPiece's merge 6 on the
textbook corpus: six pairs tied at the top), no screen shows a number that answers it, and after the student's right
pick the reveal grades it right and shows the scores or the loss increases.

The module has its own server and store file (the class is started in that store, as the teacher's page does)."""

from __future__ import annotations

import dataclasses

import pytest
from browser import app_on_store, assert_no_exception, person_page, save_screenshot, wait_for_app, wait_for_attribute

from bpe_core.teaching.field_class import question, value_text
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.corpus import PRESETS, preset_corpus
from ui.settings import make_config, preset_settings

pytestmark = pytest.mark.browser
WAIT_MS = 90_000  # a loaded 2-core machine: bounded waits on conditions, never sleeps
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 720}
#: The class of each algorithm: its URL parameters, the teacher's step and the settings the stepper trains with.
CLASSES = {
    "wordpiece": ({"preset": "textbook-low", "algo": "wordpiece"}, 5, {}),
    "unigram": ({"preset": "pg16457-chapter", "algo": "unigram", "vocab": "100"}, 1, {"vocab_size": 100}),
}


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    store = tmp_path_factory.mktemp("field-class") / "corpora.sqlite3"
    with app_on_store(store) as server:  # the app as users run it
        yield server, Classes(CorpusStore(store))


def _question(params: dict, step: int, extra: dict):
    p = PRESETS[params["preset"]]
    cfg = dataclasses.replace(
        make_config(preset_settings(p)),
        algorithm=params["algo"],
        pretokenizer=None,
        variant="char",
        min_frequency=1,
        **extra,
    )
    return question(preset_corpus(p).train(cfg), step + 1)


@pytest.mark.parametrize("algo", list(CLASSES))
def test_a_field_class_on_a_phone_and_a_laptop(class_server, browser, algo):
    server, classes = class_server
    params, step, extra = CLASSES[algo]
    q = _question(params, step, extra)
    code, key = classes.start(params, step=step)
    teacher, phone = person_page(browser, LAPTOP, WAIT_MS), person_page(browser, PHONE, WAIT_MS)
    try:
        teacher.goto(f"{server.url}/?class={code}&teacher={key}&lang=zh-Hant", wait_until="domcontentloaded")
        teacher.locator(".st-key-class-ask button:visible").first.wait_for()
        phone.goto(f"{server.url}/?class={code}&lang=zh-Hant", wait_until="domcontentloaded")
        wait_for_attribute(phone, "bpe-class-view", "data-follow", "1")
        wait_for_attribute(phone, "bpe-step-label", "data-step", str(step))
        wait_for_app(phone, timeout=WAIT_MS)
        assert phone.locator(".st-key-stepper-next button:visible").first.is_disabled()  # not past the teacher
        save_screenshot(phone, f"field_class/{algo}-phone-step")
        save_screenshot(teacher, f"field_class/{algo}-laptop-step")

        teacher.locator(".st-key-class-ask button:visible").first.click()
        teacher.locator("#bpe-class-answered").wait_for()
        assert classes.tally(code, step + 1).grades == option_grades(q)
        phone.locator("#bpe-class-question").wait_for()
        wait_for_app(phone, timeout=WAIT_MS)
        height = PHONE["height"]
        for i in range(len(q.options)):  # every option a touch target on the first screen, no number on it
            button = phone.locator(f".st-key-class-pick-{i} button").first
            box = button.bounding_box()
            assert box["height"] >= 44 and box["y"] + box["height"] <= height, (i, box)
            assert "·" not in button.inner_text()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert teacher.locator("#bpe-quiz-pairs td.count").all_inner_texts() == ["?"] * len(q.options)
        save_screenshot(phone, f"field_class/{algo}-phone-question")
        save_screenshot(teacher, f"field_class/{algo}-laptop-question")

        phone.locator(f".st-key-class-pick-{q.answer} button").first.click()
        phone.locator(f".st-key-class-pick-{q.answer} [data-testid='stBaseButton-primary']").wait_for()
        wait_for_attribute(teacher, "bpe-class-answered", "data-answered", "1")
        teacher.locator(".st-key-class-reveal button:visible").first.click()
        teacher.locator("#bpe-class-shares").wait_for()
        wait_for_attribute(phone, "bpe-quiz-verdict", "data-grade", "right")
        wait_for_app(phone, timeout=WAIT_MS)
        assert phone.locator("#bpe-quiz-verdict").inner_text().startswith("答對了！")
        shown = phone.locator("#bpe-quiz-pairs td.count").all_inner_texts()
        assert shown == [value_text(q, o) for o in q.options]
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        save_screenshot(phone, f"field_class/{algo}-phone-reveal")
        save_screenshot(teacher, f"field_class/{algo}-laptop-reveal")
        assert_no_exception(phone)
        assert_no_exception(teacher)
    finally:
        for page in (teacher, phone):
            page.context.close()
