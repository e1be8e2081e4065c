"""BPE Explorer: the entry point. ``streamlit run app.py`` serves the pages of :data:`ui.page.PAGES`
under names a learner understands; each page draws the shared sidebar itself (``ui.page.start_page``).
"""

from pathlib import Path

import streamlit as st

from ui import persist, streamlit_patches
from ui.i18n import _
from ui.page import PAGES

ROOT = Path(__file__).resolve().parent  # page scripts are found from here, wherever app.py is run from


def page(spec) -> st.Page:
    script = ROOT / spec.script
    if not spec.url_path:
        return st.Page(script, title=_(spec.title), icon=spec.icon, default=True)
    return st.Page(script, title=_(spec.title), icon=spec.icon, url_path=spec.url_path)


# A press is counted once, even when the step view's timer fires as it is made; a fragment's rerun drops the unsent
# elements of the run it replaces, cached ones too (ui/streamlit_patches.py: each on a checked Streamlit only).
streamlit_patches.install()
# Before anything reads the URL: a page one run behind sends the URL of the run before (ui/persist.py).
persist.put_back_if_old()
st.navigation([page(spec) for spec in PAGES]).run()
