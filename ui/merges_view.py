"""The merges so far: every merge up to the current step as the table tutorials print (merge k, pair,
new token, count, vocabulary size, corpus tokens), from :func:`bpe_core.formats.merge_table.merge_rows`,
shown as a table and ready to copy as Markdown or CSV (code blocks with a copy button, downloads).

Drawn in an expander that tracks whether it is open (:func:`ui.page.lazy_expander`, drawn by the page), so a
closed one costs a step nothing: a book's 5,000-row table is built, and this module loaded, only while someone
looks at it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core import TrainedRun
from bpe_core.formats.merge_table import csv_headers, merge_rows, to_csv, to_markdown

from .i18n import _, tr

#: Most rows copied through the code blocks; the downloads always hold every merge.
CODE_ROWS = 1000


def merges_frame(run: TrainedRun, step: int) -> pd.DataFrame:
    """Merges 1..``step`` as a frame with the CSV headers in the session's language (ids left out)."""
    rows = merge_rows(run, step)
    return pd.DataFrame(
        [(r.merge_number, r.left, r.right, r.token, r.count, r.vocab_size, r.corpus_tokens) for r in rows],
        columns=csv_headers(tr()),
    )


def merges_so_far(run: TrainedRun, step: int, key: str = "merges") -> None:
    """Inside the open expander "The merges so far": the table of merges 1..``step``, its Markdown and CSV (copy
    buttons on the code blocks) and two download buttons (``key``: the prefix of their widget keys)."""
    if step < 1:
        st.caption(_("No merges yet: press Next ▶ to learn the first one."))
        return
    rows = merge_rows(run, step)
    t = tr()
    markdown, csv_text = to_markdown(rows, t), to_csv(rows, t)
    st.dataframe(merges_frame(run, step), hide_index=True, width="stretch", height=min(420, 38 + 35 * len(rows)))
    c1, c2 = st.columns(2)
    c1.download_button(
        _("⬇ Markdown"),
        markdown,
        file_name=_("bpe-merges-{n}.md").format(n=step),
        mime="text/markdown",
        key=f"{key}.md",
        on_click="ignore",
    )
    c2.download_button(
        _("⬇ CSV"),
        csv_text,
        file_name=_("bpe-merges-{n}.csv").format(n=step),
        mime="text/csv",
        key=f"{key}.csv",
        on_click="ignore",
    )
    if len(rows) > CODE_ROWS:
        st.caption(
            _("The boxes below hold the first {shown} of {n} merges; the downloads hold them all.").format(
                shown=f"{CODE_ROWS:,}", n=f"{len(rows):,}"
            )
        )
        rows = rows[:CODE_ROWS]
        markdown, csv_text = to_markdown(rows, t), to_csv(rows, t)
    tab_md, tab_csv = st.tabs([_("Markdown"), _("CSV")])
    tab_md.code(markdown, language="markdown")
    tab_csv.code(csv_text, language="csv")
