"""PickyBPE as a stepped algorithm (``algo=picky``): its run's segmentations at every step (a removal brings
boundaries back), the step views of its merges and of a removal, the quiz's answers, the threshold as a setting
and a URL parameter, and the stepper page on a merge and on a removal."""

from __future__ import annotations

import pytest
from app_helpers import new_app, no_exception

from bpe_core import TrainConfig, train
from bpe_core.algorithms.picky import PickyTrainer
from bpe_core.algorithms.reference import merge
from bpe_core.algorithms.removal import REMOVAL, split_back
from bpe_core.algorithms.seam import STEP_KINDS, algorithm_names, step_why
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.teaching.field_quiz import picky_answers
from bpe_core.teaching.step_view import CHOSEN, NONE, step_view
from ui.corpus import PRESETS
from ui.settings import DEFAULT_SETTINGS, make_config, settings_from_url, stepper_algorithms, url_from_settings

TEXT = PRESETS["pg16457-chapter"].load_text()


def _run(threshold=0.6, merges=60):
    cfg = TrainConfig(
        algorithm="picky", variant="byte", pretokenizer="whitespace", num_merges=merges, picky_threshold=threshold
    )
    return train(corpus_words(TEXT, cfg), cfg), cfg


def _replay(word: str, steps) -> list[bytes]:
    """A word's tokens after ``steps`` ((kind, token bytes, left, right)), by the textbook: a merge joins the pair
    left to right without overlap, a removal splits the token into its bytes."""
    tokens = [bytes((b,)) for b in word.encode()]
    for kind, token, left, right in steps:
        tokens = split_back(tokens, token) if kind == REMOVAL else merge(tokens, left, right)
    return tokens


def test_picky_is_registered_with_its_two_step_kinds():
    assert "picky" in algorithm_names() and "picky" in stepper_algorithms()
    assert {"picky_merge", "removal"} <= set(STEP_KINDS)


def test_the_run_segments_every_word_at_every_step_as_a_replay_does_boundaries_coming_back():
    run, cfg = _run()
    words = corpus_words(TEXT, cfg)
    events = PickyTrainer(words, 0.6, num_merges=60).train()
    assert run.num_steps == len(events) and run.stop_reason == "num_merges"
    assert [run.snapshot(k).kind for k in range(1, run.num_steps + 1)] == [
        "picky_merge" if e.kind == "merge" else REMOVAL for e in events
    ]
    value = run.values.__getitem__
    steps, came_back = [], 0
    for k in range(1, run.num_steps + 1):
        snap = run.snapshot(k)
        if snap.kind == REMOVAL:
            steps.append((REMOVAL, value(snap.token), None, None))
        else:
            steps.append(("merge", value(snap.token), value(snap.left), value(snap.right)))
        for i in range(0, len(run.words), 7):
            assert [value(t) for t in run.segmentation(i, k)] == _replay(run.words[i], steps), (k, run.words[i])
        tokens = sum(f * len(run.segmentation(i, k)) for i, f in enumerate(run.freqs))
        assert run.corpus_tokens(k) == tokens
        if snap.kind == REMOVAL and snap.occurrences:
            came_back += 1
            assert run.corpus_tokens(k) > run.corpus_tokens(k - 1)  # the token's boundaries reappear
    assert came_back  # (the chapter at T = 0.6 removes "th", which still stands alone 94 times)


def test_a_removal_view_shows_the_token_its_ios_the_threshold_and_where_it_splits_back():
    run, _ = _run()
    k = next(k for k in range(1, run.num_steps + 1) if run.snapshot(k).kind == REMOVAL)
    snap = run.snapshot(k)
    assert run.token_text(snap.token) == "th" and snap.occurrences == 94
    view = step_view(run, k, words=4)
    assert view.kind == REMOVAL and view.headline.removed == snap.token and view.headline.made is None
    labels = {n.label: n.value for n in view.numbers}
    assert labels["IoS"] == pytest.approx(snap.score) and snap.score >= 0.6 and labels["Threshold"] == 0.6
    assert labels["Occurrences split"] == 94 and labels["Vocabulary"] == run.snapshot(k - 1).vocab_size - 1
    assert view.changed and all(
        snap.token in w.before.ids and snap.token not in w.after.ids and w.after.total > w.before.total
        for w in view.changed
    )
    merge = run.snapshot(snap.cause)
    assert merge.kind == "picky_merge" and merge.removes == (snap.token,)
    why = step_why(run, k).text
    assert f"Merge {merge.merge} (step {snap.cause}) took" in why and "0.6" in why


def test_a_merge_view_marks_the_part_it_removes_and_the_quiz_accepts_that_part():
    run, _ = _run()
    k = next(
        k for k in range(1, run.num_steps + 1) if run.snapshot(k).kind == "picky_merge" and run.snapshot(k).removes
    )
    snap = run.snapshot(k)
    view = step_view(run, k, words=2)
    marks = {c.tokens[0]: c.mark for c in view.candidates.rows}
    assert marks[snap.removes[0]] == CHOSEN
    first = snap.left in snap.removes
    assert marks[snap.right if first else snap.left] == NONE
    assert picky_answers(snap) == {"first" if first else "second"}
    plain = next(run.snapshot(j) for j in range(1, run.num_steps + 1) if run.snapshot(j).kind == "picky_merge")
    assert snap.left_ios == pytest.approx(snap.count / snap.left_count)
    assert picky_answers(plain._replace(removes=())) == {"none"}
    assert picky_answers(plain._replace(removes=(plain.left, plain.right))) == {"both"}


def test_the_threshold_is_a_setting_and_a_url_parameter_a_bad_one_a_note():
    state = settings_from_url({"algo": "picky", "picky": "0.75"}, None)
    assert state.settings["picky"] == 0.75 and not state.notes
    assert make_config(state.settings).picky_threshold == 0.75
    assert url_from_settings(None, state.settings, False, 3)["picky"] == "0.75"
    assert "picky" not in url_from_settings(None, dict(DEFAULT_SETTINGS), False, 0)
    for bad in ("1.5", "0", "abc"):
        state = settings_from_url({"algo": "picky", "picky": bad}, None)
        assert state.settings["picky"] == DEFAULT_SETTINGS["picky"] and "picky=" in state.notes[0]
    with pytest.raises(ValueError, match="threshold"):
        TrainConfig(algorithm="picky", picky_threshold=0).validate()


def test_the_stepper_shows_a_merge_then_a_removal_and_asks_the_quiz_on_the_merge():
    at = new_app(preset="pg16457-chapter", algo="picky", picky="0.6", merges="10")
    no_exception(at)
    assert "PickyBPE, step by step" in [h.value for h in at.subheader]
    assert [m.label for m in at.metric] == ["Count", "IoS of the first part", "IoS of the second part", "Vocabulary"]
    assert next(n for n in at.number_input if n.label == "IoS threshold T").value == 0.6
    run, _ = _run(0.6, 10)
    k = next(k for k in range(1, run.num_steps + 1) if run.snapshot(k).kind == REMOVAL)
    at.slider(key="picky_step").set_value(k).run()
    no_exception(at)
    html = " ".join(h.proto.body for h in at.get("html"))
    assert "Removed from the vocabulary:" in html and "bpe-removed" in html and "th</code>" in html
    assert [m.label for m in at.metric] == ["IoS", "Threshold", "Occurrences split", "Vocabulary"]
    assert any("reaches the threshold 0.6" in m.value for m in at.markdown)
    at.toggle(key="picky_quiz").set_value(True).run()
    assert any("asks about it on that merge" in i.value for i in at.info)  # a removal is not asked about
    at.slider(key="picky_step").set_value(k - 1).run()
    radio = at.radio(key=f"picky_quiz_{k - 1}")
    right = next(iter(picky_answers(run.snapshot(k - 1))))
    radio.set_value(right).run()
    no_exception(at)
    assert at.success and "IoS:" in at.success[0].value


@pytest.mark.parametrize("algo", ["picky", "boundless"])
def test_no_class_is_offered_on_a_stepper_that_steps_alone_and_the_page_names_its_algorithm(algo):
    at = new_app(preset="pg16457-chapter", variant="byte", pre="gpt2", algo=algo, merges=20)
    no_exception(at)
    assert not [b for b in at.button if b.key == "class-start"]  # a class would not follow this stepper
    captions = " ".join(c.value for c in at.caption)
    assert "PickyBPE and BoundlessBPE step here alone" in captions
    name = {"picky": "PickyBPE", "boundless": "BoundlessBPE"}[algo]
    assert f"{name}, one step at a time" in captions and "Byte-Pair Encoding, one merge" not in captions
