"""The languages the bot speaks, as plain data: which are shipped, their names, Discord's locale
codes for them, and which one a member reads. No dependency, so that the play layer (a server's
/settings language) and every presenter can use it; the catalogs themselves are bot/i18n.py's."""

from __future__ import annotations

ENGLISH = "en"
# The languages shipped besides English, by catalog name, as their speakers name them.
LANGUAGES = {"de": "Deutsch", "es_ES": "Español", "fr": "Français", "pt_BR": "Português do Brasil"}
# Discord's locale codes of the shipped languages (Discord's English ones fall back to English).
DISCORD_LOCALES = {"de": "de", "es-ES": "es_ES", "fr": "fr", "pt-BR": "pt_BR"}
# The values of /settings language: English and the shipped languages, by their own names.
LANGUAGE_NAMES = {ENGLISH: "English", **LANGUAGES}
LANGUAGE_CHOICES = tuple(LANGUAGE_NAMES)


def language_of(discord_locale: object | None) -> str | None:
    """The shipped language a Discord locale (such as `es-ES`, or discord.py's Locale for it)
    reads, or None for one we do not ship (English is the fallback, or the server's language)."""
    if discord_locale is None:
        return None
    return DISCORD_LOCALES.get(str(getattr(discord_locale, "value", discord_locale)))


def choose_language(member_locale: object | None, server_language: str | None) -> str:
    """The language to answer in: the member's Discord language if shipped, else the server's
    default (/settings language), else English."""
    return language_of(member_locale) or (server_language if server_language in LANGUAGES else ENGLISH)
