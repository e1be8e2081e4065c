"""The class's cookies (the teacher key, a student's id), set in the browser from a live class page."""

from __future__ import annotations

import json

import streamlit as st

from bpe_server import class_poll, cookie_route


def cookie_script(name: str, value: str) -> None:
    """Set the class cookie ``name`` (a class's teacher key or a student id, URL-safe characters only) in this
    browser. Raises ``ValueError`` on any other character: nothing else may reach the script."""
    # The server's cookie route sets it (HttpOnly, SameSite=Strict, Secure over HTTPS: bpe_server.cookie_route),
    # asked again a few times should the store not answer; served without the route (`streamlit run app.py`), the
    # script sets it itself. Codes, keys and ids are URL-safe: anything else would be written into the script.
    if not all(c.isalnum() or c in "_-" for c in name + value):
        raise ValueError(f"not a class cookie: {name!r}")
    url = class_poll.route_url(cookie_route.ROUTE)
    if url is None:
        js = f'document.cookie="{name}={value}; path=/; max-age={cookie_route.MAX_AGE_S}; SameSite=Strict"'
    else:
        js = (
            f'(function t(n){{fetch({json.dumps(url)},{{method:"POST",credentials:"same-origin",'
            f'headers:{{"Content-Type":"application/json"}},body:JSON.stringify({{name:"{name}",value:"{value}"}})}})'
            ".then(function(r){if(r.status>=500&&n>0)setTimeout(function(){t(n-1)},2000)})"
            ".catch(function(){if(n>0)setTimeout(function(){t(n-1)},2000)})})(5)"
        )
    st.html(f"<script>{js}</script>", unsafe_allow_javascript=True)
