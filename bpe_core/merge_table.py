"""Compatibility: ``bpe_core.merge_table`` is :mod:`bpe_core.formats.merge_table` (the same module object)."""

import sys

from .formats import merge_table

sys.modules[__name__] = merge_table
