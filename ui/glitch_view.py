"""The GPT page's "Tokens that live inside others": for a GPT tokenizer and a text, the tokens its encoding made but
almost never kept (a sortable table, each token's tree one pick away), and GPT-2's under-trained tokens of the
Magikarp report with the tokens holding them (the numbers are :mod:`bpe_core.encoding.intermediate`'s)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.encoding import intermediate as im
from bpe_core.languages import declaration as decl
from ui.blocks import para_html, table_html
from ui.chips import chip_html, token_label
from ui.corpus import get_preset
from ui.i18n import N_, _, ngettext
from ui.page import lazy_expander
from ui.real_tokenizers import GPT_MODELS, model_label
from ui.text import esc_raw

#: The texts a table can be counted on: the Declaration (20 languages), the English book, the page's text.
TEXTS = {
    "udhr": N_("the Declaration in 20 languages"),
    "book": N_("All Around the Moon (pg16457)"),
    "yours": N_("your text above"),
}
MIN_MADE = 3  # a token made fewer times than this says little either way
MAX_SHARE = 0.1  # "almost never on its own": kept at most one time in ten
#: The section's box (:func:`ui.page.lazy_expander`): True while it is open.
OPEN_KEY = "rt.inside.open"


@st.cache_data(show_spinner=False, max_entries=8)
def reference_uses(model_key: str, text_key: str) -> dict:
    """``{id: (made, output)}`` of a GPT model on a fixed text (``udhr`` or ``book``), once per server."""
    from bpe_core import load_gpt

    uses = im.token_uses(load_gpt(model_key), reference_text(text_key))
    return {t: (u.made, u.output) for t, u in uses.items()}


def reference_text(text_key: str) -> str:
    """The Declaration's 20 languages joined (``udhr``) or one of them (``udhr:<key>``), or the whole book."""
    if text_key == "udhr":
        return "\n".join(decl.texts().values())
    if text_key.startswith("udhr:"):
        return decl.texts(keys=(text_key[5:],))[text_key[5:]]
    return get_preset("pg16457-book").load_text()


def inside_section(all_models, text: str, mode: str, present: bool) -> None:
    """Section 5 of the GPT page: its header and what it is about, then, in a box counted only while it is open,
    the intermediate tokens of a text and GPT-2's glitch tokens."""
    st.header(_("5 · Tokens that live inside others"))
    st.caption(
        _(
            "Encoding applies merges one after another: a token a merge makes either stays to the end or is merged "
            "again into a longer token. A token that is almost always merged again is almost never seen on its "
            "own, so a model trained on such text learns little about it."
        )
    )
    # Drawn only while open: counting on the Declaration and the 500 KB book, and GPT-2's merge graph, are most of
    # the page's first view otherwise (about 0.7 s), for a section far down the page.
    box = lazy_expander(_("Show the tokens, their merge trees and GPT-2's under-trained tokens"), OPEN_KEY)
    if box is not None:
        with box:
            _inside_tables(all_models, text, mode, present)


def _inside_tables(all_models, text: str, mode: str, present: bool) -> None:
    """The section's pickers, the table of intermediate tokens with their trees, and GPT-2's glitch table."""
    c1, c2 = st.columns(2)
    keys = [key for key, _label in GPT_MODELS]
    key = c1.radio(_("Tokenizer"), keys, format_func=model_label, horizontal=True, key="rt.inside.model")
    source = c2.radio(
        _("Counted on"), list(TEXTS), format_func=lambda k: _(TEXTS[k]), horizontal=True, key="rt.inside.text"
    )
    model = next(m for m in all_models if m.key == key)
    if source == "udhr":
        from ui.i18n import current_language
        from ui.languages import language_name

        lang = current_language()
        which = st.selectbox(
            _("Language of the Declaration"),
            ["", *decl.KEYS],
            format_func=lambda k: language_name(k, lang) if k else _("all 20 languages"),
            key="rt.inside.language",
        )
        source = f"udhr:{which}" if which else "udhr"
    if source == "yours":
        counts = {t: (u.made, u.output) for t, u in im.token_uses(model.tok, text).items()}
    else:
        counts = reference_uses(key, source)
    uses = {t: im.TokenUse(t, made, out) for t, (made, out) in counts.items()}
    rows = im.rarely_alone(uses, MIN_MADE, MAX_SHARE)
    line = ngettext(
        "{n} token was made at least {m} times and kept on its own at most one time in ten:",
        "{n} tokens were made at least {m} times and kept on their own at most one time in ten:",
        len(rows),
    ).format(n=f"{len(rows):,}", m=MIN_MADE)
    st.html(f"<p class='bpe-note' id='rt-inside' data-rows='{len(rows)}'>{esc_raw(line)}</p>")
    if rows:
        graph = model.tok.merge_graph()
        frame = pd.DataFrame(
            {
                _("token"): [token_label(model.src, u.token, mode) for u in rows],
                _("id"): [u.token for u in rows],
                _("merge"): [graph.merge_number(u.token) for u in rows],
                _("made"): [u.made for u in rows],
                _("kept on its own"): [u.output for u in rows],
                _("share kept"): [round(u.alone_share, 3) for u in rows],
            }
        )
        st.dataframe(frame, hide_index=True, width="stretch", height=260)
        tree_of(model, [u.token for u in rows[:300]], mode, present)
    if key == "gpt2":
        glitch_table(model, mode, present)


def tree_of(model, ids: list[int], mode: str, present: bool) -> None:
    """A picker over ``ids`` and the picked token's tree, walkable up and down."""
    from ui.corpus_panel import children_html, walk_control
    from ui.replay_view import merge_tree_html

    name = f"rt.inside.tree.{model.key}"
    picked = st.session_state.get(name)
    if isinstance(picked, int) and picked not in ids and picked in model.tok.values:
        ids = ids + [picked]  # reached by walking the tree
    tid = st.selectbox(
        _("Merge tree of a token in the table"),
        ids,
        key=name,
        format_func=lambda t: f"{token_label(model.src, t, mode)}  ·  {t}",
    )
    if tid is None:
        return
    graph = model.tok.merge_graph()
    st.html(merge_tree_html(model, model.tok.merge_tree(tid), mode, present))
    number = lambda n: _("#{number}").format(number=f"{n:,}") if n is not None else _("byte")  # noqa: E731
    st.html(children_html(model.src, graph, tid, mode, present, number, "rt-inside-up"))
    walk_control(model.src, graph, tid, mode, f"{name}.walk", lambda t: st.session_state.__setitem__(name, t))


def glitch_table(model, mode: str, present: bool) -> None:
    """GPT-2's 26 under-trained tokens (Land & Bartolo 2024), each with the tokens holding it and its counts on
    the Declaration and the book."""
    st.subheader(_("GPT-2's under-trained tokens"))
    st.html(
        para_html(
            _(
                "Land & Bartolo (\u201cFishing for Magikarp\u201d, EMNLP 2024) measured which of GPT-2's tokens its "
                "model barely learned. Most are intermediate tokens: each was merged on the way to one longer token "
                "of GPT-2's training text, and almost never occurs alone. Here: each token, the longer tokens whose "
                "merge trees hold it, and how often it is made and kept in the Declaration and the book."
            )
        )
    )
    counts, book = reference_uses("gpt2", "udhr"), reference_uses("gpt2", "book")
    graph = model.tok.merge_graph()
    rows = []
    for g in im.glitch_tokens():
        holders = " ".join(chip_html(model.src, h, mode, present) for h in graph.descendants(g.token)[:6])
        made = counts.get(g.token, (0, 0))[0] + book.get(g.token, (0, 0))[0]
        kept = counts.get(g.token, (0, 0))[1] + book.get(g.token, (0, 0))[1]
        rows.append(
            f"<tr data-id='{g.token}'><td class='num'>{g.token}</td><td>{chip_html(model.src, g.token, mode, present)}"
            f"</td><td class='num'>{g.indicator:.4f}</td><td>{holders}</td><td class='num'>{made}</td>"
            f"<td class='num'>{kept}</td></tr>"
        )
    head = [_("id"), _("token"), _("under-training indicator"), _("held by"), _("made"), _("kept on its own")]
    # Long tokens side by side: on a phone the table scrolls sideways rather than cut each chip into letters. A region
    # that scrolls takes the keyboard's focus (WCAG: the arrow keys scroll it) and says what it is.
    label = esc_raw(_("GPT-2's under-trained tokens"))
    st.html(
        f"<div class='bpe-wide' tabindex='0' role='region' aria-label='{label}'>{table_html('rt-glitch', head, rows)}</div>"
    )
    st.caption(
        _(
            "Source: the GPT-2 report of github.com/cohere-ai/magikarp (arXiv 2405.05417); a lower indicator means "
            "less trained. \u201cHeld by\u201d follows GPT-2's merges, so it can differ from the report's list, "
            "which matches text: \u2420suburb holds \u2420subur as text but is merged from \u2420sub + urb."
        )
    )
