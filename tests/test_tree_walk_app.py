"""Walking a merge tree up and down in the app (``ui.corpus_panel``'s walk): under the stepper's "Merge tree of" and the GPT
page's tree, the tokens made from the picked one, and buttons that go to a part (down) or to such a token (up)."""

from __future__ import annotations

import re

from app_helpers import bodies, body_with, flat_text, new_app, no_exception, text_of

from bpe_core import load_gpt


def tree(at) -> list[str]:
    return text_of(body_with(at, "bpe-tree'")).split()


def ids_in(fragment: str) -> list[int]:
    return [int(t) for t in re.findall(r'data-token="(\d+)"', fragment)]


def test_stepper_tree_goes_up_to_a_token_made_from_it_and_down_to_a_part():
    at = new_app(step=8)
    at.selectbox(key="w.vocab.tree").set_value("est</w>").run()
    no_exception(at)
    assert flat_text(body_with(at, "id='bpe-tree-up'")) == "1 token was made directly from est</w>: newest</w> step 8"
    walk = at.button_group(key="vocab.walk")
    assert walk.options == ["↓ est", "↓ \\</w\\>", "↑ newest\\</w\\>"]  # Markdown-escaped labels
    # Up: the token made from it becomes the picked one, with its own tree.
    (kid,) = ids_in(body_with(at, "id='bpe-tree-up'"))
    walk.set_value(kid).run()
    no_exception(at)
    assert tree(at)[:3] == ["newest</w>", "step", "8"]
    assert at.selectbox(key="w.vocab.tree").value == kid
    assert "No token was made from newest</w>" in flat_text(body_with(at, "id='bpe-tree-up'"))
    # Down: its left part, "new" (the tree's second chip).
    down = at.button_group(key="vocab.walk")
    assert down.value is None  # each press is one move, not a lasting choice
    assert down.options == ["↓ new", "↓ est\\</w\\>"]
    left = ids_in(body_with(at, "bpe-tree'"))[1]
    down.set_value(left).run()
    no_exception(at)
    assert tree(at)[:3] == ["new", "step", "7"]
    assert at.button_group(key="vocab.walk").options[-1] == "↑ newest\\</w\\>"


def test_gpt_page_tree_walks_from_reportprint_up_to_embedreportprint():
    at = new_app()
    at.switch_page("app_pages/5_Real_tokenizers.py").run()
    at.text_area[0].input("reportprint").run()
    no_exception(at)
    tok = load_gpt("gpt2")
    at.selectbox(key="rt.tree.gpt2").set_value(30897).run()
    assert (
        flat_text(body_with(at, "id='rt-tree-up'"))
        == "1 token was made directly from reportprint: embedreportprint #30,643"
    )
    at.button_group(key="rt.tree.gpt2.walk").set_value(30898).run()
    no_exception(at)
    # A token the text does not hold is offered once walked to, and its own tree and makings are shown.
    assert at.selectbox(key="rt.tree.gpt2").value == 30898 and tok.token_value(30898) == b"embedreportprint"
    up = flat_text(body_with(at, "id='rt-tree-up'"))
    assert up.startswith("1 token was made directly from embedreportprint: cloneembedreportprint")
    assert at.button_group(key="rt.tree.gpt2.walk").options == ["↓ embed", "↓ reportprint", "↑ cloneembedreportprint"]


def test_gpt_page_lists_tokens_that_live_inside_others_and_gpt2s_glitch_tokens():
    from ui.glitch_view import OPEN_KEY

    at = new_app()
    at.switch_page("app_pages/5_Real_tokenizers.py").run()
    no_exception(at)
    # Closed at first: the section's header is there, nothing is counted (the first view stays fast).
    assert "5 · Tokens that live inside others" in [h.value for h in at.header]
    assert not any("id='rt-inside'" in b or "id='rt-glitch'" in b for b in bodies(at))
    assert not at.dataframe and any("under-trained" in e.label for e in at.expander)
    at.session_state[OPEN_KEY] = True  # the box opened (ui.page.lazy_expander)
    at.run()
    no_exception(at)
    inside = body_with(at, "id='rt-inside'")
    assert int(inside.split("data-rows='")[1].split("'")[0]) > 50  # on the Declaration's 20 languages
    table = at.dataframe[0].value
    assert list(table.columns) == ["token", "id", "merge", "made", "kept on its own", "share kept"]
    assert (table["made"] >= 3).all() and (table["kept on its own"] <= table["made"] * 0.1).all()
    glitch = body_with(at, "id='rt-glitch'")
    ids = re.findall(r"<tr data-id='(\d+)'>", glitch)
    assert len(ids) == 26 and ids[:2] == ["40241", "30905"]
    first = glitch.split("<tr data-id='40241'>")[1].split("</tr>")[0]
    assert "BuyableInstoreAndOnline" in text_of(first) and text_of(first).split()[-2:] == ["0", "0"]
    # One language of the Declaration: Chinese pieces of characters under GPT-2.
    at.selectbox(key="rt.inside.language").set_value("cmn_hans").run()
    no_exception(at)
    assert int(body_with(at, "id='rt-inside'").split("data-rows='")[1].split("'")[0]) > 0
    # Another text and another model: the table follows; only GPT-2 has the report.
    at.radio(key="rt.inside.text").set_value("yours").run()
    at.radio(key="rt.inside.model").set_value("o200k").run()
    no_exception(at)
    assert "id='rt-glitch'" not in "".join(h.proto.body for h in at.get("html"))
    assert "id='rt-inside'" in "".join(h.proto.body for h in at.get("html"))


def test_how_page_says_why_a_token_can_exist_yet_be_almost_never_seen():
    at = new_app()
    at.switch_page("app_pages/8_How_BPE_works.py").run()
    no_exception(at)
    text = " ".join(m.value for m in at.markdown)
    assert "InstoreAndOnline exists to build BuyableInstoreAndOnline" in text
    assert "train --picky T" in text
    at = new_app(lang="zh-Hant")
    at.switch_page("app_pages/8_How_BPE_works.py").run()
    no_exception(at)
    assert "中間詞元" in " ".join(m.value for m in at.markdown)
