"""A corpus as one value: its digest (the run cache's key, with the config), its size, a label for
headings, and how to load its words for a given :class:`bpe_core.TrainConfig`.

Every input becomes a :class:`Corpus` through one of the constructors here (a preset, a text, a
text kept elsewhere such as an upload, a word-count list), which is also the only place an input's
digest is computed. A source of the sidebar gives a :class:`Source`: a corpus, or why there is none.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from bpe_core import TrainConfig, TrainedRun, corpus_words, train

from .presets import Preset, words_digest_text


def digest_of(data: str) -> str:
    """sha256 (hex) of ``data`` in UTF-8: the digest of every input."""
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Corpus:
    """One input to train on.

    Attributes:
        digest: sha256 hex of the input (word-count lists: of their canonical lines).
        size_bytes: its size in UTF-8 bytes.
        label: a short description for headings (plain text: may hold a file name; escape it for HTML).
    """

    digest: str
    size_bytes: int
    label: str
    _load: Callable[[TrainConfig], dict] | None = field(default=None, repr=False, compare=False)
    # A corpus trained its own way (a language mix: bpe_core.algorithms.fair_bpe.stepper_run), else None.
    _train: Callable[..., TrainedRun] | None = field(default=None, repr=False, compare=False)

    def words(self, config: TrainConfig) -> dict[str, int]:
        """The corpus as ``{word: frequency}``, split with ``config``'s pre-tokenizer. Only called
        when the run is not cached, so a cached run never re-reads or re-splits its text."""
        assert self._load is not None
        return self._load(config)

    def train(self, config: TrainConfig, progress=None, on_start=None) -> TrainedRun:
        """The run of this corpus with ``config`` (``progress`` and ``on_start`` as for
        :func:`bpe_core.train`): the ordinary trainer on :meth:`words`, or the corpus's own way."""
        if self._train is not None:
            return self._train(config, progress, on_start)
        return train(self.words(config), config, progress=progress, on_start=on_start)


def text_corpus(text: str, label: str) -> Corpus:
    """A corpus of ``text`` (held by the corpus: for a session's own paste or a page's text box)."""
    return Corpus(digest_of(text), len(text.encode("utf-8")), label, lambda cfg: corpus_words(text, cfg))


def stored_text_corpus(digest: str, size_bytes: int, label: str, get_text: Callable[[], str]) -> Corpus:
    """A corpus whose text lives elsewhere (an upload in the shared store): ``get_text`` is only
    called to train."""
    return Corpus(digest, size_bytes, label, lambda cfg: corpus_words(get_text(), cfg))


def words_corpus(words: dict[str, int], label: str) -> Corpus:
    """A corpus of a word-count list ``{word: frequency}`` (copied)."""
    frozen = dict(words)
    canonical = words_digest_text(frozen)
    return Corpus(digest_of(canonical), len(canonical.encode("utf-8")), label, lambda cfg: dict(frozen))


def preset_corpus(preset: Preset) -> Corpus:
    """The corpus of a built-in preset (its text is read from disk only to train)."""
    if preset.is_word_counts:
        words = dict(preset.words)
        return Corpus(preset.digest(), preset.size_bytes(), preset.title, lambda cfg: dict(words))
    load = preset.load_text
    return Corpus(preset.digest(), preset.size_bytes(), preset.title, lambda cfg: corpus_words(load(), cfg))


@dataclass(frozen=True)
class Source:
    """What one corpus source gave: a corpus or a message, a label, its text (for hints and the pattern
    preview), the URL parameter naming it, and for a file with CR LF line ends the callback that makes them LF."""

    corpus: Corpus | None
    label: str
    message: str | None = None
    preset: Preset | None = None
    text: str | None = None
    link: dict | None = None
    to_lf: object = None
