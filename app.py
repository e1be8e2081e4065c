"""Placeholder entry point for BPE Explorer.

Created by the tooling/CI work so that `sh run.sh app` has something to serve;
the app developer will replace this file with the real front end.
"""

import streamlit as st

st.set_page_config(page_title="BPE Explorer")
st.title("BPE Explorer")
st.write("Byte-Pair Encoding, one merge at a time. (Placeholder page: the real app is on its way.)")
