"""Compatibility: ``bpe_core.decoding`` is :mod:`bpe_core.encoding.decoding` (the same module object)."""

import sys

from .encoding import decoding

sys.modules[__name__] = decoding
