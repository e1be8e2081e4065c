"""The training algorithms and their runs: the seam every algorithm goes through (:mod:`.seam`: the protocol, the registry by name, the one training loop), the BPE trainer (:mod:`.trainer`, with its parts :mod:`.trainer_tables`, :mod:`.trainer_heap`, :mod:`.trainer_merge`), its run and records, the tie-break keys, the textbook loop, the language-mix trainer, and the two other algorithms a course teaches, registered by name: :mod:`.wordpiece` and :mod:`.unigram`; PickyBPE, :mod:`.picky_run`, and BoundlessBPE, :mod:`.boundless_run`."""

from . import boundless_run as boundless_run  # noqa: E402  (registers "boundless" with the seam)
from . import picky_run as picky_run  # noqa: E402  (registers "picky" with the seam)
from . import unigram as unigram  # noqa: E402  (registers "unigram" with the seam)
from . import wordpiece as wordpiece  # noqa: E402  (registers "wordpiece" with the seam)
