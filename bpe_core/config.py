"""The settings of one training run (:class:`TrainConfig`), validated in one place."""

from __future__ import annotations

from dataclasses import dataclass

from .algorithms.seam import get_algorithm
from .algorithms.superbpe import TransitionError, transition_problem
from .algorithms.tiebreak import TIE_BREAKS
from .pretokenize import PRETOKENIZER_CHOICES, REGEX, check_pattern
from .pretokenize_field import FIELD_PRETOKENIZERS
from .variants import DEFAULT_PRETOKENIZER, Variant


@dataclass(frozen=True)
class TrainConfig:
    """Settings of one training run.

    Args:
        variant: ``"char"``, ``"eow"`` or ``"byte"`` (see :mod:`bpe_core.variants`).
        pretokenizer: ``"whitespace"``, ``"gpt2"``, ``"gpt4"`` or ``"none"``; ``None`` picks the
            variant's default (whitespace for char/eow, gpt2 for byte).
        num_merges: stop after this many merges (``None``: no limit).
        vocab_size: stop when the vocabulary (base alphabet included, 256 for byte) has this many
            tokens (``None``: no limit).
        min_frequency: stop when the best pair's count is below this (default 2).
        tie_break: ``"first-seen"``, ``"hf"`` or ``"lexical"`` (see the module docstring).
        eow_style / eow_marker: end-of-word settings for ``eow``.
        top_k: how many pairs each snapshot keeps for the pair-frequency table.
        max_tied: how many tied pairs each snapshot lists (the number of ties is always exact).
        pattern: the user's pattern (``regex`` syntax) when ``pretokenizer`` is ``"regex"``; required then,
            and only then (see :func:`bpe_core.pretokenize.regex_pieces`).
        seed_size, shrink: Unigram's seed vocabulary size and the share of the vocabulary each round removes
            (see :mod:`bpe_core.algorithms.unigram`; the course's 300 and 0.1).
        algorithm: the training algorithm's registered name (default ``"bpe"``; see
            :mod:`bpe_core.algorithms.seam`).
        transition: SuperBPE's transition point t (merges; ``None``: none): after merge t, training resumes on
            the text cut by stage 2's pattern, so merges may cross spaces. Byte-level BPE only; t at most
            ``num_merges`` (t = ``num_merges``: plain BPE). See :mod:`bpe_core.algorithms.superbpe`.
        picky_threshold: PickyBPE's IoS threshold T, 0 < T <= 1 (read only by ``algorithm="picky"``: see
            :mod:`bpe_core.algorithms.picky`).

    Raises:
        ValueError: from :meth:`validate` for any value out of range (a bad ``transition``: its subclass
            :class:`~bpe_core.algorithms.superbpe.TransitionError`, whose ``message(tr)`` translates).
    """

    variant: str = "byte"
    pretokenizer: str | None = None
    num_merges: int | None = None
    vocab_size: int | None = None
    min_frequency: int = 2
    tie_break: str = "first-seen"
    eow_style: str = "separate"
    eow_marker: str = "</w>"
    top_k: int = 10
    max_tied: int = 10
    pattern: str | None = None
    algorithm: str = "bpe"
    seed_size: int = 300
    shrink: float = 0.1
    transition: int | None = None
    picky_threshold: float = 0.9

    @property
    def resolved_pretokenizer(self) -> str:
        """The pre-tokenizer actually used (the variant's default when unset)."""
        if self.pretokenizer:
            return self.pretokenizer
        # An algorithm may name its own default (WordPiece: bert; Unigram: metaspace).
        default = getattr(get_algorithm(self.algorithm), "default_pretokenizer", None)
        return default or DEFAULT_PRETOKENIZER[self.variant]

    def make_variant(self) -> Variant:
        """The :class:`~bpe_core.variants.Variant` these settings describe."""
        return Variant(self.variant, self.eow_style, self.eow_marker)

    def validate(self) -> TrainConfig:
        """Check every field; return ``self``. Raises ``ValueError`` with a readable message."""
        self.make_variant()
        get_algorithm(self.algorithm)  # ValueError naming the known algorithms
        if self.resolved_pretokenizer not in (*PRETOKENIZER_CHOICES, *FIELD_PRETOKENIZERS):
            choices = ", ".join((*PRETOKENIZER_CHOICES, *FIELD_PRETOKENIZERS))
            raise ValueError(f"unknown pre-tokenizer {self.pretokenizer!r}; choose one of {choices}")
        if self.resolved_pretokenizer == REGEX:
            check_pattern(self.pattern)  # PatternError, a ValueError
        elif self.pattern is not None:
            raise ValueError("a pattern is only used by the regex pre-tokenizer")
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {self.tie_break!r}; choose one of {', '.join(TIE_BREAKS)}")
        if self.num_merges is not None and self.num_merges < 0:
            raise ValueError("the number of merges must be 0 or more")
        if self.vocab_size is not None and self.vocab_size < 1:
            raise ValueError("the vocabulary size must be at least 1")
        if self.min_frequency < 1:
            raise ValueError("the minimum frequency must be at least 1")
        if self.seed_size < 1:
            raise ValueError("the seed size must be at least 1")
        if not 0 < self.shrink < 1:
            raise ValueError("the shrink factor must be between 0 and 1 (the course: 0.1)")
        if transition_problem(self):
            raise TransitionError(self)
        if not 0 < self.picky_threshold <= 1:
            raise ValueError(f"the PickyBPE threshold must be above 0 and at most 1, got {self.picky_threshold}")
        if self.top_k < 1 or self.max_tied < 1:
            raise ValueError("top_k and max_tied must be at least 1")
        return self
