"""How a WordPiece or Unigram ``tokenizer.json`` cuts one pre-token, by our own code, for the app to show: WordPiece's
longest-match steps, Unigram's lattice and best path. The ids themselves always come from ``tokenizers``
(:mod:`bpe_core.models.hf_model`); the tests check that these cuts give the same tokens.

Public API: :func:`wordpiece_cut`, :func:`unigram_cut` and their values (:class:`WordPieceCut`, :class:`Lattice`).
"""

from __future__ import annotations

from typing import NamedTuple

#: ``tokenizers``' penalty for an unknown character in a Unigram lattice: its score is the lowest piece score minus this.
UNK_PENALTY = 10.0


class MatchStep(NamedTuple):
    """One longest-match step: at character ``start``, the candidates tried, longest first (``##`` written for a
    piece inside the word), and the one found (``None``: nothing matched, the word is unknown)."""

    start: int
    tried: tuple
    found: str | None


class WordPieceCut(NamedTuple):
    """A pre-token under WordPiece: its ``tokens`` and the :class:`MatchStep` list; ``too_long`` when it has more
    characters than the model reads (it is then one unknown token)."""

    tokens: list
    steps: list
    too_long: bool = False


def wordpiece_cut(word: str, vocab: dict, prefix: str = "##", unk: str = "[UNK]", max_chars: int = 100) -> WordPieceCut:
    """Greedy longest-match-first WordPiece on one pre-token, as ``tokenizers``' ``WordPiece`` does it.

    Args:
        word: the pre-token (normalized).
        vocab: ``{piece: id}``.
        prefix: the continuing-subword prefix (``"##"``).
        unk: the unknown token; a word with any position where nothing matches becomes this one token.
        max_chars: longer words are one unknown token.
    """
    if len(word) > max_chars:
        return WordPieceCut([unk], [], True)
    tokens, steps, start = [], [], 0
    while start < len(word):
        tried = []
        found = None
        for end in range(len(word), start, -1):
            piece = (prefix if start else "") + word[start:end]
            tried.append(piece)
            if piece in vocab:
                found = piece
                break
        steps.append(MatchStep(start, tuple(tried), found))
        if found is None:
            return WordPieceCut([unk], steps)
        tokens.append(found)
        start += len(found) - (len(prefix) if start else 0)
    return WordPieceCut(tokens, steps)


class Lattice(NamedTuple):
    """A pre-token's Unigram lattice: ``edges`` ``(start, end, piece, score)`` for every vocabulary piece found in it
    (characters ``start..end``; an unknown character gets the unknown token's penalised score), and the best path
    (``best``: the edges whose scores add up to the most, as ``(start, end, piece)``, unknown runs fused)."""

    word: str
    edges: list
    best: list
    score: float


def unigram_cut(word: str, scores: dict, unk: str, max_len: int | None = None) -> Lattice:
    """The Viterbi best segmentation of ``word`` under a Unigram model, with its lattice.

    Args:
        word: the pre-token (normalized).
        scores: ``{piece: log-probability}``.
        unk: the unknown token (it stands for a character no piece covers; consecutive ones are one token).
        max_len: the longest piece in characters (default: found from ``scores``).
    """
    n = len(word)
    if max_len is None:
        max_len = max(map(len, scores), default=1)
    unk_score = min(scores.values(), default=0.0) - UNK_PENALTY
    edges = []
    best = [float("-inf")] * (n + 1)
    back: list = [None] * (n + 1)
    best[0] = 0.0
    for start in range(n):
        if best[start] == float("-inf"):
            continue
        found_one = False
        for end in range(start + 1, min(n, start + max_len) + 1):
            piece = word[start:end]
            score = scores.get(piece)
            if score is None or piece == unk:
                continue
            edges.append((start, end, piece, score))
            found_one = found_one or end == start + 1
            if best[start] + score > best[end]:
                best[end], back[end] = best[start] + score, (start, piece)
        if not found_one:  # no single-character piece: the character is unknown
            edges.append((start, start + 1, unk, unk_score))
            if best[start] + unk_score > best[start + 1]:
                best[start + 1], back[start + 1] = best[start] + unk_score, (start, unk)
    path = []
    at = n
    while at > 0:
        start, piece = back[at]
        if piece == unk and path and path[-1][2] == unk:  # fuse consecutive unknown characters
            path[-1] = (start, path[-1][1], unk)
        else:
            path.append((start, at, piece))
        at = start
    path.reverse()
    return Lattice(word, edges, path, best[n])
