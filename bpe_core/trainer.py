"""Compatibility: ``bpe_core.trainer`` is :mod:`bpe_core.algorithms.trainer` (the same module object)."""

import sys

from .algorithms import trainer

sys.modules[__name__] = trainer
