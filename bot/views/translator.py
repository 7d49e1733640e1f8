"""The slash commands in every shipped language: discord.py's Translator over the `bot` catalogs,
and the choices whose names read the same in every language."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import CHOICE, COMMAND, OPTION, translations
from bot.languages import language_of

_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: COMMAND,
    app_commands.TranslationContextLocation.group_name: COMMAND,
    app_commands.TranslationContextLocation.parameter_name: OPTION,
    app_commands.TranslationContextLocation.choice_name: CHOICE,
}


def kept(name: str) -> app_commands.locale_str:
    """A slash command choice's name that reads the same in every language (a language's own
    name, a layout's): the translator leaves it, the catalogs do not hold it."""
    return app_commands.locale_str(name, kept=True)


def is_kept(choice: app_commands.Choice) -> bool:
    """Whether a choice's name is `kept` as it is in every language."""
    locale_name = getattr(choice, "_locale_name", None)  # where discord.py keeps the name it translates
    return locale_name is not None and locale_name.extras.get("kept", False)


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
