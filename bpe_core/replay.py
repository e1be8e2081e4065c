"""Compatibility: ``bpe_core.replay`` is :mod:`bpe_core.encoding.replay` (the same module object)."""

import sys

from .encoding import replay

sys.modules[__name__] = replay
