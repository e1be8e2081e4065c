"""Compatibility: ``bpe_core.mistakes`` is :mod:`bpe_core.checking.mistakes` (the same module object)."""

import sys

from .checking import mistakes

sys.modules[__name__] = mistakes
