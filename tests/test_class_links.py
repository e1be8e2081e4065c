"""The join link behind a proxy (issue 24): with ``BPE_EXPLORER_PUBLIC_URL`` set, the link, its QR code and the teacher
link a teacher's page shows start with that public address, a path prefix kept and a trailing slash or spaces
dropped, whatever address the server itself was reached by. Runs the app (AppTest) as a teacher resuming a class
from a teacher link; the address the browser used (no setting) is checked in real Chromium in
``tests/test_live_class_browser.py``.
"""

from __future__ import annotations

import re

import pytest
from app_helpers import bodies, new_app, no_exception

from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes
from ui.class_join import PUBLIC_URL_ENV, qr_img


@pytest.mark.parametrize(
    "public, base",
    [
        ("https://bpe.example.edu/explorer/", "https://bpe.example.edu/explorer"),
        (" https://bpe.example.edu/explorer ", "https://bpe.example.edu/explorer"),
        ("https://bpe.example.edu/", "https://bpe.example.edu"),
    ],
)
def test_the_join_link_names_the_public_address(tmp_path, monkeypatch, public, base):
    store = tmp_path / "corpora.sqlite3"
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(store))
    monkeypatch.setenv(PUBLIC_URL_ENV, public)
    code, key = Classes(CorpusStore(store)).start({"preset": "textbook-low"}, step=0)
    at = new_app(**{"class": code, "teacher": key})
    no_exception(at)
    join = next(b for b in bodies(at) if "id='bpe-class-join'" in b)
    link = re.search(r"<div class='link'>([^<]*)</div>", join).group(1)
    assert link == f"{base}/?class={code}"
    # The QR code encodes that same link.
    qr_src = re.search(r"src='([^']*)'", qr_img(link)).group(1)
    assert f"src='{qr_src}'" in join
    # The teacher link, shown on request, starts with the public address too.
    at.toggle(key="class-show-key").set_value(True).run()
    no_exception(at)
    assert [c.value for c in at.code] == [f"{base}/?class={code}&teacher={key}"]
