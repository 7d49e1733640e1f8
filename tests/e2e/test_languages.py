"""Languages end to end: the slash commands registered with their translations, members who see
their own Discord language, typed messages answered in the server's language (/settings language)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.game import new_game
from render.board import GEOMETRY, render

from .fakediscord import FakeDiscord, StoredMessage
from .harness import BotRunner, said
from .test_bot import start

SHIPPED = ("de", "es-ES", "fr", "pt-BR")


def labels(message: StoredMessage) -> set[str]:
    return {button.label or "" for button in message.buttons}


async def typed(fake: FakeDiscord, user: str, text: str) -> StoredMessage:
    """Mention the bot with `text` and wait for its reply."""
    sent = await fake.message(user, text, mentions_bot=True)
    return await fake.wait_for_bot_message(
        after=sent, predicate=lambda m: (m.message_reference or {}).get("message_id") == str(sent.id))


async def test_every_command_is_registered_in_the_four_languages(fake: FakeDiscord, bots: BotRunner,
                                                                 tmp_path: Path) -> None:
    await start(bots, tmp_path)  # the fake refuses a sync whose localizations break Discord's rules
    play = fake.find_command("play")
    assert play["name_localizations"] == {"de": "spielen", "es-ES": "jugar", "fr": "jouer", "pt-BR": "jogar"}
    assert play["description_localizations"]["es-ES"] == \
        "Empieza aquí una partida de solitario (o muestra la que tienes)"
    die = next(option for option in play["options"] if option["name"] == "die")
    assert die["name_localizations"]["fr"] == "dé"
    assert {choice["name_localizations"]["de"] for choice in die["choices"]} == {"aus", "spiel", "passen"}
    for command in fake.commands[None]:
        assert set(command["name_localizations"]) == set(SHIPPED), command["name"]
        assert set(command["description_localizations"]) == set(SHIPPED), command["name"]
        for option in command.get("options", []):
            assert set(option["name_localizations"]) == set(SHIPPED), (command["name"], option["name"])
    settings = fake.find_command("settings")
    language = next(option for option in settings["options"] if option["name"] == "language")
    assert [choice["name"] for choice in language["choices"]] == [
        "English", "Deutsch", "Español", "Français", "Português do Brasil"]
    assert not any(choice.get("name_localizations") for choice in language["choices"])  # the same everywhere


async def test_each_member_reads_their_language_and_typed_messages_the_servers(fake: FakeDiscord, bots: BotRunner,
                                                                               tmp_path: Path) -> None:
    await start(bots, tmp_path)
    fake.set_locale("alice", "es-ES")
    fake.set_locale("bob", "fr")
    carol = fake.add_user("carol", permissions=0)  # English (en-US), no Manage Server

    spanish = await (await fake.slash_command("alice", "play", {"deal": 1})).wait_response()
    assert said(spanish) == "Nueva partida de Canfield, reparto #1. ¡Suerte!"
    assert {"Robar (34)", "Auto ▲", "Deshacer", "Pista", "Rendirse", "r · QC"} <= labels(spanish)
    assert spanish.selects[0].placeholder == "Elige cartas para mover y luego un montón…"
    assert spanish.text_displays()[0] == \
        "**Canfield** · reparto #1 · puntuación -12 · mazo 34 · repartos ilimitados"  # the status line
    assert spanish.attachment("board.png").description.startswith(
        "Tablero de Canfield, reparto #1, puntuación -12, repartos ilimitados. Fundaciones: f1 vacío")
    # The board image's words are Spanish too: below the header, the same pixels as the English board.
    drawn = Image.open(io.BytesIO(spanish.attachment("board.png").data)).convert("RGB")
    english = Image.open(io.BytesIO(render(new_game("canfield", deal=1), player="alice"))).convert("RGB")
    assert drawn.size == english.size
    header = (0, 0, drawn.width, GEOMETRY.header)
    assert drawn.crop(header).tobytes() != english.crop(header).tobytes()
    assert drawn.crop((0, GEOMETRY.header, *drawn.size)).tobytes() == \
        english.crop((0, GEOMETRY.header, *english.size)).tobytes()
    hinted = await (await fake.click("alice", spanish, label="Pista")).wait_response()
    assert hinted.id == spanish.id and said(hinted).startswith("Pista: ")

    french = await (await fake.slash_command("bob", "play", {"deal": 1})).wait_response()
    assert said(french) == "Nouvelle partie de Canfield, donne n° 1. Bonne chance !"
    assert {"Piocher (34)", "Annuler", "Indice", "Abandonner"} <= labels(french)
    again = await (await fake.slash_command("bob", "play", {})).wait_response()
    assert said(again) == "Vous avez déjà une partie ici : la voici. /abandonner y met fin."
    refused = await (await fake.slash_command("bob", "race board", {})).wait_response()
    assert refused.ephemeral and said(refused) == "Vous n’êtes dans aucune course ici : /course ouvrir en lance une."

    # A typed message carries no language: the server's, English until /settings says otherwise.
    assert said(await typed(fake, "carol", "board")) == \
        "You have no game in this channel: start one with /play."
    assert said(await typed(fake, "alice", "draw")) == "Played d."

    denied = await (await fake.slash_command(carol, "settings", {"language": "fr"})).wait_response()
    assert said(denied) == "Only members with Manage Server can change the settings."
    assert said(await typed(fake, "carol", "board")).startswith("You have no game")  # nothing changed

    changed = await (await fake.slash_command("alice", "settings", {"language": "de"})).wait_response()
    assert said(changed).startswith("Ajustes cambiados.") and "idioma **Deutsch**" in said(changed)
    assert said(await typed(fake, "carol", "board")) == \
        "Du hast in diesem Kanal kein Spiel: beginne eins mit /spielen."
    # A member whose Discord language the bot does not speak reads the server's; the others their own.
    german = await (await fake.slash_command(carol, "play", {"deal": 2})).wait_response()
    assert said(german) == "Neues Spiel Canfield, Austeilung #2. Viel Glück!" and "Tipp" in labels(german)
    bob_hint = await (await fake.slash_command("bob", "hint", {})).wait_response()
    assert said(bob_hint).startswith("Indice : ")
