"""The merges so far, as the table every BPE tutorial prints: one row per merge up to a step.

Columns: the merge number k (merge 1 is learned first; headed "Merge", not "Rank": in a byte-level rank file
merge k has rank 255 + k, :func:`bpe_core.teaching.facts.numbering_legend`), the pair (left, right), the new token, the pair's count when
it was chosen, the vocabulary size after the merge and the corpus size in tokens after it. Tokens are
text: char/eow tokens as they are, byte-level tokens decoded as UTF-8 with the bytes of an incomplete
character written ``\\xNN`` (:func:`bpe_core.byte_display.to_utf8_marked`, the app's default view).

:func:`to_markdown` and :func:`to_csv` write the rows for copying into notes or a spreadsheet; their
headers go through a ``gettext`` translations object.
"""

from __future__ import annotations

import csv
import gettext
import io
from dataclasses import dataclass

_ENGLISH = gettext.NullTranslations()

#: Whitespace drawn as a visible glyph in Markdown, where a leading or trailing space in a cell is lost.
#: A carriage return is written ``\r``: the control picture ␍ is missing from the common fonts (Noto, DejaVu).
_VISIBLE_SPACE = str.maketrans({" ": "␣", "\n": "↵", "\t": "→", "\r": "\\r", "\u00a0": "⍽"})


@dataclass(frozen=True)
class MergeRow:
    """One merge of the table.

    Attributes:
        merge_number: the merge's step number (1 = first merge learned).
        left, right, token: the pair and the new token as display text (not escaped).
        count: the pair's count (frequency-weighted occurrences) when it was chosen.
        vocab_size: tokens in the vocabulary after the merge (base alphabet included).
        corpus_tokens: tokens in the whole corpus after the merge (frequency-weighted).
        left_id, right_id, token_id: the same tokens as ids of the run.
    """

    merge_number: int
    left: str
    right: str
    token: str
    count: int
    vocab_size: int
    corpus_tokens: int
    left_id: int
    right_id: int
    token_id: int


def token_display(run, tid: int) -> str:
    """A token of ``run`` as text: itself for char/eow; UTF-8 with ``\\xNN`` for stray bytes for byte-level."""
    return run.token_text(tid, "utf8")


def merge_rows(run, step: int | None = None) -> list[MergeRow]:
    """The merges of steps 1..``step`` of a :class:`~bpe_core.algorithms.run.TrainedRun` (default: every merge so far),
    in rank order. A ``step`` beyond the run is clamped to the merges done; below 1 gives ``[]``."""
    n = run.num_steps if step is None else max(0, min(int(step), run.num_steps))
    rows = []
    for snap in run.snapshots[:n]:
        rows.append(
            MergeRow(
                merge_number=snap.step,
                left=token_display(run, snap.left),
                right=token_display(run, snap.right),
                token=token_display(run, snap.token),
                count=snap.count,
                vocab_size=snap.vocab_size,
                corpus_tokens=snap.corpus_tokens,
                left_id=snap.left,
                right_id=snap.right,
                token_id=snap.token,
            )
        )
    return rows


def markdown_headers(tr: gettext.NullTranslations | None = None) -> list[str]:
    """The Markdown table's column headers (merge number, pair, new token, count, vocabulary size, corpus tokens)."""
    t = tr or _ENGLISH
    return [
        t.gettext("Merge"),
        t.gettext("Pair"),
        t.gettext("New token"),
        t.gettext("Count"),
        t.gettext("Vocabulary size"),
        t.gettext("Corpus tokens"),
    ]


def csv_headers(tr: gettext.NullTranslations | None = None) -> list[str]:
    """The CSV columns: the pair in two columns (left, right) so a spreadsheet can sort and filter them."""
    t = tr or _ENGLISH
    return [
        t.gettext("Merge"),
        t.gettext("Left"),
        t.gettext("Right"),
        t.gettext("New token"),
        t.gettext("Count"),
        t.gettext("Vocabulary size"),
        t.gettext("Corpus tokens"),
    ]


def md_cell(text: str) -> str:
    """``text`` safe inside a GitHub-flavoured Markdown table cell: backslashes, ``|`` and backticks
    backslash-escaped, line breaks made visible (a cell is one line)."""
    text = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")
    return text.replace("\r", "␍").replace("\n", "↵")


def visible_whitespace(text: str) -> str:
    """``text`` with spaces, tabs and line breaks drawn as ``␣``, ``→``, ``↵`` (not escaped): a token's
    leading space (byte-level ``" the"``) stays visible in a table cell or on paper. Other spaces
    (ideographic space U+3000, thin space...) become ``␣`` too; a carriage return is ``\\r``."""
    out = str(text).translate(_VISIBLE_SPACE)
    if any(c.isspace() for c in out):
        out = "".join("␣" if c.isspace() else c for c in out)
    return out


def md_token(text: str) -> str:
    """A token for a Markdown cell: :func:`md_cell` with every whitespace visible (``␣``), since Markdown
    drops a cell's leading and trailing spaces and a byte-level token often starts with one."""
    return md_cell(visible_whitespace(text))


def to_markdown(rows: list[MergeRow], tr: gettext.NullTranslations | None = None) -> str:
    """The rows as a GitHub-flavoured Markdown table (ends with a newline). Pairs read ``left + right``."""
    head = markdown_headers(tr)
    lines = [
        "| " + " | ".join(md_cell(h) for h in head) + " |",
        "|" + "|".join(["---:", "---", "---"] + ["---:"] * 3) + "|",
    ]
    for r in rows:
        cells = [
            str(r.merge_number),
            f"{md_token(r.left)} + {md_token(r.right)}",
            md_token(r.token),
            str(r.count),
            str(r.vocab_size),
            str(r.corpus_tokens),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_csv(rows: list[MergeRow], tr: gettext.NullTranslations | None = None) -> str:
    """The rows as CSV (RFC 4180 quoting, ``\\r\\n`` line ends as the csv module writes them); tokens
    are written exactly as shown (a leading space stays a space, quoted when needed)."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(csv_headers(tr))
    for r in rows:
        writer.writerow([r.merge_number, r.left, r.right, r.token, r.count, r.vocab_size, r.corpus_tokens])
    return buf.getvalue()
