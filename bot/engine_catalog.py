"""The engine's message catalog, the gettext domain `engine`: the msgids Babel extracts from
bot/game (the templates marked as bot/game/phrases.py says), the template bot/locales/engine.pot,
and a translation bot/locales/<lang>/LC_MESSAGES/engine.po for each language.

    python -m bot.engine_catalog    # re-extract: rewrite engine.pot, update every engine.po

Updating keeps every translation whose msgid is still used, adds the new msgids untranslated,
and drops the ones no longer used; tests/test_engine_catalog.py fails until each is translated.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.game.phrases import EXTRACTION_KEYWORDS

DOMAIN = "engine"
ROOT = Path(__file__).resolve().parent.parent
GAME_DIR = ROOT / "bot" / "game"
LOCALES_DIR = ROOT / "bot" / "locales"
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
LANGUAGES = ("de", "es_ES", "fr", "pt_BR")
PROJECT = "Patient Exorcism"
HOLDER = "the Patient Exorcism authors"


def extract_engine_messages() -> Catalog:
    """Every msgid of the engine, extracted from bot/game's source, with where it is written."""
    catalog = Catalog(project=PROJECT, copyright_holder=HOLDER, domain=DOMAIN, fuzzy=False)
    found = extract_from_dir(str(GAME_DIR), method_map=[("**.py", "python")], keywords=EXTRACTION_KEYWORDS,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, line, message, comments, context in found:
        catalog.add(message, locations=[(f"bot/game/{filename}", line)], auto_comments=comments, context=context)
    return catalog


def catalog_path(language: str) -> Path:
    """Where the engine's catalog for `language` (such as `pt_BR`) lives."""
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """A .po or .pot file read back as a Catalog."""
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a catalog as a .po or .pot file, its messages in msgid order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, sort_output=True, ignore_obsolete=True, no_location=True, width=100)


def update_catalogs() -> None:
    """Rewrite the template from the source and bring every language's catalog up to it."""
    template = extract_engine_messages()
    write_catalog(template, TEMPLATE)
    for language in LANGUAGES:
        path = catalog_path(language)
        if path.exists():
            catalog = read_catalog(path, language)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project=PROJECT, copyright_holder=HOLDER, fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        write_catalog(catalog, path)


if __name__ == "__main__":
    update_catalogs()
