"""Compatibility: ``bpe_core.merge_agreement`` is :mod:`bpe_core.checking.merge_agreement` (the same module object)."""

import sys

from .checking import merge_agreement

sys.modules[__name__] = merge_agreement
