"""The shared sidebar: presentation mode, the corpus (one function per source, in :mod:`ui.sources`: a
preset, pasted text, an uploaded file, a word-count list, a language mix), the training settings, and the
URL kept in step with them.

Every page calls :func:`sidebar` and gets a :class:`Choice`: a :class:`ui.corpus.Corpus` and a
:class:`bpe_core.TrainConfig` for :func:`ui.training.get_run`, and the display preferences apart.

The sidebar's values live in the session (:mod:`ui.persist`) and survive page switches. The URL is
re-read on every run: when it differs from what the app last wrote (a pasted link, the load
benchmark sending a rerun with a new query string), the URL wins; an empty query string (as after a
page switch) keeps the session's state. See :mod:`ui.settings` for the parameters.

Nothing here raises for bad input: problems become ``Choice.message`` (and are shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from bpe_core import InputError, TrainConfig

from . import i18n, persist, stepper
from .corpus import DEFAULT_PRESET, PRESETS, Corpus, Preset, Source, digest_of, get_preset, preset_corpus
from .i18n import _
from .settings import (
    PREVIEW_CHARS,
    SOURCE_LABELS,
    SOURCES,
    Display,
    make_config,
    paste_cap,
    preset_settings,
    settings_from_url,
    url_from_settings,
)
from .settings_form import settings_widgets
from .text import md_escape

K = persist  # the session keys

_GUARD_JS = (Path(__file__).resolve().parent / "static" / "text_box_guard.js").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Choice:
    """What the sidebar chose.

    Attributes:
        corpus: the input (``None`` when unusable: ``message`` says why, and it was shown).
        config: the training settings (``None`` when unusable).
        label: a short description of the input for headings (plain text: escape it for HTML).
        source: ``"preset"``, ``"paste"``, ``"upload"`` or ``"words"``.
        preset: the preset when ``source == "preset"``, else ``None``.
        settings: every setting by URL name (:mod:`ui.settings`), for pages that train their own text.
        display: byte display and presentation mode.
        message: why the input or settings are unusable, else ``None``.
        link: the URL parameter naming the session's own text (``{"corpus": id}`` or ``{"text": packed}``,
            :mod:`ui.links`); empty for a preset.
    """

    corpus: Corpus | None
    config: TrainConfig | None
    label: str
    source: str
    preset: Preset | None
    settings: dict
    display: Display
    message: str | None = None
    link: dict | None = None

    @property
    def ok(self) -> bool:
        """True when there is a corpus and a config to train."""
        return self.corpus is not None and self.config is not None


# ------------------------------------------------------------------------------------ session and URL
def _init_state() -> None:
    ss = persist.ss()
    if K.K_SOURCE in ss:
        return
    ss[K.K_SOURCE] = "preset"
    ss[K.K_PRESET] = DEFAULT_PRESET
    ss[K.K_PASTE] = ""
    ss[K.K_WORDS] = ""
    ss[K.K_MIX] = None
    ss[K.K_UPLOAD] = None
    ss[K.K_SETTINGS] = preset_settings(PRESETS[DEFAULT_PRESET])
    ss[K.K_PRESENT] = False
    ss[K.K_STEP] = 0
    ss[K.K_URL] = None
    ss[K.K_NOTES] = []
    ss[K.K_LINK_GONE] = None
    ss[K.K_EDITING] = None


def _adopt_link(linked) -> None:
    """Make the corpus a link names the session's (``linked``: a :class:`ui.links.Linked`; or, when it is gone,
    remember why it cannot be shown)."""
    ss = persist.ss()
    ss[K.K_SOURCE] = linked.source
    ss[K.K_LINK_GONE] = None if linked.text is not None else (linked.message, linked.ref)
    if linked.text is None:
        return
    if linked.source == "paste":
        ss[K.K_PASTE] = linked.text
    elif linked.source == "words":
        ss[K.K_WORDS] = linked.text
    elif linked.source == "mix":
        ss[K.K_MIX] = linked.text
    else:
        from . import uploads  # a link to an uploaded file: a preset never loads the uploads

        digest = digest_of(linked.text)
        uploads.upload_store().put(digest, linked.text)
        size = len(linked.text.encode("utf-8"))
        ss[K.K_UPLOAD] = {"name": _("File from the link"), "size": size, "digest": digest, "error": None}
    # The text is known by this link: no need to store it again.
    ss[K.K_LINK_CACHE] = (linked.source, digest_of(linked.text), linked.ref)


def _sync_from_url() -> None:
    ss = persist.ss()
    try:
        params = {k: st.query_params[k] for k in st.query_params}
    except Exception:  # a malformed query string must never break the page
        params = {}
    last = ss[K.K_URL]
    if params == (last or {}) or (not params and last is not None):
        return  # unchanged, or emptied by a page switch: the session keeps its state
    from . import links  # a URL to follow: only then may it name a corpus of the store

    linked = links.open_link(params)
    current = get_preset(ss[K.K_PRESET]) if ss[K.K_SOURCE] == "preset" and linked is None else None
    url = settings_from_url(params, current)
    if linked is not None:
        _adopt_link(linked)
    elif url.preset is not None:
        ss[K.K_SOURCE], ss[K.K_PRESET], ss[K.K_LINK_GONE] = "preset", url.preset, None
    ss[K.K_SETTINGS] = url.settings
    ss[K.K_PRESENT] = url.presentation
    ss[K.K_STEP] = url.step
    ss[K.K_NOTES] = list(url.notes)
    ss[K.K_URL] = params
    persist.note(params)


def url_params(choice: Choice, step: int | None = None) -> dict[str, str]:
    """The query parameters describing ``choice`` at ``step`` (default: the session's step)."""
    step = persist.get_step() if step is None else int(step)
    params = url_from_settings(choice.preset, choice.settings, choice.display.presentation, step, choice.link)
    params.update(i18n.url_param())  # the interface language travels in shared links
    params.update(persist.quiz_url_param())  # so does quiz mode
    params.update(persist.class_url_param())  # and the live class a session is in (its code only)
    return params


def write_url(choice: Choice, step: int | None = None, extra: dict[str, str] | None = None) -> None:
    """Write ``choice`` (and ``step``, default the session's step) into the browser's URL, with a page's own
    parameters ``extra`` (the Languages page's article and language); call it at the end of a page, once the
    step is known. Only writes when something changed."""
    params = {**url_params(choice, step), **(extra or {})}
    if {k: st.query_params[k] for k in st.query_params} != params:
        st.query_params.from_dict(params)
    persist.ss()[K.K_URL] = params
    persist.note(params)


# ------------------------------------------------------------------------------------ callbacks
def _on_source() -> None:
    ss = persist.ss()
    ss[K.K_SOURCE] = ss[persist.W + "source"]
    ss[K.K_LINK_GONE] = None
    if ss[K.K_SOURCE] == "preset":
        ss[K.K_SETTINGS] = preset_settings(PRESETS[ss[K.K_PRESET]])
    elif ss[K.K_SOURCE] == "mix":  # the settings a language mix trains with
        from .language_training import mix_settings  # the language mix's own module, loaded once it is chosen

        ss[K.K_SETTINGS] = mix_settings()
    persist.set_step(0)


def _on_present() -> None:
    ss = persist.ss()
    ss[K.K_PRESENT] = bool(ss[persist.W + "present"])


# ------------------------------------------------------------------------------------ the preset source
def _on_preset() -> None:
    ss = persist.ss()
    ss[K.K_PRESET] = ss[persist.W + "preset"]
    ss[K.K_SETTINGS] = preset_settings(PRESETS[ss[K.K_PRESET]])
    ss[K.K_LINK_GONE] = None
    persist.set_step(0)


def preset_source(settings: dict) -> Source:
    """The preset picker and the chosen preset's corpus."""
    ss = persist.ss()
    pid = ss[K.K_PRESET] if ss[K.K_PRESET] in PRESETS else DEFAULT_PRESET
    st.selectbox(
        _("Preset corpus"),
        list(PRESETS),
        key=persist.seed("preset", pid),
        format_func={p: _(PRESETS[p].title) for p in PRESETS}.__getitem__,
        on_change=_on_preset,
    )
    preset = PRESETS[pid]
    st.caption(md_escape(_(preset.provenance)))
    sample = None if preset.is_word_counts else preset.load_text()[:PREVIEW_CHARS]
    return Source(preset_corpus(preset), _(preset.title), preset=preset, text=sample)


def gone_source(settings: dict) -> Source:
    """A link named a corpus this server no longer has: say so, and keep the link's parameter (a reload
    says so again instead of showing another corpus)."""
    message, ref = persist.ss()[K.K_LINK_GONE]
    return Source(None, _("The linked corpus"), message, link=ref)


# ------------------------------------------------------------------------------------ the sidebar
def text_box_guard_html() -> str:
    """The text box guard's script element (``static/text_box_guard.js``): no user text in it, only the cap."""
    return "<script>\n" + _GUARD_JS.replace("__CAP__", str(int(paste_cap()))) + "</script>"


def guard_text_boxes() -> None:
    """Make the browser fix text box values before sending them (once per tab)."""
    st.html(text_box_guard_html(), unsafe_allow_javascript=True)


def sidebar() -> Choice:
    """Draw the shared sidebar and return the :class:`Choice`.

    Adopts the URL first, then draws: presentation toggle, corpus source and the training settings.
    Problems with the input or settings are shown (``st.error``/``st.warning`` in the main area) and
    give a Choice that is not ``ok``; it never raises for bad input. Hints about the user's own text
    (no spaces, CR LF line ends) are shown in the main area with their one-click fixes.
    """
    _init_state()
    _sync_from_url()
    ss = persist.ss()
    for note in ss.get(K.K_NOTES) or []:
        st.warning(md_escape(note))
    ss[K.K_NOTES] = []
    settings = dict(ss[K.K_SETTINGS])
    presentation = bool(ss[K.K_PRESENT])
    source = ss[K.K_SOURCE]

    with st.sidebar:
        i18n.language_picker()
        st.toggle(
            _("Presentation mode"),
            key=persist.seed("present", presentation),
            on_change=_on_present,
            help=_("Large type, a colour-blind-safe palette and fewer controls, for projecting to a class."),
        )
        st.radio(
            _("Corpus"),
            SOURCES,
            key=persist.seed("source", source),
            format_func={s: _(SOURCE_LABELS[s]) for s in SOURCES}.__getitem__,
            on_change=_on_source,
            horizontal=True,
        )
        if source == "preset":
            got = preset_source(settings)
        else:
            from . import sources  # one's own text: its sources load once one is chosen

            got = sources.SOURCES[source](settings)
        if ss.get(K.K_LINK_GONE):
            got = gone_source(settings)
        if presentation:
            with st.expander(_("Settings")):
                settings_widgets(settings, source == "words", compact=True, sample=got.text)
        else:
            st.subheader(_("Settings"))
            settings_widgets(settings, source == "words", compact=False, sample=got.text)
        # Last in the sidebar, on every page: it guards every text box of the tab, the pages' own too; then the
        # stepper's script, there before any page's step control is drawn (its keys, steps shown ahead, autoplay).
        guard_text_boxes()
        stepper.draw_script()

    message, config = got.message, None
    if message is None:
        try:
            config = make_config(settings, source == "words")
        except InputError as err:
            message = str(err)
    display = Display(settings["bytes"], presentation)
    if message is not None:
        (st.info if got.hint and message == got.message else st.error)(md_escape(message))
        return Choice(None, None, got.label, source, got.preset, settings, display, message, got.link)
    if got.text is not None and got.preset is None:
        from . import hints  # hints are about one's own text: a preset never loads them

        hints.space_free_hint(got.text, settings)
        if got.to_lf is not None:
            hints.crlf_note(got.text, got.to_lf)
    return Choice(got.corpus, config, got.label, source, got.preset, settings, display, link=got.link)
