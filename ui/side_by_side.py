"""The Side by side page's HTML: one variant's column (its merge, vocabulary size and corpus tokens with
their change) and the words table (each word as each run splits it at a step)."""

from __future__ import annotations

from bpe_core.encoding.replay import unknown_symbols

from .blocks import col_title_html, stat_html, table_html
from .chips import MAX_CHIPS, chips_html, tokens_html
from .encoding import tokens_at
from .i18n import _
from .panels import merge_line_html
from .text import clip, esc, esc_raw


def _delta(d: int | None) -> str:
    return f"<span class='bpe-delta'>({d:+,})</span>" if d is not None else ""


def column_html(variant: str, title: str, run, step: int, mode: str, present: bool) -> str:
    """The card of one variant (``#sbs-<variant>``) at ``step`` (maybe beyond its run: it shows why it stopped):
    ``title``, its merge, vocabulary size and corpus tokens (``data-vocab``, ``data-tokens``), each with its
    change at this step."""
    shown = min(step, run.num_steps)
    vocab, tokens = run.vocab_size_at(shown), run.corpus_tokens(shown)
    moved = 1 <= step <= run.num_steps
    d_vocab = vocab - run.vocab_size_at(shown - 1) if moved else None
    d_tokens = tokens - run.corpus_tokens(shown - 1) if moved else None
    return (
        f"<div class='bpe-card bpe-col' id='sbs-{variant}' data-variant='{variant}'>{col_title_html(title)}"
        f"{merge_line_html(run, step, mode, present, numbered=False)}<div class='bpe-stats'>"
        + stat_html(f"{vocab:,}{_delta(d_vocab)}", _("vocabulary size"), f"data-vocab='{vocab}'")
        + stat_html(f"{tokens:,}{_delta(d_tokens)}", _("corpus tokens"), f"data-tokens='{tokens}'")
        + "</div></div>"
    )


def _cell(word: str, run, step: int, mode: str, present: bool) -> tuple[str, int | None]:
    """``word`` as ``run`` splits it at ``step``: the cell, and the word's frequency (``None``: not in the
    corpus, so encoded by the run's tokenizer at that step)."""
    shown = min(step, run.num_steps)
    new_token = run.snapshot(shown).token if 1 <= step <= run.num_steps else None
    index = run.find_word(word)
    if index is not None:
        seg = run.segmentation(index, shown, MAX_CHIPS)
        total = run.token_count(index, shown)
        return f"<td>{chips_html(run, seg, mode, new_token, present, total=total)}</td>", run.freqs[index]
    src = tokens_at(run, shown)
    ids = src.tok.encode(word)
    unknown = unknown_symbols(src.tok, word)
    html = tokens_html(src, ids, mode, present, with_ids=False, unknown=unknown, new_token=new_token)
    return f"<td>{html}</td>", None


def words_table_html(words: list[str], titles: list[str], runs: list, step: int, mode: str, present: bool) -> str:
    """The table ``#sbs-words``: each word (user text, escaped), its frequency (or "not in corpus") and its
    segmentation by each run at ``step``, under the runs' ``titles``."""
    rows, not_seen = [], _("not in corpus")
    for word in words:
        cells, seen, freq = [], True, 0
        for run in runs:
            cell, found = _cell(word, run, step, mode, present)
            cells.append(cell)
            if found is None:
                seen = False
            else:
                freq = found
        note = f"{freq:,}" if seen else f"<span class='bpe-muted'>{esc_raw(not_seen)}</span>"
        rows.append(f"<tr><td class='word'>{esc(clip(word))}</td><td class='num'>{note}</td>{''.join(cells)}</tr>")
    return table_html("sbs-words", [_("word"), _("frequency"), *titles], rows)
