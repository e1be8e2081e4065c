"""The app's pages: script, name in the menu, icon and URL path. ``app.py`` builds its
``st.navigation`` from this list; the URL paths are part of shared links and never change."""

from __future__ import annotations

from typing import NamedTuple

from .i18n import N_


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
    PageSpec("app_pages/5_Real_tokenizers.py", N_("GPT tokenizers"), "🧮", "Real_tokenizers"),
    PageSpec("app_pages/6_Check_your_BPE.py", N_("Check your BPE"), "🩺", "Check_your_BPE"),
    PageSpec("app_pages/7_Languages.py", N_("Languages"), "🌐", "Languages"),
    PageSpec("app_pages/8_How_BPE_works.py", N_("How BPE works"), "📖", "How_BPE_works"),
    PageSpec("app_pages/9_Glossary.py", N_("Glossary"), "📚", "Glossary"),
)
