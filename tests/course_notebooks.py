"""The Hugging Face LLM course's chapter 6 notebooks (``../shared/references/hf-course-chapter6/``, Apache-2.0) run
as the oracle of the WordPiece and Unigram trainers: their code cells are read from the notebooks and executed
here, never copied into the project.

The notebooks load ``bert-base-cased`` and ``xlnet-base-cased`` only for their pre-tokenizers; with no network
those cells are skipped, and the namespace gets the same pre-tokenizers from ``tokenizers`` itself
(``BertPreTokenizer``; ``Metaspace``, which is what XLNet's ``tokenizer.json`` holds).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from tokenizers.pre_tokenizers import BertPreTokenizer, Metaspace

NOTEBOOKS = Path(__file__).resolve().parent.parent.parent / "shared" / "references" / "hf-course-chapter6"
# The cells that install packages or download a model.
_SKIP = ("!pip", "from_pretrained")


def code_cells(section: int) -> list[str]:
    """The code cells of ``section{section}.ipynb`` in order, those of :data:`_SKIP` left out."""
    nb = json.loads((NOTEBOOKS / f"section{section}.ipynb").read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    return [c for c in cells if not any(s in c for s in _SKIP)]


def run_cells(section: int, stop_after: str | None = None) -> dict:
    """Execute the notebook's code cells (up to and including the first that contains ``stop_after``, else all)
    and return their namespace."""
    pre = BertPreTokenizer() if section == 6 else Metaspace()
    backend = SimpleNamespace(pre_tokenizer=pre)
    ns: dict = {
        "tokenizer": SimpleNamespace(backend_tokenizer=backend, _tokenizer=backend),
        "print": lambda *a, **k: None,
    }
    for cell in code_cells(section):
        exec(compile(cell, f"section{section}.ipynb", "exec"), ns)  # noqa: S102 (the oracle, see the module doc)
        if stop_after is not None and stop_after in cell:
            break
    return ns


def corpus(section: int) -> list[str]:
    """The four sentences the section trains on (its own ``corpus`` cell)."""
    return run_cells(section, stop_after="corpus = [")["corpus"]
