"""The stepper for a WordPiece or Unigram run (``?algo=wordpiece`` / ``?algo=unigram``): one step at a time, drawn
from the step's view (:mod:`bpe_core.teaching.field_views`): what it did, its numbers, the candidates it chose from
(WordPiece's score table, Unigram's loss increases) and the words it changed.

These runs are not merge runs, so the BPE stepper's panels, charts and class do not apply: this page trains the
corpus with the algorithm's own pre-tokenizer (``bert`` for WordPiece, ``metaspace`` for Unigram) and shows it here.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from bpe_core.algorithms.seam import step_why
from bpe_core.teaching.step_view import CHOSEN, TIED, step_view
from ui.i18n import _, tr
from ui.text import esc, esc_raw

#: The largest corpus (UTF-8 bytes) trained with Unigram in the app: its seed counts every substring of up to 16
#: characters, about 800 MB for 300,000 characters of unspaced Chinese.
UNIGRAM_MAX_BYTES = 200_000
#: Runs kept for the reruns of one page (a slider move reruns the page).
_RUNS = 8


@st.cache_resource(max_entries=_RUNS, show_spinner=False)
def train(digest: str, config, _corpus):
    """The run of the corpus ``digest`` with ``config`` (``_corpus`` is not hashed: the digest names it)."""
    return _corpus.train(config)


def too_big_text() -> str:
    """The note shown instead of a Unigram training of a corpus over :data:`UNIGRAM_MAX_BYTES`."""
    return _("Unigram is trained here on corpora up to {n} kB; choose a smaller one.").format(
        n=UNIGRAM_MAX_BYTES // 1000
    )


def _chips(run, ids, new=None) -> str:
    return " ".join(
        f'<code style="{"background:#fde68a;" if t == new else ""}padding:1px 4px">{esc(run.token_text(t))}</code>'
        for t in ids
    )


def page(choice) -> None:
    """Train ``choice``'s corpus with its algorithm and draw the step the slider names."""
    cfg = dataclasses.replace(choice.config, pretokenizer=None, variant="char", min_frequency=1)
    if cfg.algorithm == "unigram" and cfg.vocab_size is None:
        st.warning(_("Unigram prunes down to a vocabulary size: choose a vocabulary size in the sidebar, not merges."))
        return
    if cfg.algorithm == "unigram" and choice.corpus.size_bytes > UNIGRAM_MAX_BYTES:
        st.info(too_big_text())
        return
    try:
        run = train(choice.corpus.digest, cfg, choice.corpus)
    except ValueError as err:
        st.error(str(err))
        return
    wordpiece = cfg.algorithm == "wordpiece"
    st.subheader(_("WordPiece, step by step") if wordpiece else _("Unigram, round by round"))
    if not run.num_steps:
        st.info(_("Training stopped before the first step: the corpus or the size leaves nothing to do."))
        return
    step = st.slider(_("Step"), 1, run.num_steps, 1, key="field_step") if run.num_steps > 1 else 1
    if st.toggle(_("Quiz: predict this step before it is shown"), key="field_quiz"):
        return _quiz(run, step, wordpiece)
    view = step_view(run, step, pairs=10, words=6)
    if wordpiece:
        left, right = view.headline.tokens
        st.html(f"<p>{_chips(run, [left])} + {_chips(run, [right])} → {_chips(run, [view.headline.made])}</p>")
    else:
        st.html(f"<p>{esc_raw(_('Removed:'))} {_chips(run, view.headline.tokens)}</p>")
    why = step_why(run, step, tr())
    if why is not None:
        st.markdown(why.text)  # (plain words of our own catalogs, with a number)
    for col, number in zip(st.columns(len(view.numbers)), view.numbers):
        value = number.value
        col.metric(_(number.label), f"{value:.4g}" if isinstance(value, float) else f"{value:,}")
    marks = {CHOSEN: "✔", TIED: "="}
    if wordpiece:
        snap = run.snapshot(step)
        rows = [
            {
                _("Pair"): f"{run.token_text(r.left)} + {run.token_text(r.right)}",
                _("Count"): r.count,
                _("First part's count"): r.left_count,
                _("Second part's count"): r.right_count,
                _("Score"): f"{r.score:.4g}",
                "": marks.get(c.mark, ""),
            }
            for r, c in zip(snap.table, view.candidates.rows)
        ]
    else:
        rows = [
            {_("Token"): run.token_text(c.tokens[0]), _("Loss increase"): f"{c.count:.4g}", "": marks.get(c.mark, "")}
            for c in view.candidates.rows
        ]
    st.table(rows, hide_index=True)
    if view.changed:
        st.markdown(_("Words this step changed:"))
        st.html(
            "".join(
                f"<p>{esc(w.word)} ({w.freq}): {_chips(run, w.before.ids)} → {_chips(run, w.after.ids, w.after.new)}</p>"
                for w in view.changed
            )
        )
    if not wordpiece:
        _lattice(run, step, view.changed[0].word if view.changed else run.words[0])


def _lattice(run, step: int, word: str) -> None:
    """One word's lattice after round ``step``: every vocabulary piece in it with its cost, and the best few
    segmentations with their scores (the first is the one Unigram uses)."""
    from bpe_core.algorithms.unigram_lattice import lattice

    st.markdown(_("A word's lattice: every vocabulary piece in it, and its cheapest segmentations."))
    word = st.text_input(_("Word"), value=word, max_chars=40, key="field_lattice_word")
    edges, paths = lattice(word, run.model(step), best=4)
    if not paths:
        st.info(_("This vocabulary cannot write that word: a character is not in it."))
        return
    st.html(
        "".join(
            f"<p>{'✔ ' if rank == 0 else ''}{_chips_text(path.pieces)} <small>({path.score:.3f})</small></p>"
            for rank, path in enumerate(paths)
        )
    )
    st.table(
        [{_("Piece"): e.piece, _("From"): e.start, _("To"): e.end, _("Cost (−log p)"): f"{e.cost:.3f}"} for e in edges],
        hide_index=True,
    )


def _chips_text(pieces) -> str:
    return " ".join(f'<code style="padding:1px 4px">{esc(p)}</code>' for p in pieces)


def _quiz(run, step: int, wordpiece: bool) -> None:
    """The question about ``step`` (:mod:`bpe_core.teaching.field_quiz`) and, once answered, its grade."""
    from bpe_core.teaching import field_quiz

    if wordpiece:
        options = field_quiz.wordpiece_question(run, step)
        labels = [
            f"{run.token_text(o.left)} + {run.token_text(o.right)}    {o.count} / ({o.left_count} × {o.right_count})"
            for o in options
        ]
        pick = st.radio(
            _("Which pair scores highest: its count divided by the product of its parts' counts?"),
            range(len(options)),
            format_func=labels.__getitem__,
            index=None,
            key=f"field_quiz_pair_{step}",
        )
        if pick is None:
            return
        grade = field_quiz.grade_pair(options, pick)
        if grade == "right":
            st.success(_("Right: this pair has the highest score and is merged."))
        elif grade == "tied":
            st.info(_("Tied: this pair has the same score; the pair seen first in the corpus is merged."))
        else:
            st.error(_("Not this one: another pair scores higher."))
        return
    tokens, removed = field_quiz.unigram_question(run, step)
    picked = st.multiselect(
        _("Which of these tokens does this round remove?"), tokens, format_func=run.token_text, key=f"field_quiz_{step}"
    )
    if st.button(_("Check"), key=f"field_quiz_check_{step}"):
        if set(picked) == removed:
            st.success(_("Right: exactly these are removed."))
        else:
            names = ", ".join(run.token_text(t) for t in tokens if t in removed)
            st.error(_("Not quite: this round removes {tokens}.").format(tokens=names))
