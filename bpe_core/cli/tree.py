"""``tree --model NAME|DIR ID|TOKEN [--token] [--jsonl]``: where a token comes from and what was made from it.

For the token asked about: its ``id``, ``token``, ``merge`` number (None for a base symbol), ``parts`` (the two ids
it was first merged from, or null) and ``children`` (the ids of every token made directly from it), then its
ancestry, the tree of merges down to base symbols (bytes or characters), each node with the same fields.

* plain: the token's fields, one per line, then the ancestry drawn as a tree (``├─``), one node per line;
* ``--jsonl``: one JSON object per node of the ancestry, the token itself first (``depth`` 0), then its left
  tree, then its right one (pre-order), each ``{"id", "token", "merge", "parts", "children", "depth"}``; a token
  is spelled as in ``encode --jsonl`` (GPT-2's byte aliases for bytes).

An argument of digits only is an id (``--token`` reads it as a token's text instead); anything else is a token,
as text (``" the"``) or in GPT-2's alias spelling (``Ġthe``). The numbers are
:class:`bpe_core.encoding.traces.MergeGraph`'s.
"""

from __future__ import annotations

import sys

from ..inputs import InputError
from ..models import MODEL_NAMES
from .common import readable
from .encode import load_tokenizer

NAME = "tree"


def add_parser(sub) -> None:
    """Add ``tree`` to the sub-parsers ``sub``."""
    tr = sub.add_parser(
        NAME,
        help="a token's merge tree both ways: its parts down to bytes, and the tokens made from it",
        description="Show how a token was built (its parts, down to base symbols) and which tokens were made "
        "directly from it, with merge numbers.",
    )
    tr.add_argument(
        "--model",
        required=True,
        metavar="NAME|DIR",
        help=f"{'|'.join(MODEL_NAMES)} (GPT-2, GPT-4, GPT-4o) or a directory written by 'train --out' "
        "(or holding GPT-2 vocab.json + merges.txt)",
    )
    tr.add_argument("query", metavar="ID|TOKEN", help="a token id (digits) or a token's text")
    tr.add_argument("--token", action="store_true", help="read ID|TOKEN as a token's text even when it is digits")
    tr.add_argument("--jsonl", action="store_true", help="one JSON object per node of the tree, the token first")


def find_id(tok, query: str, as_token: bool = False) -> int:
    """The id ``query`` names in ``tok``: digits are an id (unless ``as_token``), else a token's text or its
    file spelling (GPT-2's aliases for bytes). Raises :class:`InputError` when there is no such token."""
    if query.isdigit() and query.isascii() and not as_token:
        tid = int(query)
        if tid not in tok.values:
            raise InputError(f"id {tid} is not in the model's vocabulary (ids 0..{max(tok.values)}).")
        return tid
    value = query.encode("utf-8") if tok.variant.is_bytes else query
    tid = tok.vocab.get(value)
    if tid is None and tok.variant.is_bytes:
        from ..byte_display import unicode_to_bytes

        table = unicode_to_bytes()
        if all(c in table for c in query):
            tid = tok.vocab.get(bytes(table[c] for c in query))
    if tid is None:
        raise InputError(f"{query!r} is not a token of the model (try its id, or GPT-2's spelling such as Ġthe).")
    return tid


def tree_records(tok, tid: int) -> list[dict]:
    """The ``--jsonl`` objects of ``tid``'s tree (see the module docstring), the token first."""
    graph = tok.merge_graph()
    nodes = list(graph.tree(tid).nodes())
    wires = tok.token_wires([node.token for _, node in nodes])
    out = []
    for (depth, node), wire in zip(nodes, wires):
        record = graph.record(node.token)
        out.append({"id": record["id"], "token": wire, **{k: record[k] for k in ("merge", "parts", "children")}})
        out[-1]["depth"] = depth
    return out


def run(args, out=None, err=None) -> int:
    """Print the tree of ``args.query`` under ``args.model`` to ``out``; returns the exit status."""
    out = out or sys.stdout
    tok = load_tokenizer(args.model)
    if getattr(tok, "supermerges", None) is not None:  # a BoundlessBPE model (train --boundless --out DIR)
        from .boundless import not_for_tree

        raise InputError(not_for_tree())
    tid = find_id(tok, args.query, args.token)
    records = tree_records(tok, tid)
    if args.jsonl:
        from ..formats.snapshots import jsonl_line

        for record in records:
            print(jsonl_line(record), file=out)
        return 0

    def shown(i: int) -> str:
        return readable(tok.token_value(i))

    me = records[0]
    print(f"id        {me['id']}", file=out)
    print(f"token     {shown(tid)}", file=out)
    print(f"merge     {me['merge'] if me['merge'] is not None else 'none (a base symbol)'}", file=out)
    parts = me["parts"]
    print(f"parts     {'null' if parts is None else ' + '.join(f'{p} {shown(p)}' for p in parts)}", file=out)
    kids = me["children"]
    print(f"children  {len(kids)}: {', '.join(f'{c} {shown(c)}' for c in kids) or '-'}", file=out)
    print("ancestry", file=out)
    for line in drawn(records, shown):
        print(line, file=out)
    return 0


def drawn(records: list[dict], shown) -> list[str]:
    """The ancestry as text lines, ``├─`` before a left part and ``└─`` before a right one (``records`` in
    pre-order, as :func:`tree_records` gives them; ``shown(id)`` spells a token)."""
    lines: list[str] = []
    # The records come in pre-order, so each node's parts are the next subtrees; the stack holds, per open
    # level, whether the part still to come is a right one (then "│" continues the left's line).
    open_levels: list[bool] = []
    for index, record in enumerate(records):
        depth = record["depth"]
        del open_levels[max(depth - 1, 0) :]
        if depth:
            is_left = _is_left(records, index)
            prefix = "".join("│  " if more else "   " for more in open_levels)
            branch = "├─ " if is_left else "└─ "
            open_levels.append(is_left)
        else:
            prefix = branch = ""
        merge = f"  (merge {record['merge']})" if record["merge"] is not None else ""
        lines.append(f"{prefix}{branch}{record['id']} {shown(record['id'])}{merge}")
    return lines


def _is_left(records: list[dict], index: int) -> bool:
    """Whether the node at ``index`` is its parent's left part: the nearest earlier node one level up is the
    parent, and the left part comes right after it."""
    depth = records[index]["depth"]
    return records[index - 1]["depth"] == depth - 1
