"""The stepper with a WordPiece or Unigram run (``?algo=wordpiece`` / ``?algo=unigram``): the step's score table or
pruning round is drawn from the step view, with no traceback (before, a WordPiece run handed to the BPE stepper
raised in the run cache, which asks a run its memory_bytes)."""

from __future__ import annotations

from app_helpers import bodies, new_app, no_exception

from bpe_core.algorithms.seam import algorithm_names
from ui.settings import stepper_algorithms


def _tables(at) -> list:
    return [t.value for t in at.table]


def test_wordpiece_and_unigram_are_offered_to_the_stepper():
    assert {"wordpiece", "unigram"} <= set(algorithm_names()) <= set(stepper_algorithms())


def test_the_wordpiece_stepper_starts_at_step_0_then_shows_the_score_table_and_the_merge():
    at = new_app(algo="wordpiece")
    no_exception(at)
    assert not at.warning
    # step 0: the words in characters with ##, the special tokens and the alphabet, the first merge's pairs
    start = " ".join(bodies(at))
    assert "Starting vocabulary:" in start and "<code" in start and "[MASK]" in start and "##" in start
    assert "</code> → <code" not in start  # nothing merged yet
    assert "Vocabulary" in [m.label for m in at.metric]
    assert "✔" in list(_tables(at)[0][""])  # the pair the first merge takes
    at.slider(key="field_step").set_value(1).run()
    table = _tables(at)[0]
    assert "Score" in table.columns and "✔" in list(table[""])
    first = " ".join(h.proto.body for h in at.get("html"))
    assert "##" in first and "→" in first
    why = [m.value for m in at.markdown if "highest score" in m.value]
    assert why and "␣" not in why[0]  # prose, not a token: its spaces are not made visible
    at.slider[0].set_value(3).run()
    no_exception(at)
    third = " ".join(h.proto.body for h in at.get("html"))
    assert "→" in third and third != first


def test_the_unigram_stepper_asks_for_a_vocabulary_size_then_shows_a_round():
    at = new_app(algo="unigram")
    no_exception(at)
    assert "vocabulary size" in " ".join(w.value for w in at.warning)
    at = new_app(algo="unigram", vocab="12")
    no_exception(at)
    # step 0: the seed vocabulary with its counts and costs, the initial loss, the seed's segmentations
    assert "Seed vocabulary:" in " ".join(bodies(at))
    seed = at.dataframe[0].value
    assert list(seed.columns) == ["Token", "Count", "Cost (−log p)"] and list(seed["Cost (−log p)"]) == sorted(
        seed["Cost (−log p)"]
    )
    assert {"Vocabulary", "Loss", "Tokens"} <= {m.label for m in at.metric}
    at.slider(key="field_step").set_value(1).run()
    table = _tables(at)[0]
    assert "Loss increase" in table.columns and "✔" in list(table[""])
    assert "Loss" in [m.label for m in at.metric]
    # the lattice of a word the round changed: its pieces with their costs, the cheapest segmentation first
    assert "Cost (−log p)" in _tables(at)[1].columns
    assert "✔" in " ".join(h.proto.body for h in at.get("html"))
    at.text_input(key="field_lattice_word").set_value("lo你").run()
    no_exception(at)
    assert "cannot write that word" in " ".join(i.value for i in at.info)


def test_a_refused_size_is_told_in_the_interface_language():
    # the default corpus has more characters than 3: Unigram refuses to prune below its alphabet
    at = new_app(algo="unigram", vocab="3", lang="zh-Hans")
    no_exception(at)
    errors = " ".join(e.value for e in at.error)
    assert "词表大小 3 小于语料中的" in errors and "Unigram 从不删去字符" in errors
    assert "below the" not in errors
    at = new_app(algo="unigram", vocab="3", lang="zh-Hant")
    assert "詞彙表大小 3 小於語料中的" in " ".join(e.value for e in at.error)


def test_the_sidebar_offers_the_algorithm_and_the_other_pages_show_bpe():
    from app_helpers import open_page

    at = new_app()
    box = next(s for s in at.selectbox if s.label == "Algorithm")
    assert box.value == "bpe" and "WordPiece: the highest score (stepper)" in box.options
    box.set_value("wordpiece").run()
    no_exception(at)
    assert [t.value for t in at.table][0].columns[0] == "Pair"  # the stepper now steps WordPiece (its step 0)
    # Side by side trains merge runs: with ?algo=wordpiece it shows BPE's, not a traceback
    no_exception(open_page("side", algo="wordpiece"))


def test_the_quiz_asks_which_pair_scores_highest_and_which_tokens_go():
    at = new_app(algo="wordpiece")
    at.toggle(key="field_quiz").set_value(True).run()
    no_exception(at)
    assert not at.table  # the question replaces the step's score table
    radio = at.radio(key="field_quiz_pair_1")
    right = next(i for i, label in enumerate(radio.options) if label.startswith("w + ##i"))
    radio.set_value(right).run()
    assert "Right" in " ".join(s.value for s in at.success)
    at = new_app(algo="unigram", vocab="12")
    at.toggle(key="field_quiz").set_value(True).run()
    box = at.multiselect(key="field_quiz_1")
    box.set_value([]).run()
    at.button(key="field_quiz_check_1").click().run()
    no_exception(at)
    assert "this round removes" in " ".join(e.value for e in at.error)


def test_side_by_side_shows_the_three_algorithms_at_one_vocabulary_size():
    from app_helpers import open_page

    at = open_page("side", preset="pg16457-chapter")
    no_exception(at)
    assert "BPE, WordPiece and Unigram on the same corpus" in [s.value for s in at.subheader]
    columns = [h.proto.body for h in at.get("html") if "<code>" in h.proto.body][-3:]
    assert "##" in columns[1] and "▁" in columns[2] and "##" not in columns[0]  # WordPiece's and Unigram's marks
    slider = next(s for s in at.slider if s.label == "Vocabulary size")
    slider.set_value(slider.min).run()
    no_exception(at)
    smaller = [h.proto.body for h in at.get("html") if "<code>" in h.proto.body][-3:]
    assert all(b.count("<code>") > a.count("<code>") for a, b in zip(columns, smaller))  # more, smaller tokens


def test_side_by_side_shows_the_real_trainers_only_once_their_box_is_opened():
    from app_helpers import open_page

    at = open_page("side", preset="pg16457-chapter")
    no_exception(at)
    assert any("real trainers" in e.label for e in at.expander)
    assert not any("in both" in m.value for m in at.markdown)  # closed: not trained (the first view stays fast)
    at.session_state["three_real"] = True  # the box opened (ui.page.lazy_expander)
    at.run()
    no_exception(at)
    agreements = [m.value for m in at.markdown if "tokens are in both" in m.value]
    assert len(agreements) == 2  # WordPieceTrainer beside WordPiece, sentencepiece beside Unigram
    html = " ".join(bodies(at))
    assert "True WordPiece:" in html and "WordPieceTrainer:" in html and "sentencepiece:" in html
    assert "is the first that differs:" in html and "background:#fde68a" in html  # where they part, marked
    assert any("huggingface/tokenizers#1777" in c.value for c in at.caption)


def test_unigram_on_a_large_corpus_is_a_note_not_minutes_of_training():
    from app_helpers import open_page

    at = new_app(algo="unigram", vocab="500", preset="pg16457-book")  # 496 kB
    no_exception(at)
    assert "up to 200 kB" in " ".join(i.value for i in at.info)
    at = open_page("side", preset="pg16457-book")
    no_exception(at)
    assert "up to 200 kB" in " ".join(i.value for i in at.info)


def test_a_live_class_starts_on_wordpiece_and_unigram_as_on_bpe(tmp_path, monkeypatch):
    """Their stepper has the class's controls: the start box is offered, and a class started on one (a link) draws
    the teacher's row and the class's step control (the class itself: ``tests/test_field_class.py``)."""
    from bpe_server.corpus_store import CorpusStore
    from bpe_server.live_class import Classes

    monkeypatch.setenv("BPE_EXPLORER_STORE", str(tmp_path / "s.sqlite3"))
    no_size = new_app(preset="textbook-low", algo="unigram")  # nothing to step: no class to start on it
    assert not [e for e in no_size.expander if e.label == "Live class"]
    for params in ({"algo": "wordpiece"}, {"algo": "unigram", "vocab": "12"}):
        at = new_app(preset="textbook-low", **params)
        no_exception(at)
        assert [e for e in at.expander if e.label == "Live class"]
        assert not any("A live class steps BPE" in c.value for c in at.caption)
        if params["algo"] == "wordpiece":  # started from the page: the class keeps the algorithm and the step
            at.slider(key="field_step").set_value(3).run()
            at.button(key="class-start").click().run()
            no_exception(at)
            started = Classes(CorpusStore(tmp_path / "s.sqlite3")).state(at.query_params["class"])
            assert started.params["algo"] == "wordpiece" and started.step == 3
            assert at.button(key="class-ask")
        code, key = Classes(CorpusStore(tmp_path / "s.sqlite3")).start({"preset": "textbook-low", **params}, 2)
        teacher = new_app(**{"class": code, "teacher": key})
        no_exception(teacher)
        assert not any("cannot step" in w.value for w in teacher.warning)
        assert teacher.button(key="class-ask") and teacher.button(key="stepper.next")
