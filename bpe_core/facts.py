"""Compatibility: ``bpe_core.facts`` is :mod:`bpe_core.teaching.facts` (the same module object)."""

import sys

from .teaching import facts

sys.modules[__name__] = facts
