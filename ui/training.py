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
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import streamlit as st

from bpe_core import PatternError, TrainConfig, TrainedRun, train

from .corpus import Corpus
from .i18n import _, tr

#: Seconds a page waits silently before it shows a progress bar (small corpora train in
#: milliseconds; a bar flashing on every click would distract the class).
PROGRESS_DELAY_S = 0.2


def _env_int(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def cache_limits() -> tuple[int, int]:
    """``(max_entries, max_bytes)`` of the shared run cache, from the environment or the defaults."""
    return _env_int("BPE_EXPLORER_CACHE_ENTRIES", 12), _env_int("BPE_EXPLORER_CACHE_MB", 512) * 1_000_000


@dataclass
class _Job:
    """A training in progress: its progress and, once finished, its result or error."""

    asked: int | None
    done: int = 0
    run: TrainedRun | None = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)


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
        make_run: Callable[[Callable[[int], None]], TrainedRun],
        input_bytes: int = 0,
        asked: int | None = None,
    ) -> _Job:
        """Return the job training ``key``, starting it unless one is already running.

        Args:
            key: cache key (hashable), e.g. ``(sha256_hex, TrainConfig)``.
            make_run: trains and returns the run; called in a background thread with a progress
                callback taking the number of merges done.
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

                    def progress(done: int) -> None:
                        job.done = done
                        # Training is pure Python: hand the GIL to the server and the waiting
                        # sessions every 100 merges so their pages (and progress bars) stay live.
                        time.sleep(0)

                    run = make_run(progress)
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

    def get_or_train(
        self,
        key: Hashable,
        make_run: Callable[[Callable[[int], None]], TrainedRun],
        input_bytes: int = 0,
        asked: int | None = None,
        on_progress: Callable[[int, int | None], None] | None = None,
        poll_s: float = 0.1,
    ) -> TrainedRun:
        """The run for ``key``: cached, or trained once (concurrent callers share one job).

        ``on_progress(done, asked)`` is called from the caller's thread every ``poll_s`` seconds
        while waiting. Raises whatever training raised (e.g. ``ValueError`` for bad settings).
        """
        run = self.get(key)
        if run is not None:
            return run
        job = self.start(key, make_run, input_bytes, asked)
        while not job.finished.wait(poll_s):
            if on_progress is not None:
                on_progress(job.done, job.asked)
        if job.error is not None:
            raise job.error
        assert job.run is not None
        return job.run


@st.cache_resource(show_spinner=False)
def shared_cache() -> RunCache:
    """The process-wide :class:`RunCache` (kept by ``st.cache_resource``, so it survives the
    file watcher reloading this module)."""
    entries, max_bytes = cache_limits()
    return RunCache(max_entries=entries, max_bytes=max_bytes)


def _start(cache: RunCache, corpus: Corpus, config: TrainConfig) -> _Job:
    return cache.start(
        (corpus.digest, config),
        lambda progress: train(corpus.words(config), config, progress=progress),
        corpus.size_bytes,
        config.num_merges,
    )


def get_run(corpus: Corpus | None, config: TrainConfig | None) -> TrainedRun | None:
    """The finished run of ``corpus`` trained with ``config``, training it (with a progress bar) if needed.

    Returns ``None`` when either is ``None`` (the input was unusable; a message was shown) or when
    training failed (a message, ``st.error``, is then shown). Never raises for bad input.
    """
    if corpus is None or config is None:
        return None
    cache = shared_cache()
    run = cache.get((corpus.digest, config))
    if run is not None:
        return run
    job = _start(cache, corpus, config)
    asked = config.num_merges
    if not job.finished.wait(PROGRESS_DELAY_S):
        bar = st.progress(0.0, text=_progress_text(0, asked))
        started = time.monotonic()
        while not job.finished.wait(0.1):
            done = job.done
            fraction = min(1.0, done / asked) if asked else 0.0
            bar.progress(fraction, text=_progress_text(done, asked, time.monotonic() - started))
        bar.empty()
    if job.error is not None:
        err = job.error
        if isinstance(err, PatternError):  # e.g. a pattern that runs past its time budget on the whole text
            st.error(_("Training failed: {reason}").format(reason=err.message(tr())))
            return None
        if isinstance(err, (ValueError, MemoryError)):
            st.error(_("Training failed: {reason}").format(reason=err))
            return None
        raise err
    return job.run


def get_runs(jobs) -> list[TrainedRun | None]:
    """The runs of several ``(corpus, config)`` pairs: every missing one is started first (they train
    side by side, two at a time), then each is awaited with :func:`get_run`."""
    cache = shared_cache()
    for corpus, config in jobs:
        if corpus is not None and config is not None and cache.get((corpus.digest, config)) is None:
            _start(cache, corpus, config)
    return [get_run(corpus, config) for corpus, config in jobs]


def _progress_text(done: int, asked: int | None, elapsed: float = 0.0) -> str:
    if asked:
        return _(
            "Training: {done} / {asked} merges done ({seconds} s). The result is cached: the next visit is instant."
        ).format(done=f"{done:,}", asked=f"{asked:,}", seconds=f"{elapsed:.1f}")
    return _("Training: {done} merges done ({seconds} s). The result is cached: the next visit is instant.").format(
        done=f"{done:,}", seconds=f"{elapsed:.1f}"
    )
