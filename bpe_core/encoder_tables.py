"""Compatibility: ``bpe_core.encoder_tables`` is :mod:`bpe_core.encoding.encoder_tables` (the same module object)."""

import sys

from .encoding import encoder_tables

sys.modules[__name__] = encoder_tables
