"""Compatibility: ``bpe_core.run`` is :mod:`bpe_core.algorithms.run` (the same module object)."""

import sys

from .algorithms import run

sys.modules[__name__] = run
