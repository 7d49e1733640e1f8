"""Languages: the message catalogs, which one a member reads, and the slash commands' translations.

English is the source language: every sentence in the code is an English msgid. The catalogs are
gettext PO files, `bot/locales/<language>/LC_MESSAGES/<domain>.po`, one per shipped language and
domain (`bot`: the presenters' sentences and the slash commands; `engine`: the rules engine's
texts). They are read with Babel when first needed; nothing compiled is kept in the repository.

`python -m bot.i18n extract` writes the `bot` template (`bot/locales/bot.pot`) from the source;
`python -m bot.i18n update` merges them into every catalog (new messages come in untranslated,
gone ones are dropped), so that a translator only ever fills in msgstrs.
"""

from __future__ import annotations

import gettext
import io
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import discord
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations
from discord import app_commands

ENGLISH = "en"
# The languages shipped besides English, by catalog name, as their speakers name them.
LANGUAGES = {"de": "Deutsch", "es_ES": "Español", "fr": "Français", "pt_BR": "Português do Brasil"}
# Discord's locale codes of the shipped languages (Discord's English ones fall back to English).
DISCORD_LOCALES = {"de": "de", "es-ES": "es_ES", "fr": "fr", "pt-BR": "pt_BR"}
# The values of /settings language: English and the shipped languages, by their own names.
LANGUAGE_NAMES = {ENGLISH: "English", **LANGUAGES}
LANGUAGE_CHOICES = tuple(LANGUAGE_NAMES)
DOMAINS = ("bot", "engine")
LOCALES = Path(__file__).parent / "locales"
ROOT = Path(__file__).parent.parent
# The source files whose sentences the `bot` domain holds (the engine's texts, in bot/game, have
# their own extraction: they are data, not calls).
SOURCES = ("bot/words.py", "bot/terminal.py", "bot/views", "bot/cogs")
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
# The msgctxt of a slash command's words (descriptions have none: they are sentences).
COMMAND, OPTION, CHOICE = "command", "option", "choice"


def kept(name: str) -> app_commands.locale_str:
    """A slash command choice's name that reads the same in every language (a language's own
    name, a layout's): the translator leaves it, the catalogs do not hold it."""
    return app_commands.locale_str(name, kept=True)


def _is_kept(choice: app_commands.Choice) -> bool:
    locale_name = getattr(choice, "_locale_name", None)  # where discord.py keeps the name it translates
    return locale_name is not None and locale_name.extras.get("kept", False)


def N_(message: str) -> str:
    """Mark a sentence kept in a constant for translation: the catalog gets it, the code
    translates it where it is shown (`Voice.gettext`)."""
    return message


def language_of(discord_locale: str | discord.Locale | None) -> str | None:
    """The shipped language a Discord locale (such as `es-ES`) reads, or None for one we do not
    ship (English is the fallback, or the server's language)."""
    if discord_locale is None:
        return None
    return DISCORD_LOCALES.get(str(getattr(discord_locale, "value", discord_locale)))


def choose_language(member_locale: str | discord.Locale | None, server_language: str | None) -> str:
    """The language to answer in: the member's Discord language if shipped, else the server's
    default (/settings language), else English."""
    return language_of(member_locale) or (server_language if server_language in LANGUAGES else ENGLISH)


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


# --- slash commands -------------------------------------------------------------------------------

_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: COMMAND,
    app_commands.TranslationContextLocation.group_name: COMMAND,
    app_commands.TranslationContextLocation.parameter_name: OPTION,
    app_commands.TranslationContextLocation.choice_name: CHOICE,
}


def command_word(language: str, context: str | None, text: str) -> str:
    """A slash command's name, option name, choice name (by msgctxt) or description in a language."""
    found = translations(language)
    return found.pgettext(context, text) if context else found.gettext(text)


class CommandTranslator(app_commands.Translator):
    """Gives Discord the slash commands' names, descriptions, options and choices in every
    shipped language, from the `bot` catalogs."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The translation in a shipped language (the catalogs are complete: tests/test_i18n.py),
        None in the others and for a choice kept as it is (Discord then shows the English)."""
        language = language_of(locale)
        if language is None or string.extras.get("kept", False):
            return None
        return command_word(language, _CONTEXTS.get(context.location), string.message)


def command_messages(commands: Iterable[app_commands.Command | app_commands.Group]) -> Iterator[tuple[str | None, str]]:
    """(msgctxt, msgid) of every word a command tree shows: names, descriptions, options, choices."""
    for command in commands:
        yield COMMAND, command.name
        yield None, command.description
        if isinstance(command, app_commands.Group):
            yield from command_messages(command.commands)
            continue
        for parameter in command.parameters:
            yield OPTION, parameter.name
            yield None, parameter.description
            for choice in parameter.choices:
                if not _is_kept(choice):
                    yield CHOICE, choice.name


def cog_commands() -> list[app_commands.Command | app_commands.Group]:
    """The bot's slash commands, as its cogs declare them (no bot needed)."""
    from bot.cogs import cog_classes

    return [command for cog in cog_classes() for command in cog.__cog_app_commands__ if command.parent is None]


def extract() -> Catalog:
    """The `bot` domain's template: every message in its source files and every word of the
    slash commands, with where it comes from."""
    catalog = Catalog(project="Patient Exorcism", domain="bot", charset="utf-8", fuzzy=False)
    for source in SOURCES:
        path = ROOT / source
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for line, message, comments, context in extract_from_file("python", file, keywords=KEYWORDS,
                                                                      comment_tags=("Translators:",)):
                where = (str(file.relative_to(ROOT)), line)
                catalog.add(message, locations=[where], auto_comments=comments, context=context)
    for context, message in command_messages(cog_commands()):
        catalog.add(message, locations=[("bot/cogs", 0)], context=context)
    return catalog


def template_path(domain: str) -> Path:
    """Where a domain's template lives."""
    return LOCALES / f"{domain}.pot"


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a PO file (or template), sorted, without the line numbers that churn on every edit."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, sort_output=True, include_lineno=False, omit_header=False)


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """A PO file (or template) as a Babel Catalog."""
    with path.open("rb") as file:
        return read_po(file, locale=language)


def update(domain: str) -> None:
    """Merge the domain's template into each language's catalog: translations kept, new messages
    added untranslated, gone ones dropped."""
    template = read_catalog(template_path(domain))
    for language in LANGUAGES:
        path = catalog_path(language, domain)
        catalog = read_catalog(path, language) if path.exists() else Catalog(locale=language, domain=domain)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write_catalog(catalog, path)


def main(argv: list[str]) -> int:
    """`extract` writes the `bot` template; `update` merges it into the `bot` catalogs."""
    if argv == ["extract"]:
        catalog, path = extract(), template_path("bot")
        if path.exists():  # the template's date stays, so that re-extracting changes only what changed
            catalog.creation_date = read_catalog(path).creation_date
        write_catalog(catalog, path)
        return 0
    if argv == ["update"]:  # the engine's catalogs have their own tool: python -m bot.engine_catalog
        update("bot")
        return 0
    print("usage: python -m bot.i18n extract|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
