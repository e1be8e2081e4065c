"""A fair question in a live class, run as the app (AppTest) with the class in a real store file: no screen shows the
pairs' counts while a question is open unless the teacher turns them on, every pair the question offers is a button
of its own (none behind an expander), a student cannot step past the teacher's step (the server clamps it, and no
later step is sent into the page ahead of time), and what a student at the teacher's step reads does not tell them to
press Next. The same in real Chromium on a phone and a laptop: ``tests/test_class_fair_browser.py``."""

from __future__ import annotations

import json
import re

import pytest
from app_helpers import body_with, flat_text, new_app, no_exception, shown_step

from bpe_core import train
from bpe_core.teaching.quiz import question
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, option_grades
from ui.corpus import PRESETS
from ui.settings import make_config, preset_settings

#: The textbook corpus (Sennrich et al.'s low / lower / newest / widest), whose merge 4 (l + o, 7 times) ties with
#: o + w: the question at step 3 has two pairs at the top.
PRESET = "textbook-low"


@pytest.fixture
def classes(tmp_path, monkeypatch):
    store = tmp_path / "corpora.sqlite3"
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(store))
    return Classes(CorpusStore(store))


@pytest.fixture(scope="module")
def run():
    preset = PRESETS[PRESET]
    return train(preset.words, make_config(preset_settings(preset), words_source=True))


def _student(code: str):
    at = new_app(**{"class": code})
    no_exception(at)
    return at


def _ahead_steps(at) -> tuple[int, list[int]]:
    """The ``data-n`` of the steps sent ahead and the steps in them."""
    block = body_with(at, 'id="bpe-ahead"')
    n = int(re.search(r'data-n="(\d+)"', block).group(1))
    data = json.loads(re.search(r'<script type="application/json">(.*)</script>', block, re.S).group(1))
    return n, sorted(map(int, data))


def _disabled(at, name: str) -> bool:
    return at.button(key=f"stepper.{name}").disabled


def _pick_labels(at) -> list[str]:
    return [b.label for b in at.button if (b.key or "").startswith("class-pick-")]


def test_a_student_never_steps_past_the_teacher(classes):
    code, key = classes.start({"preset": PRESET}, step=3)
    at = _student(code)
    assert shown_step(at).step == 3
    # Following at the teacher's step: Next and Last are off, Prev and First on; nothing past step 3 in the page.
    assert _disabled(at, "next") and _disabled(at, "last")
    assert not _disabled(at, "prev") and not _disabled(at, "first")
    n, steps = _ahead_steps(at)
    assert n == 3 and max(steps) == 3, steps
    # Back is allowed (the student now steps on their own), and forward again only as far as the teacher.
    at.button(key="stepper.prev").click().run()
    assert shown_step(at).step == 2 and not _disabled(at, "next")
    assert max(_ahead_steps(at)[1]) == 3
    at.button(key="stepper.last").click().run()
    assert shown_step(at).step == 3 and _disabled(at, "next")
    # The teacher moves on: the student's reach moves with them ("Follow the teacher" brings them along).
    classes.set_step(code, key, 5)
    at.button(key="class-follow").click().run()
    no_exception(at)
    assert shown_step(at).step == 5 and _disabled(at, "next")
    assert max(_ahead_steps(at)[1]) == 5
    # A student stepping on their own, whose teacher goes back, is taken back to the teacher's step.
    at.button(key="stepper.prev").click().run()
    assert shown_step(at).step == 4
    classes.set_step(code, key, 2)
    at.run()
    no_exception(at)
    assert shown_step(at).step == 2 and _disabled(at, "next")
    assert max(_ahead_steps(at)[1]) == 2


def test_the_teacher_still_steps_ahead_and_is_sent_the_steps_ahead(classes):
    code, key = classes.start({"preset": PRESET}, step=3)
    at = new_app(**{"class": code, "teacher": key})
    no_exception(at)
    assert not _disabled(at, "next")
    n, steps = _ahead_steps(at)
    assert max(steps) == n > 3


def test_a_student_at_the_teachers_step_0_is_not_told_to_press_next(classes):
    code, _key = classes.start({"preset": PRESET}, step=0)
    at = _student(code)
    card = flat_text(body_with(at, "id='bpe-next-merge'"))
    assert "Press Next" not in card and "Your teacher moves the class on." in card
    # Step 0 as sent ahead (the page swaps it in) says the same.
    block = body_with(at, 'id="bpe-ahead"').replace("\\u003c", "<")
    assert "Press Next" not in block and "Your teacher moves the class on." in block
    # Outside a class the card says what to press.
    alone = new_app(preset=PRESET)
    assert "Press Next ▶ or the → key." in flat_text(body_with(alone, "id='bpe-next-merge'"))


def test_the_question_hides_counts_shows_every_pair_and_the_reveal_shows_them(classes, run):
    code, key = classes.start({"preset": PRESET}, step=3)
    student = _student(code)
    teacher = new_app(**{"class": code, "teacher": key})
    teacher.button(key="class-ask").click().run()
    no_exception(teacher)
    q = question(run, 4)
    assert option_grades(q) == classes.tally(code, 4).grades
    top = [i for i, o in enumerate(q.options) if o.count == q.count]
    assert len(top) == 2  # l + o and o + w, 7 times each
    student.run()
    no_exception(student)
    labels = _pick_labels(student)
    # Every pair offered is a button on the first screen, none under an expander; no count on any of them.
    assert len(labels) == len(q.options) >= 4
    assert not [e for e in student.expander if e.label == "More pairs"]
    assert not any("·" in label or re.search(r"\d+\s*$", label.split(". ", 1)[1]) for label in labels), labels
    assert {labels[i].split(". ", 1)[1] for i in top} == {"l + o", "o + w"}
    # The projector's table: "?" for every count.
    table = body_with(teacher, "id='bpe-quiz-pairs'")
    assert re.findall(r"<td class='num count'>([^<]*)</td>", table) == ["?"] * len(q.options)
    # The teacher shows the counts: every screen shows them.
    teacher.toggle(key="w.class.show_counts").set_value(True).run()
    no_exception(teacher)
    assert classes.state(code).show_counts
    student.run()
    assert [label.rsplit(" · ", 1)[1] for label in _pick_labels(student)] == [str(o.count) for o in q.options]
    teacher.toggle(key="w.class.show_counts").set_value(False).run()
    # The reveal: the student's own verdict does not send them past the teacher, and the counts come back.
    student.run()
    student.button(key=f"class-pick-{q.answer}").click().run()
    teacher.run()
    teacher.button(key="class-reveal").click().run()
    no_exception(teacher)
    student.run()
    no_exception(student)
    verdict = flat_text(body_with(student, "id='bpe-quiz-verdict'"))
    assert verdict.startswith("Right!") and "Your teacher moves the class on." in verdict
    assert "Press Next" not in verdict
    table = body_with(student, "id='bpe-quiz-pairs'")
    assert re.findall(r"<td class='num count'>([^<]*)</td>", table) == [str(o.count) for o in q.options]


def test_no_question_on_a_merge_superbpe_replays_from_stage_1(classes):
    """Merges 1 to 150 of this SuperBPE run replay stage 1's choices: the teacher cannot ask about them (a student
    picking the most frequent pair shown would be graded wrong), and the page says why; merge 151 can be asked."""
    settings = {"preset": "pg16457-chapter", "variant": "byte", "pre": "gpt2", "merges": 300, "transition": 150}
    code, key = classes.start(settings, step=140)
    teacher = new_app(**{"class": code, "teacher": key})
    no_exception(teacher)
    assert teacher.button(key="class-ask").disabled
    assert any(c.value.startswith("No question on merge 141: SuperBPE's stage 1 chose") for c in teacher.caption)
    classes.set_step(code, key, 150)
    teacher = new_app(**{"class": code, "teacher": key})
    no_exception(teacher)
    assert not teacher.button(key="class-ask").disabled
    teacher.button(key="class-ask").click().run()
    no_exception(teacher)
    assert classes.tally(code, 151).grades
