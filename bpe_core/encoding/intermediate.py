"""Tokens that live inside other tokens: how often a token ends up in a text's output versus only on the way to a
longer token, and GPT-2's under-trained ("glitch") tokens.

Encoding a pre-token applies merges one after another (:class:`~bpe_core.encoding.traces.PieceTrace`); a token the
trace *makes* either stays to the end (it is *output*) or is merged again into a longer token (it was an
*intermediate*). A token made often but output almost never is seen by a model during training almost only as part of
longer tokens: its embedding gets few updates. GPT-2's ``InstoreAndOnline`` exists to build
``BuyableInstoreAndOnline``; Land & Bartolo ("Fishing for Magikarp", EMNLP 2024, arXiv 2405.05417) found it among the
most under-trained tokens. :func:`glitch_tokens` reads their 26 GPT-2 tokens (``bpe_core/data/magikarp/``, provenance
in its README).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MAGIKARP_GPT2 = Path(__file__).resolve().parent.parent / "data" / "magikarp" / "gpt2_undertrained.tsv"


@dataclass(frozen=True)
class TokenUse:
    """How a token fared while a text was encoded.

    Attributes:
        token: the token's id.
        made: how many times a merge made it (each occurrence in each pre-token; base symbols: 0).
        output: how many times it is in the text's encoding.
    """

    token: int
    made: int
    output: int

    @property
    def inside(self) -> int:
        """How many times it was made and then merged into a longer token."""
        return max(self.made - self.output, 0)

    @property
    def alone_share(self) -> float:
        """``output / made`` (1.0 when it was never made: nothing to compare)."""
        return self.output / self.made if self.made else 1.0


def token_uses(tok, text: str) -> dict[int, TokenUse]:
    """``{id: TokenUse}`` of every merged token that ``text``'s encoding under ``tok`` made (at least once).

    Args:
        tok: a :class:`~bpe_core.encoding.encoder.Tokenizer` (any merge list).
        text: the text, encoded by merge rank (no dropout).
    """
    graph = tok.merge_graph()
    # Byte-level: a merged token is never a base symbol (it has two bytes or more); with characters the </w>
    # marker's string can be rebuilt by merges (rule 4) while the marker stays a base symbol of each word.
    if tok.variant.is_bytes and graph.one_merge_per_token():
        made, output = _counts_by_trees(tok, graph, text)
    else:
        made, output = _counts_by_replay(tok, text)
    return {tid: TokenUse(tid, n, output.get(tid, 0)) for tid, n in made.items()}


def _counts_by_trees(tok, graph, text: str) -> tuple[Counter, Counter]:
    """When each token has one merge making it (and none is a base symbol), the merges an encoding applied are exactly the merge trees of
    the tokens it output: count those (the encoding itself is the fast one, with its whole-token short cut)."""
    output = Counter(tok.encode(text))
    made: Counter = Counter()
    memo: dict = {}
    for tid, n in output.items():
        for inner, k in _inner_nodes(graph, tid, memo).items():
            made[inner] += n * k
    return made, output


def _inner_nodes(graph, tid: int, memo: dict) -> Counter:
    """``{id: times}`` of the merged tokens in ``tid``'s merge tree, itself included (memoized in ``memo``)."""
    found = memo.get(tid)
    if found is None:
        found = Counter()
        parts = graph.parts(tid)
        if parts is not None:
            found[tid] = 1
            for part in parts:
                found.update(_inner_nodes(graph, part, memo))
        memo[tid] = found
    return found


def _counts_by_replay(tok, text: str) -> tuple[Counter, Counter]:
    """The counts from each pre-token's trace of merges (any merge list, slower)."""
    replay = tok.replay(text)
    made: Counter = Counter()
    output: Counter = Counter()
    for piece, n in Counter(replay.pieces).items():
        trace = replay.traces[piece]
        for step in trace.steps:
            made[step.token] += n * len(step.positions)
        for tid in trace.ids:
            output[tid] += n
    return made, output


def rarely_alone(uses: dict[int, TokenUse], min_made: int = 5, max_share: float = 0.05) -> list[TokenUse]:
    """The tokens made at least ``min_made`` times whose output share is at most ``max_share``, the rarest alone
    first (then the most made, then by id)."""
    found = [u for u in uses.values() if u.made >= min_made and u.alone_share <= max_share]
    return sorted(found, key=lambda u: (u.alone_share, -u.made, u.token))


@dataclass(frozen=True)
class GlitchToken:
    """One row of the Magikarp report for GPT-2.

    Attributes:
        token: GPT-2's id. text: the token as the report writes it (▁ for a leading space).
        indicator: the report's under-training indicator (lower: more under-trained).
        in_other_tokens: the report's list of longer tokens holding it, as written there.
    """

    token: int
    text: str
    indicator: float
    in_other_tokens: str


@cache
def glitch_tokens() -> tuple[GlitchToken, ...]:
    """The 26 under-trained GPT-2 tokens of the Magikarp report, most under-trained first (file order)."""
    lines = MAGIKARP_GPT2.read_text(encoding="utf-8").splitlines()[1:]
    out = []
    for line in lines:
        tid, text, indicator, others = line.split("\t")
        out.append(GlitchToken(int(tid), text, float(indicator), others))
    return tuple(out)


@dataclass(frozen=True)
class GlitchRow:
    """A glitch token under a tokenizer and on reference texts.

    Attributes:
        glitch: the report's row. holders: the ids of every longer token whose merge tree holds it, by merge
            number. made, output: its :class:`TokenUse` counts on the texts.
    """

    glitch: GlitchToken
    holders: tuple
    made: int
    output: int


def glitch_rows(tok, texts: list[str]) -> list[GlitchRow]:
    """The report's tokens under ``tok`` (GPT-2), each with the tokens holding it and its counts on ``texts``."""
    graph = tok.merge_graph()
    uses = token_uses(tok, "\n".join(texts))
    none = TokenUse(0, 0, 0)
    return [
        GlitchRow(g, tuple(graph.descendants(g.token)), uses.get(g.token, none).made, uses.get(g.token, none).output)
        for g in glitch_tokens()
    ]
