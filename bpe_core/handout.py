"""Compatibility: ``bpe_core.handout`` is :mod:`bpe_core.teaching.handout` (the same module object)."""

import sys

from .teaching import handout

sys.modules[__name__] = handout
