"""Every text the app itself draws, read from an AppTest element tree: the translation tests look for English
left in a Chinese page, and other tests for the order in which a page draws its words.

Text inside the corpus's own words and tokens (:data:`USER_CLASSES`) is the user's, not the app's, and is
left out.
"""

from __future__ import annotations

import json

from html_doc import Doc, classes, text_nodes

USER_CLASSES = {"bpe-chip", "word", "bpe-text", "bpe-glyph", "big", "bpe-cp", "bpe-byte"}
WIDGETS = ("text_input", "text_area", "number_input", "selectbox", "radio", "slider", "select_slider", "button",
           "download_button", "checkbox", "toggle", "multiselect", "file_uploader")  # fmt: skip


def html_texts(body: str) -> list[str]:
    """The visible, non-user text of an st.html body: each text node, and all of them joined. Text inside
    elements of :data:`USER_CLASSES` (the corpus's words and tokens) and inside ``<style>`` is left out."""
    nodes = text_nodes(
        Doc(body, strict=False).root, skip=lambda n: n["tag"] == "style" or bool(classes(n) & USER_CLASSES)
    )
    return [*nodes, " ".join(nodes)]


def chart_titles(spec) -> list[str]:
    """Every ``title`` string of a Vega-Lite spec (chart, axes, legends)."""
    if isinstance(spec, dict):
        found = [v for k, v in spec.items() if k == "title" and isinstance(v, str)]
        return found + [t for v in spec.values() for t in chart_titles(v)]
    if isinstance(spec, list):
        return [t for v in spec for t in chart_titles(v)]
    return []


def texts(node, developers: str) -> list[str]:
    """Every text the app itself draws under ``node`` (an AppTest element tree node); of the expander
    labelled ``developers`` only the label."""
    kind = getattr(node, "type", "")
    out: list[str] = []
    if kind == "expander" and node.label == developers:
        return [node.label]
    if kind in ("markdown", "title", "header", "subheader", "caption", "error", "warning", "info", "success"):
        out.append(node.value)
    elif kind == "html":
        out += html_texts(node.proto.body)
    elif kind == "table":
        out += [str(c) for c in node.value.columns]
    elif kind == "arrow_vega_lite_chart":
        out += chart_titles(json.loads(node.proto.spec))
    elif kind in WIDGETS or kind in ("expander", "tab"):
        out += [x for x in (getattr(node, "label", None), getattr(node, "help", None)) if x]
        if kind in ("selectbox", "radio"):
            out += [str(o) for o in node.options]
    for child in (getattr(node, "children", None) or {}).values():
        out += texts(child, developers)
    return out
