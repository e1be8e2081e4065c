"""The step's lower half, drawn together by the stepper page's ``corpus_and_vocabulary``: the corpus table and the
vocabulary with its merge tree.

* The corpus table of a step: word, frequency and segmentation (chips) of a page of word types, the words the step
  changed first with their previous segmentation faded below, and a line of totals. Also how a long word is quoted
  in a table cell (:func:`word_html`), which the changed words of :mod:`ui.panels` share.
* The vocabulary at a step (:func:`vocabulary`): the newest merged tokens, the base alphabet, and the merge tree of
  a token (picked from a list or typed as the chips show it).

``mode`` is the byte display (``"utf8"``, ``"hex"`` or ``"gpt2"``).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe_core import MergeTree, TrainedRun
from bpe_core.encoding import replay as breplay
from bpe_core.measures import total_words

from . import persist, run_cache
from .chips import chip_html, chips_html, run_rtl_note, token_label
from .i18n import _, current_language, ngettext
from .page import lazy_expander
from .text import CLIP_CHARS, esc, esc_raw, md_escape

#: Tokens of a word's segmentation shown before the rest is folded away (opened on demand).
CLIP_TOKENS = 24
#: Tokens of a word drawn in the corpus table and the changed words (the first CLIP_TOKENS, the rest in a
#: fold): a page of 25 long words drawn whole would be tens of thousands of chips, hundreds of
#: milliseconds and megabytes of HTML for every step.
ROW_TOKENS = 96
#: Characters of a word quoted beside the merge in presentation mode (a text without spaces is one long
#: "word"); the corpus table shows :data:`ui.text.CLIP_CHARS` of it, wrapped.
WORD_CHARS = 24


def counted(sentence: str, n: int) -> str:
    """A counted phrase from ``ngettext`` with its ``{n}`` written with thousands separators."""
    return sentence.format(n=f"{n:,}")


def total_words_of(run: TrainedRun) -> int:
    """Words in the corpus of ``run`` (:func:`bpe_core.measures.total_words`), kept in the run's memo."""
    return run_cache.once(run, "total_words", lambda: total_words(run))


#: Characters of a long word a reader can unfold (the rest is only counted).
WORD_MORE = 400


def word_html(word: str, limit: int = WORD_CHARS) -> str:
    """A word for a table cell (escaped): whole up to ``limit`` characters; longer, its first ``limit``
    characters and a ``<details>`` whose summary gives the length and which unfolds the next
    :data:`WORD_MORE` characters on demand."""
    if len(word) <= limit:
        return esc(word)
    n = len(word)
    summary = ngettext("… ({n} character)", "… ({n} characters)", n).format(n=f"{n:,}")
    rest = word[limit : limit + WORD_MORE]
    tail = "…" if n > limit + WORD_MORE else ""
    return (
        f"{esc(word[:limit])}<details class='bpe-more'><summary>{esc_raw(summary)}</summary>{esc(rest)}{tail}</details>"
    )


def corpus_table_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 25, offset: int = 0
) -> str:
    """Word, frequency and segmentation (chips) of ``limit`` word types at ``step``; the words this
    merge changed come first, marked, with their previous segmentation faded below. A long word is
    quoted clipped and its segmentation folded after :data:`CLIP_TOKENS` tokens."""
    snap_token = run.snapshot(step).token if step >= 1 else None
    changed_label = esc_raw(_("changed"))
    body = []
    # Only the chips drawn are segmented (a word without spaces can be a whole book); counts are whole.
    for row in run.corpus_view(step, offset=offset, limit=limit, changed_first=True, max_tokens=ROW_TOKENS):
        new = snap_token if row.changed else None
        seg = chips_html(
            run, row.tokens, mode, new, presentation, clip_at=CLIP_TOKENS, max_chips=ROW_TOKENS, total=row.num_tokens
        )
        badge = f"<span class='bpe-badge changed'>{changed_label}</span>" if row.changed else ""
        before = ""
        if row.changed and row.before is not None:
            faded = chips_html(
                run,
                row.before,
                mode,
                None,
                presentation,
                css="before",
                clip_at=CLIP_TOKENS,
                max_chips=ROW_TOKENS,
                total=row.num_before,
            )
            before = f"<div>{faded}</div>"
        body.append(
            f"<tr class='{'changed' if row.changed else ''}'><td class='word' dir='auto'>{word_html(row.word, CLIP_CHARS)}{badge}</td>"
            f"<td class='num'>{row.freq:,}</td><td class='seg'>{seg}{before}</td><td class='num'>{row.num_tokens:,}</td></tr>"
        )
    heads = (_("word"), _("freq"), _("segmentation after step {step}").format(step=f"{step:,}"), _("tokens"))
    th = "".join(f"<th>{esc_raw(h)}</th>" for h in heads)
    return (
        f"<table class='bpe-table' id='bpe-corpus'><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def corpus_table(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, key: str = "corpus"
) -> None:
    """Draw the corpus table with a line of totals; for large corpora, a rows-shown picker (hidden in
    presentation mode)."""
    n_words = run.num_words
    limit = 12 if presentation else 25
    if n_words > limit and not presentation:
        name = f"{key}.rows"
        options = [x for x in (25, 50, 100, 250) if x < n_words] + [min(n_words, 1000)]
        if persist.kept(name, options[0]) not in options:
            persist.put(name, options[0])
        limit = st.selectbox(
            _("Word types shown"), options, key=persist.seeded(name, options[0]), on_change=persist.keep, args=(name,)
        )
    # Kept in the run's memo for the last few steps asked (it can be large): every student of a live class redraws
    # the same step after each of the teacher's presses, and this table is the costliest piece of the page to build.
    key = (step, mode, presentation, current_language(), int(limit))
    st.html(
        run_cache.cached_html(
            run, "corpus_table", key, lambda: _corpus_table_block(run, step, mode, presentation, limit)
        )
    )


def _corpus_table_block(run: TrainedRun, step: int, mode: str, presentation: bool, limit: int) -> str:
    """The line of totals and the corpus table (:func:`corpus_table_html`) of ``limit`` rows, as one HTML block."""
    n_words = run.num_words
    parts = [
        _("{word_types}, {words}; {token_count} now (was {before} at step 0).").format(
            word_types=counted(ngettext("{n} word type", "{n} word types", n_words), n_words),
            words=counted(ngettext("{n} word", "{n} words", total_words_of(run)), total_words_of(run)),
            token_count=counted(ngettext("{n} token", "{n} tokens", run.corpus_tokens(step)), run.corpus_tokens(step)),
            before=f"{run.corpus_tokens(0):,}",
        )
    ]
    if step >= 1:
        changed = run.snapshot(step).words_changed
        if n_words > 1:
            parts.append(
                counted(
                    ngettext(
                        "This merge changed {n} word type (listed first).",
                        "This merge changed {n} word types (listed first).",
                        changed,
                    ),
                    changed,
                )
            )
        else:
            parts.append(
                counted(
                    ngettext("This merge changed {n} word type.", "This merge changed {n} word types.", changed),
                    changed,
                )
            )
    if n_words > limit:
        parts.append(_("Showing {shown} of {n}.").format(shown=f"{limit:,}", n=f"{n_words:,}"))
    note = run_rtl_note(run)
    if note:
        parts.append(note)
    head = " ".join(parts)
    return f"<p class='bpe-muted'>{esc_raw(head)}</p>" + corpus_table_html(run, step, mode, presentation, limit)


# --- The vocabulary and its merge tree ----------------------------------------------------------------------------

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
        + (chips_html(run, ids, mode, new_token, presentation, alone=True) if ids else none)
    )
    if not presentation:
        box = lazy_expander(_("Base symbols ({n})").format(n=f"{base:,}"), f"{key}.base.open")
        if box is not None:
            with box:
                st.html(chips_html(run, range(base), mode, None, presentation, alone=True))
    merge_tree_picker(run, step, mode, presentation, candidates=ids[:recent], key=key)


def find_token(run: TrainedRun, label: str, mode: str = "utf8", step: int | None = None) -> int | None:
    """The id of the token shown as ``label`` (as :func:`ui.chips.token_label` writes it, or its raw
    text), present at ``step`` (default: any step), or ``None``."""
    index = run_cache.cached(run, "labels", mode, lambda: breplay.token_index(run, lambda t: token_label(run, t, mode)))
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
        # One name at every step: the browser sends the shown name back, and a name of step 0 sent at step 2
        # would be read as a typed token that does not exist.
        if option == _NEW:
            return _("this step's new token")
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
        graph = run_cache.cached(run, "graph", step, lambda: run.merge_graph(step))
        st.html(children_html(run, graph, tid, mode, presentation, _step_label, "bpe-tree-up"))
        walk_control(run, graph, tid, mode, f"{key}.walk", lambda t: persist.put(name, t))
    elif step == 0:
        st.caption(_("(no merge yet: pick or type a token)"))


def _step_label(number: int | None) -> str:
    return _("step {step}").format(step=number) if number else _("base")


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


# ------------------------------------------------------------------------------------ walking a tree up and down
# Under a token's tree (its parts, down to base symbols): the tokens made directly from it, and one control to go
# to any of them or to a part (bpe_core.MergeGraph's numbers). The stepper and the GPT page draw them.
#: At most this many tokens made from a token are drawn and offered (a byte makes hundreds).
MAX_CHILDREN = 40


def children_html(src, graph, tid: int, mode: str, present: bool, number: Callable[[int], str], css_id: str) -> str:
    """The tokens made directly from ``tid``, as chips each with ``number(merge)``; a sentence when there are none.

    Args:
        src: the chips' token source (a run or a tokenizer's). graph: its merge graph. number: a merge number's
            label ("step 5", "#5"). css_id: the block's id.
    """
    kids = graph.children(tid)
    name = token_label(src, tid, mode)
    if not kids:
        text = _("No token was made from {token}: it is only ever a whole token, never a part.").format(token=name)
        return f"<p class='bpe-muted' id='{css_id}' data-children='0'>{esc_raw(text)}</p>"
    head = ngettext(
        "{n} token was made directly from {token}:",
        "{n} tokens were made directly from {token}:",
        len(kids),
    ).format(n=f"{len(kids):,}", token=name)
    shown = kids[:MAX_CHILDREN]
    chips = "".join(
        f"<span class='bpe-walk-kid' data-id='{k}'>{chip_html(src, k, mode, present)}"
        f"<span class='stepnum'>{esc_raw(number(graph.merge_number(k)))}</span></span> "
        for k in shown
    )
    more = ""
    if len(kids) > len(shown):
        more = esc_raw(_("… and {n} more.").format(n=f"{len(kids) - len(shown):,}"))
    return (
        f"<div class='bpe-walk' id='{css_id}' data-children='{len(kids)}'>"
        f"<p class='bpe-note'>{esc_raw(head)}</p><p>{chips}{more}</p></div>"
    )


def walk_control(src, graph, tid: int, mode: str, key: str, go: Callable[[int], None]) -> None:
    """Buttons to go down to a part of ``tid`` or up to a token made from it: ``go(id)`` runs on a click (a
    callback, before the page reruns)."""
    parts = list(graph.parts(tid) or ())
    kids = list(graph.children(tid)[:MAX_CHILDREN])
    options = list(dict.fromkeys(parts + kids))
    if not options:
        return

    def label(t: int) -> str:
        # A pill's label is Markdown: "</w>" would be read as a tag and dropped.
        return md_escape(f"{'↓' if t in parts else '↑'} {token_label(src, t, mode)}")

    def picked() -> None:
        choice = st.session_state.get(key)
        st.session_state[key] = None
        if choice is not None:
            go(choice)

    st.pills(
        _("Go to a part (↓) or to a token made from it (↑)"),
        options,
        format_func=label,
        key=key,
        on_change=picked,
    )
