"""The one per-run memo: data derived from a finished run (chip HTML, chart specs, explanations,
tokenizers), shared by every session and dropped with the run when the shared cache evicts it.

Keyed weakly by the run (or by another long-lived object such as an uploaded model's token source),
so nothing here keeps a run alive. Values must not hold a strong reference to their own key.

A view of a run still training (:meth:`bpe_core.TrainedRun.view`, a new one every half second or so)
shares the memo of the run it was cut from (``view.view_of``): per-token and per-step entries are the
same for every view, since a view never changes a step it holds; whole-run entries (charts, the
vocabulary's labels) depend on how many steps the view holds, so they are kept per step count, for the
last few views only.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

from streamlit.string_util import clean_text

_MEMO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()

#: Most small per-step/per-token entries (tuple keys) kept per run before they are dropped; bounds
#: what a 20,000-merge run can add to the cached run's size (about 10 MB at most).
MAX_ENTRIES = 40_000

#: Values kept per name by :func:`cached` (tokenizers, token sources, file texts): the last ones asked for.
KEEP_LAST = 4


def _source(owner):
    """The run a view was cut from, or ``owner`` itself."""
    return getattr(owner, "view_of", None) or owner


def memo(owner) -> dict:
    """The dict of derived data of ``owner`` (a run), created on first use; a view's is its source run's."""
    owner = _source(owner)
    with _LOCK:
        found = _MEMO.get(owner)
        if found is None:
            found = _MEMO[owner] = {}
        return found


def remember(owner, key: tuple, value):
    """Store a small entry (``key`` a tuple such as ``("chip", id, mode)``) and return ``value``;
    when there are :data:`MAX_ENTRIES` of them, the tuple-keyed entries are cleared first (whole-run
    entries, keyed by strings, stay)."""
    table = memo(owner)
    if len(table) >= MAX_ENTRIES:
        with _LOCK:
            for k in [k for k in table if isinstance(k, tuple)]:
                table.pop(k, None)
    table[key] = value
    return value


def once(owner, name: str, make):
    """``make()`` computed once per ``owner`` and kept under ``name`` (for a view: once per step count)."""
    if _source(owner) is not owner:
        return cached(owner, name, None, make)
    table = memo(owner)
    if name not in table:
        table[name] = make()
    return table[name]


def cached(owner, name: str, key, make):
    """``make()`` kept per ``owner`` under ``name`` for the last :data:`KEEP_LAST` keys (LRU); for a view,
    per ``key`` and step count, apart from the finished run's entries."""
    if _source(owner) is not owner:
        name, key = "view:" + name, (key, owner.num_steps)
    table_all = memo(owner)
    with _LOCK:
        table = table_all.setdefault(name, OrderedDict())
        value = table.get(key)
        if value is not None:
            table.move_to_end(key)
            return value
    value = make()
    with _LOCK:
        table[key] = value
        table.move_to_end(key)
        while len(table) > KEEP_LAST:
            table.popitem(last=False)
    return value


class Html:
    """HTML kept for ``st.html``, already as ``st.html`` makes a string it is given (dedented and stripped,
    :func:`streamlit.string_util.clean_text`: a regular-expression pass over the text, about 3 ms for the 100 kB of
    the steps drawn ahead). ``st.html`` takes an object with ``_repr_html_`` as it is, so a block kept in the memo
    pays that once, not at every draw: the students of a live class all draw the same step."""

    __slots__ = ("html",)

    def __init__(self, html: str):
        self.html = clean_text(html)

    def _repr_html_(self) -> str:
        return self.html


def cached_html(owner, name: str, key, make) -> Html:
    """:func:`cached` for an HTML block ``make()`` (a string), kept as :class:`Html` ready for ``st.html``."""
    return cached(owner, name, key, lambda: Html(make()))
