"""BoundlessBPE as a stepped algorithm (``algo=boundless``): its run's words (runs of word-like pre-tokens), their
segmentations at every step against a textbook replay of the events and against the model's encoder, tau as a
setting and a URL parameter, and the stepper page on a supermerge, a merge inside a pre-token and a removal; a
word-count list gets a clear message, in 简体 too."""

from __future__ import annotations

import pytest
from app_helpers import errors, new_app, no_exception, page_text
from cli_process import assert_clean_error, cli

from bpe_core import TrainConfig, train
from bpe_core.algorithms.boundless import BoundlessTrainer
from bpe_core.algorithms.boundless_encode import BoundlessModel
from bpe_core.algorithms.boundless_run import is_supermerge, run_words
from bpe_core.algorithms.reference import merge
from bpe_core.algorithms.removal import REMOVAL, split_back
from bpe_core.algorithms.seam import step_why
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.pretokenize import pretokenize
from ui.corpus import PRESETS
from ui.settings import DEFAULT_SETTINGS, make_config, settings_from_url, stepper_algorithms, url_from_settings

TEXT = PRESETS["pg16457-chapter"].load_text()
CHAPTER = {"preset": "pg16457-chapter", "algo": "boundless", "pre": "gpt2", "tau": "0.6", "merges": "160"}


def _run(tau=0.6, merges=160):
    cfg = TrainConfig(
        algorithm="boundless", variant="byte", pretokenizer="gpt2", num_merges=merges, picky_threshold=tau
    )
    return train(corpus_words(TEXT, cfg), cfg)


def _replay(pieces: tuple, steps) -> list[bytes]:
    """A run of pre-tokens' tokens after ``steps`` ((kind, left, right)), by the textbook: a merge joins its pair
    inside each pre-token left to right, a removal splits its token into bytes, a supermerge joins two neighbouring
    pre-tokens that are each the pair's single token, left to right, for good."""
    groups = [[bytes((b,)) for b in p.encode()] for p in pieces]
    frozen = [False] * len(groups)
    for kind, left, right in steps:
        if kind == "supermerge":
            out, done, i = [], [], 0
            while i < len(groups):
                g = groups[i]
                if i + 1 < len(groups) and g == [left] and groups[i + 1] == [right]:
                    out.append([left + right])
                    done.append(True)
                    i += 2
                else:
                    out.append(g)
                    done.append(frozen[i])
                    i += 1
            groups, frozen = out, done
            continue
        for i, g in enumerate(groups):
            if frozen[i]:
                continue
            if kind == REMOVAL:
                groups[i] = split_back(g, left)
            else:
                groups[i] = merge(g, left, right)
    return [t for g in groups for t in g]


def _steps(run):
    value = run.values.__getitem__
    out = []
    for k in range(1, run.num_steps + 1):
        snap = run.snapshot(k)
        if snap.kind == REMOVAL:
            out.append((REMOVAL, value(snap.token), b""))
        else:
            out.append(("supermerge" if is_supermerge(run, k) else "merge", value(snap.left), value(snap.right)))
    return out


def test_boundless_is_a_stepper_algorithm_whose_words_are_runs_of_word_like_pre_tokens():
    assert "boundless" in stepper_algorithms()
    words = run_words(pretokenize("The cat, the cat sat.", "gpt2"))
    assert words == {("The", " cat"): 1, (",",): 1, (" the", " cat", " sat"): 1, (".",): 1}


def test_the_run_segments_every_word_at_every_step_as_a_replay_of_the_events_does():
    run = _run()
    events = BoundlessTrainer([pretokenize(TEXT, "gpt2")], 0.6, num_merges=160).train()
    assert run.num_steps == len(events) and run.stop_reason == "num_merges"
    assert [(e.kind, e.supermerge) for e in events] == [
        (run.snapshot(k).kind.replace("picky_", ""), is_supermerge(run, k)) for k in range(1, run.num_steps + 1)
    ]
    steps = _steps(run)
    assert sum(k == "supermerge" for k, _, _ in steps) >= 2 and sum(k == REMOVAL for k, _, _ in steps) >= 10
    value = run.values.__getitem__
    for k in range(1, run.num_steps + 1):
        for i in range(0, len(run.words), 5):
            got = [value(t) for t in run.segmentation(i, k)]
            assert got == _replay(run.pieces[i], steps[:k]), (k, run.words[i])
        assert run.corpus_tokens(k) == sum(f * len(run.segmentation(i, k)) for i, f in enumerate(run.freqs))
    # The model's encoder (the reference's inference) agrees on the whole text, word by word in order.
    model = BoundlessModel.from_events(events, "gpt2", None, 0.6)
    order = {p: i for i, p in enumerate(run.pieces)}
    pieces = run_words(pretokenize(TEXT, "gpt2"))
    assert list(pieces) == run.pieces
    whole = [value(t) for p in _in_order(TEXT) for t in run.segmentation(order[p], run.num_steps)]
    assert whole == model.tokens(TEXT)


def _in_order(text: str) -> list[tuple]:
    """The text's run words in text order (each occurrence)."""
    from bpe_core.algorithms.boundless import wordlike

    out, run = [], []
    for p in [*pretokenize(text, "gpt2"), None]:
        if p is not None and wordlike(p.encode()):
            run.append(p)
            continue
        if run:
            out.append(tuple(run))
            run = []
        if p is not None:
            out.append((p,))
    return out


def test_tau_is_a_setting_and_a_url_parameter_a_bad_one_a_note():
    state = settings_from_url({"algo": "boundless", "tau": "0.75"}, None)
    assert state.settings["tau"] == 0.75 and not state.notes
    assert make_config(state.settings).picky_threshold == 0.75
    assert make_config({**state.settings, "algo": "picky"}).picky_threshold == DEFAULT_SETTINGS["picky"]
    params = url_from_settings(None, state.settings, False, 3)
    assert params["tau"] == "0.75" and params["algo"] == "boundless"
    assert settings_from_url(params, None).settings == state.settings
    assert "tau" not in url_from_settings(None, dict(DEFAULT_SETTINGS), False, 0)
    at = new_app(**{**CHAPTER, "tau": "0.75", "merges": "40"})  # the stepper writes its step and tau back
    at.slider(key="picky_step").set_value(7).run()
    at.number_input(key="w.tau").set_value(0.5).run()
    no_exception(at)
    assert at.query_params["tau"] == "0.5" and at.query_params["step"] == "7"
    for bad in ("1.5", "0", "abc"):
        state = settings_from_url({"algo": "boundless", "tau": bad}, None)
        assert state.settings["tau"] == DEFAULT_SETTINGS["tau"] and "tau=" in state.notes[0]


def test_the_stepper_shows_a_supermerge_a_merge_and_a_removal():
    run = _run()
    sup = min(run.extras["supermerges"])
    at = new_app(**CHAPTER, step=sup)
    no_exception(at)
    assert "BoundlessBPE, step by step" in [h.value for h in at.subheader]
    assert next(n for n in at.number_input if n.label == "IoS threshold tau").value == 0.6
    text = page_text(at)
    assert "Supermerge: two pre-tokens join" in text and "Superword token" in text and "␣of + ␣the → ␣of␣the" in text
    assert "Where two pre-tokens join (before → after):" in [m.value for m in at.markdown]
    more = run.snapshot(sup).words_changed - 6  # (6 shown)
    assert more > 0 and f"…and {more} more word types." in [c.value for c in at.caption]
    assert any(m.value.startswith("A supermerge: two neighbouring pre-tokens") for m in at.markdown)
    at.toggle(key="picky_quiz").set_value(True).run()
    assert any("A supermerge removes nothing" in i.value for i in at.info)  # no quiz on a supermerge
    k = next(k for k in range(1, run.num_steps + 1) if run.snapshot(k).kind == REMOVAL)
    at.slider(key="picky_step").set_value(k).run()
    no_exception(at)
    text = page_text(at)
    assert "Removal: its IoS" in text and "≥ tau = 0.6" in text and "Removed from the vocabulary:" in text
    assert any("reaches tau = 0.6, so BoundlessBPE removes it" in m.value for m in at.markdown)
    at.slider(key="picky_step").set_value(k - 1).run()  # the merge that caused it: inside a pre-token, quizzed
    radio = at.radio(key=f"picky_quiz_{k - 1}")
    assert "Merge inside a pre-token" in page_text(at) and radio.label.startswith("Which parts does BoundlessBPE")
    assert any("The threshold is tau = 0.6." in m.value for m in at.markdown)
    assert step_why(run, k - 1).text.startswith("A merge inside a pre-token")


@pytest.mark.parametrize(
    "lang, message", [("en", "BoundlessBPE needs running text"), ("zh-Hans", "BoundlessBPE 需要连续的文本")]
)
def test_a_word_count_list_gets_a_clear_message(lang, message):
    at = new_app(preset="textbook-low", algo="boundless", lang=lang)
    no_exception(at)
    assert message in errors(at)


@pytest.mark.parametrize("script", ["app_pages/7_Languages.py", "app_pages/5_Real_tokenizers.py"])
def test_the_pages_with_your_bpe_say_it_is_plain_bpe_for_a_boundless_setting(script):
    at = new_app(**CHAPTER)
    no_exception(at)
    at = at.switch_page(script).run()
    no_exception(at)
    assert any(c.value.startswith("The sidebar trains BoundlessBPE") for c in at.caption)


@pytest.mark.parametrize("name, option", [("boundless", "--boundless"), ("picky", "--picky T")])
def test_the_command_line_points_the_apps_algorithm_names_to_their_options(tmp_path, name, option):
    text = tmp_path / "t.txt"
    text.write_text("of the cat of the dog of the end\n", encoding="utf-8")
    assert_clean_error(cli(["train", text, "--algorithm", name, "--variant", "byte", "--merges", "5"]), option)
