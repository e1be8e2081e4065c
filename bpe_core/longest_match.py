"""Compatibility: ``bpe_core.longest_match`` is :mod:`bpe_core.encoding.longest_match` (the same module object)."""

import sys

from .encoding import longest_match

sys.modules[__name__] = longest_match
