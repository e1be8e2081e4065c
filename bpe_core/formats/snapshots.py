"""A run's training history as rows, CSV and JSON lines (one record per merge).

The JSON-lines form is exactly what ``python -m bpe_core train --jsonl`` prints: the CLI writes its
lines with :func:`jsonl_line` and :func:`merge_record` from here.
"""

from __future__ import annotations

import csv
import io
import json

from ..teaching.explain import stop_reason_at

#: Columns of :func:`snapshot_rows` and of the CSV, in order.
SNAPSHOT_COLUMNS = (
    "step", "left", "right", "token", "token_id", "count", "ties", "vocab_size", "corpus_tokens", "stop",
    "left_hex", "right_hex",
)  # fmt: skip


def jsonl_line(obj) -> str:
    """One ``--jsonl`` output line (no newline): compact JSON with non-ASCII kept as UTF-8."""
    return json.dumps(obj, ensure_ascii=False)


def merge_record(run, snap) -> dict:
    """The ``--jsonl`` object of one merge (``snap``: a :class:`bpe_core.MergeStep` of ``run``)."""
    return {
        "step": snap.step,
        "left": run.token_wire(snap.left),
        "right": run.token_wire(snap.right),
        "token": run.token_wire(snap.token),
        "count": snap.count,
        "left_hex": run.token_hex(snap.left),
        "right_hex": run.token_hex(snap.right),
        "ties": snap.ties,
        "vocab_size": snap.vocab_size,
        "corpus_tokens": snap.corpus_tokens,
    }


def _upto(run, step: int | None) -> int:
    return run.num_steps if step is None else max(0, min(int(step), run.num_steps))


def snapshot_rows(run, step: int | None = None) -> list[dict]:
    """One row per merge 1..``step`` (default: all; clamped to the run): the :func:`merge_record`
    plus ``token_id`` and ``stop`` (the stop reason on the last row: the run's own when ``step`` is
    its end, else ``num_merges``), keys in :data:`SNAPSHOT_COLUMNS` order."""
    n = _upto(run, step)
    rows = []
    for snap in run.snapshots[:n]:
        rec = merge_record(run, snap)
        rec["token_id"] = snap.token
        rec["stop"] = ""
        rows.append({name: rec[name] for name in SNAPSHOT_COLUMNS})
    if rows:
        rows[-1]["stop"] = stop_reason_at(run, n)
    return rows


def snapshots_csv(run, step: int | None = None) -> str:
    """:func:`snapshot_rows` as CSV text: a header line, one line per merge, ``\\n`` line ends,
    fields quoted only when needed (the layout pandas' ``to_csv(index=False)`` writes)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SNAPSHOT_COLUMNS)
    for row in snapshot_rows(run, step):
        writer.writerow(["" if row[c] is None else row[c] for c in SNAPSHOT_COLUMNS])
    return out.getvalue()


def snapshots_jsonl(run, step: int | None = None) -> str:
    """The history as ``train --jsonl`` prints it: one merge record per line, then
    ``{"stop": reason, "merges": n}``."""
    n = _upto(run, step)
    lines = [jsonl_line(merge_record(run, snap)) for snap in run.snapshots[:n]]
    lines.append(jsonl_line({"stop": stop_reason_at(run, n), "merges": n}))
    return "\n".join(lines) + "\n"
