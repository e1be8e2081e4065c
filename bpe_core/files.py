"""Compatibility: ``bpe_core.files`` is :mod:`bpe_core.formats.files` (the same module object)."""

import sys

from .formats import files

sys.modules[__name__] = files
