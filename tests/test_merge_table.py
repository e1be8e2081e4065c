"""bpe_core.formats.merge_table: the merges so far as rows, Markdown and CSV."""

from __future__ import annotations

import csv
import gettext
import io

from bpe_core import TrainConfig, train
from bpe_core.formats.merge_table import merge_rows, to_csv, to_markdown

TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
EXPECTED = [
    ("e", "s", "es", 9),
    ("es", "t", "est", 9),
    ("est", "</w>", "est</w>", 9),
    ("l", "o", "lo", 7),
    ("lo", "w", "low", 7),
]


def _textbook_run(merges=10):
    return train(TEXTBOOK, TrainConfig(variant="eow", num_merges=merges))


def test_textbook_rows():
    run = _textbook_run()
    rows = merge_rows(run, 5)
    assert [(r.left, r.right, r.token, r.count) for r in rows] == EXPECTED
    assert [r.merge_number for r in rows] == [1, 2, 3, 4, 5]
    # 4 words: 3+5+6+6 symbols + </w> each = characters l o w e r n s t i d + </w> = 11 base symbols
    assert rows[0].vocab_size == run.num_base + 1
    assert [r.vocab_size for r in rows] == [run.vocab_size_at(k) for k in range(1, 6)]
    assert [r.corpus_tokens for r in rows] == [run.corpus_tokens(k) for k in range(1, 6)]
    # e + s happens in newest (6) and widest (3): 9 tokens fewer
    assert run.corpus_tokens(0) - rows[0].corpus_tokens == 9
    assert rows[0].token_id == run.snapshot(1).token


def test_step_bounds():
    run = _textbook_run(3)
    assert merge_rows(run, 0) == []
    assert len(merge_rows(run, 99)) == 3
    assert len(merge_rows(run)) == 3


def test_byte_level_tokens_are_utf8_with_stray_bytes_marked():
    run = train({"你你你": 3, "你好": 2}, TrainConfig(variant="byte", pretokenizer="none", num_merges=3))
    rows = merge_rows(run)
    # the first merge joins the first two bytes of 你 (e4 bd): not a whole character
    assert rows[0].left == "\\xe4" and rows[0].right == "\\xbd" and rows[0].token == "\\xe4\\xbd"
    assert rows[1].token == "你"


def test_markdown_table():
    md = to_markdown(merge_rows(_textbook_run(), 5))
    lines = md.splitlines()
    assert lines[0] == "| Merge | Pair | New token | Count | Vocabulary size | Corpus tokens |"
    assert lines[1].count("|") == 7
    assert lines[2].startswith("| 1 | e + s | es | 9 | ")
    assert lines[4].startswith("| 3 | est + </w> | est</w> | 9 | ")
    assert len(lines) == 7 and md.endswith("\n")


def test_markdown_escapes_pipes_backticks_and_shows_spaces():
    run = train({"a|`b": 4, " x": 3}, TrainConfig(variant="char", pretokenizer="none", num_merges=10))
    md = to_markdown(merge_rows(run))
    body = md.splitlines()[2:]
    for line in body:
        # every row keeps exactly 7 unescaped pipes (6 cells)
        unescaped = line.replace("\\|", "")
        assert unescaped.count("|") == 7, line
        assert "`" not in line.replace("\\`", "")
    assert any("␣ + x" in line for line in body)


def test_csv_round_trip_and_translated_headers():
    class Upper(gettext.NullTranslations):
        def gettext(self, message):
            return message.upper()

    run = train({" a,b": 3, 'q"': 2}, TrainConfig(variant="char", pretokenizer="none", num_merges=10))
    rows = merge_rows(run)
    text = to_csv(rows, tr=Upper())
    read = list(csv.reader(io.StringIO(text)))
    assert read[0] == ["MERGE", "LEFT", "RIGHT", "NEW TOKEN", "COUNT", "VOCABULARY SIZE", "CORPUS TOKENS"]
    assert [(r[1], r[2], r[3]) for r in read[1:]] == [(r.left, r.right, r.token) for r in rows]
    assert read[1][1] == " " and read[1][2] == "a"
    assert to_markdown(rows, tr=Upper()).startswith("| MERGE | PAIR | NEW TOKEN |")


def test_visible_whitespace_in_markdown():
    from bpe_core.formats.merge_table import visible_whitespace

    assert visible_whitespace(" a\tb\r\n\u3000") == "␣a→b\\r↵␣"
    run = train({"\u3000x": 3}, TrainConfig(variant="char", pretokenizer="none", num_merges=1))
    assert "| 1 | ␣ + x | ␣x | 3 |" in to_markdown(merge_rows(run))
