"""The step view of a removal (kind ``"removal"``, :mod:`bpe_core.algorithms.removal`), for any algorithm that
removes tokens: the token removed (the headline's ``removed``), the score that removed it against its threshold,
the vocabulary after, and the words where it splits back (before → after). Registered with
:func:`~bpe_core.teaching.step_view.register_view`; it reads only the :class:`~bpe_core.algorithms.removal.RemovalStep`
record and the run's segmentations, nothing of the algorithm that removed."""

from __future__ import annotations

from ..algorithms.removal import REMOVAL
from ..i18n import N_
from .field_views import segmented_step
from .step_view import Headline, Number, StepView, register_view

#: The meanings of a removal's numbers besides its score (message ids of the catalogs).
_THRESHOLD, _SPLIT, _VOCABULARY = N_("Threshold"), N_("Occurrences split"), N_("Vocabulary")


def removal_view(run, step: int, pairs: int, words: int, max_tokens: int | None) -> StepView:
    """Removal ``step``: headline ``((token,), None, token)``; numbers: the score (labelled by the record's
    ``score_label``), the threshold, the occurrences split back and the vocabulary after; no candidates; the
    first ``words`` word types that held the token, before and after."""
    snap = run.snapshot(step)
    return segmented_step(
        run,
        step,
        words,
        kind=REMOVAL,
        highlight=None,
        words_changed=snap.words_changed,
        headline=Headline((snap.token,), None, snap.token),
        numbers=(
            Number(snap.score_label, snap.score),
            Number(_THRESHOLD, snap.threshold),
            Number(_SPLIT, snap.occurrences),
            Number(_VOCABULARY, snap.vocab_size),
        ),
        candidates=None,
    )


register_view(REMOVAL, removal_view)
