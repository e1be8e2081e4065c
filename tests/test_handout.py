"""bpe_core.teaching.handout: the print-ready HTML handout, read back with html.parser; the `handout` CLI."""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
from pathlib import Path

from html_doc import Doc, classes, find, merge_headlines, text
from textbook import TEXTBOOK_HANDOUT_ROWS

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.teaching.handout import handout_html

ROOT = Path(__file__).resolve().parent.parent
TEXTBOOK = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
TEXTBOOK_TEXT = " ".join(w for w, n in TEXTBOOK.items() for _ in range(n))
EXPECTED = TEXTBOOK_HANDOUT_ROWS


def _textbook_run(**kw):
    return train(TEXTBOOK, TrainConfig(variant="eow", num_merges=10, **kw))


def test_textbook_handout_rows_in_order():
    page = handout_html(_textbook_run(), 5)
    doc = Doc(page)
    assert merge_headlines(doc) == EXPECTED
    # the same rows in the merge table at the end
    (summary,) = find(doc.root, "section", "summary")
    rows = find(summary, "tr")[1:]
    got = [tuple(text(b) for b in find(r, "span", "tok")) + (int(text(find(r, "td")[3])),) for r in rows]
    assert got == EXPECTED
    # self-contained, A4, no script, no external fetch
    assert "@page { size: A4" in page and "break-inside: avoid" in page
    assert not {"script", "link", "img", "iframe"} & set(doc.tags)
    assert not re.search(r"(src|href)\s*=|url\(|@import", page)
    assert find(doc.root, "html")[0]["attrs"]["lang"] == "en"


def test_tie_and_rule_are_named():
    doc = Doc(handout_html(_textbook_run(), 2))
    first = find(doc.root, "section", "merge")[0]
    prose = " ".join(text(p) for p in find(first, "p"))
    assert "3 pairs have the highest count, 9: a tie" in prose
    assert "first-seen (the pair that appears first in the corpus wins)" in prose
    pair_rows = find(find(first, "table", "pairs")[0], "tr")[1:]
    marks = [text(r["children"][-1]) if isinstance(r["children"][-1], dict) else "" for r in pair_rows]
    assert marks[:4] == ["chosen", "tied", "tied", ""]
    assert "chosen" in classes(pair_rows[0]) and "tied" in classes(pair_rows[1])
    # merge 2: the change since merge 1 -- es + t is new (9), t + </w> unchanged
    second = find(doc.root, "section", "merge")[1]
    rows = find(find(second, "table", "pairs")[0], "tr")[1:]
    cells = [[text(td) for td in find(r, "td")] for r in rows]
    assert cells[0][1:4] == ["es+t", "9", "new"]
    assert cells[1][1:4] == ["t+</w>", "9", "±0"]


def test_change_counts_match_the_full_pair_tables():
    run = train({"banana": 4, "bandana": 3, "ananas": 2}, TrainConfig(variant="char", num_merges=6, top_k=10))
    doc = Doc(handout_html(run, 6, top=10))
    for section in find(doc.root, "section", "merge")[1:]:
        step = int(re.search(r"\d+", text(find(section, "h2")[0])).group())
        before = {(run.token_text(a), run.token_text(b)): c for a, b, c in run.pair_table(step - 2)}
        for row in find(find(section, "table", "pairs")[0], "tr")[1:]:
            tds = find(row, "td")
            left, right = (text(b) for b in find(tds[1], "span", "tok"))
            now, change = int(text(tds[2])), text(tds[3])
            old = before.get((left, right), 0)
            expected = "new" if old == 0 else "±0" if now == old else f"+{now - old}" if now > old else f"−{old - now}"
            assert change == expected, (step, left, right)


def test_user_text_is_escaped():
    words = {"<script>alert(1)</script>": 3, "{pair}{0}&amp;": 3, "<b>x</b>": 2}
    run = train(words, TrainConfig(variant="char", num_merges=8))
    page = handout_html(run, 8)
    doc = Doc(page)
    assert "<script>" not in page and "<b>x" not in page
    assert not [t for t in doc.tags if t == "script"]
    word_cells = [text(w) for w in find(doc.root, "span", "word")]
    assert "<script>alert(1)</script>" in word_cells and "{pair}{0}&amp;" in word_cells and "<b>x</b>" in word_cells
    # bold tags come only from the handout's own markup, never from a word
    assert all(text(b) in {"first-seen (the pair that appears first in the corpus wins)"} for b in find(doc.root, "b"))


class Marked(gettext.NullTranslations):
    """Wraps every message in ⟪ ⟫ so the test can see which text went through the catalog."""

    def gettext(self, message):
        return f"⟪{message}⟫"

    def ngettext(self, singular, plural, n):
        return f"⟪{singular if n == 1 else plural}⟫"

    def pgettext(self, context, message):
        return f"⟪{message}⟫"


def test_every_sentence_goes_through_the_translations():
    run = train({**TEXTBOOK, "x": 1}, TrainConfig(variant="eow", num_merges=10))
    doc = Doc(handout_html(run, 12, tr=Marked(), lang="zh-Hans"))
    assert find(doc.root, "html")[0]["attrs"]["lang"] == "zh-Hans"

    def flat(node) -> str:
        # user text (tokens, words) stands as one box character; the style sheet is not prose
        if node["tag"] == "style":
            return ""
        if classes(node) & {"tok", "word"}:
            return "□"
        return "".join(c if isinstance(c, str) else flat(c) for c in node["children"])

    rest = flat(doc.root)
    while "⟫" in rest:  # innermost first: a translated rule name sits inside a translated sentence
        rest, n = re.subn(r"⟪[^⟪⟫]*⟫", "", rest)
        assert n
    loose = re.sub(r"[\s\d,#+→±−().·:;…“”‘’□]+", " ", rest).split()
    assert loose == []
    assert "⟪Training stopped after merge {n}: no adjacent pair is left.⟫" not in text(doc.root)


def test_chinese_translation_is_used():
    class Zh(gettext.NullTranslations):
        table = {
            "{pair} → {token} ({count} time)": "{pair} → {token}（{count} 次）",
            "{pair} → {token} ({count} times)": "{pair} → {token}（{count} 次）",
            "Merge {step}": "第 {step} 次合并",
        }

        def gettext(self, message):
            return self.table.get(message, message)

        def ngettext(self, singular, plural, n):
            return self.table.get(singular if n == 1 else plural, singular if n == 1 else plural)

    doc = Doc(handout_html(_textbook_run(), 5, tr=Zh(), lang="zh-Hans"))
    sections = find(doc.root, "section", "merge")
    assert [text(find(s, "h2")[0]) for s in sections] == [f"第 {k} 次合并" for k in range(1, 6)]
    heads = [text(find(s, "p", "headline")[0]) for s in sections]
    assert heads[0] == "e+s → es（9 次）"
    assert "Noto Sans CJK SC" in find(doc.root, "style")[0]["children"][0]


def test_large_corpus_is_bounded():
    words = {f"w{i}ab": 2 for i in range(500)}
    run = train(words, TrainConfig(variant="char", num_merges=3))
    doc = Doc(handout_html(run, 3, max_words=10))
    before = find(doc.root, "table")[0]
    assert len(find(before, "tr")) == 11
    mores = [text(p) for p in find(doc.root, "p", "more")]
    assert "…and 490 more word types (the first 10 are shown, in order of first appearance)." in mores
    assert any("more changed word types" in m for m in mores)


def _cli(*args, stdin: bytes | None = None):
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", "handout", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def test_cli_writes_the_handout(tmp_path):
    src = tmp_path / "book.txt"
    src.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    out = tmp_path / "h.html"
    proc = _cli(str(src), "--variant", "eow", "--merges", "5", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert merge_headlines(Doc(out.read_text(encoding="utf-8"))) == EXPECTED
    # stdin in, stdout out; a word-frequency list is read as one
    proc = _cli("-", "--variant", "eow", "--merges", "5", stdin=b"low 5\nlower 2\nnewest 6\nwidest 3\n")
    assert proc.returncode == 0, proc.stderr
    assert merge_headlines(Doc(proc.stdout.decode("utf-8"))) == EXPECTED


def test_cli_errors(tmp_path):
    src = tmp_path / "book.txt"
    src.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    for args in (
        [str(tmp_path / "missing.txt")],
        [str(src), "--merges", "0"],
        [str(src), "--merges", "100000"],
        [str(src), "--lang", "fr"],
        [str(src), "--tie-break", "random"],
        [str(src), "--out", str(tmp_path / "no" / "such" / "dir.html")],
    ):
        proc = _cli(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        err = proc.stderr.decode()
        assert err.startswith("bpe_core: ") and err.count("\n") == 1 and "Traceback" not in err, err
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    assert _cli(str(empty)).returncode == 2


def test_cli_lang_needs_the_catalogs(tmp_path):
    src = tmp_path / "book.txt"
    src.write_text(TEXTBOOK_TEXT, encoding="utf-8")
    proc = _cli(str(src), "--variant", "eow", "--merges", "5", "--lang", "zh-Hant")
    try:
        from bpe_core.i18n import translations  # noqa: F401  (written by the interface-language work)
    except ImportError:
        assert proc.returncode == 2
        assert proc.stderr.decode().startswith(
            "bpe_core: --lang zh-Hant: this installation has no translation catalogs"
        )
    else:
        assert proc.returncode == 0, proc.stderr
        doc = Doc(proc.stdout.decode("utf-8"))
        assert find(doc.root, "html")[0]["attrs"]["lang"] == "zh-Hant"
        assert [h[:3] for h in merge_headlines(doc)] == [e[:3] for e in EXPECTED]


def test_the_word_table_lists_tokens_not_a_count():
    """The handout's word table heads its column of tokens 詞元 (the tokens), not 詞元數 (how many)."""
    from bpe_core.i18n import translations

    run = train(TEXTBOOK, TrainConfig(variant="eow", num_merges=2))
    html = handout_html(run, 2, tr=translations("zh-Hant"), lang="zh-Hant")
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", html)
    assert "詞元" in heads and "詞元數" not in heads, heads


NIHAO = "你好啊 你好 你好啊 你好 我 啊 走"


def _nihao_run(merges: int = 10):
    config = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=merges, min_frequency=1)
    return train(corpus_words(NIHAO, config), config)


def _notes(node) -> list[str]:
    return [text(s) for s in find(node, "small")]


def test_byte_boxes_name_the_character_they_belong_to():
    doc = Doc(handout_html(_nihao_run(), 3))
    before = find(doc.root, "table", "words")[0]
    first = find(before, "tr")[1]  # 你好啊, 9 bytes: every box says which byte of which character it is
    assert _notes(first) == ["你 1/3", "你 2/3", "你 3/3", "好 1/3", "好 2/3", "好 3/3", "啊 1/3", "啊 2/3", "啊 3/3"]
    merges = find(doc.root, "section", "merge")
    assert _notes(find(merges[0], "p", "headline")[0]) == ["你 1/3", "你 2/3", "你 1–2/3"]
    # merge 3 makes 你 + the first byte of 好: a mixed box
    assert _notes(find(merges[2], "p", "headline")[0])[-1] == "你 + 好 1/3"
    # a pair table stands alone: its notes come from where the bytes first occur in the corpus
    assert _notes(find(find(merges[0], "table", "pairs")[0], "tr")[1]) == ["你 1/3", "你 2/3"]
    assert len(find(doc.root, "p", "legend")) == 1


def test_character_runs_have_no_byte_notes():
    doc = Doc(handout_html(_textbook_run(), 3))
    assert not find(doc.root, "small") and not find(doc.root, "p", "legend")
    assert len(find(doc.root, "div", "merges")) == 1  # merges in two printed columns
