"""Compatibility: ``bpe_core.token_tax`` is :mod:`bpe_core.languages.token_tax` (the same module object)."""

import sys

from .languages import token_tax

sys.modules[__name__] = token_tax
