"""The message catalogs at run time: each shipped language's translations of a domain.

English is the source language: every sentence in the code is an English msgid. The catalogs are
gettext PO files, `bot/locales/<language>/LC_MESSAGES/<domain>.po`, one per shipped language and
domain (`bot`: the presenters' sentences and the slash commands; `engine`: the rules engine's
texts). They are read with Babel when first needed; nothing compiled is kept in the repository.
Which languages there are is bot/languages.py's; making and updating the catalogs is the tools'
(`python -m bot.catalog`, `python -m bot.engine_catalog`); Discord's translator of the slash
commands is bot/views/translator.py.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.languages import ENGLISH

DOMAINS = ("bot", "engine")
LOCALES = Path(__file__).parent / "locales"
# The msgctxt of a slash command's words (descriptions have none: they are sentences).
COMMAND, OPTION, CHOICE = "command", "option", "choice"


def N_(message: str) -> str:
    """Mark a sentence kept in a constant for translation: the catalog gets it, the code
    translates it where it is shown (`Voice.gettext`)."""
    return message


def catalog_path(language: str, domain: str) -> Path:
    """Where a language's catalog of a domain lives."""
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(language: str, domain: str = "bot") -> gettext.NullTranslations:
    """A language's translations of a domain, read once (English, or a catalog not there: the
    msgids as they are)."""
    path = catalog_path(language, domain)
    if language == ENGLISH or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as file:
        catalog = read_po(file, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=domain)
