"""Unigram (bpe_core.algorithms.unigram) against the Hugging Face course's own code (chapter 6, section 7), run
from the notebook as the oracle (tests/course_notebooks.py)."""

from __future__ import annotations

import pytest
from course_notebooks import corpus, run_cells

from bpe_core.algorithms.seam import get_algorithm, train
from bpe_core.algorithms.unigram import encode_word, viterbi
from bpe_core.config import TrainConfig
from bpe_core.pretokenize import word_counts
from bpe_core.teaching.step_view import CHOSEN, step_view

HELD_OUT = ["This is the Hugging Face course.", "several sections show how a tokenizer is trained."]


@pytest.fixture(scope="module")
def course():
    """The notebook's namespace after its last cell (the pruned model)."""
    return run_cells(7)


@pytest.fixture(scope="module")
def run():
    cfg = TrainConfig(algorithm="unigram", vocab_size=100)
    return train(word_counts("\n".join(corpus(7)), cfg.resolved_pretokenizer), cfg)


def test_the_default_pretokenizer_is_metaspace_and_the_words_are_the_courses():
    assert TrainConfig(algorithm="unigram").resolved_pretokenizer == "metaspace"
    ns = run_cells(7, stop_after="word_freqs[word] += 1")
    assert word_counts("\n".join(corpus(7)), "metaspace") == dict(ns["word_freqs"])


def test_the_seed_loss_and_first_removal_scores_are_the_courses(run):
    ns = run_cells(7, stop_after='print(scores["his"])')
    assert list(run.values) == list(ns["token_freqs"])  # the seed, in the course's order
    assert run.loss0 == pytest.approx(ns["compute_loss"](ns["model"]), rel=1e-13) == pytest.approx(413.10377642940875)
    first = run.snapshot(1)
    assert first.loss == run.loss0
    ours = {run.token_text(t): inc for t, inc in first.candidates}
    assert ours.keys() == ns["scores"].keys()
    for token, inc in ns["scores"].items():
        assert ours[token] == pytest.approx(inc, abs=1e-9), token
    assert ours["ll"] == pytest.approx(6.376412403623874) and ours["his"] == 0.0


def test_the_final_vocabulary_and_tokenizations_are_the_courses(run, course):
    assert run.vocabulary() == list(course["model"])
    assert run.vocab_size == 98 and run.stop_reason == "vocab_size"
    model = run.model()
    assert model == pytest.approx(course["model"])
    for text in HELD_OUT:
        ours = [t for w in word_counts(text, "metaspace") for t in run.tokenize(w)]
        assert ours == course["tokenize"](text, course["model"]), text
    assert run.tokenize("▁course.") == ["▁", "c", "ou", "r", "s", "e", "."]


def test_each_round_removes_the_lowest_tenth_counted_over_the_whole_vocabulary(run):
    size = run.num_base
    for snap in run.snapshots:
        assert len(snap.removed) == int(size * 0.1)
        assert snap.removed == tuple(t for t, _ in snap.candidates[: len(snap.removed)])
        assert all(len(run.token_text(t)) > 1 for t, _ in snap.candidates)
        size -= len(snap.removed)
        assert snap.vocab_size == size
    assert [s.loss for s in run.snapshots[1:]] == [s.loss_after for s in run.snapshots[:-1]]


def test_the_courses_loss_counts_each_word_once_more_than_a_plain_viterbi(run):
    words = dict(zip(run.words, run.freqs))
    model = run.model(0)
    plain = sum(f * viterbi(w, model, 20, start=0.0)[1] for w, f in words.items())
    assert run.loss0 - plain == pytest.approx(sum(words.values())) == pytest.approx(31)


def test_unknown_characters_become_one_unk_per_run():
    model = {"a": 1.0, "b": 1.0, "ab": 0.5}
    assert encode_word("ab你好b", model, 2) == ["ab", "<unk>", "b"]
    assert encode_word("你a", model, 2) == ["<unk>", "a"]


def test_the_step_view_marks_the_removed_tokens(run):
    view = step_view(run, 1, pairs=40, words=2)
    assert view.kind == "prune"
    removed = {r.tokens[0] for r in view.candidates.rows if r.mark == CHOSEN}
    assert removed == set(run.snapshot(1).removed[:40])
    assert view.headline.tokens == run.snapshot(1).removed


@pytest.mark.parametrize(
    ("words", "settings", "message"),
    [
        ({}, {"vocab_size": 10}, "nothing to train on"),
        ({"abc": 1}, {"vocab_size": 10, "seed_size": 2}, "seed size 2 is below the 3 characters"),
        ({"abcd": 1}, {"vocab_size": 3}, "below the 4 characters"),
        ({"abcd": 1}, {}, "needs a vocabulary size"),
    ],
)
def test_bad_settings_are_refused_with_a_message(words, settings, message):
    with pytest.raises(ValueError, match=message):
        get_algorithm("unigram").start(words, TrainConfig(algorithm="unigram", **settings))


def test_step_0_is_the_seed_vocabulary_by_cost_and_the_initial_loss(run):
    view = step_view(run, 0, pairs=400)
    assert view.kind == "start" and view.merge is None and not view.changed
    assert list(view.headline.tokens) == list(range(run.num_base))  # the seed, in seed order
    assert {n.label: n.value for n in view.numbers}["Loss"] == run.loss0 == run.snapshot(1).loss
    costs = [row.count for row in view.candidates.rows]
    assert len(costs) == run.num_base and costs == sorted(costs)
    model = run.model(0)
    assert all(model[run.token_text(row.tokens[0])] == row.count for row in view.candidates.rows)
    assert view.start.corpus_tokens == sum(f * len(run.segmentation(i, 0)) for i, f in enumerate(run.freqs))


def test_a_refusal_is_worded_in_the_catalogs():
    import pickle

    from bpe_core.i18n import translations
    from bpe_core.inputs import SettingError

    with pytest.raises(SettingError) as caught:
        get_algorithm("unigram").start({"abc": 1}, TrainConfig(algorithm="unigram", vocab_size=10, seed_size=2))
    err = caught.value
    assert (
        err.message()
        == str(err)
        == ("the seed size 2 is below the 3 characters of the corpus: the seed holds every character")
    )
    assert err.message(translations("zh-Hant")) == "初始詞彙表大小 2 小於語料中的 3 個字元：初始詞彙表包含每個字元"
    assert pickle.loads(pickle.dumps(err)).message(translations("zh-Hans")).startswith("初始词表大小 2")


def test_the_lattice_lists_every_piece_and_the_best_paths_first(run):
    from itertools import combinations

    from bpe_core.algorithms.unigram_lattice import lattice

    model = run.model()
    word = "▁Hopefully,"
    edges, paths = lattice(word, model, best=4)
    assert {e.piece for e in edges} == {
        word[i:j] for i in range(len(word)) for j in range(i + 1, len(word) + 1) if word[i:j] in model
    }
    assert paths[0].pieces == tuple(viterbi(word, model, 20, start=0.0)[0])
    assert paths[0].score == pytest.approx(viterbi(word, model, 20, start=0.0)[1])
    # every segmentation, enumerated by its cut points: the four cheapest are the lattice's, in order
    everything = []
    for k in range(len(word)):
        for cuts in combinations(range(1, len(word)), k):
            bounds = (0, *cuts, len(word))
            pieces = [word[a:b] for a, b in zip(bounds, bounds[1:])]
            if all(p in model for p in pieces):
                everything.append(sum(model[p] for p in pieces))
    assert [p.score for p in paths] == pytest.approx(sorted(everything)[:4])
    assert lattice("你", model)[1] == []


def test_the_quiz_mixes_removed_and_kept_tokens(run):
    from bpe_core.teaching.field_quiz import unigram_question

    tokens, removed = unigram_question(run, 1)
    snap = run.snapshot(1)
    assert len(tokens) == 6 and len(removed) == 3 and removed <= set(snap.removed)
    assert set(tokens) - removed and not (set(tokens) - removed) & set(snap.removed)
    assert unigram_question(run, 1) == (tokens, removed)


def test_the_seed_holds_no_piece_longer_than_sixteen_characters():
    from bpe_core.algorithms.unigram import MAX_PIECE, seed_counts

    seed = seed_counts({"甄士隐梦幻识通灵贾雨村风尘怀闺秀" * 3: 2, "ab": 1}, 10_000)
    assert MAX_PIECE == 16 and max(map(len, seed)) == 16
