"""Compatibility: ``bpe_core.run_records`` is :mod:`bpe_core.algorithms.run_records` (the same module object)."""

import sys

from .algorithms import run_records

sys.modules[__name__] = run_records
