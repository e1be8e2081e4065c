"""The BPE vs BBPE page's HTML: the two starting alphabets, a text with unseen characters under both
models, the rates as merges grow, the byte tokens that are pieces of characters, when each character
becomes one token, and a text taken apart into code points and bytes. The page computes the numbers
(:mod:`bpe_core.measures`); these functions only lay them out, user text escaped."""

from __future__ import annotations

from bpe_core.measures import code_points

from .blocks import col_title_html, para_html, stat_html, table_html
from .chips import chips_html, tokens_html
from .i18n import N_, _, ngettext
from .text import esc, esc_raw

CHAR, BYTE = N_("Characters (BPE)"), N_("Bytes (byte-level BPE)")  # translated where shown
GRAPHEME_HEAD = (
    N_("you see"),
    N_("code points and their UTF-8 bytes"),
    N_("bytes"),
    N_("character-level tokens"),
    N_("byte-level tokens"),
)
FIRST_HEAD = (
    N_("character"),
    N_("code points"),
    N_("bytes"),
    N_("times in the text"),
    N_("characters: one token at step"),
    N_("bytes: one token at step"),
)
_GRAPHEME_COLS = (
    "<colgroup><col style='width:7%'><col style='width:36%'><col style='width:5%'><col style='width:22%'>"
    "<col style='width:30%'></colgroup>"
)


def base_char_html(char_run, mode: str, present: bool) -> str:
    """The character model's starting alphabet (``#bbpe-base-char``, ``data-base``): every base symbol."""
    return (
        f"<div class='bpe-card' id='bbpe-base-char'>{col_title_html(_(CHAR))}<div class='bpe-stats'>"
        + stat_html(
            f"{char_run.num_base:,}",
            _("base symbols: every distinct character of the text"),
            f"data-base='{char_run.num_base}'",
        )
        + "</div>"
        + chips_html(char_run, range(char_run.num_base), mode, None, present, alone=True)
        + para_html(_("A character that is not in this list can never be encoded."))
        + "</div>"
    )


def base_byte_html(byte_run, used: list[int], mode: str, present: bool) -> str:
    """The byte model's starting alphabet (``#bbpe-base-byte``): 256 values, and the ``used`` ones as chips."""
    sizes = {
        "ni": len("你".encode()),
        "grin": len("😀".encode()),
        "heart": len("\u2764".encode()),
        "heart_emoji": len("\u2764\ufe0f".encode()),
    }
    return (
        f"<div class='bpe-card' id='bbpe-base-byte'>{col_title_html(_(BYTE))}<div class='bpe-stats'>"
        + stat_html(
            f"{byte_run.num_base:,}", _("base symbols: all byte values 0–255"), f"data-base='{byte_run.num_base}'"
        )
        + stat_html(f"{len(used):,}", _("of them occur in this text"))
        + "</div>"
        + chips_html(byte_run, used, mode, None, present, alone=True)
        + para_html(
            _(
                "The bytes that occur in the text. Hatched chips are not characters on their own: UTF-8 "
                "writes 你 as {ni} bytes, 😀 as {grin}, ❤ as {heart} and ❤️ as {heart_emoji} (How BPE works "
                "has the table)."
            ).format(**sizes)
        )
        + "</div>"
    )


def unseen_char_html(src, ids: list[int], unknown: list[str], n_unk: int, back, mode: str, present: bool) -> str:
    """The character model on a text (``#bbpe-unseen-char``, ``data-unk``): the verdict on ``<unk>``, the
    tokens (``unknown``: the symbols ``<unk>`` stands for) and the text decoded back (``back``:
    :func:`bpe_core.measures.round_trip`)."""
    if n_unk:
        lost = ngettext(
            "{n} symbol became <unk>: the model has no token for a character it never saw, so that "
            "information is lost.",
            "{n} symbols became <unk>: the model has no token for a character it never saw, so that "
            "information is lost.",
            n_unk,
        ).format(n=f"{n_unk:,}")
        verdict = f"<span class='bpe-bad'>{esc_raw(lost)}</span>"
    else:
        seen = _("Every character was seen in training: no <unk>.")
        verdict = f"<span class='bpe-ok'>{esc_raw(seen)}</span>"
    count = ngettext("{n} token. Decoded back:", "{n} tokens. Decoded back:", len(ids)).format(n=f"{len(ids):,}")
    return (
        f"<div class='bpe-card' id='bbpe-unseen-char' data-unk='{n_unk}'>{col_title_html(_(CHAR))}"
        f"<p class='bpe-note'>{verdict}</p>"
        + tokens_html(src, ids, mode, present, unknown=unknown)
        + para_html(count)
        + f"<div class='bpe-text'>{esc_raw(back.decoded)}</div></div>"
    )


def unseen_byte_html(src, ids: list[int], n_partial: int, back, mode: str, present: bool) -> str:
    """The byte model on a text (``#bbpe-unseen-byte``, ``data-partial``, ``data-roundtrip``): no ``<unk>``,
    its tokens, and the text decoded back (``back``: :func:`bpe_core.measures.round_trip`)."""
    if back.exact:
        said = _("Decoded back: exactly the input.")
    elif back.but_whitespace:
        said = _(
            "Decoded back: the input, except the spaces (the whitespace pre-tokenizer drops them before "
            "training and encoding)."
        )
    else:
        said = _("Decoded back (differs from the input):")
    fallback = ngettext(
        "No <unk>: byte-level BPE starts every text as bytes, so a character no merge has joined stays as "
        "its bytes ({n} byte token here is a piece of a character, hatched).",
        "No <unk>: byte-level BPE starts every text as bytes, so a character no merge has joined stays as "
        "its bytes ({n} byte tokens here are pieces of a character, hatched).",
        n_partial,
    )
    verdict = f"<span class='bpe-ok'>{esc_raw(fallback.format(n=f'{n_partial:,}'))}</span>"
    count = ngettext("{n} token. {verdict}", "{n} tokens. {verdict}", len(ids))
    return (
        f"<div class='bpe-card' id='bbpe-unseen-byte' data-partial='{n_partial}' data-roundtrip='{int(back.same)}'>"
        f"{col_title_html(_(BYTE))}<p class='bpe-note'>{verdict}</p>"
        + tokens_html(src, ids, mode, present)
        + para_html(count.format(n=f"{len(ids):,}", verdict=said))
        + f"<div class='bpe-text'>{esc_raw(back.decoded)}</div></div>"
    )


def rate_line_html(values: dict[str, list[float]], steps: tuple[int, int], attr: str) -> str:
    """A rate at step 0 and after the last merge, per model (``{name: series}``, ``steps``: each model's
    merges), in ``#bbpe-<attr>`` (``data-<attr>``: the last value)."""
    parts = []
    for (name, ys), n in zip(values.items(), steps):
        label = ngettext("{name}: step 0 → {n} merge", "{name}: step 0 → {n} merges", n).format(name=name, n=f"{n:,}")
        parts.append(stat_html(f"{ys[0]:.2f} → {ys[-1]:.2f}", label, f"data-{attr}='{ys[-1]:.4f}'"))
    return f"<div class='bpe-stats' id='bbpe-{attr}'>{''.join(parts)}</div>"


def partial_html(byte_run, partial_ids: list[int], in_corpus: int, shown: int, mode: str, present: bool) -> str:
    """The merged byte tokens that are pieces of characters (``#bbpe-partial``, ``data-partial``,
    ``data-merged``): how many, how many corpus tokens after the last merge, and the first ``shown``."""
    n = byte_run.num_steps
    merged = byte_run.vocab_size_at(n) - byte_run.num_base
    of = _("{part} of {total}")
    stats = stat_html(
        esc_raw(of.format(part=f"{len(partial_ids):,}", total=f"{merged:,}")),
        _("merged tokens are not whole characters"),
    )
    stats += stat_html(
        esc_raw(of.format(part=f"{in_corpus:,}", total=f"{byte_run.corpus_tokens(n):,}")),
        _("corpus tokens after the last merge are such pieces"),
    )
    chips = chips_html(byte_run, partial_ids[:shown], mode, None, present, alone=True) if partial_ids else ""
    if not partial_ids:
        chips = para_html(_("None: every merged token is whole characters."))
    elif len(partial_ids) > shown:
        chips += para_html(_("The first {n} of them, in the order they were made.").format(n=shown))
    return (
        f"<div class='bpe-stats' id='bbpe-partial' data-partial='{len(partial_ids)}' data-merged='{merged}'>"
        f"{stats}</div>{chips}"
    )


def _step_cell(step: int | None) -> str:
    if step is None:
        return "<td class='num bpe-muted'>" + esc_raw(_("never")) + "</td>"
    if step == 0:
        return "<td class='num'>0 <span class='bpe-muted'>" + esc_raw(_("(base)")) + "</span></td>"
    return f"<td class='num'><b>{step:,}</b></td>"


def first_token_table_html(rows: list[tuple[str, int, int | None, int | None]]) -> str:
    """The table ``#bbpe-first``: per character ``(character, times in the text, step it is one token in the
    character model, in the byte model)`` (a step ``None``: never; 0: a base token)."""
    body = []
    for g, count, char_step, byte_step in rows:
        cps = " ".join(cp for _c, cp, _n, _d in code_points(g))
        body.append(
            f"<tr><td class='big'>{esc(g)}</td><td class='bpe-cp'>{esc_raw(cps)}</td>"
            f"<td class='num'>{len(g.encode('utf-8'))}</td><td class='num'>{count:,}</td>"
            f"{_step_cell(char_step)}{_step_cell(byte_step)}</tr>"
        )
    return table_html("bbpe-first", [_(h) for h in FIRST_HEAD], body)


def _code_points_html(g: str) -> str:
    return "".join(
        f"<div><span class='bpe-cp'>{esc_raw(cp)}</span> {esc_raw(name.lower())} <span style='white-space:nowrap'>"
        + "".join(f"<span class='bpe-byte'>{b:02x}</span>" for b in data)
        + "</span></div>"
        for _c, cp, name, data in code_points(g)
    )


def graphemes_table_html(rows: list[tuple[str, str, str]]) -> str:
    """The table ``#bbpe-graphemes``: per grapheme ``(grapheme, its character-level tokens, its byte-level
    tokens)`` (the tokens as chip HTML), with its code points and their UTF-8 bytes."""
    body = [
        f"<tr><td class='bpe-glyph'>{esc(g)}</td><td>{_code_points_html(g)}</td>"
        f"<td class='num'>{len(g.encode('utf-8'))}</td><td>{char_html}</td><td>{byte_html}</td></tr>"
        for g, char_html, byte_html in rows
    ]
    return table_html("bbpe-graphemes", [_(h) for h in GRAPHEME_HEAD], body, colgroup=_GRAPHEME_COLS)
