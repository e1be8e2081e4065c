"""Issue 15 through the sidebar's widgets (AppTest): the hint for text without spaces, the custom pre-tokenizer
(preview and its three errors), links that keep the corpus, CR LF uploads, messages for the person at the keyboard.

Every test keeps the corpus store in a temporary file (``BPE_EXPLORER_STORE``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_helpers import REPO, errors, new_app, no_exception, page_text, paste, shown_step, upload
from corpora import PASTED_ZH_EMOJI

from bpe_core import EXAMPLE_PATTERN
from bpe_server import corpus_store

HONGLOUMENG = (REPO / "presets" / "hongloumeng-chapter1.txt").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "corpora.sqlite3"
    monkeypatch.setenv(corpus_store.STORE_ENV, str(path))
    return path


def params(at) -> dict[str, str]:
    return {k: at.query_params[k][0] if isinstance(at.query_params[k], list) else at.query_params[k]
            for k in at.query_params}  # fmt: skip


def infos(at) -> str:
    return " ".join(i.value for i in at.info)


def preview(at) -> str:
    for h in at.get("html"):
        if "bpe-pattern-preview" in h.proto.body:
            return h.proto.body
    raise AssertionError("no pattern preview")


# ------------------------------------------------------------------------------------ the hint
def test_space_free_paste_gets_the_hint_and_one_click_to_gpt2_which_goes_into_the_link():
    at = paste(new_app(), PASTED_ZH_EMOJI)
    no_exception(at)
    assert "written without spaces" in infos(at)
    assert "pre" not in params(at)
    at.button(key="w.hint.gpt2").click().run()
    no_exception(at)
    assert at.selectbox(key="w.pre").value == "gpt2"  # visible in the settings
    assert params(at)["pre"] == "gpt2"  # and in the link
    assert "written without spaces" not in infos(at)
    assert shown_step(at).step == 0


def test_no_hint_for_text_with_spaces_or_another_pre_tokenizer():
    at = paste(new_app(), "the lowest price is lower than the last one " * 5)
    assert "written without spaces" not in infos(at)
    at = paste(new_app(pre="gpt4"), PASTED_ZH_EMOJI)
    assert "written without spaces" not in infos(at)


# ------------------------------------------------------------------------------------ custom pattern
def test_pattern_preview_marks_unmatched_text_and_the_pattern_goes_into_the_link():
    at = paste(new_app(), "Hello world, 你好!\nsecond line")
    at.selectbox(key="w.pre").set_value("regex").run()
    assert "needs a pattern" in errors(at)
    at.button(key="w.pattern.example").click().run()
    no_exception(at)
    assert not at.error, errors(at)
    assert params(at)["pattern"] == EXAMPLE_PATTERN and params(at)["pre"] == "regex"
    at.text_area(key="w.pattern").input(r"[A-Za-z]+").run()
    no_exception(at)
    body = preview(at)
    pieces = re.findall(r"<span( class=\"miss\"[^>]*)?>([^<]*)</span>", body)
    assert [text for _miss, text in pieces][:4] == ["Hello", "␣", "world", ",␣你好!↵"]
    assert [bool(miss) for miss, _text in pieces][:4] == [False, True, False, True]
    assert "does not match" in page_text(at)
    assert shown_step(at).step == 0  # it trains with the pattern
    assert params(at)["pattern"] == "[A-Za-z]+"


@pytest.mark.parametrize(
    "pattern, needle",
    [("[a-z", "not a valid regular expression"), ("a*", "empty string"), ("(a|aa)+$", "took longer than")],
    ids=["invalid", "empty-match", "too-slow"],
)
def test_pattern_errors_are_said_plainly(pattern, needle):
    at = paste(new_app(), "a" * 1900 + "!\nb")
    at.selectbox(key="w.pre").set_value("regex").run()
    at.text_area(key="w.pattern").input(pattern).run()
    no_exception(at)
    assert needle in errors(at)
    assert "Traceback" not in errors(at)
    at.text_area(key="w.pattern").input(r"\w+|\W+").run()  # the session goes on
    no_exception(at)
    assert not at.error, errors(at)


# ------------------------------------------------------------------------------------ links
def test_a_long_paste_gets_a_corpus_id_and_its_link_opens_the_same_corpus_and_step(store):
    at = paste(new_app(), PASTED_ZH_EMOJI)
    at.button(key="w.hint.gpt2").click().run()
    at.button(key="stepper.next").click().run()
    at.button(key="stepper.next").click().run()
    link = params(at)
    assert corpus_store.is_corpus_id(link["corpus"]) and link["step"] == "2"
    assert corpus_store.CorpusStore(store).get(link["corpus"]) == (PASTED_ZH_EMOJI, "text")
    again = new_app(**link)  # a fresh session (another browser)
    no_exception(again)
    assert at.radio(key="w.source").value == again.radio(key="w.source").value == "paste"
    assert again.text_area(key="w.paste").value == PASTED_ZH_EMOJI
    assert again.selectbox(key="w.pre").value == "gpt2"
    assert shown_step(again).step == 2
    assert params(again) == link


def test_a_short_paste_travels_in_the_link_itself():
    at = paste(new_app(), "low lower newest widest")
    link = params(at)
    assert "corpus" not in link and corpus_store.unpack_text(link["text"]) == "low lower newest widest"
    again = new_app(**{**link, "step": "1"})
    assert again.text_area(key="w.paste").value == "low lower newest widest"
    assert shown_step(again).step == 1


def test_word_lists_and_uploads_get_an_id_too():
    at = new_app()
    at.radio(key="w.source").set_value("words").run()
    at.text_area(key="w.words").input("low 5\nlower 2").run()
    again = new_app(**params(at))
    assert again.radio(key="w.source").value == "words"
    assert again.text_area(key="w.words").value == "low 5\nlower 2"

    at = upload(new_app(), "a.txt", b"the lowest price is lower than the last one")
    link = params(at)
    again = new_app(**link)
    no_exception(again)
    assert again.radio(key="w.source").value == "upload" and shown_step(again).step == 0
    assert params(again)["corpus"] == link["corpus"]


@pytest.mark.parametrize(
    "link, needle",
    [({"corpus": "aaaaaaaaaaaaaaaa"}, "not on this server any more"), ({"corpus": "nonsense!"}, "not on this server"),
     ({"text": "zAAAA"}, "damaged or incomplete")],
    ids=["unknown-id", "not-an-id", "damaged-text"],
)  # fmt: skip
def test_a_link_to_a_missing_corpus_says_so_and_shows_no_other_corpus(link, needle):
    at = new_app(**link, step=3)
    no_exception(at)
    assert needle in errors(at)
    assert shown_step(at) is None  # no corpus was trained instead
    assert at.radio(key="w.source").value != "preset"
    assert {k: v for k, v in params(at).items() if k in link} == link  # a reload says so again
    at.radio(key="w.source").set_value("preset").run()  # the session goes on
    no_exception(at)
    assert not at.error and shown_step(at).step == 0


# ------------------------------------------------------------------------------------ uploads and messages
def test_a_crlf_upload_keeps_its_bytes_and_offers_lf():
    at = upload(new_app(), "w.txt", b"low lower\r\nlowest low\r\nlow\r\n")
    no_exception(at)
    assert "CR + LF" in infos(at)
    at.button(key="w.hint.lf").click().run()
    no_exception(at)
    assert "CR + LF" not in infos(at)
    assert shown_step(at).step == 0


def test_the_upload_widget_states_the_limit_and_a_large_text_says_what_to_do(monkeypatch):
    monkeypatch.setenv("BPE_EXPLORER_MAX_BYTES", "2000")
    at = new_app()
    at.radio(key="w.source").set_value("upload").run()
    assert "2.0 kB" in at.get("file_uploader")[0].proto.label
    at = paste(new_app(), "x" * 3000)
    text = errors(at)
    assert "3.0 kB" in text and "up to 2.0 kB" in text and "shorter text" in text
    assert "BPE_EXPLORER_MAX_BYTES" not in text


def test_the_page_scripts_survive_the_html_sanitizer():
    # DOMPurify (st.html) drops a script whose text has "<" then a letter, "/" or "!": the whole guard was lost
    # once because of a comment.
    from ui.sidebar import text_box_guard_html
    from ui.stepper import script_html

    for html in (text_box_guard_html(), script_html()):
        body = html.removeprefix("<script>").removesuffix("</script>")
        assert body.strip() and not re.search(r"<[/\w!]", body)


# ------------------------------------------------------------------------------ large texts
def test_a_large_paste_closes_its_text_box_and_opens_again_to_edit():
    """The browser sends an open text box's whole value with every click: a text over
    BIG_TEXT_CHARS is kept on the server and the box closes, leaving its size and Edit / Clear."""
    from ui.text_box import BIG_TEXT_CHARS

    text = (HONGLOUMENG * (BIG_TEXT_CHARS // len(HONGLOUMENG) + 1))[: BIG_TEXT_CHARS + 1]
    at = paste(new_app(), text)
    no_exception(at)
    assert not [t for t in at.text_area if t.key == "w.paste"], "the large text's box is still open"
    caption = " ".join(c.value for c in at.caption).replace("\\", "")  # captions are Markdown-escaped
    assert "Text to train on" in caption and "kept on the server" in caption and "lines" in caption, caption
    assert shown_step(at).step == 0 and "Pasted text (" in caption  # the text is the corpus all the same
    # Edit opens the box with the text; a new text closes it again.
    at.button(key="paste.edit").click().run()
    assert at.text_area(key="w.paste").value == text
    at.text_area(key="w.paste").input(text + "再").run()
    assert not [t for t in at.text_area if t.key == "w.paste"]
    # Clear empties it: an open, empty box and the hint that says what to do.
    at.button(key="paste.clear").click().run()
    assert at.text_area(key="w.paste").value == ""
    assert "Nothing to train on yet" in page_text(at) and not errors(at).strip()
    # A text at the limit stays in its box.
    at.text_area(key="w.paste").input(text[:BIG_TEXT_CHARS]).run()
    assert at.text_area(key="w.paste").value == text[:BIG_TEXT_CHARS]
