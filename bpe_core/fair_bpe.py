"""Compatibility: ``bpe_core.fair_bpe`` is :mod:`bpe_core.algorithms.fair_bpe` (the same module object)."""

import sys

from .algorithms import fair_bpe

sys.modules[__name__] = fair_bpe
