"""Compatibility: ``bpe_core.merge_lists`` is :mod:`bpe_core.formats.merge_lists` (the same module object)."""

import sys

from .formats import merge_lists

sys.modules[__name__] = merge_lists
