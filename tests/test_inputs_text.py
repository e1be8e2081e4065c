"""bpe_core.inputs: sizes for people ("1 byte") and the over-limit message, in English and through a translation."""

from __future__ import annotations

import gettext

import pytest

from bpe_core.inputs import InputError, check_size, clean_text, decode_bytes, format_size, size_message


@pytest.mark.parametrize(
    "n, shown",
    [(0, "0 bytes"), (1, "1 byte"), (2, "2 bytes"), (999, "999 bytes"), (1_000, "1.0 kB"), (2_500_000, "2.5 MB")],
)
def test_format_size(n, shown):
    assert format_size(n) == shown


def test_the_over_limit_message_says_size_limit_and_what_to_do():
    message = size_message(1_234_567, 1_000_000)
    assert message == (
        "This text is 1.2 MB; this server accepts texts up to 1.0 MB. Paste or upload a shorter text "
        "(a part of it is enough to watch BPE at work)."
    )
    assert "BPE_EXPLORER" not in message
    with pytest.raises(InputError) as info:
        clean_text("ab", limit=1)
    assert str(info.value).startswith("This text is 2 bytes; this server accepts texts up to 1 byte.")
    with pytest.raises(InputError, match="This text is 3 bytes"):
        decode_bytes(b"abc", limit=2)
    check_size(5, 5)  # at the limit: fine


class Marked(gettext.NullTranslations):
    """A stand-in catalog: marks every message, picks plural forms as English does."""

    def gettext(self, message):
        return "[zh] " + message

    def ngettext(self, singular, plural, n):
        return "[zh] " + (singular if n == 1 else plural)


def test_sizes_and_the_message_go_through_the_translation():
    tr = Marked()
    assert format_size(1, tr) == "[zh] 1 byte" and format_size(7, tr) == "[zh] 7 bytes"
    assert format_size(3_000, tr) == "[zh] 3.0 kB"
    with pytest.raises(InputError) as info:
        clean_text("abc", limit=2, tr=tr)
    assert str(info.value) == (
        "[zh] This text is [zh] 3 bytes; this server accepts texts up to [zh] 2 bytes. Paste or upload a shorter "
        "text (a part of it is enough to watch BPE at work)."
    )


def test_line_ends_and_to_lf():
    from corpus_excerpts import corpus_slice

    from bpe_core.inputs import LineEnds, line_ends, to_lf

    assert line_ends("a\r\nb\rc\nd\r\n") == LineEnds(crlf=2, cr=1, lf=1)
    assert to_lf("a\r\nb\rc\nd\r\n") == "a\nb\nc\nd\n"
    assert line_ends("") == LineEnds(0, 0, 0) and to_lf("你好\n") == "你好\n"
    source = corpus_slice("hongloumeng.txt", 0, 20_000)  # the source file ends its lines with CR LF
    ends = line_ends(source)
    assert ends.crlf > 10 and ends.cr == ends.lf == 0
    assert to_lf(source) == source.replace("\r\n", "\n") and "\r" not in to_lf(source)
