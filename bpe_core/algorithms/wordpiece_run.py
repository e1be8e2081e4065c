"""WordPiece's records and results: the run the app reads (each step's score table, the vocabulary, any word's
segmentation at any step) and BERT's encoding of a word. The training that fills the run is
:mod:`bpe_core.algorithms.wordpiece`.
"""

from __future__ import annotations

from typing import NamedTuple

from .stepped_run import SegmentedRun

#: BERT's special tokens, the first ids of every WordPiece vocabulary.
SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
UNK = "[UNK]"
#: The continuation prefix: a token that does not start its word.
PREFIX = "##"
#: The kind of a WordPiece step (:data:`bpe_core.algorithms.seam.STEP_KINDS`): a merge chosen by score.
SCORE_MERGE = "score_merge"
#: A word longer than this many characters is one ``[UNK]`` (``tokenizers``' ``max_input_chars_per_word``).
MAX_WORD_CHARS = 100


class ScoreRow(NamedTuple):
    """One row of a step's score table: the pair (``left``, ``right``: token ids), its ``count``, the counts of
    its parts, its ``score`` (count / (left_count × right_count))."""

    left: int
    right: int
    count: int
    left_count: int
    right_count: int
    score: float


class WordPieceStep(NamedTuple):
    """One WordPiece merge.

    Attributes:
        step: 1-based; left, right, token: the pair and the token it became (ids); is_new: False when that
            string was already in the vocabulary.
        count, left_count, right_count, score: the chosen pair's numbers (see :class:`ScoreRow`).
        ties: pairs with the best score (exact); tie_break: ``"first-seen"``.
        table: the best :class:`ScoreRow` rows before the merge (``config.top_k`` of them), best first, ties
            in first-seen order; the chosen pair is the first row.
        vocab_size, corpus_tokens: after the merge; words_changed: word types rewritten.
        stop_reason: on the last step, why training stopped.
    """

    step: int
    left: int
    right: int
    token: int
    is_new: bool
    count: int
    left_count: int
    right_count: int
    score: float
    ties: int
    tie_break: str
    table: tuple
    vocab_size: int
    corpus_tokens: int
    words_changed: int
    stop_reason: str | None = None

    @property
    def kind(self) -> str:
        """``"score_merge"`` (see :data:`bpe_core.algorithms.seam.STEP_KINDS`)."""
        return SCORE_MERGE


def join_pieces(left: str, right: str) -> str:
    """The token a merge of ``left`` and ``right`` makes: ``right`` loses its ``##``."""
    return left + right[len(PREFIX) :] if right.startswith(PREFIX) else left + right


class WordPieceRun(SegmentedRun):
    """A WordPiece run, read-only for the app: the steps' records (:class:`WordPieceStep`, one a merge), the
    vocabulary, any word's segmentation at any step. Token arguments and results are ids (see :meth:`token_text`)."""

    def __init__(self, config, words: dict[str, int]):
        super().__init__(config, words)
        inner: set[str] = set()  # the characters that do not start a word somewhere
        for w in self.words:
            inner.update(w[1:])
        alphabet = sorted({w[0] for w in self.words} | {PREFIX + c for c in inner})
        self.values: list[str] = [*SPECIAL_TOKENS, *alphabet]
        self.value_to_id = {v: i for i, v in enumerate(self.values)}
        self.num_base = len(self.values)
        self.created_step = [0] * self.num_base
        # Each word's segmentations: (step, token ids) from step 0 on, one entry per step that changed it.
        ids = self.value_to_id
        inside = {c: ids[PREFIX + c] for c in inner}.__getitem__
        self._history = [[(0, (ids[w[0]], *map(inside, w[1:])))] for w in self.words]
        self._tokens0 = sum(f * len(w) for w, f in words.items())

    @property
    def vocab_size(self) -> int:
        """Tokens in the vocabulary now (special tokens and alphabet included)."""
        return len(self.values)

    def token_text(self, tid: int, mode: str = "utf8") -> str:
        """The token as text (``##`` included)."""
        return self.values[tid]

    def vocabulary(self, step: int | None = None) -> list[str]:
        """The vocabulary after ``step`` merges (default: all), in id order."""
        if step is None or step >= self.num_steps:
            return list(self.values)
        size = self.snapshots[step - 1].vocab_size if step >= 1 else self.num_base
        return self.values[:size]


def encode_word(word: str, vocab) -> list[str]:
    """BERT's greedy longest-match-first split of one word with the vocabulary ``vocab`` (a set or mapping of
    token strings): the longest vocabulary entry that starts the rest of the word, the rest carrying ``##``;
    ``["[UNK]"]`` when some rest has no entry, or the word is longer than :data:`MAX_WORD_CHARS` characters."""
    if len(word) > MAX_WORD_CHARS:
        return [UNK]
    tokens, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else PREFIX + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return [UNK]
        tokens.append(piece)
        start = end
    return tokens
