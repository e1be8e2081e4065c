"""Compatibility: ``bpe_core.quiz`` is :mod:`bpe_core.teaching.quiz` (the same module object)."""

import sys

from .teaching import quiz

sys.modules[__name__] = quiz
