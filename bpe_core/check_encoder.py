"""Compatibility: ``bpe_core.check_encoder`` is :mod:`bpe_core.checking.check_encoder` (the same module object)."""

import sys

from .checking import check_encoder

sys.modules[__name__] = check_encoder
