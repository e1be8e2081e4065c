"""The app's pages: their list (:data:`PAGES`: script, name in the menu, icon and URL path; ``app.py`` builds its
``st.navigation`` from it, and the URL paths are part of shared links and never change), and what every page does
first: its browser title, the shared sidebar, and the app's CSS (read once from ``ui/static/``; presentation mode
adds large type); for a page about the sidebar's trained model, its heading and that run too
(:func:`start_run_page`); and a page's own text box (:func:`page_text`)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import streamlit as st

from bpe_core import InputError, clean_text

from . import persist, training
from .i18n import N_, _, current_language
from .settings import Display
from .sidebar import Choice, sidebar
from .text import md_escape


class PageSpec(NamedTuple):
    """One page: ``script`` relative to the repository root, ``title`` (English; shown with ``_``),
    ``icon``, ``url_path`` (``""``: the default page, at ``/``)."""

    script: str
    title: str
    icon: str
    url_path: str


PAGES = (
    PageSpec("app_pages/0_Step_through_BPE.py", N_("Step through BPE"), "🧩", ""),
    PageSpec("app_pages/1_Side_by_side.py", N_("Side by side"), "🆚", "Side_by_side"),
    PageSpec("app_pages/2_BPE_vs_BBPE.py", N_("BPE vs BBPE"), "🔤", "BPE_vs_BBPE"),
    PageSpec("app_pages/3_Encode_and_decode.py", N_("Encode and decode"), "🔁", "Encode_and_decode"),
    PageSpec("app_pages/4_Files.py", N_("Files"), "💾", "Files"),
    PageSpec("app_pages/5_Real_tokenizers.py", N_("Real tokenizers"), "🧮", "Real_tokenizers"),
    PageSpec("app_pages/6_Check_your_BPE.py", N_("Check your BPE"), "🩺", "Check_your_BPE"),
    PageSpec("app_pages/7_Languages.py", N_("Languages"), "🌐", "Languages"),
    PageSpec("app_pages/8_How_BPE_works.py", N_("How BPE works"), "📖", "How_BPE_works"),
    PageSpec("app_pages/9_Glossary.py", N_("Glossary"), "📚", "Glossary"),
)

_STATIC = Path(__file__).resolve().parent / "static"


def _read(name: str) -> str:
    return (_STATIC / name).read_text(encoding="utf-8")


APP_CSS = _read("app.css")
PRESENTATION_CSS = _read("presentation.css")
PAGES_CSS = _read("pages.css")
SIDEBAR_CSS = _read("sidebar.css")


def setup_page(display: Display | None = None, pages_css: bool = True) -> None:
    """Inject the app's CSS (chips, tables, tree; the sidebar's width; the pages' extra rules; large type in
    presentation mode)."""
    presentation = bool(display is not None and display.presentation)
    css = APP_CSS + SIDEBAR_CSS + (PRESENTATION_CSS if presentation else "") + (PAGES_CSS if pages_css else "")
    st.html(f"<style>\n{css}</style>")


def start_page(title: str | None, icon: str) -> Choice:
    """Browser title (``"<title> · BPE Explorer"``; ``None``: just ``BPE Explorer``), the shared sidebar
    (its corpus and settings are every page's) and the CSS. Returns the sidebar's
    :class:`ui.sidebar.Choice` (which may be not ``ok``: a message was shown)."""
    browser_title = _("{page} · BPE Explorer").format(page=title) if title else _("BPE Explorer")
    st.set_page_config(page_title=browser_title, page_icon=icon, layout="wide")
    choice = sidebar()
    if choice.display.presentation:
        # Presentation links open with the sidebar folded: more room for the class to read.
        st.set_page_config(initial_sidebar_state="collapsed")
    setup_page(choice.display)
    return choice


def start_run_page(title: str, icon: str, heading: str):
    """:func:`start_page`, the page's ``heading`` (:func:`page_title`; none in presentation mode) and the
    sidebar's run trained to its last merge (:func:`ui.training.get_run`, with its progress bar). Returns
    ``(choice, run)``; the page stops when the sidebar's corpus or settings are unusable (the sidebar says why)
    or the training failed (``get_run`` says so)."""
    choice = start_page(title, icon)
    if not choice.display.presentation:
        page_title(heading)
    run = training.get_run(choice.corpus, choice.config)
    if run is None:
        st.stop()
    return choice, run


#: The gloss under each page's title in Chinese: 词元 is "token" (the Chinese articles say "token"
#: throughout), said where a reader first meets it on the page. Never shown in English.
TOKEN_GLOSS = N_(
    "A token is one unit of the vocabulary, one of the pieces BPE cuts text into; token ids are their numbers."
)


def lazy_expander(label: str, key: str):
    """An expander whose content runs only while it is open: the container to draw into, or ``None`` while it is
    closed (then draw nothing). Opening or closing it reruns the fragment it is in (Streamlit's expander state,
    ``on_change="rerun"``). Why: a closed expander's content is still computed and sent on every run, and the step
    view reruns on every step, for every student of a live class."""
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def page_title(title: str) -> None:
    """The page's title (``st.title``) and, in Chinese, the gloss 词元（token） under it, so that the
    page's first 词元 says which English word it stands for."""
    st.title(title)
    if current_language() != "en":
        st.caption(_(TOKEN_GLOSS))


def page_text(label: str, name: str, default: str, *, height: int, max_chars: int, cut: str, empty: str) -> str:
    """A page's own text box (kept across reruns and page switches under ``name``), cleaned with
    :func:`bpe_core.clean_text`: at most ``max_chars`` characters are returned (``cut``, a translated
    sentence with ``{n}`` and ``{limit}``, says so); an unusable or empty text shows its message (``empty``
    when blank) and stops the page."""
    st.text_area(label, key=persist.seeded(name, default), on_change=persist.keep, args=(name,), height=height)
    try:
        text = clean_text(persist.kept(name, default))
    except InputError as err:
        st.error(md_escape(str(err)))
        st.stop()
    if len(text) > max_chars:
        st.warning(cut.format(n=f"{len(text):,}", limit=f"{max_chars:,}"))
        text = text[:max_chars]
    if not text.strip():
        st.info(empty)
        st.stop()
    return text
