"""Which join links name this computer's own address, which no phone can open (``ui.class_join.loopback_host``), and
the warning the teacher then reads in each language. The warning on a real teacher's page, reached at 127.0.0.1, is
checked in ``tests/test_zoom_browser.py``."""

from __future__ import annotations

import pytest
from app_helpers import flat_text

from ui.class_join import loopback_host, loopback_warning


@pytest.mark.parametrize(
    "url, host",
    [
        ("http://localhost:8501/", "localhost"),
        ("http://LocalHost:8501/?class=ABCDEF", "localhost"),
        ("http://class.localhost:8501/", "class.localhost"),
        ("http://127.0.0.1:8501/", "127.0.0.1"),
        ("http://127.0.1.1:8501/app", "127.0.1.1"),
        ("http://[::1]:8501/", "::1"),
        ("http://0.0.0.0:8501/", "0.0.0.0"),
        ("http://192.168.1.20:8501/", None),
        ("http://10.0.0.7/", None),
        ("http://[fe80::1]:8501/", None),
        ("https://bpe.example.edu/explorer", None),
        ("http://localhost.example.edu/", None),
        ("", None),
        ("http://[::1", None),  # malformed: nothing to say
    ],
)
def test_loopback_host(url, host):
    assert loopback_host(url) == host


def test_a_public_address_makes_the_link_whatever_the_browser_used():
    assert loopback_host("http://localhost:8501/", "https://bpe.example.edu/explorer") is None
    assert loopback_host("http://localhost:8501/", "   ") == "localhost"  # blank: not set


@pytest.mark.parametrize(
    "lang, phones",
    [("en", "Phones cannot open this link"), ("zh-Hans", "手机打不开这个链接"), ("zh-Hant", "手機打不開這個連結")],
)
def test_the_warning_in_each_language_names_the_host_and_both_ways_out(monkeypatch, lang, phones):
    from ui import i18n

    # Outside a script run the interface language is the one the last run resolved (tests/conftest.py).
    monkeypatch.setitem(i18n._last, "lang", lang)
    html = loopback_warning("127.0.0.1")
    text = flat_text(html)
    for words in (phones, "127.0.0.1", "--server.address 0.0.0.0", "BPE_EXPLORER_PUBLIC_URL", "Network URL"):
        assert words in text, text
    # The address and the commands are set as code, whole: a line never breaks inside them.
    for code in ("127.0.0.1", "--server.address 0.0.0.0", "BPE_EXPLORER_PUBLIC_URL", "http://192.168.1.20:8501"):
        assert f"<code>{code}</code>" in html, html


def test_the_warning_escapes_the_address():
    assert "<code>&lt;b&gt;</code>" in loopback_warning("<b>")
