"""Compatibility: ``bpe_core.tiebreak`` is :mod:`bpe_core.algorithms.tiebreak` (the same module object)."""

import sys

from .algorithms import tiebreak

sys.modules[__name__] = tiebreak
