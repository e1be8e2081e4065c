"""``python -m bpe_core.models``: (re)write the ``.pairs`` file of each shipped rank file and shipped tokenizer.json."""

import gzip

from . import HERE, HF_MODELS, MODELS, write_pairs
from .hf_pairs import write_hf_pairs

for stem, _, _ in MODELS.values():
    print(write_pairs(HERE / f"{stem}.tiktoken"))
for name, (shipped, _, _) in HF_MODELS.items():
    if shipped is not None:
        print(write_hf_pairs(gzip.decompress((HERE / shipped).read_bytes()), HERE / f"{name}.pairs"))
