"""The steps drawn ahead for the browser (ui/step_ahead.py): which steps, how they are written, and that
each is exactly what the page draws once the server has moved there (AppTest)."""

from __future__ import annotations

import json
import re

from app_helpers import body_with, new_app, no_exception
from streamlit.string_util import clean_text

from ui import run_cache
from ui.step_ahead import AHEAD, BEHIND, PIECE_IDS, ahead_html, window


def test_window_is_clipped_to_the_run():
    assert list(window(0, 3)) == [0, 1, 2, 3]
    assert list(window(10, 100)) == list(range(10 - BEHIND, 10 + AHEAD + 1))
    assert list(window(99, 100)) == list(range(99 - BEHIND, 101))
    assert list(window(0, 0)) == [0]


def _data(block: str) -> dict:
    found = re.search(r'<script type="application/json">(.*)</script>', block, re.S)
    assert found, block[:200]
    return json.loads(found.group(1))


def test_first_and_last_are_always_there_and_no_markup_leaks():
    # A corpus can hold any text: an end tag inside a piece must not end the JSON block.
    evil = "<b>x</b></script><script>alert(1)</script>"
    block = ahead_html("stepper", 50, 1000, lambda k: {"bpe-step-label": f"{evil}{k}"})
    assert block.count("<script") == 1 and block.count("</script>") == 1
    data = _data(block)
    assert sorted(map(int, data)) == [0, *range(50 - BEHIND, 50 + AHEAD + 1), 1000]
    assert data["51"]["bpe-step-label"] == f"{evil}51"  # the JSON reader gets the text back whole
    assert 'data-step="50"' in block and 'data-n="1000"' in block
    assert f'data-ids="{" ".join(PIECE_IDS)}"' in block


def _ahead(at) -> tuple[int, dict]:
    block = body_with(at, 'id="bpe-ahead"')
    return int(re.search(r'data-step="(\d+)"', block).group(1)), _data(block)


def _drawn(at, ids) -> dict:
    """The outer HTML of each element ``ids`` names, as the page drew it (an st.html element each)."""
    out = {}
    for body in (h.proto.body for h in at.get("html")):
        first_tag = body.split(">", 1)[0]
        for piece_id in ids:
            if f"id='{piece_id}'" in first_tag or f'id="{piece_id}"' in first_tag:
                out.setdefault(piece_id, body)
    return out


def test_the_steps_sent_ahead_are_what_the_page_draws_there():
    at = new_app(preset="textbook-low", step=2)
    no_exception(at)
    step, data = _ahead(at)
    assert step == 2
    ahead = data["3"]
    assert set(ahead) == {"bpe-step-label", "bpe-merge-card", "bpe-pair-panel"}
    assert "Merge 3:" in ahead["bpe-merge-card"]
    at.button(key="stepper.next").click().run()
    no_exception(at)
    assert _drawn(at, ahead) == ahead
    # Prev and First: the step behind and step 0 were sent too.
    step, data = _ahead(at)
    assert step == 3 and {"0", "2"} <= set(data)
    behind, first = data["2"], data["0"]
    at.button(key="stepper.prev").click().run()
    assert _drawn(at, behind) == behind
    at.button(key="stepper.first").click().run()
    assert _drawn(at, first) == first


def test_presentation_mode_sends_the_changed_words_and_its_short_card():
    at = new_app(preset="textbook-low", step=1, present=1)
    no_exception(at)
    _, data = _ahead(at)
    ahead = data["2"]
    assert set(ahead) == {"bpe-step-label", "bpe-merge-card", "bpe-pair-panel", "bpe-changed"}
    assert "bpe-changed" not in data["0"]  # step 0 changed nothing
    at.button(key="stepper.next").click().run()
    assert _drawn(at, ahead) == ahead


def test_the_json_block_holds_no_markup():
    at = new_app(preset="textbook-low", step=1)
    block = body_with(at, 'id="bpe-ahead"')
    inner = block.split('<script type="application/json">', 1)[1].rsplit("</script>", 1)[0]
    assert "<" not in inner and "&lt;/w&gt;" in inner  # the end-of-word suffix in a chip, escaped as text


def test_a_kept_block_is_built_once_and_given_to_st_html_as_it_would_make_it():
    class Run:  # any object a weak reference can point to stands for a run
        pass

    run, calls = Run(), []

    def make():
        calls.append(1)
        return "  <div id='x'>a\n   \n  b</div>\n"

    first = run_cache.cached_html(run, "test-block", ("k", 1), make)
    again = run_cache.cached_html(run, "test-block", ("k", 1), make)
    assert first is again and len(calls) == 1
    # What st.html would have made of the string (dedented, stripped): the same bytes reach the browser.
    assert first._repr_html_() == clean_text(make())


def test_a_second_session_at_the_same_step_draws_the_same_blocks():
    # The second session's corpus table and steps ahead come from the run's memo: the same HTML as the first's.
    one, two = new_app(preset="textbook-low", step=2), new_app(preset="textbook-low", step=2)
    for marker in ("bpe-ahead", "bpe-corpus"):
        assert body_with(one, marker) == body_with(two, marker)
    assert _ahead(two)[0] == 2
    # Kept per step: a session at step 3 is not given step 2's blocks.
    three = new_app(preset="textbook-low", step=3)
    assert _ahead(three)[0] == 3 and "segmentation after step 3" in body_with(three, "bpe-corpus")
