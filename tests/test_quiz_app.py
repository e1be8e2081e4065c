"""The stepper page's quiz mode in Streamlit's AppTest: picks, the reveal, the score, the URL."""

from __future__ import annotations

import re

from app_helpers import bodies, body_with, flat_text, new_app, no_exception


def options(at) -> list[str]:
    """The pairs offered, in row order, as text (``"e + s"``)."""
    table = body_with(at, "bpe-quiz-pairs")
    rows = re.findall(r"<tr class='[^']*' data-option='\d'>(.*?)</tr>", table)
    return [" ".join(flat_text(r).split()[1:4]) for r in rows]


def counts(at) -> list[str]:
    table = body_with(at, "bpe-quiz-pairs")
    return re.findall(r"<td class='num count'>([^<]*)</td>", table)


def pick(at, pair: str):
    return at.button(key=f"quiz-pick-{options(at).index(pair) + 1}").click().run()


def reveal(at):
    return at.button(key="quiz-reveal").click().run()


def verdict(at) -> tuple[str, str]:
    card = body_with(at, "bpe-quiz-verdict")
    return re.search(r"data-grade='(\w+)'", card).group(1), flat_text(card)


def score(at) -> str:
    return flat_text(body_with(at, "bpe-quiz-score"))


def quiz(**params):
    at = new_app(preset="textbook-low", step=0, quiz=1, **params)
    no_exception(at)
    return at


def test_question_offers_nine_pairs_with_counts_hidden():
    at = quiz()
    assert "Which pair does merge 1 join?" in flat_text(body_with(at, "bpe-quiz-question"))
    offered = options(at)
    assert len(offered) == 9 and {"e + s", "s + t", "t + </w>", "l + o"} <= set(offered)
    assert offered[0] != "e + s"  # shuffled: the answer is not simply the first row
    assert counts(at) == ["?"] * 9
    assert score(at) == "Score: 0 right, 0 tied, 0 wrong"
    assert not any("id='bpe-merge-card'" in b for b in bodies(at))  # the merge is not given away
    assert at.query_params["quiz"] == "1" and at.query_params["step"] == "0"


def test_show_counts():
    at = quiz()
    at.toggle(key="w.quiz.counts").set_value(True).run()
    no_exception(at)
    shown = dict(zip(options(at), counts(at)))
    assert shown["e + s"] == "9" and shown["l + o"] == "7"


def test_wrong_pick_then_right_pick_and_the_score():
    at = pick(quiz(), "l + o")
    classes = re.findall(r"<tr class='([^']*)' data-option='\d'>", body_with(at, "bpe-quiz-pairs"))
    assert [i for i, c in enumerate(classes) if "picked" in c] == [options(at).index("l + o")]
    at = reveal(at)
    no_exception(at)
    grade, text = verdict(at)
    assert grade == "wrong"
    assert text.startswith("Not this one: l + o occurs 7 times, but merge 1 joins e + s, which occurs 9 times.")
    # The merge explanation: the true count, the tie and the rule that decided it.
    assert "e + s occurs 9 times: 6 in newest, 3 in widest." in text
    assert "3 pairs were tied at 9 and the first-seen rule chose e + s" in text
    assert score(at) == "Score: 0 right, 0 tied, 1 wrong"
    shown = dict(zip(options(at), counts(at)))
    assert shown["e + s"] == "9" and shown["s + t"] == "9" and shown["w + e"] == "8"  # counts revealed
    assert at.button(key="quiz-reveal").disabled

    at = at.button(key="stepper.next").click().run()  # → : the next question
    no_exception(at)
    assert "Which pair does merge 2 join?" in flat_text(body_with(at, "bpe-quiz-question"))
    at = reveal(pick(at, "es + t"))
    grade, text = verdict(at)
    assert grade == "right"
    assert text.startswith("Right! Merge 2 joins es + t, which occurs 9 times.")
    assert score(at) == "Score: 1 right, 0 tied, 1 wrong"


def test_a_tied_pair_the_rule_did_not_choose_is_counted_as_tied():
    at = reveal(pick(quiz(), "s + t"))
    grade, text = verdict(at)
    assert grade == "tied"
    assert text.startswith(
        "Tied: s + t occurs 9 times, as often as e + s, and the first-seen rule picks e + s because "
        "its first occurrence comes earliest in the corpus. Counted as tied, apart from right and wrong."
    )
    assert score(at) == "Score: 0 right, 1 tied, 0 wrong"
    assert re.search(r"data-right='0' data-tied='1' data-wrong='0' data-asked='1'", body_with(at, "bpe-quiz-score"))
    # The next merge, right: the tied one stays counted apart.
    at = reveal(pick(at.button(key="stepper.next").click().run(), "es + t"))
    assert score(at) == "Score: 1 right, 1 tied, 0 wrong"


def test_an_answered_merge_stays_answered_and_counts_once():
    at = reveal(pick(quiz(), "e + s"))
    assert score(at) == "Score: 1 right, 0 tied, 0 wrong"
    at = at.button(key="stepper.next").click().run()
    at = at.button(key="stepper.prev").click().run()
    no_exception(at)
    assert verdict(at)[0] == "right"
    assert at.button(key="quiz-pick-1").disabled
    assert score(at) == "Score: 1 right, 0 tied, 0 wrong"


def test_reveal_without_a_pick_is_not_scored():
    at = reveal(quiz())
    grade, text = verdict(at)
    assert grade == "none" and text.startswith("No pick, not scored. Merge 1 joins e + s")
    assert score(at) == "Score: 0 right, 0 tied, 0 wrong"


def test_toggle_off_leaves_quiz_mode_and_the_url():
    at = quiz()
    at.toggle(key="w.quiz.on").set_value(False).run()
    no_exception(at)
    assert "quiz" not in at.query_params
    assert any("id='bpe-merge-card'" in b for b in bodies(at))
    at.toggle(key="w.quiz.on").set_value(True).run()
    assert at.query_params["quiz"] == "1"
    assert any("id='bpe-quiz-pairs'" in b for b in bodies(at))


def test_byte_level_pairs_are_byte_chips():
    at = new_app(preset="textbook-low", variant="byte", step=0, quiz=1, bytes="hex")
    no_exception(at)
    table = body_with(at, "bpe-quiz-pairs")
    assert len(options(at)) == 9
    # hex display: every chip shows the byte value in hex
    assert all(re.fullmatch(r"[0-9a-f]{2} \+ [0-9a-f]{2}", o) for o in options(at)), options(at)
    assert "65 + 73" in options(at) and "bpe-chip" in table  # e + s as the bytes 0x65 0x73


def test_every_interface_language_and_the_last_step():
    for lang in ("zh-Hans", "zh-Hant"):
        at = quiz(lang=lang)
        at = reveal(pick(at, "e + s"))
        no_exception(at)
        assert verdict(at)[0] == "right"
        assert re.search(r"data-right='1' data-tied='0' data-wrong='0' data-asked='1'", body_with(at, "bpe-quiz-score"))
    at = new_app(preset="textbook-low", step=10, quiz=1)
    no_exception(at)
    assert "id='bpe-quiz-pairs'" not in " ".join(bodies(at))
    assert "No merge left to guess." in " ".join(flat_text(b) for b in bodies(at))
