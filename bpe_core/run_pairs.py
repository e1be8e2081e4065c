"""Compatibility: ``bpe_core.run_pairs`` is :mod:`bpe_core.algorithms.run_pairs` (the same module object)."""

import sys

from .algorithms import run_pairs

sys.modules[__name__] = run_pairs
