"""Old URLs a page sends again: the query string of a message from a page that is one run behind.

Every message a page sends to the server carries the page's URL, and Streamlit puts it into
``st.query_params`` for the run it asks for. The app writes the session's state (corpus, settings, step)
into the URL at the end of each run (:func:`ui.sidebar.write_url`), and reads a URL it did not write as a
link to follow (:func:`ui.sidebar._sync_from_url`). A page that sends a message before it has taken in the
URL of the server's last run (a press while the step before is still on its way, autoplay switched off
as a step arrives: on a busy machine, often) sends a URL the app wrote one run earlier, and the session
went back to that step. Streamlit's own rule for widgets bound to the URL is the same as the one here:
after the first run the session's state wins over the URL, except on Back and Forward in the browser
(a history navigation), where the URL the user went to wins.

So the URLs the app wrote (or followed) lately are kept in the session, and a message that brings one of
them back, other than the latest and not from Back / Forward, gets the latest put back into
``st.query_params`` before anything reads it (:func:`put_back_if_old`, first thing in ``app.py``). A URL
the app never wrote (a link typed or pasted, a benchmark's client) is still followed.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from . import persist

#: The session key of the URLs lately written or followed, oldest first (query parameter dicts).
K_WRITTEN = "bpe.url_written"
#: How many are kept: a page is a run or two behind at most (presses wait for the step before).
KEPT = 8


def note(params: dict[str, str]) -> None:
    """Remember ``params`` (a query parameter dict) as a URL the app wrote or followed: the latest one."""
    ss = persist.ss()
    written = list(ss.get(K_WRITTEN) or [])
    if not written or written[-1] != params:
        written = [*written, dict(params)][-KEPT:]
    ss[K_WRITTEN] = written


def put_back_if_old() -> None:
    """If this run's URL is one the app wrote before the latest (see the module doc), put the latest
    (``persist.K_URL``, what the app last wrote) back into ``st.query_params``."""
    ss = persist.ss()
    latest, written = ss.get(persist.K_URL), ss.get(K_WRITTEN)
    if not latest or not written:
        return
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or ctx.is_history_navigation:
        return
    try:
        params = {k: st.query_params[k] for k in st.query_params}
    except Exception:  # a malformed query string is the sidebar's to report
        return
    if params != latest and params in written:
        st.query_params.from_dict(latest)
