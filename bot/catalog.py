"""The `bot` domain's catalogs, a tool: `python -m bot.catalog extract` writes the template
(bot/locales/bot.pot) from the source and the slash commands; `python -m bot.catalog update`
merges it into every language's catalog (new messages come in untranslated, gone ones are
dropped), so that a translator only ever fills in msgstrs. tests/test_i18n.py fails while any
message lacks a translation. The engine's domain has its own tool: `python -m bot.engine_catalog`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.i18n import CHOICE, COMMAND, LOCALES, OPTION, catalog_path
from bot.languages import LANGUAGES
from bot.views.translator import is_kept

ROOT = Path(__file__).parent.parent
# The source files whose sentences the `bot` domain holds (the engine's texts, in bot/game, have
# their own extraction: they are data, not calls).
SOURCES = ("bot/words", "bot/terminal.py", "bot/views", "bot/cogs", "bot/web", "render/captions.py")
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


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
                if not is_kept(choice):
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
    if argv == ["update"]:
        update("bot")
        return 0
    print("usage: python -m bot.catalog extract|update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
