"""WordPiece (bpe_core.algorithms.wordpiece) against the Hugging Face course's own code (chapter 6, section 6),
run from the notebook as the oracle (tests/course_notebooks.py)."""

from __future__ import annotations

import pytest
from course_notebooks import corpus, run_cells
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.algorithms.reference_wordpiece import train_wordpiece
from bpe_core.algorithms.seam import get_algorithm, step_why, train
from bpe_core.algorithms.wordpiece_run import SPECIAL_TOKENS, encode_word
from bpe_core.config import TrainConfig
from bpe_core.pretokenize import word_counts
from bpe_core.teaching.step_view import CHOSEN, step_view

HELD_OUT = "This is the Hugging Face course! Hopefully the tokenizer understands sections, chapters and HOgging."


def _run(vocab_size=70, **kw):
    cfg = TrainConfig(algorithm="wordpiece", vocab_size=vocab_size, **kw)
    return train(word_counts("\n".join(corpus(6)), cfg.resolved_pretokenizer), cfg)


def test_the_default_pretokenizer_is_bert_and_the_words_are_the_courses():
    cfg = TrainConfig(algorithm="wordpiece")
    assert cfg.resolved_pretokenizer == "bert"
    ns = run_cells(6, stop_after="word_freqs[word] += 1")
    assert word_counts("\n".join(corpus(6)), "bert") == dict(ns["word_freqs"])


def test_the_vocabulary_is_the_courses_in_order():
    ns = run_cells(6)
    run = _run()
    assert run.values == ns["vocab"]
    assert run.values[:5] == list(SPECIAL_TOKENS)
    assert run.stop_reason == "vocab_size" and run.num_steps == 70 - run.num_base


def test_the_first_step_records_the_courses_score_table():
    ns = run_cells(6, stop_after="print(best_pair, max_score)")
    scores = ns["pair_scores"]
    run = _run()
    snap = run.snapshot(1)
    assert (run.token_text(snap.left), run.token_text(snap.right)) == ns["best_pair"] == ("a", "##b")
    assert snap.score == ns["max_score"] == 0.2
    best = max(scores.values())
    assert snap.ties == sum(1 for s in scores.values() if s == best) == 2
    # The table: the course's scores sorted best first, equal scores in the order the course met them.
    expected = sorted(scores.items(), key=lambda kv: -kv[1])[: len(snap.table)]
    got = [((run.token_text(r.left), run.token_text(r.right)), r.score) for r in snap.table]
    assert got == expected
    first = snap.table[0]
    assert first.score == first.count / (first.left_count * first.right_count)


def test_nine_of_the_courses_steps_are_tied_and_go_to_the_pair_seen_first():
    run = _run()
    tied = [s for s in run.snapshots if s.ties > 1]
    assert len(tied) == 9
    for s in tied:  # the chosen pair heads the table and shares its score with the next row
        assert s.table[1].score == s.score


def test_encoding_is_the_courses_greedy_longest_match_first():
    ns = run_cells(6)
    run = _run()
    vocab = set(run.values)
    words = word_counts(HELD_OUT, "bert")
    for word in words:
        assert encode_word(word, vocab) == ns["encode_word"](word), word
    assert encode_word("HOgging", vocab) == ["[UNK]"]
    assert encode_word("x" * 101, {"x", "##x"}) == ["[UNK]"]


def test_the_step_view_shows_the_score_table_and_the_reason():
    run = _run()
    view = step_view(run, 1, pairs=5, words=3)
    assert view.kind == "score_merge"
    assert view.candidates.rows[0].mark == CHOSEN and view.candidates.rows[0].count == 0.2
    assert view.candidates.ties == 2
    assert view.headline.made == run.value_to_id["ab"]
    assert [w.word for w in view.changed] == ["about", "able"]
    assert "score" in step_why(run, 1).text


def test_a_run_stops_when_no_pair_is_left():
    cfg = TrainConfig(algorithm="wordpiece", vocab_size=1000)
    run = train({"ab": 1, "c": 3}, cfg)
    assert run.stop_reason == "no_pairs" and run.values[-1] == "ab"


@pytest.mark.parametrize(
    ("words", "size", "message"),
    [({}, 50, "nothing to train on"), ({"abc": 1}, 6, "below the 8 tokens")],
)
def test_bad_settings_are_refused_with_a_message(words, size, message):
    with pytest.raises(ValueError, match=message):
        get_algorithm("wordpiece").start(words, TrainConfig(algorithm="wordpiece", vocab_size=size))


def test_step_0_is_the_starting_vocabulary_the_split_words_and_the_first_merges_pairs():
    run = _run()
    view = step_view(run, 0, pairs=5)
    assert view.kind == "start" and view.step == 0 and view.merge is None
    assert [run.token_text(t) for t in view.headline.tokens] == run.vocabulary(0) == run.values[: run.num_base]
    assert view.start.base_symbols == run.num_base and view.start.word_types == len(run.words)
    assert view.start.corpus_tokens == sum(len(w) * f for w, f in zip(run.words, run.freqs)) == run.corpus_tokens(0)
    assert {n.label: n.value for n in view.numbers} == {"Vocabulary": run.num_base, "Tokens": run.corpus_tokens(0)}
    first = view.candidates.rows[0]
    assert first.mark == CHOSEN and [run.token_text(t) for t in first.tokens] == ["a", "##b"]
    assert view.candidates.rows == step_view(run, 1, pairs=5).candidates.rows


def test_the_quiz_offers_the_pairs_without_scores_and_grades_ties_apart():
    from bpe_core.teaching.field_quiz import grade_pair, wordpiece_question

    run = _run()
    options = wordpiece_question(run, 1)
    assert sum(o.chosen for o in options) == 1 and len(options) == 6
    grades = [grade_pair(options, i) for i in range(len(options))]
    assert grades.count("right") == 1 and grades.count("tied") == 1  # step 1: a + ##b and ##f + ##u, both 0.2
    assert wordpiece_question(run, 1) == options  # the same order on every rerun


def _tables_are_the_recounts(words: dict, run) -> None:
    """Every step's score table is the best rows of a recount of that step's segmentations, equal scores in
    first-seen order (a dict keeps the order pairs are first seen in: words in order, positions left to right)."""
    freqs = list(words.values())
    for step in range(1, run.num_steps + 1):
        pairs: dict = {}
        tokens: dict = {}
        for i, f in enumerate(freqs):
            seg = run.segmentation(i, step - 1)
            for t in seg:
                tokens[t] = tokens.get(t, 0) + f
            for p in zip(seg, seg[1:]):
                pairs[p] = pairs.get(p, 0) + f
        rows = [(a, b, c, tokens[a], tokens[b], c / (tokens[a] * tokens[b])) for (a, b), c in pairs.items()]
        table = run.snapshot(step).table
        assert [tuple(r) for r in table] == sorted(rows, key=lambda r: -r[5])[: len(table)], step


def test_every_steps_score_table_is_the_best_pairs_with_equal_scores_in_first_seen_order():
    # A book's first 200 kB: many pairs share the score of the table's last row, and which of them the table
    # shows is the first seen, as in the course's loop, at every step (the chosen pair is not the only row).
    from corpus_excerpts import ENGLISH, corpus_slice

    words = word_counts(corpus_slice(ENGLISH, 0, 200_000), "bert")
    _tables_are_the_recounts(words, train(words, TrainConfig(algorithm="wordpiece", num_merges=40)))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text("ab", min_size=1, max_size=9), st.integers(1, 3), min_size=1, max_size=10))
def test_every_steps_score_table_is_the_recount_on_generated_corpora(words):
    # Two letters: many equal scores, and merges that make a token already made (a + ##bb and ab + ##b).
    _tables_are_the_recounts(words, train(words, TrainConfig(algorithm="wordpiece", num_merges=60)))


@pytest.mark.parametrize(
    ("text", "merges"),
    [
        # A book's pages: most merges rewrite a word where both parts stand once (the trainer's short path).
        ("english", 300),
        # Words of one repeated symbol and pairs that overlap (a line of dashes, ``aaaa``, ``abab``): the
        # trainer's general path, where a word holds the merged pair or one of its parts more than once.
        ("------- ------------ aaaa aaa aa abab ababab baba aab aabb mississippi " * 5, 20),
        # Unspaced Chinese: a line is one long word, rewritten at many places by one merge.
        ("chinese", 150),
    ],
    ids=["english", "repeats", "chinese"],
)
def test_the_trainer_makes_the_textbook_loops_merges_on_real_text(text, merges):
    from corpus_excerpts import CHINESE, ENGLISH, corpus_slice

    text = {"english": corpus_slice(ENGLISH, 0, 30_000), "chinese": corpus_slice(CHINESE, 3_000, 3_000)}.get(text, text)
    words = word_counts(text, "bert")
    run = train(words, TrainConfig(algorithm="wordpiece", num_merges=merges))
    assert run.num_steps == merges
    assert train_wordpiece(words, len(run.vocabulary())) == run.vocabulary()
