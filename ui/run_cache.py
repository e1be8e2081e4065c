"""The shared run cache and the per-run memo kept with each run, without Streamlit (importable with no script
running).

**The run cache and its training jobs**: :class:`RunCache`, a thread-safe LRU of finished runs bounded by entries and
estimated bytes, and :class:`_Job`, one training in a background thread (its progress, the run as it grows, frozen
views of it, the pause while a page draws its first view). :mod:`ui.training` keeps the process-wide caches and
draws the waits (progress bars, messages).

**The one per-run memo** (:func:`memo`, :func:`once`, :func:`cached`, :func:`remember`, :func:`cached_html`): data
derived from a finished run (chip HTML, chart specs, explanations, tokenizers), shared by every session and dropped
with the run when the shared cache evicts it.

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
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from bpe_core import TrainedRun
from bpe_core.inputs import env_positive_int

#: Seconds a view of a training run is reused before a fresh one is cut: each view has its own memo
#: (chips, charts), so cutting one per click would make every step during training a cold one.
VIEW_REFRESH_S = 0.5


def cache_limits() -> tuple[int, int]:
    """``(max_entries, max_bytes)`` of the shared run cache, from the environment or the defaults."""
    entries = env_positive_int("BPE_EXPLORER_CACHE_ENTRIES", 12)
    return entries, env_positive_int("BPE_EXPLORER_CACHE_MB", 512) * 1_000_000


#: Seconds from the start of a training before a page shows the merges trained so far: a run done by
#: then is shown finished, without a "so far" that would flash for a moment. A run whose pace says it
#: will take far longer is shown without waiting them out (:meth:`_Job.ready_early`).
STREAM_GRACE_S = 0.3

#: Most seconds a training pauses while the first page to show it draws (:meth:`_Job.hold`).
HOLD_MAX_S = 1.0


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


# --- The per-run memo -------------------------------------------------------------------------------------------------

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
        # Imported here: the run cache stays importable without Streamlit (importing it loads the whole package).
        from streamlit.string_util import clean_text

        self.html = clean_text(html)

    def _repr_html_(self) -> str:
        return self.html


def cached_html(owner, name: str, key, make) -> Html:
    """:func:`cached` for an HTML block ``make()`` (a string), kept as :class:`Html` ready for ``st.html``."""
    return cached(owner, name, key, lambda: Html(make()))
