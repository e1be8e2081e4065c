"""The questions the app asks a finished run about step k, checked at every step.

The expected segmentations come from replaying the run's own merges with the reference's
left-to-right application (``reference_bpe.replay_merges``), and pair counts from the reference's
recount; *which* pair each step chooses is checked against the reference in test_trainer_parity.py.

segmentation, pair_table, corpus_tokens, vocabulary / vocab_size_at, changed_words (and the
snapshot's), corpus_view (step 0 and changed-first), merges, merge_tree, series.
"""

from __future__ import annotations

import pytest
from core_checks import TIE_BREAKS, VARIANTS, cfg_for, joined
from corpus_excerpts import named_excerpt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_bpe import base_set, count_pairs, replay_merges
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig, corpus_words, train


def leaves(tree):
    if tree.merge_number is None:
        assert tree.left is None and tree.right is None
        return [tree.token]
    return leaves(tree.left) + leaves(tree.right)


def check_run_queries(words: dict, cfg: TrainConfig) -> None:
    run = train(words, cfg)
    val = run.token_value
    merged = [(val(s.left), val(s.right)) for s in run.snapshots]
    replayed = replay_merges(words, merged, cfg.variant, cfg.eow_style, cfg.eow_marker)
    base = base_set(words, run.variant)
    n = run.num_steps
    freqs = list(words.values())
    word_list = list(words)
    symbols = [run.variant.symbols(w) for w in word_list]
    empty = run.variant.empty()

    assert run.num_words == len(words)
    for i, (w, f) in enumerate(words.items()):
        assert run.word(i) == (w, f)
        assert run.find_word(w) == i
    assert run.find_word("\x00 not a word") is None
    assert run.merges() == [(s.left, s.right) for s in run.snapshots]
    with pytest.raises(IndexError):
        run.snapshot(0)
    with pytest.raises(IndexError):
        run.snapshot(n + 1)

    series = run.series()
    assert series["step"] == list(range(n + 1))
    assert len(series["vocab_size"]) == len(series["corpus_tokens"]) == len(series["count"]) == n + 1
    assert series["count"] == [0] + [s.count for s in run.snapshots]

    created = {}  # token value -> first step that made it
    for k in range(n + 1):
        segs = replayed[k]
        # Segmentations: the reference's, and they concatenate back to the word's symbols.
        for i in range(len(words)):
            ids = run.segmentation(i, k)
            assert [val(t) for t in ids] == list(segs[i]), f"word {i} at step {k}"
            assert joined(run, ids) == empty.join(symbols[i])
            assert run.segmentation(i, k, 2) == ids[:2] and run.token_count(i, k) == len(ids)
        # corpus_tokens(k) is the frequency-weighted number of tokens.
        assert run.corpus_tokens(k) == sum(f * len(s) for f, s in zip(freqs, segs))
        assert series["corpus_tokens"][k] == run.corpus_tokens(k)
        if k:
            assert run.snapshot(k).corpus_tokens == run.corpus_tokens(k)

        # pair_table(k): every pair with the reference's recount; row 0 is merge k + 1.
        table = run.pair_table(k)
        counts = count_pairs([list(s) for s in segs], freqs)
        assert {(val(a), val(b)): c for a, b, c in table} == counts, f"pair counts at step {k}"
        assert len(table) == len(counts)
        assert [c for _, _, c in table] == sorted((c for _, _, c in table), reverse=True)
        assert sum(c for _, _, c in table) == sum(f * (len(s) - 1) for f, s in zip(freqs, segs) if s)
        if k < n:
            nxt = run.snapshot(k + 1)
            assert table[0] == (nxt.left, nxt.right, nxt.count)
            assert tuple(table[: len(nxt.top_pairs)]) == nxt.top_pairs
            assert run.pair_table(k, limit=3) == table[:3]
        if cfg.tie_break == "first-seen":
            order = {p: i for i, p in enumerate(counts)}
            expect = sorted(counts, key=lambda p: (-counts[p], order[p]))
            assert [(val(a), val(b)) for a, b, _ in table] == expect
        elif cfg.tie_break == "lexical":
            expect = sorted(counts, key=lambda p: (counts[p], p), reverse=True)
            assert [(val(a), val(b)) for a, b, _ in table] == expect

        # The vocabulary after step k.
        if k:
            s = run.snapshot(k)
            created.setdefault(val(s.token), k)
        vocab = run.vocabulary(k)
        assert len(vocab) == run.vocab_size_at(k) == series["vocab_size"][k]
        assert run.vocab_size_at(k) == len(set(base) | set(created))
        assert [e.id for e in vocab] == sorted(e.id for e in vocab)
        assert {e.value for e in vocab} == set(base) | set(created)
        for e in vocab:
            assert e.value == val(e.id)
            if e.step == 0:
                assert e.left is None and e.right is None and e.value in base
            else:
                assert e.step == created[e.value] <= k
                assert val(e.left) + val(e.right) == e.value

        # changed_words(k): exactly the word types whose segmentation changed, before and after.
        if k:
            changed = [i for i in range(len(words)) if replayed[k - 1][i] != segs[i]]
            assert run.changed_word_indices(k) == changed
            rows = run.changed_words(k)
            assert [r[0] for r in rows] == changed
            for i, w, f, before, after in rows:
                assert (w, f) == (word_list[i], freqs[i])
                assert [val(t) for t in before] == list(replayed[k - 1][i])
                assert [val(t) for t in after] == list(segs[i])
            assert run.changed_words(k, 2) == rows[:2]
            # pair_windows(k): the merged pair's overlapping windows in each word type before merge k.
            pair = (val(run.snapshot(k).left), val(run.snapshot(k).right))
            windows = {i: sum(1 for w in zip(s, s[1:]) if w == pair) for i, s in enumerate(replayed[k - 1])}
            assert run.pair_windows(k) == {i: w for i, w in windows.items() if w}
            assert run.snapshot(k).words_changed == len(changed)
            view = run.corpus_view(k, limit=len(words) + 1, changed_first=True)
            assert [r.index for r in view[: len(changed)]] == changed
            assert sorted(r.index for r in view) == list(range(len(words)))
            for r in view:
                assert r.tokens == run.segmentation(r.index, k)
                assert r.changed == (r.index in changed)
                assert r.before == (run.segmentation(r.index, k - 1) if r.changed else None)
    assert run.changed_word_indices(0) == [] and run.changed_word_indices(n + 1) == []

    # The step-0 view: base symbols, nothing changed.
    view = run.corpus_view(0, offset=0, limit=len(words) + 1)
    assert [r.index for r in view] == list(range(len(words)))
    for r in view:
        assert [val(t) for t in r.tokens] == symbols[r.index]
        assert r.changed is False and r.before is None
        assert (r.word, r.freq) == (word_list[r.index], freqs[r.index])
    assert [r.index for r in run.corpus_view(0, offset=1, limit=2)] == list(range(len(words)))[1:3]
    assert len(run.vocabulary(0)) == run.num_base == len(base)
    assert run.vocabulary() == run.vocabulary(n)

    # The last pair table says why training stopped (or what would come next).
    last = run.pair_table(n)
    if run.stop_reason == "no_pairs":
        assert last == []
    elif run.stop_reason == "min_frequency":
        assert last and last[0][2] < cfg.min_frequency
    elif run.stop_reason in ("num_merges", "vocab_size") and last and last[0][2] >= cfg.min_frequency:
        # Row 0 is what one more merge picks.
        from dataclasses import replace

        more = train(words, replace(cfg, num_merges=n + 1, vocab_size=None))
        step = more.snapshot(n + 1)
        assert (val(last[0][0]), val(last[0][1]), last[0][2]) == (
            more.token_value(step.left),
            more.token_value(step.right),
            step.count,
        )

    # merge_tree: leaves are base symbols and concatenate to the token; children make the node.
    entries = run.vocabulary()
    assert [e.id for e in entries] == list(range(run.vocab_size_at(n)))
    for entry in entries:
        tid = entry.id
        tree = run.merge_tree(tid)
        assert tree.token == tid
        assert (tree.merge_number or 0) == entry.step
        assert empty.join(val(leaf) for leaf in leaves(tree)) == val(tid)
        assert all(run.merge_tree(leaf).merge_number is None for leaf in leaves(tree))
        assert run.symbol_length(tid) == len(leaves(tree))
        if tree.merge_number is not None:
            left, right = tree.left, tree.right
            assert val(left.token) + val(right.token) == val(tid)
            assert (left.merge_number or 0) < tree.merge_number and (right.merge_number or 0) < tree.merge_number


CASES = {
    "low-lower": ({"low": 5, "lower": 2, "newest": 6, "widest": 3}, {}),
    "aaaa": ({"aaaa": 3, "aaa": 2, "aaaaaaa": 1, "ba": 2}, {"min_frequency": 1}),
    "marker-in-text": ({"</w>": 3, "a</w>b": 2, "w>": 1}, {"min_frequency": 1}),
    "nihao": ({"你好啊": 2, "你好": 2, "我": 1, "啊": 1, "走": 1, "😀😀": 2}, {"min_frequency": 1}),
}


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@pytest.mark.parametrize("case", list(CASES))
def test_queries_small_corpora(case, variant, style, tie_break):
    words, extra = CASES[case]
    check_run_queries(words, TrainConfig(variant=variant, eow_style=style, tie_break=tie_break, **extra))


@pytest.mark.parametrize("variant,style", VARIANTS)
@pytest.mark.parametrize("key", ["english", "chinese", "emoji"])
def test_queries_on_excerpts(key, variant, style):
    text = named_excerpt(key, 1_500)
    cfg = TrainConfig(variant=variant, eow_style=style, min_frequency=1, num_merges=60)
    check_run_queries(corpus_words(text, cfg), cfg)


@pytest.mark.parametrize("variant,style", VARIANTS)
def test_queries_stopped_by_vocab_size(variant, style):
    text = named_excerpt("english", 1_000)
    cfg = TrainConfig(variant=variant, eow_style=style, num_merges=0)
    words = corpus_words(text, cfg)
    base = train(words, cfg).num_base
    cfg = TrainConfig(variant=variant, eow_style=style, vocab_size=base + 40, tie_break="lexical")
    check_run_queries(words, cfg)
    assert train(words, cfg).stop_reason == "vocab_size"


words_strategy = st.dictionaries(
    st.lists(st.sampled_from(["a", "a", "b", "c", "é", "你", "😀", "<", "/", "w", ">"]), min_size=1, max_size=8).map(
        "".join
    ),
    st.integers(1, 4),
    max_size=6,
)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("variant,style", VARIANTS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_strategy, min_frequency=st.integers(1, 2), num_merges=st.one_of(st.none(), st.integers(0, 10)))
def test_queries_generated(variant, style, tie_break, words, min_frequency, num_merges):
    cfg = TrainConfig(
        variant=variant, eow_style=style, tie_break=tie_break, min_frequency=min_frequency, num_merges=num_merges
    )
    check_run_queries(words, cfg)


def test_out_of_range_steps_are_clamped_in_queries():
    cfg = cfg_for("char", num_merges=3)
    run = train(TEXTBOOK_WORDS, cfg)
    for step in (-5, -1, 4, 10**9):
        rows = run.corpus_view(step)
        assert len(rows) == 4
        assert run.pair_table(step, limit=3) is not None
        assert run.vocabulary(step) and run.merges(step) is not None
        assert run.changed_words(step) == []
    with pytest.raises(IndexError):
        run.snapshot(0)


# ------------------------------------------------------------------------------ long words, views
def long_word_run(num_merges: int = 400):
    """Byte-level, no pre-tokenizer: the excerpt is one word type thousands of symbols long."""
    text = named_excerpt("chinese", 3000) + named_excerpt("english", 3000)
    cfg = TrainConfig(variant="byte", pretokenizer="none", num_merges=num_merges, min_frequency=1)
    return corpus_words(text, cfg), cfg


def test_long_word_counts_and_cut_segmentations_match_the_whole_segmentation():
    words, cfg = long_word_run()
    run = train(words, cfg)
    assert len(next(iter(words)).encode()) > 10 * run.COUNT_BY_SEGMENTING
    for k in (0, 1, 2, 57, 199, 200, 399, 400):
        whole = run.segmentation(0, k)
        assert run.token_count(0, k) == len(whole) == run.corpus_tokens(k)
        assert run.segmentation(0, k, 40) == whole[:40]
        row = run.corpus_view(k, max_tokens=40)[0]
        assert row.tokens == whole[:40] and row.num_tokens == len(whole)
        if k:
            assert row.before == run.segmentation(0, k - 1)[:40] and row.num_before == len(run.segmentation(0, k - 1))


def test_a_run_read_while_it_trains_answers_for_its_steps_so_far():
    """The app reads a run while the trainer goes on (streaming): a view cut after k merges answers
    exactly as the finished run does for steps up to k, and its own size stops at k."""
    from bpe_core import Trainer

    words, cfg = long_word_run()
    trainer = Trainer(words, cfg)
    steps = trainer.steps()
    views = []
    for k in (1, 50, 51, 300):
        while trainer.run.num_steps < k:
            next(steps)
        view = trainer.run.view()
        assert view.num_steps == k and view.stop_reason is None and view.view_of is trainer.run
        # Ask the long word's count now: the shared cache it builds must not go stale as training goes on.
        assert view.token_count(0, k) == len(view.segmentation(0, k))
        views.append(view)
    for _ in steps:
        pass
    run = trainer.run
    assert run.stop_reason == "num_merges"
    for view in views:
        k = view.num_steps
        assert view.vocab_size == run.vocab_size_at(k) == len(view.vocabulary())
        assert view.merges() == run.merges(k)
        assert view.series() == {name: values[: k + 1] for name, values in run.series().items()}
        assert view.corpus_tokens(10**9) == run.corpus_tokens(k)
        for step in (0, k // 2, k, k + 1, 10**9):
            assert view.segmentation(0, step) == run.segmentation(0, min(step, k))
            assert view.token_count(0, step) == run.token_count(0, min(step, k))
        assert view.pair_windows(k) == run.pair_windows(k) and view.pair_windows(k + 1) == {}
        assert view.value_to_id == {v: i for i, v in enumerate(run.values[: view.vocab_size])}
    final = run.view()
    assert final.num_steps == run.num_steps and final.stop_reason == "num_merges"
