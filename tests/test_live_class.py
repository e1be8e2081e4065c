"""bpe_server.live_class: a live class in a real SQLite file (tmp_path) and in a real PostgreSQL database -- codes, teacher keys, rounds, picks counted once,
tallies, summary, CSV, expiry and many threads picking at once. No Streamlit."""

from __future__ import annotations

import csv
import dataclasses
import io
import random
import threading
import time
from contextlib import closing

import pytest
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig, train
from bpe_core.teaching.quiz import question
from bpe_server import class_db
from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import (
    ALPHABET,
    NICKNAME_MAX,
    Classes,
    NotAllowed,
    NotTeacher,
    UnknownClass,
    clean_nickname,
    expiry_seconds,
    new_code,
    new_student_id,
    normalize_code,
    option_grades,
)

PARAMS = {"preset": "textbook", "variant": "eow"}


class Clock:
    """A clock the test moves (expiry is 12 hours: waiting is not an option). It starts at the real time: the
    store's pins compare with it."""

    def __init__(self):
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(store_target):
    return CorpusStore(store_target)  # each test runs on SQLite and on PostgreSQL (conftest.store_target)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def classes(store, clock):
    return Classes(store, expiry_s=3600, clock=clock)


def _students(classes, code, n):
    ids = [new_student_id() for _ in range(n)]
    for sid in ids:
        classes.join(code, sid)
    return ids


# ------------------------------------------------------------------------------------------------ codes
def test_codes_have_no_look_alikes_and_are_read_forgivingly():
    assert not set("0O1IL") & set(ALPHABET) and len(set(ALPHABET)) == len(ALPHABET) == 31
    # 300 random codes of 31**6 collide with probability about 5e-5 (2000 did about once in 450 runs).
    codes = {new_code() for _ in range(300)}
    assert len(codes) == 300 and all(len(c) == 6 and set(c) <= set(ALPHABET) for c in codes)
    assert normalize_code(" k7q-x2m ") == "K7QX2M"
    for bad in ("K7QX2", "K7QX2MM", "K7QX0M", "K7QXIM", "", "<b>hi</b>", None):
        assert normalize_code(bad) is None


def test_start_gives_a_code_and_a_secret_key(classes):
    code, key = classes.start(PARAMS, step=3)
    code2, key2 = classes.start(PARAMS)
    assert code != code2 and key != key2 and len(key) >= 24
    state = classes.state(code)
    assert (state.params, state.step, state.students, state.open_round, state.ended) == (PARAMS, 3, 0, None, False)
    assert classes.is_teacher(code, key) and not classes.is_teacher(code, key2) and not classes.is_teacher(code, code)
    # Only the key's hash is stored.
    with closing(classes.store.connect()) as conn:
        dump = repr([conn.execute(f"SELECT * FROM {t}").fetchall() for t in ("classes", "class_students")])
    assert key not in dump and code in dump


def test_pair_counts_are_hidden_until_the_teacher_shows_them(classes):
    # Counts beside the answers give the question away (students pick the largest): off in a new class.
    code, key = classes.start(PARAMS)
    assert classes.state(code).show_counts is False
    classes.set_display(code, key, show_counts=True)
    assert classes.state(code).show_counts is True


def test_a_store_made_when_counts_were_shown_by_default_starts_classes_without_them(tmp_path):
    # A store file made before the default changed keeps its table's DEFAULT 1: the insert says 0 itself.
    store = CorpusStore(tmp_path / "old.sqlite3")
    with closing(store.connect()) as conn:
        old = class_db.SCHEMA.replace(
            "show_counts INTEGER NOT NULL DEFAULT 0", "show_counts INTEGER NOT NULL DEFAULT 1"
        )
        assert old != class_db.SCHEMA
        conn.executescript(old)
    classes = Classes(store)
    code, _ = classes.start(PARAMS)
    assert classes.state(code).show_counts is False


# ------------------------------------------------------------------------------------------------- keys
def test_every_teacher_action_needs_the_key_and_a_refusal_changes_nothing(classes):
    code, key = classes.start(PARAMS)
    sid = _students(classes, code, 1)[0]
    before = classes.state(code)
    for forged in (None, "", code, sid, key[:-1], key + "x"):
        with pytest.raises(NotTeacher):
            classes.set_step(code, forged, 5)
        with pytest.raises(NotTeacher):
            classes.ask(code, forged, ("right", "wrong"))
        with pytest.raises(NotTeacher):
            classes.end(code, forged)
        with pytest.raises(NotTeacher):
            classes.set_display(code, forged, show_counts=False)
    assert classes.state(code) == before
    classes.ask(code, key, ("right", "wrong"))
    for action in (classes.close, classes.reveal, classes.reopen):
        with pytest.raises(NotTeacher):
            action(code, "forged")
    assert classes.state(code).open_round.state == "open"
    with pytest.raises(UnknownClass):
        classes.set_step("ZZZZZZ", key, 1)  # a real key on another code is nothing


# ----------------------------------------------------------------------------------------------- rounds
def test_a_round_hides_its_merge_until_revealed(classes):
    code, key = classes.start(PARAMS, step=2)
    merge = classes.ask(code, key, ("wrong", "right", "tied"))
    assert merge == 3 and classes.state(code).limit == 2 and classes.state(code).revealed == ()
    assert classes.set_step(code, key, 7) == 2  # nobody passes an unrevealed question
    with pytest.raises(NotAllowed):
        classes.reopen(code, key)  # it is open already
    assert classes.close(code, key) == 3 and classes.state(code).open_round.state == "closed"
    assert classes.set_step(code, key, 9) == 2  # closed is not revealed
    assert classes.reopen(code, key) == 3
    assert classes.reveal(code, key) == 3
    assert classes.state(code).open_round is None and classes.state(code).limit is None
    assert classes.state(code).revealed == (3,)  # the page reads a tally only for a revealed merge
    assert classes.set_step(code, key, 3) == 3
    classes.set_step(code, key, 2)
    with pytest.raises(NotAllowed):
        classes.ask(code, key, ("wrong", "right", "tied"))  # merge 3 was revealed
    with pytest.raises(ValueError):
        classes.ask(code, key, ("wrong", "tied"))  # no right option
    with pytest.raises(ValueError):
        classes.ask(code, key, ("right", "right"))


def test_a_screen_whose_reads_straddle_a_step_back_and_a_question_waits_at_the_limit(classes):
    # The step row read before the teacher stepped back to 2 and asked merge 3, the rounds after: the state says
    # step 5 and an open question on merge 3. A following screen shows step 2 (and stays following).
    code, key = classes.start(PARAMS, step=5)
    assert classes.state(code).shown_step == 5  # no question: the class's step
    classes.set_step(code, key, 2)
    classes.ask(code, key, ("wrong", "right"))
    straddled = dataclasses.replace(classes.state(code), step=5)
    assert straddled.limit == 2 and straddled.shown_step == 2
    assert classes.state(code).shown_step == 2


def test_grades_come_from_the_quiz_three_ways():
    run = train(TEXTBOOK_WORDS, TrainConfig(variant="eow", num_merges=10))
    seen = set()
    for merge in range(1, run.num_steps + 1):
        q = question(run, merge)
        grades = option_grades(q)
        assert grades.count("right") == 1 and grades[q.answer] == "right"
        assert all((g == "tied") == o.tied for g, o in zip(grades, q.options, strict=True))
        seen |= set(grades)
    assert seen == {"right", "tied", "wrong"}  # the textbook run has ties: all three grades occur


# ------------------------------------------------------------------------------------------------ picks
def test_a_changed_pick_is_counted_once_and_picks_close_with_the_round(classes):
    code, key = classes.start(PARAMS)
    a, b, c = _students(classes, code, 3)
    merge = classes.ask(code, key, ("wrong", "right", "tied", "wrong"))
    classes.pick(code, a, merge, 1)
    classes.pick(code, b, merge, 0)
    classes.pick(code, c, merge, 2)
    classes.pick(code, b, merge, 1)  # changed: b's first pick is gone
    classes.pick(code, b, merge, 1)  # the same pick again: still one
    t = classes.tally(code, merge)
    assert t.counts == (0, 2, 1, 0) and t.answered == 3
    assert (t.graded("right"), t.graded("tied"), t.graded("wrong")) == (2, 1, 0)
    with pytest.raises(ValueError):
        classes.pick(code, a, merge, 4)
    with pytest.raises(NotAllowed):
        classes.pick(code, new_student_id(), merge, 0)  # not joined
    with pytest.raises(NotAllowed):
        classes.pick(code, a, merge + 1, 0)  # no such question
    classes.close(code, key)
    with pytest.raises(NotAllowed):
        classes.pick(code, a, merge, 0)
    assert classes.tally(code, merge).counts == (0, 2, 1, 0)
    assert classes.my_picks(code, b) == {merge: 1}


def test_join_again_keeps_the_student_and_nicknames_are_cleaned(classes):
    code, key = classes.start(PARAMS)
    sid = new_student_id()
    assert classes.join(code, sid) == (1, "")
    assert classes.join(code, sid) == (1, "")  # a reload: the same student
    assert classes.join(code, sid, "  Ada\n\tLovelace ") == (1, "Ada Lovelace")
    # The state read for a student's screen says who they are (one read per run); without an id, nobody.
    assert classes.state(code, sid).me == (1, "Ada Lovelace") and classes.state(code).me is None
    assert classes.state(code, new_student_id()).me is None  # not joined
    other = new_student_id()
    assert classes.join(code, other, "<b>" + "x" * 40) == (2, ("<b>" + "x" * 40)[:NICKNAME_MAX])
    assert clean_nickname("a\x00b\x1bc") == "abc" and clean_nickname(None) == ""
    with pytest.raises(ValueError):
        classes.join(code, "short")
    with pytest.raises(UnknownClass):
        classes.join("ABCDEF", sid)


# --------------------------------------------------------------------------------- summary, scores, CSV
def test_summary_scores_and_csv(classes):
    code, key = classes.start(PARAMS)
    a, b, c = _students(classes, code, 3)
    classes.join(code, a, "Ada")
    answers = {1: (1, 1, 0), 2: (0, 2, 2), 3: (None, 0, 0)}  # picks of a, b, c per merge
    grades = ("wrong", "right", "tied")
    for merge, picks in answers.items():
        classes.set_step(code, key, merge - 1)
        classes.ask(code, key, grades)
        for sid, p in zip((a, b, c), picks, strict=True):
            if p is not None:
                classes.pick(code, sid, merge, p)
        classes.reveal(code, key)
    summary = classes.summary(code)
    assert [t.merge for t in summary.rounds] == [1, 2, 3]
    assert [(t.graded("right"), t.graded("tied"), t.graded("wrong")) for t in summary.rounds] == [
        (2, 0, 1), (0, 2, 1), (0, 0, 2)
    ]  # fmt: skip
    assert [t.merge for t in summary.hardest] == [3, 2, 1]
    assert summary.rounds[0].share("right") == pytest.approx(2 / 3)
    scores = {s.number: (s.nickname, s.right, s.tied, s.answered) for s in summary.students}
    assert scores == {1: ("Ada", 1, 0, 2), 2: ("", 1, 1, 3), 3: ("", 0, 1, 3)}
    assert classes.my_score(code, b).right == 1 and classes.my_score(code, new_student_id()) is None
    rows = list(csv.DictReader(io.StringIO(classes.csv_text(code))))
    assert [(r["merge"], r["answered"], r["right"], r["tied"], r["wrong"], r["right_share"]) for r in rows] == [
        ("1", "3", "2", "0", "1", "0.667"), ("2", "3", "0", "2", "1", "0.000"), ("3", "2", "0", "0", "2", "0.000")
    ]  # fmt: skip
    assert rows[0]["option_picks"] == "1;2;0" and rows[0]["option_grades"] == "wrong;right;tied"


def test_end_reveals_and_stops_everything(classes):
    code, key = classes.start(PARAMS)
    (a,) = _students(classes, code, 1)
    classes.ask(code, key, ("right",))
    classes.pick(code, a, 1, 0)
    classes.end(code, key)
    state = classes.state(code)
    assert state.ended and state.open_round is None and classes.poll(code).ended
    assert [t.merge for t in classes.summary(code).rounds] == [1]  # the open question counted, revealed
    with pytest.raises(NotAllowed):
        classes.set_step(code, key, 1)
    with pytest.raises(NotAllowed):
        classes.pick(code, a, 1, 0)


# ----------------------------------------------------------------------------------------------- expiry
def test_expiry_counts_from_teacher_actions_only(store, clock, monkeypatch):
    classes = Classes(store, expiry_s=100, clock=clock)
    code, key = classes.start(PARAMS)
    (sid,) = _students(classes, code, 1)
    clock.t += 60
    classes.set_step(code, key, 1)  # a teacher action: 100 s from now
    clock.t += 90
    merge = None
    for _ in range(5):  # polls, reads, joins and picks do not keep a class alive
        assert classes.poll(code) is not None
        classes.join(code, new_student_id())
    classes.ask(code, key, ("right", "wrong"))
    merge = 2
    clock.t += 99
    classes.pick(code, sid, merge, 0)
    classes.poll(code)
    clock.t += 2  # 101 s after the last teacher action (the ask)
    assert classes.poll(code) is None
    for call in (lambda: classes.state(code), lambda: classes.pick(code, sid, merge, 1),
                 lambda: classes.set_step(code, key, 0), lambda: classes.join(code, sid)):  # fmt: skip
        with pytest.raises(UnknownClass):
            call()
    assert classes.purge() == [code] and classes.purge() == []
    monkeypatch.setenv("BPE_EXPLORER_CLASS_EXPIRY_S", "60")
    assert expiry_seconds() == 60 and Classes(store).expiry_s == 60
    monkeypatch.setenv("BPE_EXPLORER_CLASS_EXPIRY_S", "zero")
    assert expiry_seconds() == 12 * 3600


def test_a_live_class_corpus_is_never_evicted(store_target, clock):
    store = CorpusStore(store_target, max_bytes=3_000)
    classes = Classes(store, expiry_s=100, clock=clock)

    def noise(seed):  # incompressible: each text takes about 1,500 bytes of the 3,000
        rnd = random.Random(seed)
        return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(2_000))

    live = store.put(noise(0))
    code, key = classes.start({"corpus": live}, corpus_id=live)
    for seed in range(1, 6):
        store.put(noise(seed))
    assert live in store and store.get(live) is not None
    classes.end(code, key)  # ended: the pin goes, the text may be evicted like any other
    for seed in range(6, 9):
        store.put(noise(seed))
    assert live not in store


# ----------------------------------------------------------------------------------------- concurrency
def test_many_threads_pick_at_once_and_every_pick_counts_once(classes):
    code, key = classes.start(PARAMS)
    ids = _students(classes, code, 40)
    merge = classes.ask(code, key, ("wrong", "right", "tied", "wrong"))
    start = threading.Barrier(len(ids))
    errors = []

    def student(i, sid):
        try:
            start.wait()
            for p in (i % 4, (i + 1) % 4, (i + 2) % 4):  # three picks; the last one counts
                classes.pick(code, sid, merge, p)
                classes.poll(code)
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=student, args=(i, sid)) for i, sid in enumerate(ids)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    t = classes.tally(code, merge)
    assert t.answered == 40 and t.counts == (10, 10, 10, 10)
    assert classes.poll(code).activity == 40 + 40 * 3  # every join and every pick bumped it once
