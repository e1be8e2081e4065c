"""The Universal Declaration of Human Rights in 20 languages: a parallel text for token counts.

The files in ``bpe_core/data/udhr/`` are the "UDHR in Unicode" project's XML, unchanged (provenance and
licence in that folder's ``README.md``). Each holds a ``<preamble>`` and ``<article number="1..30">``, each
with a ``<title>`` and one or more ``<para>`` elements (some inside ``<orderedlist><listitem>``).

What counts as the text (the rule every count on the Languages page follows):

* a section's text is its ``<para>`` elements in document order, joined by ``"\\n"``; titles are left out
  (they are headings, and "Article 1" is not part of the content);
* the whole text is the sections in order (preamble, articles 1-30), joined by ``"\\n"`` -- the same
  as all the file's ``<para>`` elements in order, except the translators' ``<note>`` that 11 of the
  files carry before the preamble (when and where the translation was adopted: English has none, so it
  is not parallel text);
* languages align by article, not by paragraph: the number of paragraphs differs (English has 60,
  Bengali 63, Thai 58) because translators split lists and sentences differently.

The XML is read with the standard library's :mod:`xml.etree.ElementTree` (the files declare no DTD and no
entities). Language names are not kept here: :data:`LOCALES` maps each file key to a CLDR locale code,
and the user interface asks the locale database (Babel) for the name in the reader's language.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: Where the shipped XML files are.
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "udhr"

#: The file keys (``udhr_KEY.xml``) in the order the page lists them: the reference (English) first.
KEYS = (
    "eng", "cmn_hans", "cmn_hant", "yue", "jpn", "kor", "spa", "fra", "ita", "rus",
    "arb", "heb", "hin", "ben", "urd", "tha", "vie", "ind", "tur", "swh",
)  # fmt: skip

#: The reference language: its tax is 1.0 by definition.
REFERENCE = "eng"

#: The Declaration's Chinese in the script of each interface language (:data:`bpe_core.i18n.LANGUAGES`): the
#: Chinese a reader of that interface is offered first (Traditional in the 繁體 interface, else Simplified).
CHINESE = {"en": "cmn_hans", "zh-Hans": "cmn_hans", "zh-Hant": "cmn_hant"}


def chinese_key(language: str) -> str:
    """The Declaration key of the Chinese for interface ``language`` (``"en"``, ``"zh-Hans"``, ``"zh-Hant"``;
    any other: Simplified)."""
    return CHINESE.get(language, "cmn_hans")


#: File key -> CLDR locale code (what Babel's ``Locale.parse`` takes). The files' own ``xml:lang``
#: (``zh-Hans``, ``ar``, ...) is the same up to the separator; ``yue`` is Cantonese (the file is in
#: traditional characters).
LOCALES = {
    "eng": "en", "cmn_hans": "zh_Hans", "cmn_hant": "zh_Hant", "yue": "yue", "jpn": "ja", "kor": "ko",
    "spa": "es", "fra": "fr", "ita": "it", "rus": "ru", "arb": "ar", "heb": "he", "hin": "hi", "ben": "bn",
    "urd": "ur", "tha": "th", "vie": "vi", "ind": "id", "tur": "tr", "swh": "sw",
}  # fmt: skip

#: Section numbers: 0 is the preamble, 1..30 the articles.
PREAMBLE = 0
ARTICLES = 30

_NS = "{http://www.unhchr.ch/udhr}"


@dataclass(frozen=True)
class Declaration:
    """One language's Declaration.

    Attributes:
        key: the file key (``"eng"``, ``"cmn_hans"``, ...).
        locale: its CLDR locale code (:data:`LOCALES`).
        direction: ``"ltr"`` or ``"rtl"`` (the file's ``dir``; Arabic, Hebrew and Urdu are ``"rtl"``).
        script: the ISO 15924 script code the file names (``"Latn"``, ``"Arab"``, ``"Hans"``, ...).
        sections: ``{0: preamble text, 1: article 1 text, ..., 30: article 30 text}``.
        paragraphs: the number of ``<para>`` elements counted (notes excluded).
    """

    key: str
    locale: str
    direction: str
    script: str
    sections: dict
    paragraphs: int

    def text(self, sections=None) -> str:
        """The text of ``sections`` (section numbers, 0 = preamble; default: all 31) in the order
        given, joined by ``"\\n"``.

        Raises:
            KeyError: a section number outside 0..30.
        """
        numbers = range(PREAMBLE, ARTICLES + 1) if sections is None else sections
        return "\n".join(self.sections[n] for n in numbers)


def parse_declaration(data: bytes, key: str = "") -> Declaration:
    """A :class:`Declaration` from the bytes of a UDHR-in-Unicode XML file.

    Args:
        data: the file's bytes (UTF-8 XML).
        key: its file key; default: the root's ``key`` attribute.

    Raises:
        ValueError: not well-formed XML, not a ``<udhr>`` document, or a preamble / article 1..30 missing.
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed XML: {exc}") from None
    if root.tag != _NS + "udhr":
        raise ValueError(f"not a UDHR file: the root element is {root.tag!r}")
    key = key or root.get("key", "")
    sections: dict[int, str] = {}
    count = 0
    for child in root:
        if child.tag == _NS + "preamble":
            number = PREAMBLE
        elif child.tag == _NS + "article":
            number = int(child.get("number", "-1"))
        else:
            continue  # the document title and the translators' notes
        # iter() walks in document order, into lists; a para's text is all its text nodes.
        paras = ["".join(p.itertext()).strip() for p in child.iter(_NS + "para")]
        count += len(paras)
        sections[number] = "\n".join(paras)
    missing = [n for n in range(PREAMBLE, ARTICLES + 1) if n not in sections]
    if missing:
        raise ValueError(f"{key or 'the file'}: sections missing: {missing}")
    return Declaration(
        key=key,
        locale=LOCALES.get(key, root.get("{http://www.w3.org/XML/1998/namespace}lang", "").replace("-", "_")),
        direction=root.get("dir", "ltr"),
        script=root.get("iso15924", ""),
        sections=sections,
        paragraphs=count,
    )


def read_declaration(path: str | Path) -> Declaration:
    """:func:`parse_declaration` of a file; the key is taken from a ``udhr_KEY.xml`` name.

    Raises:
        OSError: the file cannot be read. ValueError: see :func:`parse_declaration`.
    """
    path = Path(path)
    stem = path.stem
    return parse_declaration(path.read_bytes(), stem[5:] if stem.startswith("udhr_") else "")


@cache
def load(key: str) -> Declaration:
    """The shipped Declaration in the language of file key ``key`` (read once per process).

    Raises:
        ValueError: a key not in :data:`KEYS`.
    """
    if key not in LOCALES:
        raise ValueError(f"no Declaration for {key!r}; the keys are {', '.join(KEYS)}")
    return read_declaration(DATA_DIR / f"udhr_{key}.xml")


def load_all() -> dict[str, Declaration]:
    """``{key: Declaration}`` for all 20 languages, in :data:`KEYS` order."""
    return {key: load(key) for key in KEYS}


def texts(sections=None, keys=KEYS) -> dict[str, str]:
    """``{key: text}`` of the given sections (default: all) for each language, in ``keys`` order."""
    return {key: load(key).text(sections) for key in keys}
