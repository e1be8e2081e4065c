"""The corpora: the built-in presets, and a corpus as one value (:class:`Corpus`) that every input becomes.

**Built-in corpora ("presets")**: id, title, one line of provenance, the text or word counts, and the
settings each one is best shown with.

Preset ids are part of the app's URLs (``?preset=textbook-low&step=3``) and of the load benchmark:
never rename one. Texts longer than a line live in ``presets/`` next to ``presets/README.md``
(provenance and licences); they are read once per process and shared by every session. Their sources'
CR LF line ends are stored as LF (said in each provenance line); files are read with ``newline=""``, so no
line end is ever rewritten on reading.

Settings use the URL parameter names of :mod:`ui.settings` (``variant``, ``pre``, ``merges``,
``vocab``, ``minf``, ``tie``, ``eow``, ``marker``, ``bytes``); a preset lists only what differs
from :data:`ui.settings.DEFAULT_SETTINGS`.

**A corpus as one value**: its digest (the run cache's key, with the config), its size, a label for
headings, and how to load its words for a given :class:`bpe_core.TrainConfig`.

Every input becomes a :class:`Corpus` through one of the constructors here (a preset, a text, a
text kept elsewhere such as an upload, a word-count list), which is also the only place an input's
digest is computed. A source of the sidebar gives a :class:`Source`: a corpus, or why there is none.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from bpe_core import TrainConfig, TrainedRun, corpus_words, train

from .i18n import N_

PRESETS_DIR = Path(__file__).resolve().parent.parent / "presets"


@dataclass(frozen=True)
class Preset:
    """One built-in corpus.

    Attributes:
        id: stable identifier used in URLs (``textbook-low``).
        title: short name for the preset picker.
        provenance: one line saying where the corpus comes from.
        text: the corpus text, for short inline presets (else ``None``).
        words: ``{word: frequency}`` for textbook word-count presets (else ``None``).
        file: file name inside ``presets/`` for longer texts (else ``None``).
        settings: recommended settings (URL parameter names -> values), applied when the preset is
            picked; anything not listed takes the app default.
    """

    id: str
    title: str
    provenance: str
    text: str | None = None
    words: dict | None = None
    file: str | None = None
    settings: dict = field(default_factory=dict)

    @property
    def is_word_counts(self) -> bool:
        """True when the corpus is a word-frequency list (no pre-tokenizer applies)."""
        return self.words is not None

    def load_text(self) -> str:
        """The corpus text (inline or from ``presets/<file>``). Raises ``ValueError`` for word-count presets."""
        if self.text is not None:
            return self.text
        if self.file is not None:
            return read_preset_file(self.file)
        raise ValueError(f"preset {self.id!r} is a word-frequency list, not a text")

    def digest(self) -> str:
        """sha256 (hex) of the corpus, computed once per process: part of the training cache key."""
        return _preset_digest(self.id)

    def size_bytes(self) -> int:
        """Size of the corpus in UTF-8 bytes (word-count presets: of their ``word count`` lines)."""
        return len(_canonical_bytes(self))


def _canonical_bytes(preset: Preset) -> bytes:
    if preset.words is not None:
        return words_digest_text(preset.words).encode("utf-8")
    return preset.load_text().encode("utf-8")


def words_digest_text(words: dict) -> str:
    """The canonical ``word count`` lines of a word-frequency dict (hashed for cache keys), prefixed
    so that a word list never collides with a text that happens to look the same."""
    return "#words\n" + "".join(f"{w} {c}\n" for w, c in words.items())


@cache
def _preset_digest(preset_id: str) -> str:
    return hashlib.sha256(_canonical_bytes(PRESETS[preset_id])).hexdigest()


@lru_cache(maxsize=8)
def read_preset_file(name: str) -> str:
    """The text of ``presets/<name>`` (LF line ends kept as stored). One copy per process, shared by every
    session (the book is ~500 KB)."""
    with open(PRESETS_DIR / name, encoding="utf-8", newline="") as f:
        return f.read()


_PRESET_LIST = [
    Preset(
        id="textbook-low",
        title=N_("Textbook: low, lower, newest…"),
        provenance=N_(
            "The classic example of Sennrich et al. (2016), 'Neural Machine Translation of Rare Words "
            "with Subword Units', and of most BPE tutorials."
        ),
        words={"low": 5, "lower": 2, "newest": 6, "widest": 3},
        settings={"variant": "eow", "pre": "whitespace", "merges": 10, "minf": 2, "eow": "separate", "marker": "</w>"},
    ),
    Preset(
        id="textbook-lowest",
        title=N_("Textbook: low, lowest, newer…"),
        provenance=N_(
            "After the BPE example of Jurafsky & Martin, Speech and Language Processing (3rd ed.), "
            "chapter 2, with end of word written _. It keeps 'wilder', the word of the Chinese write-up this example "
            "was taken from, where the book has 'wider': under each tie-break rule the first nine merges are the "
            "same either way, and only the tenth differs (first-seen: wi + l here, wi + d with 'wider')."
        ),
        words={"low": 5, "lowest": 2, "newer": 6, "wilder": 3, "new": 2},
        settings={"variant": "eow", "pre": "whitespace", "merges": 10, "minf": 2, "eow": "separate", "marker": "_"},
    ),
    Preset(
        id="aaabdaaabac",
        title=N_("aaabdaaabac (bytes, one piece)"),
        provenance=N_(
            "The string of the Wikipedia article 'Byte pair encoding' (after Gage, 1994), "
            "one piece with no pre-tokenizer."
        ),
        text="aaabdaaabac",
        settings={"variant": "byte", "pre": "none", "merges": 3, "minf": 1},
    ),
    Preset(
        id="nihao",
        title=N_("你好啊 你好 … (Chinese, bytes)"),
        provenance=N_(
            "A tiny Chinese sentence written for this app: each character is 3 UTF-8 bytes, "
            "so byte-level merges first build pieces of characters."
        ),
        text="你好啊 你好 你好啊 你好 我 啊 走",
        settings={"variant": "byte", "pre": "whitespace", "merges": 10, "minf": 2},
    ),
    Preset(
        id="lowest-price",
        title=N_("the lowest price … (a sentence)"),
        provenance=N_(
            "One English sentence written for this app: 'low' is shared by lowest and lower, 'th' by the and than."
        ),
        text="the lowest price is lower than the last one",
        settings={"variant": "char", "pre": "whitespace", "merges": 10, "minf": 2},
    ),
    Preset(
        id="zh-emoji",
        title=N_("Simplified Chinese + emoji sequences"),
        provenance=N_(
            "A paragraph in Simplified Chinese written for this app; the emoji sequences (ZWJ family, skin tones, "
            "emoji variation selector) are taken from Unicode's emoji-test.txt."
        ),
        file="zh-emoji.txt",
        settings={"variant": "byte", "pre": "gpt2", "merges": 40, "minf": 2},
    ),
    Preset(
        id="zh-hant-emoji",
        title=N_("Traditional Chinese + emoji sequences"),
        provenance=N_(
            "A paragraph in Traditional Chinese (as written in Taiwan) written for this app, with the same kinds of "
            "emoji sequences (ZWJ family, skin tones, emoji variation selector) from Unicode's emoji-test.txt."
        ),
        file="zh-hant-emoji.txt",
        settings={"variant": "byte", "pre": "gpt2", "merges": 40, "minf": 2},
    ),
    Preset(
        id="pg16457-chapter",
        title=N_("All Around the Moon, chapter I"),
        provenance=N_(
            "Jules Verne, All Around the Moon (tr. Edward Roth), chapter I; Project Gutenberg "
            "eBook #16457, public domain. The source's CR LF line ends are stored as LF."
        ),
        file="pg16457-chapter1.txt",
        settings={"variant": "eow", "pre": "whitespace", "merges": 200, "minf": 2},
    ),
    Preset(
        id="hongloumeng-chapter",
        title=N_("红楼梦, chapter 1 (Chinese)"),
        provenance=N_(
            "Cao Xueqin, 红楼梦 (Dream of the Red Chamber), chapter 1, simplified Chinese; public domain. "
            "The source's CR LF line ends are stored as LF."
        ),
        file="hongloumeng-chapter1.txt",
        settings={"variant": "char", "pre": "gpt2", "merges": 300, "minf": 2},
    ),
    Preset(
        id="hongloumeng-chapter-hant",
        title=N_("紅樓夢, chapter 1 (Traditional)"),
        provenance=N_(
            "Cao Xueqin, 紅樓夢 (Dream of the Red Chamber), chapter 1, the simplified preset converted to "
            "Traditional Chinese with OpenCC (s2tw), 11 conversions corrected by hand; public domain. The source's CR LF line ends are stored as LF."
        ),
        file="hongloumeng-chapter1-hant.txt",
        settings={"variant": "char", "pre": "gpt2", "merges": 300, "minf": 2},
    ),
    Preset(
        id="pg16457-book",
        title=N_("All Around the Moon, whole book"),
        provenance=N_(
            "Jules Verne, All Around the Moon, Project Gutenberg eBook #16457 (public domain), whole "
            "file: the corpus on which Lei Mao's tutorial “Byte Pair Encoding” (leimao.github.io, built on the code "
            "of Sennrich et al. 2016) trains 10,000 merges with </w>. The source's CR LF line ends are stored as LF."
        ),
        file="pg16457.txt",
        settings={"variant": "eow", "pre": "whitespace", "merges": 10000, "minf": 2},
    ),
]

#: Every preset by id, in picker order.
PRESETS: dict[str, Preset] = {p.id: p for p in _PRESET_LIST}

#: The preset the app opens with.
DEFAULT_PRESET = "textbook-low"

#: The Chinese + emoji preset a page offers by default, by interface language (:data:`bpe_core.i18n.LANGUAGES`):
#: Traditional characters in the 繁體 interface, Simplified otherwise.
CHINESE_EMOJI_PRESET = {"zh-Hant": "zh-hant-emoji"}


def chinese_emoji_preset(language: str) -> Preset:
    """The Chinese + emoji preset for interface ``language`` (``"en"``, ``"zh-Hans"``, ``"zh-Hant"``)."""
    return PRESETS[CHINESE_EMOJI_PRESET.get(language, "zh-emoji")]


def get_preset(preset_id: str) -> Preset | None:
    """The preset with this id, or ``None``."""
    return PRESETS.get(preset_id)


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
    preview), the URL parameter naming it, and for a file with CR LF line ends the callback that makes them LF.
    ``hint`` is true when nothing was given yet (an empty box, no file): the message is then a neutral hint, not an
    error."""

    corpus: Corpus | None
    label: str
    message: str | None = None
    preset: Preset | None = None
    text: str | None = None
    link: dict | None = None
    to_lf: object = None
    hint: bool = False
