"""BPE Explorer: the entry point. ``streamlit run app.py`` serves every page of ``pages/`` under the
names below; each page draws the shared sidebar itself (``ui.page.start_page``).

The URL paths are part of shared links and stay as they are (``/``, ``/Side_by_side``...).
"""

import streamlit as st

from ui.i18n import _

PAGES = [
    st.Page("pages/0_Step_through_BPE.py", title=_("Step through BPE"), icon="🧩", default=True),
    st.Page("pages/1_Side_by_side.py", title=_("Side by side"), icon="🆚", url_path="Side_by_side"),
    st.Page("pages/2_BPE_vs_BBPE.py", title=_("BPE vs BBPE"), icon="🔤", url_path="BPE_vs_BBPE"),
    st.Page("pages/3_Encode_and_decode.py", title=_("Encode and decode"), icon="🔁", url_path="Encode_and_decode"),
    st.Page("pages/4_Files.py", title=_("Files"), icon="💾", url_path="Files"),
    st.Page("pages/5_How_BPE_works.py", title=_("How BPE works"), icon="📖", url_path="How_BPE_works"),
]

st.navigation(PAGES).run()
