"""The one HTML reader of the tests: a small DOM built with the standard library's ``html.parser``.

Tests read back the HTML the code writes (the handout, a run's ``_repr_html_``, the pages' ``st.html``
fragments) as a tree, not with regular expressions over the markup: attributes in any order, entities
decoded, nesting kept. ``Doc(text).root`` is the root node; a node is a dict ``{"tag", "attrs",
"children", "parent"}`` whose children are nodes and strings (text, entities decoded)::

    doc = Doc(html)
    [text(td) for td in find(doc.root, "td")]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser

#: Elements without an end tag.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Doc(HTMLParser):
    """A small DOM of ``text``: every element with its tag, attributes, children and text; ``tags`` lists every
    start tag in order. ``strict`` (default): an end tag that closes nothing open is an AssertionError (the code
    wrote broken HTML); ``strict=False`` ignores it (a fragment cut out of a larger page)."""

    def __init__(self, text: str, strict: bool = True):
        super().__init__(convert_charrefs=True)
        self.strict = strict
        self.root = {"tag": "#root", "attrs": {}, "children": [], "parent": None}
        self.cur = self.root
        self.tags: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        node = {"tag": tag, "attrs": dict(attrs), "children": [], "parent": self.cur}
        self.cur["children"].append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        node = self.cur
        while node is not self.root and node["tag"] != tag:
            node = node["parent"]
        if node is self.root:
            assert not self.strict, f"stray </{tag}>"
            return
        self.cur = node["parent"]

    def handle_data(self, data):
        self.cur["children"].append(data)


def walk(node) -> Iterator[dict]:
    """``node`` and every element below it, in document order."""
    yield node
    for c in node["children"]:
        if isinstance(c, dict):
            yield from walk(c)


def text(node) -> str:
    """All the text inside ``node``, as it is (no spacing added between elements)."""
    return "".join(c if isinstance(c, str) else text(c) for c in node["children"])


def text_nodes(node, skip: Callable[[dict], bool] = lambda n: False) -> list[str]:
    """The non-blank text nodes inside ``node``, stripped, leaving out whole elements for which ``skip`` is true."""
    out = []
    for c in node["children"]:
        if isinstance(c, str):
            if c.strip():
                out.append(c.strip())
        elif not skip(c):
            out.extend(text_nodes(c, skip))
    return out


def classes(node) -> set[str]:
    return set((node["attrs"].get("class") or "").split())


def find(node, tag: str | None = None, cls: str | None = None) -> list[dict]:
    """Every element under ``node`` (itself included) with tag ``tag`` and class ``cls`` (None: any)."""
    return [n for n in walk(node) if (tag is None or n["tag"] == tag) and (cls is None or cls in classes(n))]


def merge_headlines(doc: Doc) -> list[tuple]:
    """The handout's merges (``bpe_core.teaching.handout``): ``(left, right, new token, count)`` of every merge block,
    read from the token boxes and the text."""
    out = []
    for section in find(doc.root, "section", "merge"):
        (head,) = find(section, "p", "headline")
        boxes = [text(b) for b in find(head, "span", "tok")]
        count = int(re.search(r"[(（](\d+)", text(head)).group(1))  # ASCII or fullwidth (Chinese) parenthesis
        out.append((*boxes, count))
    return out
