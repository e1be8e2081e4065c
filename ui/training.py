"""Finished training runs, shared by every session of the server process.

A run is trained once per ``(sha256 of the input, TrainConfig)`` and kept in a bounded LRU cache
(:class:`RunCache`): at most ``BPE_EXPLORER_CACHE_ENTRIES`` runs (default 12) and at most
``BPE_EXPLORER_CACHE_MB`` megabytes by estimate (default 512; the estimate is
``run.memory_bytes()`` plus the size of the input). Stepping through a cached run is lookups only.

Training happens in a background thread, not in the script thread, for two reasons: a rerun
(a student clicking Next while the book is training) must not abort the training, and every
session that asks for the same key while it trains waits for that one job instead of starting
its own (30 students opening the same preset train it once). Each waiting session shows the
shared progress (merges done / asked) with ``st.progress``.

Pages call :func:`get_run` with a :class:`ui.corpus.Corpus` and a :class:`bpe_core.TrainConfig`.
The stepper page calls :func:`get_live_run` instead, which does not wait for the whole run: it returns
as soon as merge 1 is trained, with a frozen view of the steps trained so far
(:meth:`bpe_core.TrainedRun.view`), while the training goes on behind it. The cache and its jobs, which need no
Streamlit, are :mod:`ui.run_cache`; this module holds the process-wide caches and draws the waits.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from bpe_core import PatternError, TrainConfig, TrainedRun
from bpe_core.algorithms.seam import get_algorithm
from bpe_core.algorithms.superbpe import TransitionError
from bpe_core.inputs import format_size
from bpe_core.pretokenize_words import JIEBA

from .corpus import Corpus
from .i18n import _, tr
from .run_cache import STREAM_GRACE_S, RunCache, _Job, cache_limits

#: Seconds a page waits silently before it shows a progress bar (small corpora train in
#: milliseconds; a bar flashing on every click would distract the class).
PROGRESS_DELAY_S = 0.2
#: The largest corpus (UTF-8 bytes) the app cuts with the jieba pre-tokenizer. jieba segments about 0.7 MB of Chinese
#: per CPU second (pure Python; 5 MB took 8 s of CPU, nearer a minute on a busy classroom server, with no progress to
#: show inside it); the whole 红楼梦 (2.5 MB) fits, and the command line takes any size.
JIEBA_MAX_BYTES = 3_000_000


@st.cache_resource(show_spinner=False)
def shared_cache() -> RunCache:
    """The process-wide :class:`RunCache` (kept by ``st.cache_resource``, so it survives the
    file watcher reloading this module)."""
    entries, max_bytes = cache_limits()
    return RunCache(max_entries=entries, max_bytes=max_bytes)


@st.cache_resource(show_spinner=False)
def examples_cache() -> RunCache:
    """The process-wide cache of the fixed teaching examples (the How page's textbook, overlap and tie-break
    runs: a few hundred bytes each). Kept apart from :func:`shared_cache`, so that opening that page never
    evicts the run of a class's corpus."""
    return RunCache(max_entries=24, max_bytes=50_000_000)


def merge_config(config: TrainConfig | None) -> TrainConfig | None:
    """``config``, or BPE's when its algorithm's runs are not merge runs (WordPiece, Unigram: ``merge_runs =
    False``): only the stepper draws those (:mod:`ui.field_stepper`); every other page shows BPE's merges."""
    if config is not None and not getattr(get_algorithm(config.algorithm), "merge_runs", True):
        return dataclasses.replace(config, algorithm="bpe")
    return config


def too_big_for_jieba(corpus: Corpus, config: TrainConfig) -> bool:
    """Say so (``st.info``) and return True when ``config`` cuts ``corpus`` with jieba and it is over
    :data:`JIEBA_MAX_BYTES`; False otherwise."""
    if config.pretokenizer != JIEBA or corpus.size_bytes <= JIEBA_MAX_BYTES:
        return False
    st.info(
        _(
            "The jieba pre-tokenizer cuts about 0.7 MB of Chinese a second at best, so the app uses it on texts up "
            "to {limit}; this one is {size}. Choose a shorter text or another pre-tokenizer, or train on the command "
            "line: python -m bpe_core train FILE --pretokenizer jieba"
        ).format(limit=format_size(JIEBA_MAX_BYTES, tr()), size=format_size(corpus.size_bytes, tr()))
    )
    return True


def _start(cache: RunCache, corpus: Corpus, config: TrainConfig) -> _Job:
    return cache.start(
        (corpus.digest, config),
        lambda job: corpus.train(config, progress=job, on_start=job.started),
        corpus.size_bytes,
        config.num_merges,
    )


def get_run(corpus: Corpus | None, config: TrainConfig | None, cache: RunCache | None = None) -> TrainedRun | None:
    """The finished run of ``corpus`` trained with ``config``, training it (with a progress bar) if needed,
    in ``cache`` (default: :func:`shared_cache`).

    Returns ``None`` when either is ``None`` (the input was unusable; a message was shown), when the corpus is too
    big for the jieba pre-tokenizer (:func:`too_big_for_jieba`) or when training failed (a message, ``st.error``, is
    then shown). Never raises for bad input.
    """
    config = merge_config(config)
    if corpus is None or config is None or too_big_for_jieba(corpus, config):
        return None
    slot = st.empty()  # the progress bar's place, drawn whether or not there is a wait (see _wait)
    cache = shared_cache() if cache is None else cache
    run = cache.get((corpus.digest, config))
    if run is not None:
        return run
    job = _start(cache, corpus, config)
    _wait(job, lambda: False, slot)
    return None if _failed(job) else job.run


@dataclass(frozen=True)
class Live:
    """A run as the stepper shows it while it may still be training.

    ``run`` is the finished run, or a frozen view of the merges trained so far
    (:meth:`bpe_core.TrainedRun.view`); ``finished`` says which. ``asked`` is the number of merges asked
    for (``None``: no limit) and ``seconds`` how long training has taken so far.
    """

    run: TrainedRun
    finished: bool
    asked: int | None
    seconds: float = 0.0
    job: _Job | None = field(default=None, compare=False, repr=False)  # the training, while it goes on


#: Seconds from the start of a training before a page shows the merges trained so far: a run done by
#: then is shown finished, without a "so far" that would flash for a moment. A run whose pace says it


def get_live_run(corpus: Corpus | None, config: TrainConfig | None, want: int = 1) -> Live | None:
    """The run of ``corpus`` trained with ``config`` as soon as merge ``want`` (at least 1) is trained:
    the finished run when it is cached or done within :data:`STREAM_GRACE_S`, else a :class:`Live`
    view of the merges trained so far while the training goes on in the background (a progress bar is
    shown while waiting). ``want`` is the step the page is asked to show (a link to step 5,000 waits
    for it). Call it again (every rerun) for a newer view.

    Returns ``None`` as :func:`get_run` does: unusable input, or training failed (a message is shown).
    """
    config = merge_config(config)
    if corpus is None or config is None or too_big_for_jieba(corpus, config):
        return None
    slot = st.empty()  # the progress bar's place, drawn whether or not there is a wait (see _wait)
    cache = shared_cache()
    run = cache.get((corpus.digest, config))
    if run is not None:
        return Live(run, True, config.num_merges)
    job = _start(cache, corpus, config)
    want = max(1, int(want))

    def ready() -> bool:
        live = job.live
        if live is None or live.num_steps < want:
            return False
        return time.monotonic() - job.began >= STREAM_GRACE_S or job.ready_early()

    _wait(job, ready, slot)
    if _failed(job):
        return None
    if job.finished.is_set():
        return Live(job.run, True, config.num_merges)
    job.hold()  # released by drawn() once the page has drawn this view
    return Live(job.view(), False, config.num_merges, time.monotonic() - job.began, job)


def drawn(live: Live) -> None:
    """Call once a page has drawn ``live`` (from :func:`get_live_run`): a training held for it goes on."""
    if live.job is not None:
        live.job.release()


def _wait(job: _Job, ready: Callable[[], bool], slot) -> None:
    """Wait until ``job`` has finished or ``ready()`` holds, showing a progress bar in ``slot`` (an
    ``st.empty()``) after :data:`PROGRESS_DELAY_S`.

    The caller draws ``slot`` whether or not it waits, so what the page draws after it keeps its place
    from one run to the next. When the first run waited (a bar) and a later one did not (the run
    cached by then), everything after would otherwise move up one place: Streamlit draws the new
    elements there and keeps the old ones, marked stale, until the run ends, so for a moment the page
    showed two step labels ("Step 1 of 2,000 so far" and "Step 1 of 3,000")."""
    deadline = time.monotonic() + PROGRESS_DELAY_S
    while not (job.finished.wait(0.02) or ready()):
        if time.monotonic() >= deadline:
            break
    else:
        return
    slot.progress(0.0, text=_progress_text(job))
    while not (job.finished.wait(0.1) or ready()):
        slot.progress(_fraction(job), text=_progress_text(job))
    slot.empty()


def _failed(job: _Job) -> bool:
    """Show the error of a failed training (bad settings, a pattern past its time budget, memory) and
    return True; False when it did not fail. Any other exception is a bug and is raised."""
    err = job.error
    if err is None:
        return False
    if isinstance(err, (PatternError, TransitionError)):  # e.g. a pattern past its time budget on the whole text
        st.error(_("Training failed: {reason}").format(reason=err.message(tr())))
        return True
    if isinstance(err, (ValueError, MemoryError)):
        st.error(_("Training failed: {reason}").format(reason=err))
        return True
    raise err


def _fraction(job: _Job) -> float:
    live = job.live
    return min(1.0, live.num_steps / job.asked) if live is not None and job.asked else 0.0


def get_runs(jobs, cache: RunCache | None = None) -> list[TrainedRun | None]:
    """The runs of several ``(corpus, config)`` pairs: every missing one is started first (they train
    side by side, two at a time), then each is awaited with :func:`get_run` (in ``cache``, default
    :func:`shared_cache`)."""
    cache = shared_cache() if cache is None else cache
    jobs = [(corpus, merge_config(config)) for corpus, config in jobs]
    for corpus, config in jobs:
        if corpus is not None and config is not None and cache.get((corpus.digest, config)) is None:
            _start(cache, corpus, config)
    return [get_run(corpus, config, cache) for corpus, config in jobs]


def _progress_text(job: _Job) -> str:
    elapsed = f"{time.monotonic() - job.began:.1f}"
    live = job.live
    if live is None:
        return _("Preparing: splitting the text into pre-tokens and counting pairs ({seconds} s)").format(
            seconds=elapsed
        )
    done = f"{live.num_steps:,}"
    if job.asked:
        return _(
            "Training: {done} / {asked} merges done ({seconds} s). The result is cached: the next visit is instant."
        ).format(done=done, asked=f"{job.asked:,}", seconds=elapsed)
    return _("Training: {done} merges done ({seconds} s). The result is cached: the next visit is instant.").format(
        done=done, seconds=elapsed
    )


def training_note(live: Live) -> None:
    """While ``live`` is still training: a progress bar saying how far it has got and that the merges
    trained so far can be stepped through already. Nothing once it has finished."""
    if live.finished:
        return
    n = live.run.num_steps
    fraction = min(1.0, n / live.asked) if live.asked else 0.0
    if live.asked:
        text = _(
            "Training in the background: {done} of {asked} merges so far ({seconds} s). "
            "You can step through them now; Last goes to the newest."
        ).format(done=f"{n:,}", asked=f"{live.asked:,}", seconds=f"{live.seconds:.0f}")
    else:
        text = _(
            "Training in the background: {done} merges so far ({seconds} s). "
            "You can step through them now; Last goes to the newest."
        ).format(done=f"{n:,}", seconds=f"{live.seconds:.0f}")
    st.progress(fraction, text=text)
