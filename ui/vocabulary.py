"""The vocabulary at a step: the newest merged tokens, the base alphabet, and the merge tree of a
token (picked from a list or typed as the chips show it)."""

from __future__ import annotations

import streamlit as st

from bpe_core import MergeTree, TrainedRun
from bpe_core.encoding import replay as breplay

from . import memo, persist
from .chips import chip_html, chips_html, token_label
from .i18n import _, ngettext
from .page import lazy_expander
from .text import esc_raw

_NEW = -1  # picker option: "this step's new token"


def vocabulary(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, recent: int = 60, key: str = "vocab"
) -> None:
    """The vocabulary at ``step``: merged tokens (newest first, this step's token marked; at most
    ``recent`` of them), the base alphabet folded away, then a picker and the merge tree of the
    chosen token (default: this step's token)."""
    size = run.vocab_size_at(step)
    base = run.num_base
    merged = size - base
    new_token = run.snapshot(step).token if step >= 1 else None
    ids = list(range(size - 1, max(base, size - recent) - 1, -1))
    values = {"size": f"{size:,}", "base": f"{base:,}", "merged": f"{merged:,}", "shown": f"{len(ids):,}"}
    if merged > len(ids):
        line = ngettext(
            "{size} token: {base} base symbols + {merged} made by merges (newest {shown} shown, newest first).",
            "{size} tokens: {base} base symbols + {merged} made by merges (newest {shown} shown, newest first).",
            size,
        )
    else:
        line = ngettext(
            "{size} token: {base} base symbols + {merged} made by merges (newest first).",
            "{size} tokens: {base} base symbols + {merged} made by merges (newest first).",
            size,
        )
    no_merges = _("No merges yet.")
    none = f"<p class='bpe-muted'>{esc_raw(no_merges)}</p>"
    st.html(
        f"<p class='bpe-muted'>{esc_raw(line.format(**values))}</p>"
        + (chips_html(run, ids, mode, new_token, presentation) if ids else none)
    )
    if not presentation:
        box = lazy_expander(_("Base symbols ({n})").format(n=f"{base:,}"), f"{key}.base.open")
        if box is not None:
            with box:
                st.html(chips_html(run, range(base), mode, None, presentation))
    merge_tree_picker(run, step, mode, presentation, candidates=ids[:recent], key=key)


def find_token(run: TrainedRun, label: str, mode: str = "utf8", step: int | None = None) -> int | None:
    """The id of the token shown as ``label`` (as :func:`ui.chips.token_label` writes it, or its raw
    text), present at ``step`` (default: any step), or ``None``."""
    index = memo.cached(run, "labels", mode, lambda: breplay.token_index(run, lambda t: token_label(run, t, mode)))
    return breplay.find_token(run, label, index, step)


def merge_tree_picker(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, candidates=(), key: str = "vocab"
) -> None:
    """A token picker (a list of ``candidates`` ids; any other token can be typed) and the merge
    tree of the picked token; by default this step's new token."""
    name = f"{key}.tree"
    size = run.vocab_size_at(step)
    options = [_NEW] + [t for t in candidates if t >= 0]
    current = persist.kept(name, _NEW)
    if isinstance(current, int) and not (0 <= current < size or current == _NEW):
        current = _NEW  # picked in another run or at a later step
        persist.put(name, _NEW)
    if current not in options:
        options.append(current)

    def fmt(option) -> str:
        if option == _NEW:
            return _("this step's new token") if step >= 1 else _("(no merge yet: pick or type a token)")
        if isinstance(option, int):
            return token_label(run, option, mode)
        return str(option)

    choice = st.selectbox(
        _("Merge tree of"),
        options,
        key=persist.seeded(name, _NEW),
        format_func=fmt,
        accept_new_options=True,
        on_change=persist.keep,
        args=(name,),
        help=_("Pick a token, or type one exactly as it is shown (e.g. est</w>, ␣the, e4 bd)."),
    )
    tid: int | None
    if choice == _NEW or choice is None:
        tid = run.snapshot(step).token if step >= 1 else None
    elif isinstance(choice, int):
        tid = choice if choice < size else None
    else:
        tid = find_token(run, str(choice), mode, step)
        if tid is None:
            st.warning(_("No such token in the vocabulary at this step. Type it as the chips show it."))
            return
    if tid is not None:
        st.html(merge_tree_html(run, tid, mode, presentation))


def merge_tree_html(
    run: TrainedRun, tid: int, mode: str = "utf8", presentation: bool = False, max_leaves: int = 48
) -> str:
    """How token ``tid`` was built (:meth:`bpe_core.TrainedRun.merge_tree`), as a tree of chips (root on
    top, each node labelled with the step that made it). A token of more than ``max_leaves`` symbols is only named, not drawn."""
    if run.symbol_length(tid) > max_leaves:
        n = run.symbol_length(tid)
        text = ngettext(
            "{label} is made of {n} symbol: too big to draw.", "{label} is made of {n} symbols: too big to draw.", n
        ).format(label=token_label(run, tid, mode), n=f"{n:,}")
        return f"<p class='bpe-muted'>{esc_raw(text)}</p>"

    def node(tree: MergeTree) -> str:
        label = esc_raw(_("step {step}").format(step=tree.merge_number) if tree.merge_number else _("base"))
        label = f"<span class='stepnum'>{label}</span>"
        kids = f"<ul>{node(tree.left)}{node(tree.right)}</ul>" if tree.merge_number else ""
        return f"<li>{chip_html(run, tree.token, mode, presentation)}{label}{kids}</li>"

    return f"<ul class='bpe-tree' id='bpe-tree'>{node(run.merge_tree(tid))}</ul>"
