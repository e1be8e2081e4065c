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
(:meth:`bpe_core.TrainedRun.view`), while the training goes on behind it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import streamlit as st

from bpe_core import PatternError, TrainConfig, TrainedRun
from bpe_core.inputs import env_positive_int

from .corpus import Corpus
from .i18n import _, tr

#: Seconds a page waits silently before it shows a progress bar (small corpora train in
#: milliseconds; a bar flashing on every click would distract the class).
PROGRESS_DELAY_S = 0.2

#: Seconds a view of a training run is reused before a fresh one is cut: each view has its own memo
#: (chips, charts), so cutting one per click would make every step during training a cold one.
VIEW_REFRESH_S = 0.5


def cache_limits() -> tuple[int, int]:
    """``(max_entries, max_bytes)`` of the shared run cache, from the environment or the defaults."""
    entries = env_positive_int("BPE_EXPLORER_CACHE_ENTRIES", 12)
    return entries, env_positive_int("BPE_EXPLORER_CACHE_MB", 512) * 1_000_000


@dataclass
class _Job:
    """A training in progress: its progress, the run as it grows (``live``, once the trainer has built
    its tables), and once finished, its result or error.

    ``make_run`` receives the job: calling it with a number of merges reports progress, and
    :meth:`started` publishes the growing run.
    """

    asked: int | None
    done: int = 0
    live: TrainedRun | None = None
    run: TrainedRun | None = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    began: float = field(default_factory=time.monotonic)
    started_at: float | None = None  # when the trainer had built its tables
    _view: TrainedRun | None = None
    _view_at: float = 0.0
    # Set while the trainer may go on; cleared while a page draws the first view of the run (see hold).
    _go: threading.Event = field(default_factory=threading.Event)
    _hold_until: float = 0.0
    _held: bool = False

    def __post_init__(self) -> None:
        self._go.set()

    def __call__(self, done: int) -> None:
        self.done = done
        # Training is pure Python: hand the GIL to the server and the waiting sessions every 100
        # merges so their pages (and progress bars) stay live; and pause while a page draws its first
        # view of this run (hold), so that drawing it does not share the GIL with the training.
        if not self._go.is_set():
            self._go.wait(max(0.0, self._hold_until - time.monotonic()))
        time.sleep(0)

    def started(self, run: TrainedRun) -> None:
        """Publish the run the trainer fills (before its first merge)."""
        self.started_at = time.monotonic()
        self.live = run

    def hold(self) -> None:
        """Pause the training at its next progress report (within 100 merges) until :meth:`release` or
        :data:`HOLD_MAX_S`, once per job: the first page to show the run while it trains draws it
        without waiting for the GIL (step 1 of the book came on screen half a second later otherwise)."""
        if not self._held:
            self._held = True
            self._hold_until = time.monotonic() + HOLD_MAX_S
            self._go.clear()

    def release(self) -> None:
        """Let the training go on (the page that held it has drawn its view)."""
        self._go.set()

    def ready_early(self) -> bool:
        """True when, from its pace so far, the run is sure to take more than :data:`STREAM_GRACE_S` by
        far (three times): then waiting out the grace would only delay step 1. Early merges are the
        slowest (their pairs are the most frequent), so the projection errs on the long side; it is
        trusted only after 20 merges (or all those asked)."""
        live, asked, started = self.live, self.asked, self.started_at
        if live is None or not asked or started is None:
            return False
        done = live.num_steps
        if done < min(20, asked):
            return False
        now = time.monotonic()
        projected = (started - self.began) + (now - started) * asked / done
        return projected > 3 * STREAM_GRACE_S

    def view(self) -> TrainedRun | None:
        """A frozen view of the steps trained so far (reused for :data:`VIEW_REFRESH_S`), or ``None``
        before the trainer has built its tables."""
        live, now = self.live, time.monotonic()
        if live is None:
            return None
        view = self._view
        if view is None or (now - self._view_at >= VIEW_REFRESH_S and live.num_steps > view.num_steps):
            view = self._view = live.view()
            self._view_at = now
        return view


class RunCache:
    """A thread-safe LRU of finished runs, bounded by entry count and by estimated bytes.

    Args:
        max_entries: most runs kept.
        max_bytes: most estimated bytes kept (a run larger than this on its own is returned to
            its caller but not kept).
        max_parallel: most trainings running at once (the server has few cores).
    """

    def __init__(self, max_entries: int = 12, max_bytes: int = 512_000_000, max_parallel: int = 2):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._runs: OrderedDict[Hashable, tuple[TrainedRun, int]] = OrderedDict()
        self._jobs: dict[Hashable, _Job] = {}
        self._slots = threading.Semaphore(max_parallel)
        self.trainings = 0  # how many runs were trained (tests check "once")

    # ------------------------------------------------------------------------------ lookups
    def get(self, key: Hashable) -> TrainedRun | None:
        """The cached run for ``key`` (marking it recently used), or ``None``."""
        with self._lock:
            hit = self._runs.get(key)
            if hit is None:
                return None
            self._runs.move_to_end(key)
            return hit[0]

    @property
    def total_bytes(self) -> int:
        """Estimated bytes held now."""
        with self._lock:
            return sum(size for _, size in self._runs.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._runs)

    def clear(self) -> None:
        """Forget every cached run (running jobs finish and are stored)."""
        with self._lock:
            self._runs.clear()

    # ------------------------------------------------------------------------------ training
    def start(
        self,
        key: Hashable,
        make_run: Callable[[_Job], TrainedRun],
        input_bytes: int = 0,
        asked: int | None = None,
    ) -> _Job:
        """Return the job training ``key``, starting it unless one is already running.

        Args:
            key: cache key (hashable), e.g. ``(sha256_hex, TrainConfig)``.
            make_run: trains and returns the run; called in a background thread with the job, which
                takes progress reports (``job(merges_done)``) and the growing run (``job.started(run)``).
            input_bytes: size of the input in bytes, added to the run's size estimate.
            asked: merges asked for (for progress display), or ``None`` when unknown.

        The returned job may already be finished (``job.finished.is_set()``) when the run was cached.
        """
        with self._lock:
            hit = self._runs.get(key)
            if hit is not None:
                self._runs.move_to_end(key)
                job = _Job(asked=asked, run=hit[0])
                job.finished.set()
                return job
            job = self._jobs.get(key)
            if job is not None:
                return job
            job = self._jobs[key] = _Job(asked=asked)

        def work() -> None:
            try:
                with self._slots:
                    job.began = time.monotonic()
                    run = make_run(job)
                job.run = run
                size = run.memory_bytes() + int(input_bytes)
                with self._lock:
                    self.trainings += 1
                    self._store(key, run, size)
            except BaseException as err:  # handed to every waiting session
                job.error = err
            finally:
                with self._lock:
                    self._jobs.pop(key, None)
                job.finished.set()

        threading.Thread(target=work, name=f"bpe-train-{id(job):x}", daemon=True).start()
        return job

    def _store(self, key: Hashable, run: TrainedRun, size: int) -> None:
        if size > self.max_bytes:
            return
        self._runs[key] = (run, size)
        self._runs.move_to_end(key)
        total = sum(s for _, s in self._runs.values())
        while self._runs and (len(self._runs) > self.max_entries or total > self.max_bytes):
            _, (_, old_size) = self._runs.popitem(last=False)
            total -= old_size


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

    Returns ``None`` when either is ``None`` (the input was unusable; a message was shown) or when
    training failed (a message, ``st.error``, is then shown). Never raises for bad input.
    """
    if corpus is None or config is None:
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
#: will take far longer is shown without waiting them out (:meth:`_Job.ready_early`).
STREAM_GRACE_S = 0.3

#: Most seconds a training pauses while the first page to show it draws (:meth:`_Job.hold`).
HOLD_MAX_S = 1.0


def get_live_run(corpus: Corpus | None, config: TrainConfig | None, want: int = 1) -> Live | None:
    """The run of ``corpus`` trained with ``config`` as soon as merge ``want`` (at least 1) is trained:
    the finished run when it is cached or done within :data:`STREAM_GRACE_S`, else a :class:`Live`
    view of the merges trained so far while the training goes on in the background (a progress bar is
    shown while waiting). ``want`` is the step the page is asked to show (a link to step 5,000 waits
    for it). Call it again (every rerun) for a newer view.

    Returns ``None`` as :func:`get_run` does: unusable input, or training failed (a message is shown).
    """
    if corpus is None or config is None:
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
    if isinstance(err, PatternError):  # e.g. a pattern that runs past its time budget on the whole text
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
