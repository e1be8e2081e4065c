"""Compatibility: ``bpe_core.gpt2_files`` is :mod:`bpe_core.formats.gpt2_files` (the same module object)."""

import sys

from .formats import gpt2_files

sys.modules[__name__] = gpt2_files
