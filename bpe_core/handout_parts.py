"""Compatibility: ``bpe_core.handout_parts`` is :mod:`bpe_core.teaching.handout_parts` (the same module object)."""

import sys

from .teaching import handout_parts

sys.modules[__name__] = handout_parts
