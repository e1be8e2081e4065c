"""The pages in pages/ through Streamlit's AppTest, checked against bpe_core.

The Files page's tests are in test_pages_files.py.

AppTest runs one page at a time: each test starts from app.py (the entry point, which draws the
shared sidebar and adopts the URL) and switches to the page with ``AppTest.switch_page``, so the
corpus chosen on the main page is the one the page gets, as in the browser.
"""

from __future__ import annotations

import html
import re

import pytest
from app_helpers import APP, PAGES, TIMEOUT, bodies, body_with, errors, jump_widget, no_exception, open_page, token_ids
from app_helpers import flat_text as text_of
from corpora import ZH_EMOJI, textbook_run
from streamlit.testing.v1 import AppTest

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.encoding.encoder import Tokenizer
from ui.corpus import PRESETS
from ui.sidebar import text_box_guard_html
from ui.stepper import script_html as stepper_script_html


def element(fragment: str, element_id: str) -> str:
    """The HTML of the element with ``id=element_id`` (up to the end of the enclosing fragment's tag)."""
    m = re.search(rf"<(\w+)[^>]*id='{re.escape(element_id)}'", fragment)
    assert m, (element_id, fragment[:200])
    return fragment[m.start() :]


# ---------------------------------------------------------------------------------- every page
@pytest.mark.parametrize(
    "name, marker",
    [
        ("side", "sbs-byte"),
        ("bbpe", "bbpe-unseen-char"),
        ("encode", "enc-tokens"),
        ("files", None),
        ("how", "how-ties"),
    ],
)
def test_every_page_renders_with_the_default_input(name, marker):
    at = open_page(name)
    no_exception(at)
    assert not at.error, [e.value for e in at.error]
    if marker:
        body_with(at, marker)
    else:
        assert len(at.get("download_button")) >= 3
    # the shared sidebar is there, with the default preset
    assert at.selectbox(key="w.preset").value == "textbook-low"
    assert at.query_params.get("preset") == "textbook-low"


SWEEP = [{"preset": p} for p in PRESETS if p != "pg16457-book"] + [
    {"preset": "textbook-low", "vocab": "15"},  # stop by vocabulary size: the three runs differ in length
    {"preset": "textbook-low", "merges": "0"},
    {"preset": "zh-emoji", "variant": "char", "pre": "none"},
    {"preset": "nihao", "variant": "eow", "eow": "attached"},
    {"preset": "aaabdaaabac", "bytes": "hex"},
    {"preset": "hongloumeng-chapter", "variant": "byte", "bytes": "gpt2"},
    {"preset": "zh-emoji", "present": "1"},
]


@pytest.mark.parametrize("params", SWEEP, ids=["-".join(f"{k}={v}" for k, v in p.items()) for p in SWEEP])
def test_every_page_renders_for_every_preset_and_odd_settings(params):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    for page in PAGES.values():
        at.switch_page(page).run()
        no_exception(at)
        assert not at.error, (page, [e.value for e in at.error])


def _sweep(preset: str) -> dict[str, int]:
    """Side by side on ``preset``: Next, Last, Prev, First, then every other page, twice. Returns the characters of
    HTML each view drew on the first pass; fails if the second pass trained anything."""
    from ui.training import shared_cache

    at = open_page("side", preset=preset)
    no_exception(at)
    assert "data-vocab=" in body_with(at, "sbs-byte")
    drawn = {}
    for sweep in (1, 2):
        trained = shared_cache().trainings
        at.switch_page(PAGES["side"]).run()
        for button in ("sbs.next", "sbs.last", "sbs.prev", "sbs.first"):  # back to step 0 for the second pass
            at.button(key=button).click().run()
            no_exception(at)
            drawn[button] = sum(map(len, bodies(at)))
        for name in ("bbpe", "encode", "files", "how"):
            at.switch_page(PAGES[name]).run()
            no_exception(at)
            drawn[name] = sum(map(len, bodies(at)))
        if sweep == 2:  # every run the pages need was trained once, on the first pass, and is reused
            assert shared_cache().trainings == trained, f"{preset}: the second pass trained again"
    return drawn


def test_pages_on_the_whole_book_reuse_its_runs_and_draw_what_a_chapter_does():
    """The book (10,000 merges in each variant) is trained once and reused by every click and page; and a
    click or a page draws about what it draws for one chapter of it (the time it takes is
    benchmarks/ui_step.py's to measure)."""
    chapter, book = _sweep("pg16457-chapter"), _sweep("pg16457-book")
    grown = {view: (chapter[view], book[view]) for view in book if book[view] > chapter[view] * 1.5}
    assert not grown, f"HTML drawn, chapter vs book: {grown}"


# ---------------------------------------------------------------------------------- side by side
def side_card(at: AppTest, variant: str) -> str:
    return body_with(at, f"id='sbs-{variant}'")


def merge_of(card: str) -> tuple[list[int], int]:
    head = re.search(r"<div class='bpe-merge'.*?</div>", card, re.S).group(0)
    return token_ids(head), int(re.search(r"data-count='(\d+)'", head).group(1))


def test_side_by_side_step_1_is_e_plus_s_and_agrees_with_bpe_core():
    at = open_page("side", step=1)
    for variant in ("char", "eow", "byte"):
        run = textbook_run(variant)
        snap = run.snapshot(1)
        card = side_card(at, variant)
        ids, count = merge_of(card)
        assert ids == [snap.left, snap.right, snap.token], variant
        assert count == snap.count
        assert f"data-vocab='{run.vocab_size_at(1)}'" in card
        assert f"data-tokens='{run.corpus_tokens(1)}'" in card
        if variant != "byte":
            assert [run.token_text(t) for t in ids] == ["e", "s", "es"] and count == 9
    # bytes: the same merge as bytes (every character of this corpus is one byte)
    byte = textbook_run("byte")
    assert [byte.token_text(t) for t in merge_of(side_card(at, "byte"))[0]] == ["e", "s", "es"]

    # One step control moves all three.
    at.button(key="sbs.next").click().run()
    no_exception(at)
    for variant in ("char", "eow", "byte"):
        run = textbook_run(variant)
        snap = run.snapshot(2)
        assert merge_of(side_card(at, variant)) == ([snap.left, snap.right, snap.token], snap.count)
    assert at.query_params["step"] == "2"

    # The words table: each word's segmentation at this step, per variant, as bpe_core has it.
    table = body_with(at, "id='sbs-words'")
    rows = re.findall(r"<tr><td class='word'>(.*?)</td>(.*?)</tr>", table, re.S)
    assert [html.unescape(w) for w, _ in rows] == ["newest", "low", "widest", "lower"]  # most frequent first
    for word, cells in rows:
        parts = re.findall(r"<td>(.*?)</td>", cells, re.S)
        assert len(parts) == 3
        for variant, part in zip(("char", "eow", "byte"), parts):
            run = textbook_run(variant)
            assert token_ids(part) == run.segmentation(run.find_word(word), 2), (word, variant)


def test_side_by_side_uses_the_corpus_chosen_on_the_main_page():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.selectbox(key="w.preset").set_value("nihao").run()  # chosen on the main page
    at.switch_page(PAGES["side"]).run()
    no_exception(at)
    assert at.selectbox(key="w.preset").value == "nihao"
    at.button(key="sbs.last").click().run()
    text = PRESETS["nihao"].load_text()
    for variant in ("char", "eow", "byte"):
        cfg = TrainConfig(variant=variant, pretokenizer="whitespace", num_merges=10, min_frequency=2)
        run = train(corpus_words(text, cfg), cfg)
        card = side_card(at, variant)
        shown = min(10, run.num_steps)
        assert f"data-vocab='{run.vocab_size_at(shown)}'" in card, variant
        assert f"data-tokens='{run.corpus_tokens(shown)}'" in card, variant
    # Byte-level needs merges to rebuild the characters: 你好 is 6 bytes.
    byte_cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=10, min_frequency=2)
    byte = train(corpus_words(text, byte_cfg), byte_cfg)
    assert byte.corpus_tokens(0) == len("".join(text.split()).encode("utf-8"))


def test_side_by_side_typed_word_and_pasted_html_are_escaped():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input("<b>bold</b> <b>bold</b> <i>x</i> <i>x</i>").run()
    at.switch_page(PAGES["side"]).run()
    no_exception(at)
    joined = "".join(bodies(at))
    assert "<b>bold</b>" not in joined and "<i>x</i>" not in joined
    assert "&lt;b&gt;bold&lt;/b&gt;" in body_with(at, "sbs-words")


def test_side_by_side_encodes_a_typed_word_that_is_not_in_the_corpus():
    at = open_page("side", step=10)
    picker = at.multiselect[0]
    assert picker.value == ["newest", "low", "widest", "lower"]
    picker.set_value(["lowest", "wolf"]).run()
    no_exception(at)
    table = body_with(at, "sbs-words")
    rows = re.findall(r"<tr><td class='word'>(.*?)</td><td class='num'>(.*?)</td>(.*?)</tr>", table, re.S)
    assert [w for w, _, _ in rows] == ["lowest", "wolf"]
    for word, freq, cells in rows:
        assert "not in corpus" in freq
        for variant, part in zip(("char", "eow", "byte"), re.findall(r"<td>(.*?)</td>", cells, re.S)):
            assert token_ids(part) == Tokenizer.from_run(textbook_run(variant), 10).encode(word), (word, variant)
    # "f" was never seen: <unk> for characters, its byte for bytes.
    wolf = rows[1][2]
    assert wolf.count("bpe-chip unk") == 2  # char and eow columns
    # The choice survives a visit to another page.
    at.switch_page(PAGES["stepper"]).run()
    at.switch_page(PAGES["side"]).run()
    assert at.multiselect[0].value == ["lowest", "wolf"]


# ---------------------------------------------------------------------------------- BPE vs BBPE
def bbpe_runs(text: str = ZH_EMOJI, pretokenizer: str = "whitespace", merges: int = 300):
    out = []
    for variant in ("char", "byte"):
        cfg = TrainConfig(variant=variant, pretokenizer=pretokenizer, num_merges=merges, min_frequency=2)
        out.append(train(corpus_words(text, cfg), cfg))
    return out


def test_bbpe_trains_on_the_sidebar_corpus_by_default():
    # Every page follows the sidebar: on the default preset, both runs are the textbook's, with its 10 merges.
    at = open_page("bbpe")
    no_exception(at)
    assert at.radio(key="w.pg.bbpe.source").value == "sidebar"
    words = PRESETS["textbook-low"].words
    chars = sum(len(w) * f for w, f in words.items())
    for variant in ("char", "byte"):
        cfg = TrainConfig(variant=variant, pretokenizer="whitespace", num_merges=10, min_frequency=2)
        run = train(words, cfg)
        assert f"data-per-char='{run.corpus_tokens(run.num_steps) / chars:.4f}'" in body_with(at, "bbpe-per-char")
    assert "data-base='256'" in body_with(at, "bbpe-base-byte")
    # Another sidebar corpus is followed too.
    at.selectbox(key="w.preset").set_value("nihao").run()
    no_exception(at)
    char, _byte = bbpe_runs(PRESETS["nihao"].text, merges=10)
    assert f"data-base='{char.num_base}'" in body_with(at, "bbpe-base-char") and char.num_base == 5  # 你好啊我走


@pytest.mark.parametrize("lang, preset", [("en", "zh-emoji"), ("zh-Hans", "zh-emoji"), ("zh-Hant", "zh-hant-emoji")])
def test_bbpe_own_text_starts_with_the_chinese_preset_of_the_interface(lang, preset):
    at = open_page("bbpe", lang=lang)
    at.radio(key="w.pg.bbpe.source").set_value("text").run()
    no_exception(at)
    assert at.text_area(key="w.pg.bbpe.text").value == PRESETS[preset].load_text()
    char, _byte = bbpe_runs(PRESETS[preset].load_text())
    assert f"data-base='{char.num_base}'" in body_with(at, "bbpe-base-char")


def test_bbpe_default_text_numbers_agree_with_bpe_core():
    at = open_page("bbpe")
    at.radio(key="w.pg.bbpe.source").set_value("text").run()
    no_exception(at)
    char, byte = bbpe_runs()
    base_char = body_with(at, "bbpe-base-char")
    assert f"data-base='{char.num_base}'" in base_char
    assert char.num_base == len(set("".join(corpus_words(ZH_EMOJI, char.config))))
    assert "data-base='256'" in body_with(at, "bbpe-base-byte")

    # Unseen characters: <unk> for characters, byte fallback for bytes.
    unseen = "明天我们去北京看熊猫 🐼！"
    ctok, btok = Tokenizer.from_run(char), Tokenizer.from_run(byte)
    char_ids, byte_ids = ctok.encode(unseen), btok.encode(unseen)
    unk = sum(1 for t in char_ids if t == ctok.unk_id)
    assert unk == 6  # 明 北 京 熊 猫 🐼
    card = body_with(at, "bbpe-unseen-char")
    assert f"data-unk='{unk}'" in card
    assert token_ids(card) == [t for t in char_ids]
    assert text_of(card).count("<unk>") >= unk
    for ch in "明北京熊猫🐼":
        assert f"<span class='bpe-src'>{ch}</span>" in card  # the symbol each <unk> stands for
    card = body_with(at, "bbpe-unseen-byte")
    assert token_ids(card) == byte_ids
    assert ctok.unk_id not in byte_ids and "bpe-chip unk" not in card
    partial = sum(1 for t in byte_ids if byte.is_partial(t))
    assert partial > 0 and f"data-partial='{partial}'" in card and "data-roundtrip='1'" in card

    # Tokens per character and bytes per token after the last merge.
    chars = sum(len(w) * f for w, f in zip(char.words, char.freqs))
    data = sum(len(w.encode()) * f for w, f in zip(char.words, char.freqs))
    assert data == byte.corpus_tokens(0)
    per_char = body_with(at, "bbpe-per-char")
    assert f"data-per-char='{char.corpus_tokens(char.num_steps) / chars:.4f}'" in per_char
    assert f"data-per-char='{byte.corpus_tokens(byte.num_steps) / chars:.4f}'" in per_char
    assert f"data-per-token='{data / byte.corpus_tokens(byte.num_steps):.4f}'" in body_with(at, "bbpe-per-token")

    # Partial tokens in the byte-level vocabulary.
    made = [s.token for s in byte.snapshots if s.is_new]
    partial_vocab = [t for t in made if byte.is_partial(t)]
    assert f"data-partial='{len(partial_vocab)}' data-merged='{len(made)}'" in body_with(at, "bbpe-partial")
    assert 0 < len(partial_vocab) < len(made)

    # The step at which characters become one token.
    first = body_with(at, "bbpe-first")
    row = re.search(r"<tr><td class='big'>我</td>.*?</tr>", first, re.S).group(0)
    cells = re.findall(r"<td class='num[^']*'>(.*?)</td>", row, re.S)
    b_step = byte.created_step[byte.value_to_id["我".encode()]]
    assert text_of(cells[-2]).startswith("0") and text_of(cells[-1]) == str(b_step)
    family = "👨‍👩‍👧"
    row = re.search(rf"<tr><td class='big'>{family}</td>.*?</tr>", first, re.S).group(0)
    assert "U+1F468 U+200D U+1F469 U+200D U+1F467" in row and "<td class='num'>18</td>" in row

    # Grapheme -> code points -> bytes.
    graph = body_with(at, "bbpe-graphemes")
    flag_row = re.search(r"<tr><td class='bpe-glyph'>🇦🇶</td>.*?</tr>", graph, re.S).group(0)
    assert "U+1F1E6" in flag_row and "U+1F1F6" in flag_row and "regional indicator symbol letter a" in flag_row
    assert "".join(re.findall(r"<span class='bpe-byte'>(\w\w)</span>", flag_row)) == "🇦🇶".encode().hex()
    fam_row = re.search(rf"<tr><td class='bpe-glyph'>{family}</td>.*?</tr>", graph, re.S).group(0)
    assert fam_row.count("zero width joiner") == 2 and "f0 9f 91 a8".replace(" ", "") in "".join(
        re.findall(r"<span class='bpe-byte'>(\w\w)</span>", fam_row)
    )
    assert token_ids(fam_row.split("</td><td>")[-1]) == list(btok.encode_piece(family))


def test_bbpe_on_the_chinese_emoji_preset_and_bad_text():
    at = open_page("bbpe", preset="zh-emoji")
    at.radio(key="w.pg.bbpe.source").set_value("text").run()
    no_exception(at)
    char, byte = bbpe_runs(pretokenizer="gpt2")  # the preset's pre-tokenizer, the page's 300 merges
    assert f"data-base='{char.num_base}'" in body_with(at, "bbpe-base-char")
    assert "data-unk='6'" in body_with(at, "bbpe-unseen-char")
    # Back to the sidebar corpus.
    at.radio(key="w.pg.bbpe.source").set_value("sidebar").run()
    no_exception(at)
    cfg = TrainConfig(variant="char", pretokenizer="gpt2", num_merges=40, min_frequency=2)
    sidebar_char = train(corpus_words(ZH_EMOJI, cfg), cfg)
    per_char = body_with(at, "bbpe-per-char")
    chars = sum(len(w) * f for w, f in zip(sidebar_char.words, sidebar_char.freqs))
    assert f"data-per-char='{sidebar_char.corpus_tokens(sidebar_char.num_steps) / chars:.4f}'" in per_char
    # An empty text box is a message, HTML in the text to encode is escaped.
    at.radio(key="w.pg.bbpe.source").set_value("text").run()
    at.text_area(key="w.pg.bbpe.text").input("   ").run()
    no_exception(at)
    assert "empty" in errors(at)
    at.text_area(key="w.pg.bbpe.text").input("<b>hi</b> <b>hi</b>").run()
    at.text_input(key="w.pg.bbpe.unseen").input("<script>alert(1)</script>").run()
    no_exception(at)
    # The only scripts on the page are the app's own, in the sidebar: the text box guard and the stepper's script.
    own = [b for b in bodies(at) if b in (text_box_guard_html(), stepper_script_html())]
    assert len(own) == 2 and all("<script>" in b for b in own)
    joined = "".join(b for b in bodies(at) if b not in own)
    assert "<script" not in joined and "<b>hi</b>" not in joined
    assert "&lt;script&gt;" in body_with(at, "bbpe-unseen-byte")


# ---------------------------------------------------------------------------------- encode & decode
def test_encode_page_ids_replay_and_decode_agree_with_bpe_core():
    at = open_page("encode")
    no_exception(at)
    run = textbook_run("eow")
    tok = Tokenizer.from_run(run)
    text = "lowest newer wider"
    ids, traces = tok.encode_with_trace(text)
    assert token_ids(element(body_with(at, "enc-tokens"), "enc-tokens")) == ids
    assert f"data-tokens='{len(ids)}'" in body_with(at, "enc-summary")

    # Replay: Next twice shows the text after the two lowest-ranked merges it uses (bpe_core's Replay).
    replay = tok.replay(text)
    numbers = sorted({s.merge_number for tr in traces for s in tr.steps})
    assert [s.merge_number for s in replay.steps] == numbers and numbers[:3] == [1, 2, 3]
    at.button(key="enc.next").click().run()
    at.button(key="enc.next").click().run()
    assert "data-step='2'" in body_with(at, "id='enc-replay-label'")
    shown = body_with(at, "id='enc-replay-tokens'")
    expected = []
    for tr in traces:
        cur = tr.start
        for s in tr.steps:
            if s.merge_number <= numbers[1]:
                cur = s.tokens
        expected.extend(cur)
    assert token_ids(element(shown, "enc-replay-tokens")) == expected == replay.ids_at(2)
    assert f"data-merge='{numbers[1]}'" in shown
    # The same step control as the stepper's: the number box jumps, Last goes to the end.
    jump_widget(at, "box", "enc").set_value(1).run()
    assert token_ids(element(body_with(at, "id='enc-replay-tokens'"), "enc-replay-tokens")) == replay.ids_at(1)
    at.button(key="enc.last").click().run()
    assert token_ids(element(body_with(at, "id='enc-replay-tokens'"), "enc-replay-tokens")) == ids

    # Ids -> text.
    assert text_of(element(body_with(at, "enc-decoded"), "enc-decoded")) == tok.decode(ids) == text
    at.text_input(key=next(t.key for t in at.text_input if t.key.startswith("w.pg.enc.ids."))).input("15 13, 9").run()
    assert text_of(element(body_with(at, "enc-decoded"), "enc-decoded")) == tok.decode([15, 13, 9])
    for bad, message in (("12 x", "not a token id"), ("99999", "unknown token id")):
        at.text_input(key=next(t.key for t in at.text_input if t.key.startswith("w.pg.enc.ids."))).input(bad).run()
        no_exception(at)
        assert message in errors(at), errors(at)

    # Fewer merges: the tokenizer after step 3 (the page's own step control, above the replay's).
    jump_widget(at, "slider", "enc-k").set_value(3).run()
    no_exception(at)
    assert "data-step='3'" not in body_with(at, "id='enc-replay-label'")  # the replay's step is its own
    # The arrow keys stay with the replay: the tokenizer's step control has no shortcut.
    assert at.button(key="enc.next").proto.shortcut and not at.button(key="enc-k.next").proto.shortcut
    assert token_ids(element(body_with(at, "enc-tokens"), "enc-tokens")) == Tokenizer.from_run(run, 3).encode(text)


def test_encode_page_rank_vs_longest_match_and_unknown_characters():
    at = open_page("encode", preset="pg16457-chapter")
    no_exception(at)
    text = PRESETS["pg16457-chapter"].load_text()
    cfg = TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=200, min_frequency=2)
    run = train(corpus_words(text, cfg), cfg)
    tok = Tokenizer.from_run(run)
    sample = "Their last farewells were said in the vast silence of space."
    diffs = [(p, a, b) for p, a, b in tok.compare_methods(sample) if a != b]
    assert diffs, "the sample should show the two methods disagreeing"
    table = body_with(at, "enc-diffs")
    rows = re.findall(r"<tr><td class='word'>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", table, re.S)
    assert [(html.unescape(w)) for w, _, _ in rows] == [p for p, _, _ in diffs]
    for (_word, by_rank, longest), (_p, a, b) in zip(rows, diffs):
        assert token_ids(by_rank) == a and token_ids(longest) == b
    # Characters the corpus never had are <unk> for an eow model.
    at.text_area(key=next(t.key for t in at.text_area if t.key.startswith("w.pg.enc.text."))).input("Ωmega").run()
    no_exception(at)
    assert "data-unk='1'" in body_with(at, "enc-summary")
    assert "bpe-chip unk" in body_with(at, "enc-tokens")


# ---------------------------------------------------------------------------------- how BPE works
def test_how_bpe_works_states_the_trainers_rules_and_computes_the_examples():
    import bpe_core

    at = open_page("how")
    no_exception(at)
    markdown = " ".join(m.value for m in at.markdown)
    # The rules come from the trainer's own docstring and RULES, not a copy (in the developers' part).
    trainer_doc = __import__("importlib").import_module("bpe_core.algorithms.trainer").__doc__
    for phrase in ("Overlapping windows all count", "**Choosing.**", "**Stopping.**", "karpathy/minbpe"):
        assert phrase in trainer_doc and phrase in markdown, phrase
    joined = " ".join(text_of(b) for b in bodies(at))
    for rule in ("first-seen", "hf", "lexical", "counting", "applying", "stopping"):
        assert text_of(html.escape(bpe_core.RULES[rule])) in joined, rule

    # Worked example: the first three merges of the textbook corpus.
    run = textbook_run("eow")
    for step in (1, 2, 3):
        pairs = body_with(at, f"how-merge-{step}")
        top = re.search(r"<tr class='chosen'>.*?</tr>", pairs, re.S).group(0)
        snap = run.snapshot(step)
        assert token_ids(top) == [snap.left, snap.right] and f"<td class='num'>{snap.count}</td>" in top
    assert [run.token_text(run.snapshot(s).token) for s in (1, 2, 3)] == ["es", "est", "est</w>"]

    # a a a: counted with overlaps, rewritten without.
    overlap = train(
        {"aaa": 1, "aaaa": 1}, TrainConfig(variant="char", pretokenizer="whitespace", num_merges=1, min_frequency=1)
    )
    snap = overlap.snapshot(1)
    assert (snap.count, snap.occurrences) == (5, 3)
    assert "data-count='5' data-places='3'" in body_with(at, "how-overlap")

    # Ties: each rule's first three merges, as bpe_core trains them.
    ties = body_with(at, "how-ties")
    for rule in ("first-seen", "hf", "lexical"):
        r = textbook_run("eow", tie_break=rule)
        row = re.search(rf"<tr data-rule='{rule}'>.*?</tr>", ties, re.S).group(0)
        for step in (1, 2, 3):
            cell = re.search(rf"<td class='pair' data-step='{step}'>.*?</td>", row, re.S).group(0)
            assert token_ids(cell) == [r.snapshot(step).left, r.snapshot(step).right], (rule, step)
    lexical = textbook_run("eow", tie_break="lexical")
    assert [lexical.token_text(lexical.snapshot(1).left), lexical.token_text(lexical.snapshot(1).right)] == [
        "t",
        "</w>",
    ]

    # Sources.
    for link in ("arxiv.org/abs/1508.07909", "aclanthology.org/P16-1162", "pennelynn.com", "language_models_are_unsupervised_multitask_learners",
                 "tiktoken/blob/main/tiktoken/_educational.py", "huggingface/tokenizers", "rsennrich/subword-nmt", "karpathy/minbpe"):  # fmt: skip
        assert link in markdown, link
