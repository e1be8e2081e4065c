"""Compatibility: ``bpe_core.declaration`` is :mod:`bpe_core.languages.declaration` (the same module object)."""

import sys

from .languages import declaration

sys.modules[__name__] = declaration
