"""Robustness of the app (issue 6): every bad input of the issue through the sidebar's widgets.

Each case runs app.py with Streamlit's AppTest, feeds the input through the sidebar (pasted text,
an uploaded file or a word-count list; the Files page for vocab.json + merges.txt), and checks:
no exception, a clear message (``st.error``) or, for inputs that are merely small, a run that stops
early and says why -- then that the session is still usable (back to a preset, one step forward).

Cases with 1 MB of input run in a subprocess with a hang guard: a rerun that never ends (the
script thread holds the GIL) must fail the test, not hang the suite. They check what holds on any
machine (one training, reused; a step draws no more for 1 MB than for 100 kB); the seconds are
benchmarks/big_paste.py's.

A lone surrogate cannot travel through AppTest (protobuf needs UTF-8), so here it is an upload
of a file with a UTF-8-encoded surrogate (not UTF-8); test_robust_paste_browser.py pastes in a real
Chromium what only a browser sends: 30 MB of text, and a lone surrogate.
"""

from __future__ import annotations

import json
import random

import pytest
from app_helpers import APP, PAGES, errors, new_app, no_exception, page_text, paste, shown_step, upload
from core_checks import run_bounded
from streamlit.testing.v1 import AppTest

FILES_PAGE = PAGES["files"]


# ------------------------------------------------------------------------------------- helpers
def set_settings(at: AppTest, **settings) -> AppTest:
    for key, value in settings.items():
        at.number_input(key=f"w.{key}").set_value(value).run()
        no_exception(at)
    return at


def word_counts(at: AppTest, text: str) -> AppTest:
    at.radio(key="w.source").set_value("words").run()
    at.text_area(key="w.words").input(text).run()
    return at


def assert_still_usable(at: AppTest) -> None:
    """After a bad input the same session can pick a preset and step."""
    no_exception(at)
    at.radio(key="w.source").set_value("preset").run()
    no_exception(at)
    assert not at.error, errors(at)
    assert shown_step(at).step == 0
    at.button(key="stepper.next").click().run()
    no_exception(at)
    assert shown_step(at).step == 1


def assert_message(at: AppTest, *needles: str) -> None:
    no_exception(at)
    assert at.error, f"no error message; the page says: {page_text(at)[:500]}"
    text = errors(at)
    for needle in needles:
        assert needle.lower() in text.lower(), (needle, text)


def assert_trains_and_steps(at: AppTest) -> None:
    """The input trains: no error, a stepper, and Next moves to step 1."""
    no_exception(at)
    assert not at.error, errors(at)
    assert shown_step(at).step == 0, page_text(at)[:500]
    at.button(key="stepper.next").click().run()
    no_exception(at)
    assert shown_step(at).step == 1


# ------------------------------------------------------------------------------- pasted text
@pytest.mark.parametrize(
    "text, needles",
    [
        ("   \n\t  \r\n  \u00a0 ", ["empty"]),
        ("low\x00lower", ["NUL"]),
        ("word " * 4_000_000, ["20.0 MB", "up to 5.0 MB", "shorter text"]),
    ],
    ids=["whitespace-only", "nul", "20MB"],
)
def test_pasted_text_refused_with_a_message(text, needles):
    at = paste(new_app(), text)
    assert_message(at, *needles)
    assert_still_usable(at)


def test_size_limit_is_configurable_and_named(monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "2000")
    at = paste(new_app(), "low lower " * 300)
    assert_message(at, "3.0 kB", "up to 2.0 kB", "shorter text")
    assert "BPE_EXPLORER_MAX_BYTES" not in errors(at)  # the README names it: a student cannot set it
    at.text_area(key="w.paste").input("low lower " * 100).run()  # 1,000 bytes: fine
    assert_trains_and_steps(at)


@pytest.mark.parametrize(
    "text, cut",
    [("a" * 2001, True), ("\U0001f600" * 1000 + "a", True), ("a" * 2002, False), ("\U0001f600" * 1001, False)],
    ids=["ascii-at-cap", "emoji-at-cap", "ascii-over-cap", "emoji-over-cap"],
)
def test_paste_cut_by_the_browser_says_so(monkeypatch, text, cut):
    # With a 2,000-byte limit the browser's text box guard cuts pastes at 2,001 UTF-16 code units
    # (an emoji is two); a value of exactly that length is a cut paste, anything else is not.
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "2000")
    at = paste(new_app(), text)
    if cut:
        assert_message(at, "was cut", "2,001 characters", "2.0 kB", "shorter text")
        assert "BPE_EXPLORER_MAX_BYTES" not in errors(at)  # the README names it: a student cannot set it
    else:
        assert_message(at, "up to 2.0 kB", "shorter text")
        assert "BPE_EXPLORER_MAX_BYTES" not in errors(at)
        assert "was cut" not in errors(at)
    assert_still_usable(at)


@pytest.mark.parametrize(
    "variant, text, settings, said",
    [
        ("char", "a", {"minf": 1}, "no adjacent pair is left"),
        ("byte", "a", {"minf": 1}, "no adjacent pair is left"),
        ("eow", "a", {}, "below the minimum frequency of 2"),
        ("char", "low lower newest", {"minf": 1000}, "below the minimum frequency of 1,000"),
    ],
    ids=["single-char", "single-byte", "single-char-eow", "min-frequency-above-all"],
)
def test_inputs_that_cannot_merge_say_why(variant, text, settings, said):
    at = new_app(variant=variant)
    set_settings(at, **settings)
    paste(at, text)
    no_exception(at)
    assert not at.error, errors(at)
    assert said in page_text(at), page_text(at)[:800]
    assert_still_usable(at)


@pytest.mark.parametrize("variant", ["char", "eow", "byte"])
def test_more_merges_than_possible_stop_early_and_say_why(variant):
    at = new_app(variant=variant)
    set_settings(at, minf=1, merges=5000)
    paste(at, "abc abc abd")
    no_exception(at)
    assert not at.error, errors(at)
    at.button(key="stepper.last").click().run()
    no_exception(at)
    last = shown_step(at)
    assert last is not None and 0 < last.step < 20
    assert "no adjacent pair is left" in page_text(at), page_text(at)[:800]
    assert_still_usable(at)


AWKWARD = {
    "control-chars": "low\x01low \x1b[31mlow\x1b[0m \x7flower\x07 lower\x0c lower\x08",
    "crlf-and-cr": "low low\r\nlower lower\rnewest newest\r\n\r\nwidest\r",
    "rtl": "שלום שלום עולם مرحبا مرحبا بالعالم",
    "bidi-marks": "abc\u200fabc \u202eevil\u202c \u202eevil\u202c \u2066iso\u2069 \u200e\u200f\u061c",
    "combining": "e\u0301te\u0301 e\u0301te\u0301 Z\u0351\u0362\u036ba\u0310 n\u0303 n\u0303",
    "zwj-flags-skin": "👨\u200d👩\u200d👧 👨\u200d👩\u200d👧 🇨🇳🇺🇸 🇨🇳 👍🏻 👍🏽 👍🏿 👍🏽",
    "bom-in-paste": "\ufefflow low lower lower",
}


@pytest.mark.parametrize("variant", ["char", "eow", "byte"])
@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_awkward_but_valid_text_trains(name, variant):
    at = new_app(variant=variant)
    set_settings(at, minf=1)
    paste(at, AWKWARD[name])
    assert_trains_and_steps(at)
    assert_still_usable(at)


# ------------------------------------------------------------------------------------- uploads
@pytest.mark.parametrize(
    "data, needles",
    [
        (bytes.fromhex("89504e470d0a1a0a0000000d49484452") + bytes(64), ["binary"]),
        (b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)), ["binary"]),
        ("low lower newest".encode("utf-16"), ["UTF-16"]),
        ("low lower newest".encode("utf-16-le"), ["NUL"]),
        ("café crème".encode("latin-1"), ["UTF-8", "byte 3"]),
        (b"low \xed\xa0\x80 lower", ["UTF-8"]),  # a surrogate, UTF-8-encoded: not UTF-8
        (b"word " * 4_000_000, ["20.0 MB", "up to 5.0 MB", "shorter text"]),
        (b"", ["empty"]),
        (b"  \r\n\t ", ["empty"]),
    ],
    ids=["png", "zip", "utf16", "utf16-no-bom", "latin1", "surrogate", "20MB", "empty", "whitespace"],
)
def test_bad_uploads_refused_with_a_message(data, needles):
    at = upload(new_app(), "students-file.txt", data)
    assert_message(at, *needles)
    assert_still_usable(at)


def test_upload_with_utf8_bom_trains_without_the_bom():
    at = new_app(variant="char")
    set_settings(at, minf=1)
    upload(at, "bom.txt", b"\xef\xbb\xbflow low lower")
    assert_trains_and_steps(at)
    assert "\ufeff" not in page_text(at)


# ---------------------------------------------------------------------------- word-count lists
@pytest.mark.parametrize(
    "text, needles",
    [
        pytest.param("low 5\nlower -2", ["Line 2", "positive"], id="negative"),
        pytest.param("low 5\nlower 0", ["Line 2", "positive"], id="zero"),
        pytest.param("low 5\nlower two", ["Line 2", "whole number"], id="non-numeric"),
        pytest.param("low 5\nlower 2.5", ["Line 2", "whole number"], id="fraction"),
        pytest.param("low 5\nlower 10000000000000", ["Line 2", "limit"], id="huge"),
        pytest.param("low 5\nlower " + "9" * 5000, ["Line 2", "limit"], id="5000-digits"),
        pytest.param("low 5\nlower", ["Line 2"], id="missing-count"),
        pytest.param("low 5\nlow er 2", ["Line 2"], id="three-fields"),
        pytest.param("low 5\x00", ["NUL"], id="nul"),
    ],
)
def test_bad_word_count_lists_name_the_line(text, needles):
    at = word_counts(new_app(), text)
    assert_message(at, *needles)
    assert_still_usable(at)


def test_word_counts_at_the_largest_count_train():
    at = word_counts(new_app(), "low 1000000000000\nlower 2\nnewest 6\nwidest 3")
    assert_trains_and_steps(at)


# -------------------------------------------------------------------------------------- settings
def test_settings_out_of_range_give_messages():
    from ui.settings import max_merges

    at = new_app()
    at.number_input(key="w.merges").set_value(max_merges() + 1).run()
    assert_message(at, f"{max_merges():,}")
    at.number_input(key="w.merges").set_value(10).run()
    no_exception(at)
    assert not at.error
    at.text_input(key="w.marker").input("a b").run()
    assert_message(at, "marker")
    at.text_input(key="w.marker").input("</w>").run()
    assert_still_usable(at)


def test_bad_url_values_give_notes_not_exceptions():
    at = new_app(preset="no-such-preset", step="-4", merges="many", variant="words", minf="0")
    no_exception(at)
    notes = " ".join(w.value for w in at.warning)
    for needle in ("unknown preset", "step", "merges", "variant", "minf"):
        assert needle in notes, (needle, notes)
    assert_still_usable(at)


# ------------------------------------------------------------------------- vocab.json + merges.txt
def _gpt2_vocab() -> dict:
    from bpe_core.byte_display import bytes_to_unicode

    alias = bytes_to_unicode()
    return {alias[b]: b for b in range(256)}


GOOD_VOCAB = json.dumps(dict(_gpt2_vocab(), ab=256)).encode()
GOOD_MERGES = b"#version: 0.2\na b\n"


@pytest.mark.parametrize(
    "vocab, merges, needles",
    [
        (b"{not json", GOOD_MERGES, ["vocab.json", "JSON"]),
        (b"[1, 2, 3]", GOOD_MERGES, ["JSON object"]),
        (b'{"a": -1}', GOOD_MERGES, ["non-negative"]),
        (b'{"a": 0}', b"", ["256"]),
        (b"\x89PNG\r\n\x1a\n\x00\x00", GOOD_MERGES, ["UTF-8"]),
        ("{}".encode("utf-16"), GOOD_MERGES, []),
        (GOOD_VOCAB, b"#version: 0.2\nthree tokens here\n", ["line 2"]),
        (GOOD_VOCAB, b"#version: 0.2\nq z\n", ["line 2", "not in vocab.json"]),
        (GOOD_VOCAB, b"\xff\xfe\x00\x00garbage", ["UTF-8"]),
        (GOOD_VOCAB, "#version: 0.2\na b\n".encode("latin-1") + b"\xe9 a\n", ["UTF-8"]),
    ],
    ids=[
        "not-json",
        "json-list",
        "negative-id",
        "missing-bytes",
        "png",
        "utf16",
        "three-tokens",
        "unknown-token",
        "binary-merges",
        "latin1-merges",
    ],  # fmt: skip
)
def test_malformed_or_inconsistent_model_uploads(vocab, merges, needles):
    at = new_app()
    at.switch_page(FILES_PAGE).run()
    no_exception(at)
    at.file_uploader(key="files.up.vocab").set_value(("vocab.json", vocab, "application/json")).run()
    at.file_uploader(key="files.up.merges").set_value(("merges.txt", merges, "text/plain")).run()
    assert_message(at, "cannot be loaded", *needles)
    # The page recovers with good files, in the same session.
    at.file_uploader(key="files.up.vocab").set_value(("vocab.json", GOOD_VOCAB, "application/json")).run()
    at.file_uploader(key="files.up.merges").set_value(("merges.txt", GOOD_MERGES, "text/plain")).run()
    no_exception(at)
    assert not at.error, errors(at)
    assert "257 tokens, 1 merge." in page_text(at), page_text(at)[:600]


# ----------------------------------------------------------------------------------- 1 MB inputs
#: The scenario of a large paste, run in a fresh interpreter: paste ``text``, rerun until the whole run is
#: on screen, then Next, Last, Prev. It prints what does not depend on the machine: how many runs the
#: shared cache trained, and what each step drew (chips and characters of HTML). The seconds it takes are
#: measured by benchmarks/big_paste.py.
BIG_APP = """
import json, random, re, time
from streamlit.testing.v1 import AppTest
from ui.training import shared_cache

def drawn(at):
    bodies = [h.proto.body for h in at.get("html")]
    assert not at.exception, [e.value for e in at.exception]
    return {{"chips": sum(len(re.findall(r"\\bbpe-chip\\b(?!-)", b)) for b in bodies),
             "html_chars": sum(len(b) for b in bodies)}}

out = {{}}
for size in (100_000, 1_000_000):
    text = {text}
    at = AppTest.from_file({app!r}, default_timeout=600)
    at.query_params["variant"] = {variant!r}
    at.run()
    at.number_input(key="w.minf").set_value(1).run()
    at.number_input(key="w.merges").set_value(30).run()
    at.radio(key="w.source").set_value("paste").run()
    before = shared_cache().trainings
    at.text_area(key="w.paste").input(text).run()
    # The page shows the first merges while the rest trains; rerun until the label counts them all.
    while any("so far" in h.proto.body for h in at.get("html")):
        time.sleep(0.1)
        at.run()
    assert not at.error, [e.value for e in at.error]
    steps = {{"paste": drawn(at)}}
    for name in ("next", "last", "prev"):
        at.button(key="stepper." + name).click().run()
        steps[name] = drawn(at)
    out[size] = {{"trainings": shared_cache().trainings - before, "steps": steps}}
print(json.dumps(out))
"""
#: Seconds before a stuck scenario fails (a hang guard, not a speed target: the scenario takes seconds).
BIG_HANG_GUARD = 400
#: How much more a step may draw for ten times the text: the runs differ (other merges, other pairs in the
#: table, longer numbers), but a step that drew the whole text, or a part growing with it, would draw 10x.
GROWTH = 1.25


@pytest.mark.parametrize(
    "kind, variant",
    [
        pytest.param("one-word", "char"),
        pytest.param("one-word", "byte"),
        pytest.param("one-character", "char"),
        pytest.param("one-character", "byte"),
    ],
)
def test_one_megabyte_paste_is_trained_once_and_each_step_draws_what_a_small_one_does(kind, variant):
    if kind == "one-word":
        text = "''.join(random.Random(0).choices('abcdefghij', k=size))"
    else:
        text = "'a' * size"
    out = json.loads(run_bounded(BIG_APP.format(app=APP, variant=variant, text=text), BIG_HANG_GUARD))
    small, big = out["100000"], out["1000000"]
    print(json.dumps(out))
    # One training each: the steps (and the reruns while it trained) reuse the cached run.
    assert small["trainings"] == big["trainings"] == 1, out
    # Work per step does not grow with the corpus: ten times the text draws about as many chips and as much HTML.
    for step, drawn in big["steps"].items():
        assert drawn["chips"] <= small["steps"][step]["chips"] * GROWTH, (step, out)
        assert drawn["html_chars"] <= small["steps"][step]["html_chars"] * GROWTH, (step, out)


def test_the_same_paste_in_two_sessions_is_trained_once():
    """Sessions share the training cache: the second student pasting the same text trains nothing."""
    from ui.training import shared_cache

    text = " ".join(random.Random(7).choices(["low", "lower", "newest", "widest", "x"], k=3000))
    first = paste(new_app(), text)
    assert_trains_and_steps(first)
    trainings = shared_cache().trainings
    second = paste(new_app(), text)
    assert_trains_and_steps(second)
    assert shared_cache().trainings == trainings
