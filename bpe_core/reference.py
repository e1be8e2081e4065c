"""Compatibility: ``bpe_core.reference`` is :mod:`bpe_core.algorithms.reference` (the same module object)."""

import sys

from .algorithms import reference

sys.modules[__name__] = reference
