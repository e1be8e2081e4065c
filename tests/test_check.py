"""The merge checker (bpe_core.checking.check): students' trainers with one known mistake each, on four corpora."""

from __future__ import annotations

import pytest

from bpe_core.algorithms import reference
from bpe_core.algorithms.tiebreak import TIE_BREAKS
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.checking.check import check_merges, corpus_text
from bpe_core.config import TrainConfig
from tests.corpus_excerpts import named_excerpt
from tests.student_trainers import MISTAKES, Settings, train_correct
from tests.textbook import TEXTBOOK_WORDS

TEXTBOOK = " ".join(w for w, f in TEXTBOOK_WORDS.items() for _ in range(f))
#: name -> (text, settings, merges)
CORPORA = {
    "textbook": (TEXTBOOK, Settings("eow", "whitespace"), 10),
    "aaabdaaabac": ("aaabdaaabac", Settings("char", "whitespace"), 5),
    "english": (named_excerpt("english", 2_500), Settings("byte", "gpt2"), 40),
    "chinese": (named_excerpt("chinese", 1_200), Settings("char", "whitespace"), 30),
}


def config_of(settings: Settings, **kw) -> TrainConfig:
    return TrainConfig(variant=settings.variant, pretokenizer=settings.pretokenizer, **kw)


def wire_merges(text: str, cfg: TrainConfig) -> list:
    """The textbook loop's merges (bpe_core.algorithms.reference, not the fast trainer), as wire strings."""
    words = corpus_words(text, cfg)
    steps, _stop = reference.train(words, cfg)
    variant = cfg.make_variant()
    return [(variant.wire(s.pair[0]), variant.wire(s.pair[1])) for s in steps]


def expected_step(text: str, settings: Settings, yours: list, n: int) -> int | None:
    """The first merge where ``yours`` parts from the reference under the tie rule it agrees with longest
    (``None``: equal to the reference under some rule)."""
    best = 0
    for rule in TIE_BREAKS:
        ref = wire_merges(text, config_of(settings, num_merges=n, tie_break=rule))
        if ref == yours:
            return None
        k = next((i for i, (a, b) in enumerate(zip(ref, yours)) if a != b), min(len(ref), len(yours)))
        best = max(best, k)
    return best + 1


@pytest.mark.parametrize("corpus", CORPORA)
def test_a_correct_minbpe_style_trainer_is_identical(corpus):
    text, settings, n = CORPORA[corpus]
    cfg = config_of(settings)
    yours = train_correct(text, settings, n)
    report = check_merges(corpus_words(text, cfg), cfg, yours, text)
    assert report.as_json() == {
        "identical": True, "merges": len(yours), "agree": len(yours), "tie_break": "first-seen",
        "step": None, "yours": None, "reference": None, "cause": "identical",
    }  # fmt: skip


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("cause", MISTAKES)
def test_each_mistake_is_named_at_its_step(corpus, cause):
    text, settings, n = CORPORA[corpus]
    yours = MISTAKES[cause](text, settings, n)
    cfg = config_of(settings, num_merges=n) if cause == "stop-rule" else config_of(settings)
    report = check_merges(corpus_words(text, cfg), cfg, yours, text)
    step = expected_step(text, settings, yours, n if cause == "stop-rule" else len(yours))
    if step is None:  # the mistake changes nothing here (or ties fall as another known rule has them)
        assert report.identical and report.cause == "identical"
        assert yours != train_correct(text, settings, n) or report.tie_break == "first-seen"
        return
    named = cause.removesuffix("-overlapping")
    assert (report.cause, report.step) == (named, step), (report.as_json(), report.detail, report.also)
    if cause == "application-order-overlapping":
        assert report.detail == {"order": "overlapping"}
    assert report.agree == step - 1 and not report.identical
    assert report.yours == (yours[step - 1] if step <= len(yours) else None)


def test_mistakes_that_change_nothing_are_identical_where_expected():
    # Overlap counting and the scan direction only matter where one symbol repeats ("a a a").
    text, settings, n = CORPORA["textbook"]
    for cause in ("overlap-counting", "application-order"):
        assert MISTAKES[cause](text, settings, n) == train_correct(text, settings, n)
    text, settings, n = CORPORA["aaabdaaabac"]
    assert MISTAKES["application-order"](text, settings, n) != train_correct(text, settings, n)


def test_the_textbook_tie_report_names_both_pairs_and_counts():
    # After e s, es t, est </w> the pairs l o and o w tie at 7; a student taking o w broke the tie another way.
    cfg = TrainConfig(variant="eow")
    words = dict(TEXTBOOK_WORDS)
    yours = [("e", "s"), ("es", "t"), ("est", "</w>"), ("o", "w")]
    report = check_merges(words, cfg, yours)
    assert report.as_json()["cause"] == "tie-break"
    assert (report.step, report.yours, report.reference) == (4, ("o", "w"), ("l", "o"))
    assert (report.yours_count, report.reference_count) == (7, 7)
    assert report.detail == {"rules": ["lexical"]}  # subword-nmt's rule takes the largest pair, o w
    assert [w[0] for w in report.words] == ["low", "lower"]
    assert report.table[0] == ("l", "o", 7)


def test_stop_rule_names_the_missing_side():
    cfg = TrainConfig(variant="eow")
    words = dict(TEXTBOOK_WORDS)
    longer = train_correct(TEXTBOOK, Settings("eow", "whitespace"), 30)
    report = check_merges(words, TrainConfig(variant="eow", num_merges=len(longer) + 3), longer)
    # The reference stops too (min frequency 2): same list, identical.
    assert report.identical
    report = check_merges(words, TrainConfig(variant="eow", num_merges=3), longer)
    assert report.as_json() | {"yours": None} == {
        "identical": False, "merges": len(longer), "agree": 3, "tie_break": "first-seen", "step": 4,
        "yours": None, "reference": None, "cause": "stop-rule",
    }  # fmt: skip
    assert report.yours == longer[3] and report.detail == {"missing": "reference"}
    assert cfg.num_merges is None


def test_settings_mismatch_is_found_before_any_step():
    # Characters where bytes were meant, on Chinese: the first merge already glues two characters.
    text = CORPORA["chinese"][0]
    yours = train_correct(text, Settings("char", "gpt2"), 5)
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2")
    report = check_merges(corpus_words(text, cfg), cfg, yours, text)
    assert report.cause == "settings" and report.step == 1
    assert report.detail["variant"] == "char" and report.yours_count == 0


def test_overlap_counting_is_named_where_runs_of_one_symbol_decide():
    # "aaaa" holds (a, a) three times; counted without overlaps, twice: 6 < the 7 of (a, b).
    text = "aaaa aaaa aaaa ab ab ab ab ab ab ab"
    settings = Settings("char", "whitespace")
    yours = MISTAKES["overlap-counting"](text, settings, 3)
    assert yours[0] == ("a", "b") and train_correct(text, settings, 3)[0] == ("a", "a")
    cfg = config_of(settings)
    report = check_merges(corpus_words(text, cfg), cfg, yours, text)
    assert (report.cause, report.step, report.yours_count, report.reference_count) == ("overlap-counting", 1, 7, 9)


def test_corpus_text_gives_a_text_back_and_none_for_a_word_count_list():
    text = "the lowest  price\nis lower"
    asked = []

    def split(cfg):
        asked.append((cfg.pretokenizer, cfg.pattern))
        return corpus_words(text, cfg)

    for pre in ("whitespace", "gpt2", "none"):
        assert corpus_text(split, TrainConfig(variant="eow", pretokenizer=pre)) == text
    assert set(asked) == {("none", None)}  # always split with no pre-tokenizer, whatever the settings
    counts = {"low": 5, "lower": 2}
    assert corpus_text(lambda cfg: dict(counts), TrainConfig(variant="eow")) is None
    assert corpus_text(lambda cfg: {"low": 3}, TrainConfig(variant="eow")) is None  # one word, not seen once
