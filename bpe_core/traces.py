"""Compatibility: ``bpe_core.traces`` is :mod:`bpe_core.encoding.traces` (the same module object)."""

import sys

from .encoding import traces

sys.modules[__name__] = traces
