"""Compatibility: ``bpe_core.notebook`` is :mod:`bpe_core.teaching.notebook` (the same module object)."""

import sys

from .teaching import notebook

sys.modules[__name__] = notebook
