"""The shared sidebar: corpus input, training settings, byte display, presentation mode, URL sync.

Every page starts the same way::

    import streamlit as st
    from ui import render, state, training

    sel = state.sidebar()               # draws the sidebar, adopts the URL, returns a Selection
    render.setup_page(sel)              # CSS for chips and presentation mode
    run = training.get_run(sel)         # cached TrainedRun (trains once, with a progress bar)
    if run is None:
        st.stop()                       # a message was already shown
    ...                                  # render with ui.render, using sel.byte_mode, sel.presentation
    state.write_url(sel)                # put preset, non-default settings and step in the URL

What the sidebar keeps (in ``st.session_state``, under keys starting with ``bpe.``) survives page
switches: widgets are re-seeded from those canonical values on every run, because Streamlit gives
a widget on another page a new identity.

URL parameters (all optional): ``preset`` (a :data:`ui.presets.PRESETS` id), ``step`` (always
written), and the settings ``variant`` (char|eow|byte), ``pre`` (whitespace|gpt2|gpt4|none),
``merges`` (int) or ``vocab`` (int), ``minf`` (int >= 1), ``tie`` (first-seen|hf|lexical), ``eow``
(separate|attached), ``marker`` (text), ``bytes`` (utf8|hex|gpt2), ``present`` (1). Only settings
that differ from the preset's recommended settings are written. The URL is re-read on every run:
when it differs from what the app last wrote (a pasted link, the load benchmark sending a rerun
with a new query string), the URL wins. An empty query string (as after a page switch) keeps the
session's state.

Nothing here raises for bad input: problems become ``Selection.message`` (and are shown).
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from threading import Lock

import streamlit as st

from bpe_core import (
    PRETOKENIZERS,
    TIE_BREAKS,
    VARIANTS,
    InputError,
    TrainConfig,
    clean_text,
    corpus_words,
    decode_bytes,
    looks_like_word_counts,
    parse_word_counts,
)
from bpe_core.inputs import format_size, max_input_bytes

from .presets import DEFAULT_PRESET, PRESETS, Preset, get_preset, words_digest_text
from .text import md_escape

# --------------------------------------------------------------------------------------- settings

#: Defaults of every setting (URL names). A preset's ``settings`` override these.
DEFAULT_SETTINGS: dict = {
    "variant": "eow",
    "pre": "whitespace",
    "limit": "merges",  # which of merges / vocab stops training (not a URL name: the URL has one of them)
    "merges": 10,
    "vocab": 300,
    "minf": 2,
    "tie": "first-seen",
    "eow": "separate",
    "marker": "</w>",
    "bytes": "utf8",
}

#: URL parameter names of the settings, in the order they are written.
SETTING_PARAMS = ("variant", "pre", "merges", "vocab", "minf", "tie", "eow", "marker", "bytes")

BYTE_MODES = ("utf8", "hex", "gpt2")
EOW_STYLES = ("separate", "attached")
SOURCES = ("preset", "paste", "upload", "words")

VARIANT_LABELS = {
    "char": "Characters",
    "eow": "Characters + end-of-word marker",
    "byte": "Bytes (UTF-8, 256 base tokens)",
}
PRE_LABELS = {
    "whitespace": "Whitespace (split at spaces)",
    "gpt2": "GPT-2 regex (space joins the next word)",
    "gpt4": "GPT-4 regex (cl100k)",
    "o200k": "GPT-4o regex (o200k)",
    "none": "None (the whole text is one piece)",
}
TIE_LABELS = {
    "first-seen": "first-seen (textbook, minbpe, tiktoken)",
    "hf": "hf (Hugging Face tokenizers)",
    "lexical": "lexical (subword-nmt)",
}
BYTE_LABELS = {"utf8": "UTF-8 text", "hex": "hex", "gpt2": "GPT-2 alias (Ġ = space)"}
SOURCE_LABELS = {
    "preset": "Preset",
    "paste": "Paste text",
    "upload": "Upload .txt",
    "words": "Word counts",
}
EOW_LABELS = {"separate": "separate symbol (l o w </w>)", "attached": "attached (l o w</w>)"}

#: Longest end-of-word marker accepted.
MAX_MARKER_CHARS = 12


def max_merges() -> int:
    """The app's limit on merges (``BPE_EXPLORER_MAX_MERGES``, default 20,000)."""
    try:
        value = int(os.environ.get("BPE_EXPLORER_MAX_MERGES", ""))
    except ValueError:
        return 20_000
    return value if value > 0 else 20_000


def preset_settings(preset: Preset | None) -> dict:
    """Every setting for ``preset``: :data:`DEFAULT_SETTINGS` with the preset's recommendations."""
    out = dict(DEFAULT_SETTINGS)
    if preset is not None:
        out.update(preset.settings)
        if "vocab" in preset.settings and "merges" not in preset.settings:
            out["limit"] = "vocab"
    return out


# ------------------------------------------------------------------------------- session state keys
# Canonical values (survive page switches) and widget keys (re-seeded from them on every run).
K_SOURCE, K_PRESET, K_PASTE, K_WORDS, K_UPLOAD = "bpe.source", "bpe.preset", "bpe.paste", "bpe.words", "bpe.upload"
K_SETTINGS, K_PRESENT, K_STEP, K_URL = "bpe.settings", "bpe.present", "bpe.step", "bpe.url_last"
K_NOTES = "bpe.notes"
W = "w."  # widget key prefix


def _ss():
    return st.session_state


def _init_state() -> None:
    ss = _ss()
    if K_SOURCE in ss:
        return
    ss[K_SOURCE] = "preset"
    ss[K_PRESET] = DEFAULT_PRESET
    ss[K_PASTE] = ""
    ss[K_WORDS] = ""
    ss[K_UPLOAD] = None
    ss[K_SETTINGS] = preset_settings(PRESETS[DEFAULT_PRESET])
    ss[K_PRESENT] = False
    ss[K_STEP] = 0
    ss[K_URL] = None
    ss[K_NOTES] = []


def get_step() -> int:
    """The step the session is at (0 = starting segmentation); not yet clamped to the run."""
    _init_state()
    return int(_ss()[K_STEP])


def set_step(step: int) -> None:
    """Set the session's step (callers clamp it to ``0..run.num_steps``)."""
    _init_state()
    _ss()[K_STEP] = max(0, int(step))


def is_presentation() -> bool:
    """True when presentation mode is on."""
    _init_state()
    return bool(_ss()[K_PRESENT])


# ------------------------------------------------------------------------------------ URL sync
def _parse_int(raw: str, name: str, lo: int, notes: list) -> int | None:
    try:
        value = int(raw.strip())
    except (ValueError, AttributeError):
        notes.append(f"The link's {name}={raw[:40]!r} is not a whole number; it was ignored.")
        return None
    if value < lo:
        notes.append(f"The link's {name}={value} is below {lo}; it was ignored.")
        return None
    return value


def _adopt_url(params: dict[str, str]) -> list[str]:
    """Make the session match a URL that differs from the one last written; return notes for the user."""
    ss = _ss()
    notes: list[str] = []
    if "preset" in params:
        pid = params["preset"]
        preset = get_preset(pid)
        if preset is None:
            notes.append(f"The link names an unknown preset {pid[:60]!r}; showing the default one.")
            preset = PRESETS[DEFAULT_PRESET]
        ss[K_SOURCE] = "preset"
        ss[K_PRESET] = preset.id
        settings = preset_settings(preset)
    else:
        settings = preset_settings(get_preset(ss[K_PRESET]) if ss[K_SOURCE] == "preset" else None)
    choices = {"variant": VARIANTS, "pre": PRETOKENIZERS, "tie": TIE_BREAKS, "eow": EOW_STYLES, "bytes": BYTE_MODES}
    for name, allowed in choices.items():
        if name in params:
            if params[name] in allowed:
                settings[name] = params[name]
            else:
                notes.append(
                    f"The link's {name}={params[name][:40]!r} is not one of {', '.join(allowed)}; it was ignored."
                )
    if "marker" in params:
        settings["marker"] = params["marker"][:MAX_MARKER_CHARS]
    if "minf" in params:
        value = _parse_int(params["minf"], "minf", 1, notes)
        if value is not None:
            settings["minf"] = value
    if "vocab" in params:
        value = _parse_int(params["vocab"], "vocab", 1, notes)
        if value is not None:
            settings["vocab"], settings["limit"] = value, "vocab"
    if "merges" in params:
        value = _parse_int(params["merges"], "merges", 0, notes)
        if value is not None:
            settings["merges"], settings["limit"] = value, "merges"
    ss[K_SETTINGS] = settings
    ss[K_PRESENT] = params.get("present", "0").strip().lower() in ("1", "true", "yes", "on")
    step = 0
    if "step" in params:
        value = _parse_int(params["step"], "step", 0, notes)
        step = value if value is not None else 0
    ss[K_STEP] = step
    return notes


def _sync_from_url() -> None:
    ss = _ss()
    try:
        params = {k: st.query_params[k] for k in st.query_params}
    except Exception:  # a malformed query string must never break the page
        params = {}
    last = ss[K_URL]
    if params == (last or {}):
        return
    if not params and last is not None:
        return  # the URL was emptied (page switch): the session keeps its state
    ss[K_NOTES] = _adopt_url(params)
    ss[K_URL] = params


def url_params(sel: Selection, step: int | None = None) -> dict[str, str]:
    """The query parameters describing ``sel`` at ``step`` (default: the session's step)."""
    params: dict[str, str] = {}
    if sel.source == "preset" and sel.preset is not None:
        params["preset"] = sel.preset.id
    base = preset_settings(sel.preset if sel.source == "preset" else None)
    s = sel.settings
    for name in SETTING_PARAMS:
        if name == "merges":
            if s["limit"] == "merges" and (base["limit"] != "merges" or s["merges"] != base["merges"]):
                params["merges"] = str(s["merges"])
        elif name == "vocab":
            if s["limit"] == "vocab" and (base["limit"] != "vocab" or s["vocab"] != base["vocab"]):
                params["vocab"] = str(s["vocab"])
        elif s[name] != base[name]:
            params[name] = str(s[name])
    if sel.presentation:
        params["present"] = "1"
    params["step"] = str(get_step() if step is None else int(step))
    return params


def write_url(sel: Selection, step: int | None = None) -> None:
    """Write ``sel`` (and ``step``, default the session's step) into the browser's URL.

    Call it at the end of a page, after the step is known. Only writes when something changed.
    """
    params = url_params(sel, step)
    ss = _ss()
    current = {k: st.query_params[k] for k in st.query_params}
    if current != params:
        st.query_params.from_dict(params)
    ss[K_URL] = params


# ----------------------------------------------------------------------------- shared upload store
class _TextStore:
    """Uploaded texts by sha256, shared by all sessions and bounded in bytes: a session keeps
    only the digest, so no session holds its own copy of a large upload."""

    def __init__(self, max_bytes: int = 64_000_000):
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = Lock()

    def put(self, digest: str, text: str) -> None:
        with self._lock:
            self._items[digest] = text
            self._items.move_to_end(digest)
            total = sum(len(t) for t in self._items.values())
            while len(self._items) > 1 and total > self.max_bytes:
                _, old = self._items.popitem(last=False)
                total -= len(old)

    def get(self, digest: str) -> str | None:
        with self._lock:
            text = self._items.get(digest)
            if text is not None:
                self._items.move_to_end(digest)
            return text


@st.cache_resource(show_spinner=False)
def _upload_store() -> _TextStore:
    return _TextStore()


# ------------------------------------------------------------------------------------ the result
@dataclass(frozen=True)
class Selection:
    """What the sidebar selected. Pass it to :func:`ui.training.get_run`.

    Attributes:
        ok: False when the input or settings are unusable (``message`` says why; it was shown).
        source: ``"preset"``, ``"paste"``, ``"upload"`` or ``"words"``.
        preset: the :class:`ui.presets.Preset` when ``source == "preset"``, else ``None``.
        label: a short description of the corpus for headings (plain text: may contain a file
            name, so escape it before it goes into HTML).
        digest: sha256 hex of the input (``None`` when not ok).
        size_bytes: input size in UTF-8 bytes.
        config: the :class:`bpe_core.TrainConfig` (``None`` when not ok).
        settings: every setting by URL name (plus ``limit``: ``"merges"`` or ``"vocab"``).
        byte_mode: how byte tokens are shown: ``"utf8"``, ``"hex"`` or ``"gpt2"``.
        presentation: presentation mode (large type, colour-blind-safe palette, fewer controls).
        message: why ``ok`` is False, else ``None``.

    Pages may build their own Selections (e.g. one per variant); the field order above is kept
    stable for that. ``_loader`` returns the ``{word: frequency}`` dict to train on.
    """

    ok: bool
    source: str
    preset: Preset | None
    label: str
    digest: str | None
    size_bytes: int
    config: TrainConfig | None
    settings: dict
    byte_mode: str
    presentation: bool
    message: str | None = None
    _loader: Callable[[], dict] | None = field(default=None, repr=False, compare=False)

    @property
    def cache_key(self) -> tuple:
        """``(sha256 of the input, TrainConfig)``: the key of the shared run cache."""
        return (self.digest, self.config)

    @property
    def step(self) -> int:
        """The session's current step (not clamped)."""
        return get_step()

    def load_words(self) -> dict[str, int]:
        """The corpus as ``{word: frequency}`` (pre-tokenized with the config). Only called on a
        cache miss, so a cached run never re-reads or re-splits its text."""
        if self._loader is None:
            raise ValueError(self.message or "no usable input")
        return self._loader()


# ---------------------------------------------------------------------------------- the sidebar
def _seed(name: str, value) -> str:
    """Re-seed widget ``w.<name>`` from its canonical value; return the widget key."""
    key = W + name
    _ss()[key] = value
    return key


def _set_setting(name: str) -> None:
    ss = _ss()
    settings = dict(ss[K_SETTINGS])
    settings[name] = ss[W + name]
    ss[K_SETTINGS] = settings


def _on_preset() -> None:
    ss = _ss()
    pid = ss[W + "preset"]
    ss[K_PRESET] = pid
    ss[K_SETTINGS] = preset_settings(PRESETS[pid])
    ss[K_STEP] = 0


def _on_source() -> None:
    ss = _ss()
    ss[K_SOURCE] = ss[W + "source"]
    if ss[K_SOURCE] == "preset":
        ss[K_SETTINGS] = preset_settings(PRESETS[ss[K_PRESET]])
    ss[K_STEP] = 0


def _on_text(kind: str) -> None:
    ss = _ss()
    ss[K_PASTE if kind == "paste" else K_WORDS] = ss[W + kind]
    ss[K_STEP] = 0


def _on_upload() -> None:
    ss = _ss()
    uploaded = ss.get(W + "upload")
    ss[K_STEP] = 0
    if uploaded is None:
        ss[K_UPLOAD] = None
        return
    meta = {"name": uploaded.name, "size": uploaded.size, "digest": None, "error": None}
    try:
        text = decode_bytes(uploaded.getvalue())
        text = clean_text(text)
    except InputError as err:
        meta["error"] = str(err)
    else:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        _upload_store().put(digest, text)
        meta["digest"] = digest
    ss[K_UPLOAD] = meta


def _on_present() -> None:
    ss = _ss()
    ss[K_PRESENT] = bool(ss[W + "present"])


@lru_cache(maxsize=32)
def _parse_words_cached(text: str) -> dict:
    return parse_word_counts(text)


def _text_loader(get_text: Callable[[], str], config: TrainConfig) -> Callable[[], dict]:
    return lambda: corpus_words(get_text(), config)


def _settings_widgets(settings: dict, source: str, compact: bool) -> None:
    """Draw the settings widgets (canonical values in ``settings``)."""
    st.selectbox(
        "Variant",
        VARIANTS,
        key=_seed("variant", settings["variant"]),
        format_func=VARIANT_LABELS.get,
        on_change=_set_setting,
        args=("variant",),
        help="What the base symbols are: characters, characters plus an end-of-word marker, or UTF-8 bytes.",
    )
    st.selectbox(
        "Pre-tokenizer",
        PRETOKENIZERS,
        key=_seed("pre", settings["pre"]),
        format_func=PRE_LABELS.get,
        on_change=_set_setting,
        args=("pre",),
        disabled=source == "words",
        help="Splits the text into words first; merges never cross a word boundary. "
        "(Not used for word counts: they are words already.)",
    )
    st.radio(
        "Stop after",
        ("merges", "vocab"),
        key=_seed("limit", settings["limit"]),
        format_func={"merges": "a number of merges", "vocab": "a vocabulary size"}.get,
        on_change=_set_setting,
        args=("limit",),
        horizontal=True,
    )
    if settings["limit"] == "merges":
        st.number_input(
            "Number of merges",
            min_value=0,
            step=1,
            key=_seed("merges", int(settings["merges"])),
            on_change=_set_setting,
            args=("merges",),
            help=f"At most {max_merges():,} (set BPE_EXPLORER_MAX_MERGES to change the limit).",
        )
    else:
        st.number_input(
            "Vocabulary size (base symbols included)",
            min_value=1,
            step=1,
            key=_seed("vocab", int(settings["vocab"])),
            on_change=_set_setting,
            args=("vocab",),
            help="Byte-level vocabularies start with 256 tokens.",
        )
    st.number_input(
        "Minimum pair frequency",
        min_value=1,
        step=1,
        key=_seed("minf", int(settings["minf"])),
        on_change=_set_setting,
        args=("minf",),
        help="Training stops when the most frequent pair occurs fewer times than this.",
    )
    st.selectbox(
        "Tie-break rule",
        TIE_BREAKS,
        key=_seed("tie", settings["tie"]),
        format_func=TIE_LABELS.get,
        on_change=_set_setting,
        args=("tie",),
        help="Which pair wins when several have the highest count.",
    )
    if settings["variant"] == "eow":
        st.radio(
            "End-of-word marker",
            EOW_STYLES,
            key=_seed("eow", settings["eow"]),
            format_func=EOW_LABELS.get,
            on_change=_set_setting,
            args=("eow",),
        )
        st.text_input(
            "Marker text",
            key=_seed("marker", settings["marker"]),
            max_chars=MAX_MARKER_CHARS,
            on_change=_set_setting,
            args=("marker",),
        )
    if settings["variant"] == "byte":
        st.radio(
            "Show byte tokens as",
            BYTE_MODES,
            key=_seed("bytes", settings["bytes"]),
            format_func=BYTE_LABELS.get,
            on_change=_set_setting,
            args=("bytes",),
            horizontal=not compact,
        )


def _make_config(settings: dict, source: str) -> TrainConfig:
    limit = max_merges()
    if settings["limit"] == "merges":
        merges = int(settings["merges"])
        if merges > limit:
            raise InputError(
                f"{merges:,} merges asked; the limit is {limit:,} (set BPE_EXPLORER_MAX_MERGES to change it)."
            )
        num_merges, vocab = merges, None
    else:
        vocab = int(settings["vocab"])
        if vocab > limit + 256:
            raise InputError(
                f"A vocabulary of {vocab:,} tokens needs more merges than the limit of {limit:,} "
                "(set BPE_EXPLORER_MAX_MERGES to change it)."
            )
        num_merges = limit  # vocabulary-size runs are still capped by the merge limit
    marker = settings["marker"]
    if settings["variant"] == "eow" and (not marker or any(c.isspace() for c in marker)):
        raise InputError("The end-of-word marker must be non-empty and contain no spaces.")
    cfg = TrainConfig(
        variant=settings["variant"],
        pretokenizer="whitespace" if source == "words" else settings["pre"],
        num_merges=num_merges,
        vocab_size=vocab,
        min_frequency=int(settings["minf"]),
        tie_break=settings["tie"],
        eow_style=settings["eow"],
        eow_marker=marker if marker else "</w>",
    )
    try:
        return cfg.validate()
    except ValueError as err:
        raise InputError(str(err)) from None


# Two things a browser can send that make the server drop the connection, after which the session
# ignores every later click (Streamlit limitations, not something the app can answer on the server):
# a lone surrogate typed or pasted into a text box (invalid UTF-8), and a text box value larger than
# server.maxWidgetStateSize (25 MB; a 30 MB paste also crashed Chromium's tab). This script, set up
# once per browser tab, runs before Streamlit's own handler reads a text box: it replaces lone
# surrogates with U+FFFD and cuts a value longer than ``paste_cap()`` UTF-16 code units there.
_TEXT_BOX_GUARD_JS = """<script>
(function () {
  var w = window;
  if (w.__bpeTextBoxGuard) return;
  w.__bpeTextBoxGuard = true;
  var cap = __CAP__;
  w.document.addEventListener("input", function (e) {
    var el = e.target;
    if (!el || (el.tagName !== "TEXTAREA" && el.tagName !== "INPUT")) return;
    var v = el.value;
    if (typeof v !== "string") return;
    var fixed = v.length > cap ? v.slice(0, cap) : v;
    if (typeof fixed.isWellFormed === "function" && !fixed.isWellFormed()) fixed = fixed.toWellFormed();
    if (fixed === v) return;
    var proto = el.tagName === "TEXTAREA" ? w.HTMLTextAreaElement.prototype : w.HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value").set.call(el, fixed);
  }, true);
})();
</script>"""


def paste_cap() -> int:
    """Longest text box value the browser sends, in UTF-16 code units (JavaScript's ``length``): the
    input limit in bytes plus one. UTF-8 never takes fewer bytes than UTF-16 code units, so a value cut
    there is always over the limit (and answered with :func:`cut_paste_message`), while at most three
    bytes per code unit keep it under server.maxWidgetStateSize for limits up to 8 MB."""
    return max_input_bytes() + 1


def cut_paste_message(text: str) -> str | None:
    """The message for a paste the browser cut at :func:`paste_cap` (``None`` if ``text`` was not cut)."""
    cap = paste_cap()
    if len(text) > cap or len(text.encode("utf-16-le", "surrogatepass")) // 2 != cap:
        return None
    return (
        f"The paste was longer than the text box takes ({cap:,} characters) and was cut there; the limit "
        f"is {format_size(max_input_bytes())} (set BPE_EXPLORER_MAX_BYTES to change it). "
        "Paste a shorter text, or upload a file."
    )


def text_box_guard_html() -> str:
    """The app's only script element (see ``_TEXT_BOX_GUARD_JS``): no user text in it, only the cap."""
    return _TEXT_BOX_GUARD_JS.replace("__CAP__", str(int(paste_cap())))


def _guard_text_boxes() -> None:
    """Make the browser fix text box values before sending them."""
    st.html(text_box_guard_html(), unsafe_allow_javascript=True)


def sidebar() -> Selection:
    """Draw the shared sidebar and return the :class:`Selection`.

    Adopts the URL first (see the module docstring), then draws: presentation toggle, corpus
    source (preset / paste / upload / word counts) and the training settings. Problems with the
    input or settings are shown (``st.error``/``st.warning`` in the main area) and give a
    Selection with ``ok=False``; it never raises for bad input.
    """
    _init_state()
    _sync_from_url()
    ss = _ss()
    for note in ss.get(K_NOTES) or []:
        st.warning(md_escape(note))
    ss[K_NOTES] = []
    settings = dict(ss[K_SETTINGS])
    presentation = bool(ss[K_PRESENT])
    source = ss[K_SOURCE]

    message: str | None = None
    preset: Preset | None = None
    label = ""
    digest: str | None = None
    size = 0
    get_text: Callable[[], str] | None = None
    words: dict | None = None

    with st.sidebar:
        st.toggle(
            "Presentation mode",
            key=_seed("present", presentation),
            on_change=_on_present,
            help="Large type, a colour-blind-safe palette and fewer controls, for projecting to a class.",
        )
        st.radio(
            "Corpus",
            SOURCES,
            key=_seed("source", source),
            format_func=SOURCE_LABELS.get,
            on_change=_on_source,
            horizontal=True,
        )
        if source == "preset":
            pid = ss[K_PRESET] if ss[K_PRESET] in PRESETS else DEFAULT_PRESET
            st.selectbox(
                "Preset corpus",
                list(PRESETS),
                key=_seed("preset", pid),
                format_func=lambda p: PRESETS[p].title,
                on_change=_on_preset,
            )
            preset = PRESETS[pid]
            st.caption(md_escape(preset.provenance))
            label = preset.title
            digest = preset.digest()
            size = preset.size_bytes()
            if preset.is_word_counts:
                words = preset.words
            else:
                get_text = preset.load_text
        elif source == "paste":
            st.text_area(
                "Text to train on",
                key=_seed("paste", ss[K_PASTE]),
                on_change=_on_text,
                args=("paste",),
                height=160,
                placeholder="Paste any text here, then click outside the box (or press Ctrl+Enter).",
            )
            text = ss[K_PASTE]
            label = "Pasted text"
            try:
                text = clean_text(text)
            except InputError as err:
                message = cut_paste_message(text) or str(err)
            else:
                if not text.strip() and settings["pre"] != "none":
                    message = "The text is empty: paste some text in the sidebar (or pick a preset)."
                elif not text:
                    message = "The text is empty: paste some text in the sidebar (or pick a preset)."
                else:
                    encoded = text.encode("utf-8")
                    digest = hashlib.sha256(encoded).hexdigest()
                    size = len(encoded)
                    label = f"Pasted text ({format_size(size)})"
                    get_text = lambda: text  # noqa: E731 - the session's own text, only read on a cache miss
                    if size < 100_000 and looks_like_word_counts(text):
                        st.info("This looks like a word-count list; choose 'Word counts' to read it as one.")
        elif source == "upload":
            st.file_uploader(
                "A UTF-8 .txt file",
                type=["txt"],
                key=W + "upload",
                on_change=_on_upload,
                help=f"At most {format_size(max_input_bytes())}.",
            )
            meta = ss[K_UPLOAD]
            if meta is None:
                message = "No file yet: upload a UTF-8 .txt file in the sidebar."
            elif meta["error"]:
                message = f"{meta['name'][:80]}: {meta['error']}"
            else:
                digest = meta["digest"]
                stored = _upload_store().get(digest)
                if stored is None:
                    message = "The uploaded file is no longer in the server's memory; please upload it again."
                    digest = None
                else:
                    size = len(stored.encode("utf-8"))
                    label = f"{meta['name'][:80]} ({format_size(size)})"
                    st.caption(md_escape(f"Using {meta['name'][:80]}, {format_size(size)}."))
                    store_digest = digest
                    get_text = lambda: _upload_store().get(store_digest) or ""  # noqa: E731
                    if not stored.strip():
                        message = "The uploaded file is empty."
        else:  # word counts
            st.text_area(
                "Word counts (one 'word count' per line)",
                key=_seed("words", ss[K_WORDS]),
                on_change=_on_text,
                args=("words",),
                height=160,
                placeholder="low 5\nlower 2\nnewest 6\nwidest 3",
            )
            raw = ss[K_WORDS]
            label = "Word counts"
            if not raw.strip():
                message = "The word-count list is empty: write one 'word count' per line, e.g. 'low 5'."
            else:
                try:
                    clean_text(raw)
                    words = _parse_words_cached(raw)
                except InputError as err:
                    message = cut_paste_message(raw) or str(err)
                else:
                    label = f"Word counts ({len(words):,} words)"
        if words is not None:
            canonical = words_digest_text(words).encode("utf-8")
            if digest is None:
                digest = hashlib.sha256(canonical).hexdigest()
            size = size or len(canonical)

        if presentation:
            with st.expander("Settings"):
                _settings_widgets(settings, source, compact=True)
        else:
            st.subheader("Settings")
            _settings_widgets(settings, source, compact=False)
        # Last in the sidebar, on every page: it guards every text box of the tab, the pages' own too.
        _guard_text_boxes()

    config: TrainConfig | None = None
    if message is None:
        try:
            config = _make_config(settings, source)
        except InputError as err:
            message = str(err)
    if message is not None:
        st.error(md_escape(message))
        return Selection(
            False, source, preset, label, None, size, None, settings, settings["bytes"], presentation, message
        )
    if words is not None:
        word_dict = words
        loader = lambda: dict(word_dict)  # noqa: E731
    else:
        assert get_text is not None
        loader = _text_loader(get_text, config)
    return Selection(
        True, source, preset, label, digest, size, config, settings, settings["bytes"], presentation, None, loader
    )
