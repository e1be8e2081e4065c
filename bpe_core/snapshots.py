"""Compatibility: ``bpe_core.snapshots`` is :mod:`bpe_core.formats.snapshots` (the same module object)."""

import sys

from .formats import snapshots

sys.modules[__name__] = snapshots
