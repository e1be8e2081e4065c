"""Compatibility: ``bpe_core.check`` is :mod:`bpe_core.checking.check` (the same module object)."""

import sys

from .checking import check

sys.modules[__name__] = check
