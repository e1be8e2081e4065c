"""Compatibility: ``bpe_core.explain`` is :mod:`bpe_core.teaching.explain` (the same module object)."""

import sys

from .teaching import explain

sys.modules[__name__] = explain
