"""Compatibility: ``bpe_core.encoder`` is :mod:`bpe_core.encoding.encoder` (the same module object)."""

import sys

from .encoding import encoder

sys.modules[__name__] = encoder
