"""Compatibility: ``bpe_core.apply_merges`` is :mod:`bpe_core.encoding.apply_merges` (the same module object)."""

import sys

from .encoding import apply_merges

sys.modules[__name__] = apply_merges
