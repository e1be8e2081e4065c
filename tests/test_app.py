"""The stepper (app.py) through Streamlit's AppTest, plus the ui/ helpers it is built from.

These run the real script: sidebar -> shared run cache -> render. No browser (see
test_app_browser.py for that).
"""

from __future__ import annotations

import re
import threading

import pytest
from app_helpers import PAGES, REPO, TIMEOUT, bodies, body_with, jump_widget, new_app, no_exception, shown_step, text_of
from streamlit.testing.v1 import AppTest
from textbook import TEXTBOOK_WORDS

from bpe_core import TrainConfig, train
from ui import chips, settings
from ui.corpus import PRESETS, PRESETS_DIR, Corpus, digest_of
from ui.corpus_panel import find_token, merge_tree_html
from ui.explain import merge_reason, stop_reason_text
from ui.run_cache import RunCache
from ui.text import esc, md_escape, visible
from ui.training import get_run


def merge_line(at: AppTest) -> str:
    """The merge card's head, e.g. 'Merge 1: e + s → es count 9'."""
    card = body_with(at, "bpe-merge-card")
    head = re.search(r"<div class='bpe-merge'.*?</div>", card, re.S).group(0)
    return " ".join(text_of(head).split())


# ------------------------------------------------------------------------------ default preset
def test_default_preset_loads_with_no_input():
    at = new_app()
    no_exception(at)
    assert not at.error
    assert shown_step(at) == (0, 10)
    assert "Start: every word is split into its characters" in text_of(body_with(at, "bpe-merge-card"))
    corpus = text_of(body_with(at, "bpe-corpus"))
    for word in ("low", "lower", "newest", "widest"):
        assert word in corpus
    assert dict(at.query_params) == {"preset": "textbook-low", "step": "0"}


# ------------------------------------------------------------------------------ step controls
def test_step_buttons_move_and_write_the_url():
    at = new_app()
    at.button(key="stepper.next").click().run()
    assert shown_step(at) == (1, 10)
    assert merge_line(at) == "Merge 1: e + s → es count 9"
    reason = text_of(body_with(at, "bpe-reason"))
    assert "e + s occurs 9 times: 6 in newest, 3 in widest." in reason
    assert "3 pairs were tied at 9 and the first-seen rule chose e + s" in reason
    assert at.query_params["step"] == "1"

    at.button(key="stepper.next").click().run()
    assert shown_step(at)[0] == 2
    assert merge_line(at) == "Merge 2: es + t → est count 9"
    at.button(key="stepper.prev").click().run()
    assert shown_step(at)[0] == 1
    at.button(key="stepper.last").click().run()
    assert shown_step(at) == (10, 10)
    assert at.button(key="stepper.next").disabled
    at.button(key="stepper.first").click().run()
    assert shown_step(at)[0] == 0
    assert at.button(key="stepper.prev").disabled

    jump_widget(at, "slider", "stepper").set_value(7).run()
    assert shown_step(at)[0] == 7
    jump_widget(at, "box", "stepper").set_value(3).run()
    assert shown_step(at)[0] == 3
    assert merge_line(at) == "Merge 3: est + </w> → est</w> count 9"
    assert at.query_params["step"] == "3"
    no_exception(at)


def test_a_press_sent_with_the_slider_and_box_of_the_step_before_still_moves_on():
    # Quick presses: the page sends the second press before it has taken the server's new step into the
    # slider and the number box, so they come with the step before the first press. They once moved the
    # step back there, and the second press only redid the first (a held → lost steps).
    at = new_app(step=3)
    at.button(key="stepper.next").click().run()
    assert shown_step(at)[0] == 4
    jump_widget(at, "slider", "stepper").set_value(3)
    jump_widget(at, "box", "stepper").set_value(3)
    at.button(key="stepper.next").click().run()
    assert shown_step(at)[0] == 5
    jump_widget(at, "slider", "stepper").set_value(4)
    at.button(key="stepper.prev").click().run()
    assert shown_step(at)[0] == 4
    # A drag or a typed step alone still moves it.
    jump_widget(at, "slider", "stepper").set_value(8).run()
    assert shown_step(at)[0] == 8
    jump_widget(at, "box", "stepper").set_value(2).run()
    assert shown_step(at)[0] == 2
    no_exception(at)


def test_step_from_the_url_first_and_later_reruns():
    at = new_app(step=5)
    assert shown_step(at) == (5, 10)
    assert merge_line(at) == "Merge 5: lo + w → low count 7"
    # A later rerun with a changed query string (as the load benchmark sends) is adopted too.
    at.query_params["step"] = "8"
    at.run()
    assert shown_step(at)[0] == 8
    # ...while a rerun with the URL the app wrote keeps the session's own step.
    at.button(key="stepper.prev").click().run()
    assert shown_step(at)[0] == 7
    at.run()
    assert shown_step(at)[0] == 7


def test_a_url_the_app_wrote_before_sent_again_keeps_the_sessions_step():
    # A page one run behind sends the URL of the run before with its next message (a sidebar click as a
    # step arrives): that is no link to follow, the session keeps its step (ui/persist.py, put_back_if_old).
    at = new_app(step=5)
    at.button(key="stepper.next").click().run()
    assert shown_step(at)[0] == 6 and at.query_params["step"] == "6"
    at.query_params["step"] = "5"
    at.run()
    assert shown_step(at)[0] == 6 and at.query_params["step"] == "6"


def test_url_carries_preset_and_settings():
    at = new_app(preset="textbook-lowest", tie="lexical", merges=4, step=1)
    no_exception(at)
    assert at.selectbox(key="w.preset").value == "textbook-lowest"
    assert at.selectbox(key="w.tie").value == "lexical"
    assert shown_step(at) == (1, 4)
    # Only what differs from the preset's recommended settings is written back, and the step always.
    assert dict(at.query_params) == {"preset": "textbook-lowest", "merges": "4", "tie": "lexical", "step": "1"}


def test_bad_url_values_give_messages_not_exceptions():
    at = new_app(preset="no-such-preset", step="abc", variant="quantum", minf="-3")
    no_exception(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "unknown preset" in warnings
    assert "step" in warnings and "quantum" in warnings and "minf" in warnings
    assert shown_step(at) == (0, 10)
    at.query_params["step"] = "999"
    at.run()
    assert shown_step(at) == (10, 10)  # clamped to the last step


# ------------------------------------------------------------------------------ settings
def test_settings_change_the_results():
    at = new_app(step=1)
    assert merge_line(at).startswith("Merge 1: e + s")
    at.selectbox(key="w.tie").select("lexical").run()
    # subword-nmt's rule: the tied pair last in code-point order (e s, s t, t </w>).
    assert merge_line(at).startswith("Merge 1: t + </w>")
    at.selectbox(key="w.tie").select("first-seen").run()
    at.radio(key="w.eow").set_value("attached").run()
    assert merge_line(at).startswith("Merge 1: e + s")
    assert "t</w>" in text_of(body_with(at, "bpe-corpus"))
    at.number_input(key="w.merges").set_value(3).run()
    assert shown_step(at) == (1, 3)
    at.selectbox(key="w.variant").select("char").run()
    assert "</w>" not in text_of(body_with(at, "bpe-corpus"))
    assert at.query_params["variant"] == "char"
    at.number_input(key="w.minf").set_value(50).run()
    no_exception(at)
    assert shown_step(at) == (0, 0)
    card = text_of(body_with(at, "bpe-merge-card"))
    assert "the most frequent pair left occurs 9 times, below the minimum frequency of 50" in card


def test_vocabulary_size_limit():
    at = new_app()
    at.radio(key="w.limit").set_value("vocab").run()
    at.number_input(key="w.vocab").set_value(14).run()
    no_exception(at)
    assert shown_step(at) == (0, 3)  # 11 base symbols + 3 merges
    assert at.query_params["vocab"] == "14"


def test_byte_display_modes_and_partial_tokens():
    at = new_app(preset="nihao", step=1)
    card = body_with(at, "bpe-merge-card")
    assert "partial" in card and "\\xe4\\xbd" in card  # utf8 mode: orphan bytes as \xNN
    at.radio(key="w.bytes").set_value("hex").run()
    card = body_with(at, "bpe-merge-card")
    assert "e4 bd" in card
    at.radio(key="w.bytes").set_value("gpt2").run()
    card = body_with(at, "bpe-merge-card")
    assert '<span class="hex">e4 bd</span>' in card  # gpt2 mode: hex under partial tokens
    assert at.query_params["bytes"] == "gpt2"


def test_presentation_mode_fewer_controls_and_palette():
    at = new_app(present=1, step=2)
    no_exception(at)
    assert at.toggle(key="w.present").value is True
    assert not at.slider  # no jump slider, no number box
    assert not [n for n in at.number_input if (n.key or "").startswith("stepper.box.")]
    css = "".join(bodies(at))
    assert "html { font-size: 21px; }" in css
    assert chips.PALETTE_COLOURBLIND[0] in css or any(c in css for c in chips.PALETTE_COLOURBLIND)
    assert not any(c in css for c in chips.PALETTE if c not in chips.PALETTE_COLOURBLIND)


# ------------------------------------------------------------------------------ input
def test_paste_text_and_word_counts():
    at = new_app()
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input("hug hug hug pug pun bun hugs").run()
    no_exception(at)
    assert not at.error
    at.button(key="stepper.next").click().run()
    assert merge_line(at).startswith("Merge 1: u + g")
    assert "preset" not in at.query_params

    at.radio(key="w.source").set_value("words").run()
    at.text_area(key="w.words").input("low 5\nlower 2\nnewest 6\nwidest 3").run()
    at.button(key="stepper.next").click().run()
    assert merge_line(at) == "Merge 1: e + s → es count 9"


@pytest.mark.parametrize("source", ["paste", "words", "upload"])
def test_a_source_chosen_before_anything_is_given_hints_without_an_error(source):
    # Choosing "Paste text" (or word counts, or a file) is not a mistake: the empty box says what to do, in blue.
    at = new_app()
    at.radio(key="w.source").set_value(source).run()
    no_exception(at)
    assert not at.error and not at.warning, [e.value for e in at.error]
    assert any("sidebar" in i.value for i in at.info), [i.value for i in at.info]
    if source != "upload":  # text the pre-tokenizer cannot use is still an error
        at.text_area(key=f"w.{source}").input("   ").run()
        assert "empty" in " ".join(e.value for e in at.error)


def test_upload_file_and_bad_files():
    at = new_app()
    at.radio(key="w.source").set_value("upload").run()
    at.file_uploader(key="w.upload").set_value(("low.txt", b"low low lower newest newest", "text/plain")).run()
    no_exception(at)
    assert not at.error
    assert shown_step(at)[1] > 0
    at.file_uploader(key="w.upload").set_value(("latin1.txt", "caf\xe9 caf\xe9".encode("latin-1"), "text/plain")).run()
    errors = " ".join(e.value for e in at.error)
    assert "not valid UTF" in errors
    at.file_uploader(key="w.upload").set_value(("img.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "text/plain")).run()
    assert "binary" in " ".join(e.value for e in at.error)
    no_exception(at)


@pytest.mark.parametrize(
    "variant, text, expected",
    [
        ("eow", "   \n\t  ", "The text is empty"),
        ("char", "a", "no adjacent pair is left"),
        ("eow", "a", "the most frequent pair left occurs 1 time, below the minimum frequency of 2"),
    ],
)
def test_degenerate_texts_explain_themselves(variant, text, expected):
    at = new_app(variant=variant)
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input(text).run()
    no_exception(at)
    shown = " ".join(e.value for e in at.error) + " ".join(bodies(at))
    assert expected in shown


def test_bad_inputs_show_messages():
    at = new_app()
    at.radio(key="w.source").set_value("words").run()
    at.text_area(key="w.words").input("low 5\nlower two").run()
    no_exception(at)
    assert "Line 2" in " ".join(e.value for e in at.error)

    at = new_app()
    at.number_input(key="w.merges").set_value(settings.max_merges() + 1).run()
    no_exception(at)
    assert f"the limit is {settings.max_merges():,}" in " ".join(e.value for e in at.error).replace("\\", "")

    at = new_app()
    at.text_input(key="w.marker").input("a b").run()
    no_exception(at)
    assert "marker" in " ".join(e.value for e in at.error)


def test_text_size_limit(monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "100")
    at = new_app()
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input("word " * 50).run()
    no_exception(at)
    message = " ".join(e.value for e in at.error).replace("\\", "")
    assert "This text is 250 bytes; this server accepts texts up to 100 bytes" in message


def test_pasted_html_is_escaped_everywhere():
    evil = "<img src=x onerror=alert(1)><style>*{display:none}</style> **bold** :red[x] $x$"
    at = new_app()
    at.radio(key="w.source").set_value("paste").run()
    at.text_area(key="w.paste").input(evil).run()
    at.number_input(key="w.minf").set_value(1).run()
    at.button(key="stepper.next").click().run()
    no_exception(at)
    for b in bodies(at):
        assert "<img" not in b
        # Our own CSS is one st.html of <style> blocks; no other element holds a tag the user wrote.
        if b.lstrip().startswith("<style>"):
            assert "*{display:none}" not in b
        else:
            assert "<style>" not in b
    corpus = body_with(at, "bpe-corpus")
    assert "&lt;img" in corpus and "&lt;/style&gt;" in corpus
    # Nothing the user wrote reaches Markdown unescaped.
    for el in list(at.markdown) + list(at.caption) + list(at.error) + list(at.warning):
        assert "<img" not in el.value and "**bold**" not in el.value


# ------------------------------------------------------------------------------ helpers
def test_visible_whitespace_and_controls():
    assert visible(" the\n") == "␣the↵"
    assert visible("a\tb\r") == "a→b⇤"
    assert visible("\x01") == "‹SOH›"
    assert visible("\u200d") == "U+200D"
    assert visible("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # kept inside an emoji sequence
    assert esc("<b> & 'q'") == "&lt;b&gt;␣&amp;␣&#x27;q&#x27;"
    assert md_escape(":red[x] **y**") == r"\:red\[x\] \*\*y\*\*"


def test_merge_reason_and_stop_reason_texts():
    cfg = TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=10)
    run = train(PRESETS["textbook-low"].words, cfg)
    assert merge_reason(run, 1) == (
        "e + s occurs 9 times: 6 in newest, 3 in widest. 3 pairs were tied at 9 and the first-seen rule "
        "chose e + s (its first occurrence comes earliest in the corpus); also tied: s + t, t + </w>."
    )
    assert merge_reason(run, 9) == "low + </w> occurs 5 times: all in low. No other pair occurs 5 times."
    assert stop_reason_text(run) == "Training stopped after the 10 merges asked for."
    run = train({"aaaa": 1}, TrainConfig(variant="char", min_frequency=1))
    assert "Overlapping windows all count" in merge_reason(run, 1)
    assert "(3 × 1)" not in merge_reason(run, 1)  # freq 1: no multiplication shown


def test_merge_tree_and_token_lookup():
    cfg = TrainConfig(variant="eow", pretokenizer="whitespace", num_merges=10)
    run = train(PRESETS["textbook-low"].words, cfg)
    tid = find_token(run, "est</w>")
    assert tid is not None and run.created_step[tid] == 3
    assert find_token(run, "est</w>", step=2) is None  # not made yet at step 2
    tree = text_of(merge_tree_html(run, tid))
    assert tree.split() == ["est</w>", "step", "3", "est", "step", "2", "es", "step", "1", "e", "base", "s", "base",
                            "t", "base", "</w>", "base"]  # fmt: skip


def test_presets_are_in_the_repo_and_carry_provenance():
    assert (PRESETS_DIR / "README.md").exists()
    readme = (PRESETS_DIR / "README.md").read_text(encoding="utf-8")
    for preset in PRESETS.values():
        assert preset.provenance
        if preset.file:
            assert (PRESETS_DIR / preset.file).exists()
            assert preset.file in readme
    book = PRESETS["pg16457-book"].load_text()
    # the source's CR LF line ends are stored as LF (495,815 bytes with CR LF; 9,663 lines)
    assert len(book.encode("utf-8")) == 486_152 and "\r" not in book and book.count("\n") == 9_663
    for preset in PRESETS.values():
        assert preset.words is not None or "\r" not in preset.load_text()
    for pid in ("zh-emoji", "zh-hant-emoji"):  # emoji sequences, and no flags (regional-indicator pairs)
        text = PRESETS[pid].load_text()
        assert "👨\u200d👩\u200d👧" in text and "👍🏽" in text and "❤️" in text
        assert not any(0x1F1E6 <= ord(c) <= 0x1F1FF for c in text)
        assert not any(0x1F1E6 <= ord(c) <= 0x1F1FF for c in PRESETS[pid].title)
    # The Traditional text is Traditional: none of the Simplified forms of its characters.
    assert not set("们说爱开乐园气") & set(PRESETS["zh-hant-emoji"].load_text())


# ------------------------------------------------------------------------------ shared cache
# These go through ui.training.get_run, the function every page calls (run bare, outside a Streamlit
# script: its progress slot and error message are then no-ops), with a cache of their own.
TINY = TrainConfig(variant="char", num_merges=2, min_frequency=1)


def _tiny_run(cfg=TINY):
    return train({"abcabc": 2, "abd": 1}, cfg)


def _corpus(name: str, load) -> Corpus:
    """A corpus whose words come from ``load(config)`` (the test decides when and what)."""
    return Corpus(digest_of(name), 1000, name, _load=load)


def test_run_cache_trains_once_for_concurrent_sessions():
    cache = RunCache(max_entries=4, max_bytes=10**9)
    calls = []
    gate = threading.Event()

    def load(cfg):
        calls.append(1)
        gate.wait(10)  # every session asks while the one training is still running
        return {"abcabc": 2, "abd": 1}

    corpus = _corpus("k", load)
    results = []
    threads = [threading.Thread(target=lambda: results.append(get_run(corpus, TINY, cache))) for _ in range(8)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join(30)
    assert len(calls) == 1 and len(results) == 8 and len({id(r) for r in results}) == 1
    assert results[0] is not None and results[0].num_steps == 2
    assert cache.get((corpus.digest, TINY)) is results[0] and cache.trainings == 1
    assert get_run(corpus, TINY, cache) is results[0] and cache.trainings == 1  # a later visit: no training


def test_run_cache_is_bounded_by_entries_and_bytes():
    words = lambda cfg: {"abcabc": 2, "abd": 1}  # noqa: E731
    cache = RunCache(max_entries=2, max_bytes=10**9)
    corpora = [_corpus(key, words) for key in ("a", "b", "c")]
    for corpus in corpora:
        assert get_run(corpus, TINY, cache) is not None
    assert len(cache) == 2 and cache.get((corpora[0].digest, TINY)) is None
    assert cache.get((corpora[2].digest, TINY)) is not None
    size = _tiny_run().memory_bytes()
    cache = RunCache(max_entries=10, max_bytes=2 * size + 2500)  # each run counts size + 1000 input bytes
    for corpus in corpora:
        get_run(corpus, TINY, cache)
    assert len(cache) == 2 and cache.total_bytes <= cache.max_bytes
    too_big = RunCache(max_entries=10, max_bytes=10)
    assert get_run(corpora[0], TINY, too_big) is not None
    assert len(too_big) == 0  # returned to the caller, not kept


def test_run_cache_hands_errors_to_every_waiter():
    cache = RunCache()

    def bad(cfg):
        raise ValueError("nope")

    corpus = _corpus("bad", bad)
    results = []
    threads = [threading.Thread(target=lambda: results.append(get_run(corpus, TINY, cache))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == [None, None, None]  # each session shows the message, none raises
    assert cache.get((corpus.digest, TINY)) is None and cache.trainings == 0


# ------------------------------------------------------------------------------ pages
def test_sidebar_and_step_survive_page_switches(tmp_path):
    """Every page draws the shared sidebar; switching pages keeps the input, the settings and the
    step (Streamlit gives the widgets of another page new identities)."""
    import shutil

    shutil.copytree(REPO / "app_pages", tmp_path / "app_pages")
    (tmp_path / "app_pages" / "other.py").write_text(
        "import streamlit as st\nfrom ui import persist, sidebar\nchoice = sidebar.sidebar()\n"
        "st.text(f'other page: {choice.label} step {persist.get_step()}')\nsidebar.write_url(choice)\n",
        encoding="utf-8",
    )
    (tmp_path / "app.py").write_text(
        "import streamlit as st\n"
        f"st.navigation([st.Page({PAGES['stepper']!r}, default=True), st.Page('app_pages/other.py')]).run()\n",
        encoding="utf-8",
    )
    at = AppTest.from_file(str(tmp_path / "app.py"), default_timeout=TIMEOUT).run()
    at.selectbox(key="w.preset").select("nihao").run()
    at.selectbox(key="w.tie").select("lexical").run()
    at.button(key="stepper.next").click().run()
    at.button(key="stepper.next").click().run()
    assert shown_step(at)[0] == 2
    at.switch_page("app_pages/other.py").run()
    no_exception(at)
    assert at.selectbox(key="w.preset").value == "nihao"
    assert at.selectbox(key="w.tie").value == "lexical"
    assert "step 2" in at.text[0].value
    at.switch_page(PAGES["stepper"]).run()
    no_exception(at)
    assert shown_step(at)[0] == 2
    assert at.selectbox(key="w.tie").value == "lexical"


def test_merge_tree_picker_follows_the_step_or_the_picked_token():
    at = new_app(step=8)

    def tree() -> list[str]:
        return text_of(body_with(at, "bpe-tree")).split()

    assert tree()[:3] == ["newest</w>", "step", "8"]  # default: this step's new token
    assert "newest</w>" in at.selectbox(key="w.vocab.tree").options
    at.selectbox(key="w.vocab.tree").set_value("est</w>").run()
    assert tree()[:3] == ["est</w>", "step", "3"]
    at.button(key="stepper.next").click().run()
    assert tree()[:3] == ["est</w>", "step", "3"]  # a picked token stays picked
    at.selectbox(key="w.vocab.tree").set_value("this step's new token").run()
    assert tree()[:3] == ["low</w>", "step", "9"]
    at.button(key="stepper.first").click().run()
    no_exception(at)


def test_a_link_to_a_step_not_trained_yet_waits_for_it_and_shows_it():
    # A run that takes seconds (one 486,084-character word, byte-level): the page waits for merge 2,000,
    # not for the end, and says how far training has got when it is still going.
    at = new_app(preset="pg16457-book", variant="byte", pre="none", merges="20000", minf="1", step="2000")
    no_exception(at)
    label = next(h.proto.body for h in at.get("html") if "bpe-step-label" in h.proto.body)
    assert 'data-step="2000"' in label
    if "so far" in label:
        assert "Training in the background" in " ".join(p.proto.text for p in at.get("progress"))


def test_a_training_job_hands_out_frozen_views_of_its_run():
    from bpe_core import Trainer
    from ui.run_cache import VIEW_REFRESH_S, _Job

    job = _Job(asked=50)
    assert job.view() is None  # nothing to show before the trainer has built its tables
    trainer = Trainer(dict(TEXTBOOK_WORDS), TrainConfig(variant="char", num_merges=50, min_frequency=1))
    job.started(trainer.run)
    steps = trainer.steps()
    next(steps)
    first = job.view()
    assert first.num_steps == 1 and first.view_of is trainer.run
    next(steps)
    assert job.view() is first  # reused for a moment: its memo stays warm between clicks
    job._view_at -= VIEW_REFRESH_S
    newer = job.view()
    assert newer.num_steps == 2 and first.num_steps == 1
