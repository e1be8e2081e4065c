"""``python -m bpe_core.models``: (re)write the ``.pairs`` file of each shipped rank file."""

from . import HERE, MODELS, write_pairs

for stem, _, _ in MODELS.values():
    print(write_pairs(HERE / f"{stem}.tiktoken"))
