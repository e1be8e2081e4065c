"""BPE Explorer as a server: ``streamlit run serve.py`` (what ``sh run.sh app`` runs).

The app itself is ``app.py`` (its pages, ``ui.page.PAGES``). This module adds what a page's script run cannot
do cheaply: the live class's poll endpoint (:mod:`bpe_server.class_poll`), which every student's tab asks about twice a
second without running any Streamlit script. ``streamlit run`` finds the ``st.App`` named ``app`` below and serves
it with Streamlit's own server (uvicorn), with the same ``.streamlit/config.toml`` and command-line options as
``streamlit run app.py``; ``streamlit run app.py`` still works, polling with a fragment instead.
"""

import streamlit as st

from bpe_server import class_poll

app = st.App("app.py", routes=class_poll.routes())
