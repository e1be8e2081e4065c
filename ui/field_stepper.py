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
from bpe_core.inputs import SettingError
from bpe_core.teaching.step_view import CHOSEN, TIED, step_view, word_views
from ui import persist
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


def error_text(err: ValueError) -> str:
    """A training's refusal in the interface's language (a :class:`~bpe_core.inputs.SettingError` is worded in the
    catalogs; any other ``ValueError`` is shown as it is)."""
    return err.message(tr()) if isinstance(err, SettingError) else str(err)


def _chips(run, ids, new=None) -> str:
    return " ".join(
        f'<code style="{"background:#fde68a;" if t == new else ""}padding:1px 4px">{esc(run.token_text(t))}</code>'
        for t in ids
    )


def can_train(choice) -> bool:
    """Whether this page trains ``choice`` (else it says why: a Unigram run without a vocabulary size, or on a corpus
    over :data:`UNIGRAM_MAX_BYTES`): a live class starts only on a run it can step."""
    if choice.config.algorithm != "unigram":
        return True
    return choice.config.vocab_size is not None and choice.corpus.size_bytes <= UNIGRAM_MAX_BYTES


def _class_step(run, choice, class_view) -> int | None:
    """In a live class (``class_view``: :mod:`ui.class_view`): the class's row and step control (a student never
    past the teacher's step), then the class's part of the step (:func:`ui.class_round.step_part`). The step to
    draw, or ``None`` when the class's part replaces it (an open question)."""
    from ui import class_field, class_round, stepper

    in_class = class_view.prepare_step(run.num_steps)
    if in_class is None:  # the class is gone (said so) or unreachable: the student steps alone
        return st.slider(_("Step"), 0, run.num_steps, 0, key="field_step") if run.num_steps else 0
    klass, store = in_class
    limit, own, present = class_view.step_limit(klass), persist.is_teacher(), choice.display.presentation
    class_round.bar(klass, run, min(store.get(), run.num_steps), present)
    with st.container(key="class-stepper-teacher" if own else "class-stepper-student"):
        step = stepper.step_controls(
            run.num_steps, store=store, limit=limit, presentation=present, jump=own, autoplay=own
        )
    if class_round.step_part(klass, run, step, choice.display.byte_mode, present, limit, class_field):
        return None
    return step


def page(choice, class_view=None) -> None:
    """Train ``choice``'s corpus with its algorithm and draw the step the slider names (in a live class,
    ``class_view`` being :mod:`ui.class_view`: the class's step, with its questions)."""
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
        st.error(error_text(err))
        return
    wordpiece = cfg.algorithm == "wordpiece"
    # In a class, a student's phone and the projector (presentation mode) leave it out: the question names the
    # algorithm, and is the largest text on the screen.
    if class_view is None or (persist.is_teacher() and not choice.display.presentation):
        st.subheader(_("WordPiece, step by step") if wordpiece else _("Unigram, round by round"))
    if not run.num_steps:
        st.info(_("Training stopped before the first step: the corpus or the size leaves nothing to do."))
    if class_view is not None:
        step = _class_step(run, choice, class_view)
        if step is None:
            return
    else:
        step = st.slider(_("Step"), 0, run.num_steps, 0, key="field_step") if run.num_steps else 0
    if (
        class_view is None
        and run.num_steps
        and st.toggle(_("Quiz: predict this step before it is shown"), key="field_quiz")
    ):
        return _quiz(run, max(step, 1), wordpiece)  # at step 0 the quiz asks about step 1
    # step 0 of Unigram lists the seed vocabulary (scrolled), of WordPiece the first merge's pairs
    view = step_view(run, step, pairs=400 if step == 0 and not wordpiece else 10, words=6)
    if step == 0:
        return _start(run, view, wordpiece, in_class=class_view is not None)
    if wordpiece:
        left, right = view.headline.tokens
        st.html(f"<p>{_chips(run, [left])} + {_chips(run, [right])} → {_chips(run, [view.headline.made])}</p>")
    else:
        st.html(f"<p>{esc_raw(_('Removed:'))} {_chips(run, view.headline.tokens)}</p>")
    why = step_why(run, step, tr())
    if why is not None:
        st.markdown(why.text)  # (plain words of our own catalogs, with a number)
    _numbers(view)
    st.table(_score_rows(run, step, view) if wordpiece else _loss_rows(run, view), hide_index=True)
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


_MARKS = {CHOSEN: "✔", TIED: "="}


def _numbers(view) -> None:
    for col, number in zip(st.columns(len(view.numbers)), view.numbers):
        value = number.value
        col.metric(_(number.label), f"{value:.4g}" if isinstance(value, float) else f"{value:,}")


def _score_rows(run, step: int, view) -> list[dict]:
    """WordPiece's score table before merge ``max(step, 1)`` as table rows, the chosen and tied pairs marked."""
    return [
        {
            _("Pair"): f"{run.token_text(r.left)} + {run.token_text(r.right)}",
            _("Count"): r.count,
            _("First part's count"): r.left_count,
            _("Second part's count"): r.right_count,
            _("Score"): f"{r.score:.4g}",
            "": _MARKS.get(c.mark, ""),
        }
        for r, c in zip(run.snapshot(max(step, 1)).table, view.candidates.rows)
    ]


def _loss_rows(run, view) -> list[dict]:
    return [
        {_("Token"): run.token_text(c.tokens[0]), _("Loss increase"): f"{c.count:.4g}", "": _MARKS.get(c.mark, "")}
        for c in view.candidates.rows
    ]


def _start(run, view, wordpiece: bool, in_class: bool = False) -> None:
    """Step 0: the starting vocabulary and the corpus split by it, before the first step (as BPE's step 0 shows
    the corpus in its base symbols). WordPiece: the words in characters with ``##``, the special tokens and the
    alphabet, the pairs the first merge chooses from; Unigram: the seed vocabulary with its counts and costs,
    the initial loss, the words as the seed segments them and one word's lattice. ``in_class``: a live class's
    screen, which does not mark the pair merged at step 1 (the class's first question)."""
    if wordpiece:
        st.markdown(
            _(
                "Step 0, before the first merge: every word is split into its characters, and a character that "
                "does not start its word carries the continuation prefix ##. The vocabulary is the five special "
                "tokens and the alphabet."
            )
        )
    else:
        st.markdown(
            _(
                "Step 0, before the first round: the seed vocabulary holds every character and the most frequent "
                "substrings; a token's cost is −log p, p its count over all the counts. Each word is cut where the "
                "costs add up least (Viterbi); the loss is that sum over the corpus."
            )
        )
    _numbers(view)
    label = _("Starting vocabulary:") if wordpiece else _("Seed vocabulary:")
    st.html(f"<p>{esc_raw(label)} {_chips(run, view.headline.tokens[:200])}</p>")
    if len(view.headline.tokens) > 200:
        st.caption(_("The first {n} of {total} tokens.").format(n=200, total=f"{len(view.headline.tokens):,}"))
    st.markdown(_("The first words of the corpus, split as training starts:"))
    shown = word_views(run, 0, range(min(6, len(run.words))))
    st.html("".join(f"<p>{esc(w.word)} ({w.freq}): {_chips(run, w.after.ids)}</p>" for w in shown))
    if wordpiece:
        if view.candidates is not None and not in_class:  # in a class: its ✔ would answer the first question
            st.markdown(_("The pairs the first merge chooses from (✔: the highest score, merged at step 1):"))
            st.table(_score_rows(run, 0, view), hide_index=True)
        return
    model = run.model(0)
    st.markdown(_("The seed vocabulary, most probable first:"))
    st.dataframe(
        [
            {
                _("Token"): run.token_text(t),
                _("Count"): run.seed_counts[t],
                _("Cost (−log p)"): round(model[run.values[t]], 3),
            }
            for t in (c.tokens[0] for c in view.candidates.rows)
        ],
        hide_index=True,
        height=280,
    )
    _lattice(run, 0, run.words[0])


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
