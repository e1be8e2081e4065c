"""The translated entries of a catalog, as the catalog tests read them (the glossary's terms, one term per concept)."""

from __future__ import annotations

from babel.messages.pofile import read_po

from bpe_core.i18n import catalog_path


def catalog_entries(lang: str):
    """``(English texts, translations)`` of every translated entry of ``lang``'s catalog."""
    with open(catalog_path(lang, ".po"), "rb") as f:
        catalog = read_po(f)
    for message in catalog:
        if not message.id or not message.string:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        yield english, forms
