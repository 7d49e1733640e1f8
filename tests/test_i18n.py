"""The message catalogs (bot/locales) against the code, the slash commands' translations against
Discord's rules, and the choice of a member's language."""

from __future__ import annotations

import ast
import re
import string
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot.catalog import ROOT, SOURCES, cog_commands, command_messages, extract, read_catalog, template_path
from bot.game import Phrase, new_game
from bot.i18n import CHOICE, COMMAND, DOMAINS, OPTION, catalog_path, translations
from bot.languages import ENGLISH, LANGUAGES, choose_language, language_of
from bot.play.errors import BadSetting, NoGameHere
from bot.play.events import Refused
from bot.play.settings import change_settings, load_settings
from bot.store import open_store
from bot.views.translator import CommandTranslator, command_word
from bot.words import DISCORD, TERMINAL, error_text, event_text

# The calls whose first argument is a message of the catalogs (bot.catalog.KEYWORDS but pgettext's context).
TRANSLATING = ("_", "N_", "gettext", "ngettext")
# Discord's rule for command and option names (lowercase where the script has case).
NAME = re.compile(r"^[-_\w]{1,32}$")
# Discord takes descriptions and choice names of 1 to 100 characters; ours keep a margin.
WORDS_LIMIT = 90


def fields(text: str) -> set[str]:
    """The {placeholders} of a format string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def keys(catalog) -> set[tuple[str | None, str]]:
    return {(message.context, message.id if isinstance(message.id, str) else message.id[0])
            for message in catalog if message.id}


def test_the_template_is_what_the_code_says_now() -> None:
    fresh, committed = extract(), read_catalog(template_path("bot"))
    assert keys(fresh) == keys(committed), "run `python -m bot.catalog extract` and `python -m bot.catalog update`"


def test_every_sentence_the_code_translates_is_in_the_template() -> None:
    """Babel's extractor misses a call inside another call's arguments (`_("… {b}", b=bold(_("x")))`):
    every literal the code hands to the voice must reach the catalogs all the same."""
    extracted = {message_id for _context, message_id in keys(extract())}
    missed = []
    for source in SOURCES:
        path = ROOT / source
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for node in ast.walk(ast.parse(file.read_text())):
                called = getattr(node, "func", None)
                if (isinstance(node, ast.Call) and isinstance(called, ast.Attribute | ast.Name)
                        and getattr(called, "attr", getattr(called, "id", None)) in TRANSLATING
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and node.args[0].value not in extracted):
                    missed.append(f"{file.relative_to(ROOT)}:{node.lineno}: {node.args[0].value!r}")
    assert not missed, "\n".join(missed)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_with_the_same_placeholders(domain: str, language: str) -> None:
    if not template_path(domain).exists():
        pytest.skip(f"no {domain} template yet")
    template = extract() if domain == "bot" else read_catalog(template_path(domain))
    catalog = read_catalog(catalog_path(language, domain), language)
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = () if found is None else found.string if isinstance(found.string, tuple) else (found.string,)
        if found is None or not all(strings):
            problems.append(f"untranslated: {message.context or ''} {ids[0]!r}")
            continue
        plural = len(ids) > 1  # a plural form may leave out {count} ("un jour")
        expected = fields(ids[-1]) - ({"count"} if plural else set())
        for text in strings:
            if fields(text) - ({"count"} if plural else set()) != expected:
                problems.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_catalog_holds_fuzzy_obsolete_or_stale_entries(domain: str, language: str) -> None:
    if not template_path(domain).exists():
        pytest.skip(f"no {domain} template yet")
    template = read_catalog(template_path(domain))
    catalog = read_catalog(catalog_path(language, domain), language)
    assert not [message.id for message in catalog if message.id and message.fuzzy]
    assert not catalog.obsolete
    assert keys(catalog) <= keys(template), "entries the code no longer has: run `python -m bot.catalog update`"


def test_plural_forms_follow_the_language() -> None:
    french, german = DISCORD.speaking("fr"), DISCORD.speaking("de")
    assert [french.ngettext("{count} day", "{count} days", n) for n in (0, 1, 2)] == ["0 jour", "1 jour", "2 jours"]
    assert [german.ngettext("{count} day", "{count} days", n) for n in (0, 1, 2)] == ["0 Tage", "1 Tag", "2 Tage"]


@pytest.mark.parametrize("language", [ENGLISH, *sorted(LANGUAGES)])
def test_every_localized_command_follows_discords_rules(language: str) -> None:
    """Names (of commands, groups and options) by Discord's rule and unique among their
    siblings; descriptions and choice names within Discord's 100 characters with a margin, so
    that a translation reworded a little longer still fits."""
    def words(context: str | None, text: str) -> str:
        said = command_word(language, context, text)
        assert 1 <= len(said) <= WORDS_LIMIT, (len(said), said)
        return said

    def check(commands) -> None:
        names = [command_word(language, COMMAND, command.name) for command in commands]
        assert len(set(names)) == len(names), names
        for command, name in zip(commands, names, strict=True):
            assert NAME.fullmatch(name) and name == name.lower(), name
            words(None, command.description)
            if isinstance(command, app_commands.Group):
                check(command.commands)
                continue
            options = [command_word(language, OPTION, parameter.name) for parameter in command.parameters]
            assert len(set(options)) == len(options), options
            for parameter, option in zip(command.parameters, options, strict=True):
                assert NAME.fullmatch(option) and option == option.lower(), option
                words(None, parameter.description)
                for choice in parameter.choices:
                    words(CHOICE, choice.name)

    check(cog_commands())


def test_the_command_rules_check_sees_what_discord_refuses() -> None:
    assert not NAME.fullmatch("x" * 33) and not NAME.fullmatch("two words") and not NAME.fullmatch("")
    assert NAME.fullmatch("défi-du-jour") and NAME.fullmatch("objectif_équipe") and NAME.fullmatch("t10")
    assert WORDS_LIMIT < 100


async def test_the_translator_speaks_the_shipped_languages_only() -> None:
    translator, play = CommandTranslator(), app_commands.locale_str("play")
    where = SimpleNamespace(location=app_commands.TranslationContextLocation.command_name)
    assert await translator.translate(play, discord.Locale.spain_spanish, where) == "jugar"
    assert await translator.translate(play, discord.Locale.brazil_portuguese, where) == "jogar"
    assert await translator.translate(play, discord.Locale.italian, where) is None
    assert await translator.translate(play, discord.Locale.american_english, where) is None
    kept = app_commands.locale_str("Deutsch", kept=True)
    assert await translator.translate(kept, discord.Locale.french, where) is None
    assert ("command", "play") in set(command_messages(cog_commands()))


def test_a_members_language_then_the_servers_then_english() -> None:
    assert language_of("es-ES") == "es_ES" and language_of(discord.Locale.brazil_portuguese) == "pt_BR"
    assert language_of("es-419") is None and language_of(None) is None
    assert choose_language("fr", "de") == "fr"
    assert choose_language("en-US", "de") == "de"
    assert choose_language("ja", None) == "en"
    assert choose_language(None, "klingon") == "en"


def test_a_voice_speaks_its_language_and_the_engines_data() -> None:
    spanish = DISCORD.speaking("es_ES")
    assert error_text(NoGameHere(), spanish) == "No tienes ninguna partida en este canal: empieza una con /jugar."
    assert error_text(NoGameHere(), TERMINAL.speaking("es_ES")) == \
        "No tienes ninguna partida en este canal: empieza una con play."  # the terminal's commands stay
    assert error_text(NoGameHere(), DISCORD) == "You have no game in this channel: start one with /play."

    game = new_game("canfield", deal=1)
    move = next(move for move in game.legal_moves() if not move.is_draw)
    described = game.describe(move)  # a Phrase of the engine, its template a msgid of the engine catalog
    assert isinstance(described, Phrase)
    expected = translations("es_ES", "engine").gettext(described.template)
    assert expected != described.template  # the engine catalog speaks Spanish
    assert spanish.engine(described) == described.render(translations("es_ES", "engine"))
    assert DISCORD.engine(described) == described.render()
    reply = SimpleNamespace(game=None)
    assert event_text(Refused(ValueError("plain text")), reply, spanish) == "plain text"  # no phrase: as it is


async def test_the_server_language_is_a_setting_that_refuses_an_unknown_one(database_url: str) -> None:
    store = await open_store(database_url)
    try:
        assert (await load_settings(store, 5)).language is None
        assert (await change_settings(store, 5, language="pt_BR")).language == "pt_BR"
        with pytest.raises(BadSetting) as refused:
            await change_settings(store, 5, language="xx")
        assert error_text(refused.value, DISCORD) == "Unknown language 'xx'; languages: en, de, es_ES, fr, pt_BR."
        assert (await load_settings(store, 5)).language == "pt_BR"
        assert (await load_settings(store, 6)).language is None  # another server's is its own
    finally:
        await store.close()
