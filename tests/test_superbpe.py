"""SuperBPE's transition point (:mod:`bpe_core.algorithms.superbpe`, ``TrainConfig(transition=t)``, ``train
--transition T``): a transition at or beyond the merges is plain BPE exactly; on fixed corpora the run equals a
textbook two-stage loop written here (recount every pair at every step); the exported ``tokenizer.json``, read by
Hugging Face ``tokenizers``, encodes held-out text of the book to our ids; bad settings are one clear line."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
import regex
from cli_process import assert_clean_error, cli, write
from corpus_excerpts import CHINESE, EMOJI, ENGLISH, WIKI, excerpt, read_corpus

from bpe_core import TrainConfig, train
from bpe_core.algorithms.reference import count_pairs, merge
from bpe_core.algorithms.superbpe import (
    STAGE2_PATTERN,
    is_superword,
    superword_steps,
    tokenizer,
    train_superbpe,
    transition_problem,
    transition_step,
)
from bpe_core.algorithms.trainer import corpus_words
from bpe_core.i18n import translations
from bpe_core.pretokenize import pretokenize


# ------------------------------------------------------------------------------------------ the textbook loop
def split_isolated(text: str, pattern: str) -> list[str]:
    """Hugging Face's ``Split(pattern, behavior="isolated")``: every match, and every stretch between matches."""
    pieces, at = [], 0
    for m in regex.finditer(pattern, text):
        if m.start() > at:
            pieces.append(text[at : m.start()])
        pieces.append(m.group())
        at = m.end()
    if at < len(text):
        pieces.append(text[at:])
    return pieces


def as_bytes(pieces: list[str]) -> list[tuple[list[bytes], int]]:
    return [([bytes((b,)) for b in w.encode("utf-8")], f) for w, f in Counter(pieces).items()]


def pair_counts(words) -> dict:
    seqs, freqs = zip(*words) if words else ((), ())
    return count_pairs(seqs, freqs)


def learn(words, n: int, min_frequency: int) -> tuple[list, list]:
    """Plain BPE: ``n`` times the most frequent pair (the first seen of equal ones), merged everywhere."""
    merges: list = []
    while len(merges) < n:
        counts = pair_counts(words)
        if not counts:
            break
        best = max(counts, key=counts.get)
        if counts[best] < min_frequency:
            break
        merges.append(best)
        words = [(merge(seq, *best), f) for seq, f in words]
    return merges, words


def textbook_superbpe(text: str, pretokenizer: str, t: int, n: int, min_frequency: int = 2) -> list:
    """Stage 1: ``t`` merges of plain BPE on the pre-tokenizer's words. Stage 2: the text cut by the stage-2 pattern;
    stage 1's merges replayed in order (one whose pair is absent left out); then plain BPE up to ``n`` merges."""
    words1 = as_bytes(pretokenize(text, pretokenizer))
    stage1, _ = learn(words1, t, min_frequency)
    if t >= n or len(stage1) < t:
        return learn(words1, n, min_frequency)[0]
    words2 = as_bytes(split_isolated(text, STAGE2_PATTERN))
    kept = []
    for pair in stage1:
        if pair in pair_counts(words2):
            kept.append(pair)
            words2 = [(merge(seq, *pair), f) for seq, f in words2]
    return kept + learn(words2, n - len(kept), min_frequency)[0]


def merge_values(run) -> list:
    return [(run.values[a], run.values[b]) for a, b in run.merges()]


# ------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize(
    ("corpus", "size", "pretokenizer", "t", "n"),
    [
        (ENGLISH, 6_000, "gpt2", 60, 160),
        (ENGLISH, 6_000, "gpt4", 0, 120),
        (WIKI, 5_000, "o200k", 90, 150),
        (CHINESE, 3_000, "gpt2", 40, 100),
    ],
)
def test_equals_the_textbook_two_stage_loop(corpus, size, pretokenizer, t, n):
    text = excerpt(corpus, size, start=20_000)
    run = train_superbpe(text, TrainConfig(pretokenizer=pretokenizer, num_merges=n, transition=t))
    assert merge_values(run) == textbook_superbpe(text, pretokenizer, t, n)
    assert run.num_steps == n
    assert transition_step(run) == t - len(run.extras["skipped"]) + 1
    # The run's words are stage 2's pieces, its tokenizer cuts text with stage 2's pattern.
    assert run.config.pattern == STAGE2_PATTERN and run.extras["stage1_pretokenizer"] == pretokenizer


def test_english_run_makes_superwords_after_the_transition_only():
    text = excerpt(ENGLISH, 20_000, start=20_000)
    run = train_superbpe(text, TrainConfig(num_merges=400, transition=200))
    first = transition_step(run)
    steps = superword_steps(run, limit=3)
    assert steps and steps[0] >= first
    assert not any(is_superword(run.values[run.snapshot(k).token]) for k in range(1, first))
    assert any(run.values[run.snapshot(k).token] in (b" of the", b", and", b" in the") for k in range(first, 401))


@pytest.mark.parametrize("beyond", [0, 1])
def test_a_transition_at_or_beyond_the_merges_is_plain_bpe(beyond):
    text = excerpt(ENGLISH, 8_000, start=40_000)
    plain_cfg = TrainConfig(num_merges=150)
    plain = train(corpus_words(text, plain_cfg), plain_cfg)
    if beyond:  # no limit on merges: stage 1 runs out of pairs (min frequency) before a transition far away
        plain_cfg = TrainConfig()
        plain = train(corpus_words(text, plain_cfg), plain_cfg)
        cfg = dataclasses.replace(plain_cfg, transition=plain.num_steps + 5)
    else:
        cfg = dataclasses.replace(plain_cfg, transition=150)
    run = train(corpus_words(text, cfg), cfg)
    assert run.snapshots == plain.snapshots and run.words == plain.words and run.stop_reason == plain.stop_reason
    assert transition_step(run) is None


def test_bad_settings_are_refused_with_translated_messages():
    with pytest.raises(ValueError, match="beyond the 20 merges"):
        TrainConfig(num_merges=20, transition=21).validate()
    with pytest.raises(ValueError, match="byte-level"):
        TrainConfig(variant="char", transition=3).validate()
    with pytest.raises(ValueError, match="needs the text"):
        train({"low": 5, "lower": 2}, TrainConfig(num_merges=5, transition=2))
    cfg = TrainConfig(variant="eow", transition=3)
    english = transition_problem(cfg)
    for lang in ("zh-Hans", "zh-Hant"):
        translated = transition_problem(cfg, translations(lang))
        assert translated != english and regex.search(r"\p{Han}", translated), translated


def test_exported_tokenizer_json_encodes_held_out_text_to_our_ids(tmp_path):
    from tokenizers import Tokenizer as HFTokenizer

    book = read_corpus(ENGLISH)
    cut = len(book) * 2 // 3
    train_file = write(tmp_path / "train.txt", book[:cut])
    held_out = book[cut + 5_000 : cut + 12_000]  # paragraphs of the last third, never trained on
    proc = cli(["train", train_file, "--merges", "1500", "--transition", "800", "--out", tmp_path / "model"])
    assert proc.returncode == 0, proc.err
    assert "# transition step:" in proc.out
    doc = json.loads((tmp_path / "model" / "tokenizer.json").read_text(encoding="utf-8"))
    split = doc["pre_tokenizer"]["pretokenizers"][0]
    assert split["pattern"]["Regex"] == STAGE2_PATTERN and split["behavior"] == "Isolated"
    hf = HFTokenizer.from_file(str(tmp_path / "model" / "tokenizer.json")).encode(held_out).ids

    run = train_superbpe(book[:cut], TrainConfig(num_merges=1500, transition=800))
    ours = tokenizer(run).encode(held_out)
    assert hf == ours
    assert any(is_superword(run.values[i]) for i in ours)  # the held-out text does use superword tokens
    enc = cli(["encode", "--model", tmp_path / "model", "--jsonl", write(tmp_path / "held.txt", held_out)])
    assert enc.returncode == 0, enc.err
    assert json.loads(enc.out)["ids"] == ours


def test_cli_errors_are_one_line(tmp_path):
    text = write(tmp_path / "t.txt", excerpt(ENGLISH, 3_000))
    assert_clean_error(cli(["train", text, "--merges", "20", "--transition", "30"]), "beyond the 20 merges")
    assert_clean_error(cli(["train", text, "--variant", "char", "--transition", "3"]), "byte-level")
    counts = write(tmp_path / "counts.txt", "low 5\nlower 2\nnewest 6\n")
    assert_clean_error(cli(["train", counts, "--merges", "5", "--transition", "2"]), "needs the text")
    assert_clean_error(cli(["train", text, "--transition", "2", "--picky", "0.9"]), "do not combine")


def _one_by_one(text: str, cfg: TrainConfig):
    """Stage 2 replaying stage 1's merges one at a time in the trainer (``merges=..., resume=True``)."""
    from bpe_core.algorithms.superbpe import stage2_config, stage_words
    from bpe_core.algorithms.trainer import Trainer

    words = stage_words(text, cfg)
    first = train(dict(words), dataclasses.replace(cfg, num_merges=cfg.transition, transition=None))
    merges = [(first.values[a], first.values[b]) for a, b in first.merges()]
    trainer = Trainer(words.stage2, stage2_config(cfg), merges=merges, resume=True)
    for _ in trainer.steps():
        pass
    return trainer


@pytest.mark.parametrize(
    ("corpus", "size", "pretokenizer", "t", "n", "rule"),
    [
        (ENGLISH, 30_000, "gpt2", 400, 600, "first-seen"),  # CRLF paragraph breaks: chunks replayed together
        (WIKI, 20_000, "gpt4", 300, 400, "hf"),
        (CHINESE, 8_000, "o200k", 200, 260, "lexical"),
        (EMOJI, 8_000, "whitespace", 150, 200, "first-seen"),  # drops the spaces: pieces cut by GPT-2's pattern
    ],
)
def test_replay_before_the_tables_equals_the_replay_merge_by_merge(corpus, size, pretokenizer, t, n, rule, overlapping):
    """Stage 2 replays stage 1's merges on its pieces before its tables are built (superbpe_replay): the run's
    steps, counts (a pair of one token counted in overlapping windows), rewritten positions and skipped merges are
    those of the trainer replaying the merges one at a time."""
    text = excerpt(corpus, size, start=1_000)
    cfg = TrainConfig(pretokenizer=pretokenizer, num_merges=n, transition=t, tie_break=rule)
    run = train_superbpe(text, cfg)
    old = _one_by_one(text, cfg)
    ref = old.run
    assert run.extras["skipped"] == old.skipped
    assert transition_step(run) == ref.extras.get("transition_step")
    fields = ("step", "left", "right", "token", "is_new", "count", "vocab_size", "corpus_tokens", "occurrences")
    assert [[getattr(s, f) for f in fields] for s in run.snapshots] == [
        [getattr(s, f) for f in fields] for s in ref.snapshots
    ]
    assert [s.words_changed for s in run.snapshots] == [s.words_changed for s in ref.snapshots]
    assert run._event_pos == ref._event_pos and run._event_start == ref._event_start
    assert run.values == ref.values and run.stop_reason == ref.stop_reason
    overlapping.append(
        any(s.left == s.right and s.count > s.occurrences for s in run.snapshots[: transition_step(run)])
    )
    for step in (1, transition_step(run) - 1, n):
        assert [run.segmentation(i, step) for i in range(run.num_words)] == [
            ref.segmentation(i, step) for i in range(ref.num_words)
        ]


@pytest.fixture(scope="module")
def overlapping():
    """Whether each replay above had a pair of one token with overlapping windows (``a a a``): one must have."""
    seen: list = []
    yield seen
    assert any(seen), seen


def test_the_quiz_asks_nothing_on_replayed_merges():
    from bpe_core.teaching.quiz import not_asked, question

    text = excerpt(ENGLISH, 6_000, start=20_000)
    run = train_superbpe(text, TrainConfig(num_merges=120, transition=60))
    first = transition_step(run)
    assert question(run, first - 1) is None and question(run, first) is not None
    assert not_asked(run, 1).startswith(f"No question on merge 1: SuperBPE's stage 1 chose merges 1 to {first - 1} ")
    assert not_asked(run, first) is None
    assert "转换点" in not_asked(run, 5, translations("zh-Hans"))
    plain = train(corpus_words(text, TrainConfig(num_merges=20)), TrainConfig(num_merges=20))
    assert question(plain, 1) is not None and not_asked(plain, 1) is None
