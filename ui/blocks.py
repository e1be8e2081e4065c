"""Small HTML blocks the pages share: a big number with its label, a column title, a paragraph of our
own text, a table with its head. Our own words go through :func:`ui.text.esc_raw`; a value or a cell
given as ``*_html`` is HTML already (chips, or a number the caller formatted)."""

from __future__ import annotations

from collections.abc import Iterable

from .text import esc_raw


def stat_html(value_html: str, label: str, attr: str = "") -> str:
    """A big number (``value_html``, HTML) over its label; ``attr``: attributes of the number's element
    (``data-vocab='12'``), read by the tests."""
    return f"<div><div class='bpe-big' {attr}>{value_html}</div><div class='bpe-big-label'>{esc_raw(label)}</div></div>"


def col_title_html(text: str) -> str:
    """A column's title (already in the interface language)."""
    return f"<div class='bpe-col-title'>{esc_raw(text)}</div>"


def para_html(text: str, css: str = "bpe-muted") -> str:
    """A paragraph of our own text (escaped)."""
    return f"<p class='{css}'>{esc_raw(text)}</p>"


def table_html(css_id: str, head: Iterable[str], rows: Iterable[str], head_html: str = "", colgroup: str = "") -> str:
    """A ``bpe-table`` with id ``css_id``: the head cells ``head`` (our own words, escaped) after
    ``head_html`` (head cells as HTML, e.g. ``<th>#</th>``), then the body rows (``<tr>`` HTML)."""
    cells = head_html + "".join(f"<th>{esc_raw(h)}</th>" for h in head)
    return (
        f"<table class='bpe-table' id='{css_id}'>{colgroup}<thead><tr>{cells}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def items_html(items: Iterable[str], css_id: str, css: str = "bpe-note") -> str:
    """A list (``<ul id=css_id>``) of our own sentences, escaped."""
    return f"<ul class='{css}' id='{css_id}'>{''.join(f'<li>{esc_raw(t)}</li>' for t in items)}</ul>"
