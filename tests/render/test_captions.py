"""The words on the board images in the player's language: worded by the presenter's voice
(bot.words `board_captions`, `race_captions`), drawn by the renderer where the English ones were."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from PIL import Image, ImageChops

from bot.play.replies import DealLabel
from bot.words import TERMINAL, board_captions, race_captions
from render.board import GEOMETRY, board_plan, render_image
from render.captions import RaceCaptions
from render.captions import board_captions as english_board
from render.captions import race_captions as english_race
from render.race import foundation_tray, progress_bar_box, render_race_board_image, render_race_table_image
from tests.render.test_race_boards import finished_race, mid_race
from tests.samples import blocked_game, sample_game, won_game

LABEL = DealLabel()  # a solo game's deal: drawn as the engine numbers it

SPANISH, GERMAN = TERMINAL.speaking("es_ES"), TERMINAL.speaking("de")


def changed_rows(first, second) -> set[int]:
    """The rows where two images of one size differ."""
    difference = ImageChops.difference(first, second).convert("L")
    width = first.width
    data = difference.tobytes()
    return {row for row in range(first.height) if any(data[row * width:(row + 1) * width])}


def test_the_captions_come_from_the_catalog_and_english_is_the_renderers_default() -> None:
    blocked = blocked_game("canfield")
    assert board_captions(blocked, TERMINAL, LABEL) == english_board(blocked)
    spanish = board_captions(blocked, SPANISH, LABEL)
    assert spanish.blocked == f"Bloqueada: ninguna jugada sirve · −{-blocked.score}"
    assert spanish.score == f"puntuación −{-blocked.score}"
    assert spanish.passes == "pasada 1 · ∞ repartos" and spanish.draw == "robar 3" and spanish.base == "base A"
    assert board_captions(won_game("canfield"), GERMAN, LABEL).won.startswith("Gewonnen! ")
    limited = sample_game("demons-and-thieves", "fresh")
    assert board_captions(limited, GERMAN, LABEL).passes == "Durchgang 1 · 2 Neugeben übrig"
    assert board_captions(limited, SPANISH, LABEL).passes == "pasada 1 · quedan 2 repartos"
    assert board_captions(sample_game("canfield-one-pass", "fresh"), SPANISH, LABEL).title == "Canfield (una pasada)"


def test_a_spanish_board_differs_from_the_english_one_only_in_its_words() -> None:
    marked = sample_game("patriarchs", "mid")  # its marks over the foundation columns
    for game in (sample_game("canfield", "fresh", deal=7), blocked_game("canfield"), won_game("canfield"), marked):
        english = render_image(game, player="Ana")
        spanish = render_image(game, player="Ana", captions=board_captions(game, SPANISH, LABEL))
        assert english.size == spanish.size
        rows = changed_rows(english, spanish)
        assert rows and any(row < GEOMETRY.header for row in rows)  # the header's words changed
        box = board_plan(game).banner
        banner = range(box[1], box[3] + 1) if box is not None else range(0)
        marks = range(GEOMETRY.header, GEOMETRY.header + GEOMETRY.mark) if game is marked else range(0)
        assert all(row < GEOMETRY.header or row in banner or row in marks for row in rows), sorted(rows)[-5:]
        if game.outcome is not None:
            assert any(row in banner for row in rows)  # the banner's words changed too
        if game is marked:
            assert any(row in marks for row in rows)  # and the marks'


def test_the_race_boards_speak_the_players_language() -> None:
    race = finished_race("klondike")
    names = ["Ana", "Bo", "Cy"]
    assert race_captions(race, TERMINAL) == english_race(race)
    spanish = race_captions(race, SPANISH)
    assert spanish.headline == "¡Demonio! {name} ha terminado" and spanish.players == "3 jugadores"
    assert spanish.title == "Carrera de demonios"
    assert spanish.lines[1] == f"{race.on_foundations(1)} en las fundaciones · quedan {race.cards_left(1)}"
    for draw in (lambda captions: render_race_table_image(race, names=names, number=4, captions=captions),
                 lambda captions: render_race_board_image(race, 0, names=names, number=4, captions=captions)):
        english, translated = draw(None), draw(spanish)
        assert english.size == translated.size
        assert ImageChops.difference(english, translated).getbbox() is not None


def test_a_replay_draws_every_frame_with_the_words_of_the_members_language() -> None:
    import pickle
    from functools import partial

    from render.replay import replay_gif
    from tests.render.test_replay import frames_of, record_of

    record = record_of(won_game("canfield"))
    # As a drawing process gets it:
    words = pickle.loads(pickle.dumps(partial(board_captions, voice=SPANISH, label=LABEL)))
    english, spanish = frames_of(replay_gif(record, player="Ana")), frames_of(replay_gif(record, player="Ana",
                                                                                          captions=words))
    assert len(english) == len(spanish)
    for (first, _), (second, _) in zip(english, spanish, strict=True):
        first, second = first.convert("RGB"), second.convert("RGB")
        header = (0, 0, first.width, GEOMETRY.header)
        assert first.crop(header).tobytes() != second.crop(header).tobytes()


def test_a_players_name_gives_way_to_the_headers_details_and_never_covers_them() -> None:
    from render import THEMES

    game = sample_game("storehouse", "mid", die="game")  # the longest details line: German, with the die
    edge = THEMES["dark"].felt_edge
    for words, drawn in ((board_captions(game, GERMAN, LABEL), False), (board_captions(game, TERMINAL, LABEL), True)):
        bare = render_image(game, theme="dark", captions=words)
        named = render_image(game, theme="dark", player="Bartholomäus-Friedrich", captions=words)
        changed = ImageChops.difference(bare, named).convert("L").point(lambda value: 255 if value else 0)
        assert (changed.getbbox() is not None) is drawn
        under = Image.composite(bare, Image.new("RGB", bare.size, edge), changed)  # what the name was drawn on
        assert under.getcolors() == [(bare.width * bare.height, edge)]  # the header's plain band, nothing else


def test_a_long_deal_name_never_runs_into_the_score() -> None:
    """A match's round names its deal by match and round ("Match n° 99999 · manche 99"), longer than
    any number: beside the longest title it is drawn smaller, then shortened, left of the score."""
    from render import THEMES

    game = sample_game("canfield-one-pass", "fresh")
    theme = THEMES["classic"]
    for label in (DealLabel(match_id=99_999, round=99), DealLabel(day="2026-11-27"), DealLabel(number=999_999_999)):
        words = board_captions(game, TERMINAL.speaking("fr"), label)
        image = render_image(game, captions=words)
        band = image.crop((0, 6, image.width, 40))
        pixels = band.load()
        deal = [x for x in range(band.width) for y in range(band.height) if pixels[x, y] == theme.muted]
        assert deal, label  # the deal's name is drawn (its cores in the muted colour) ...
        score = [x for x in range(min(deal), band.width) for y in range(band.height) if pixels[x, y] == theme.text]
        assert score and min(score) > max(deal), label  # ... and ends before the score begins


@pytest.mark.parametrize("language", ["de", "es_ES", "fr", "pt_BR"])
@pytest.mark.parametrize("layout", ["klondike", "demon"])
def test_every_word_on_a_race_image_is_translated(language: str, layout: str) -> None:
    race = mid_race(3, layout)
    english, translated = english_race(race), race_captions(race, TERMINAL.speaking(language))
    for field in fields(RaceCaptions):
        assert getattr(translated, field.name) != getattr(english, field.name), field.name


def test_a_spanish_race_image_names_the_unnamed_player_and_the_layout_in_spanish() -> None:
    race = mid_race(3, "demon")
    names = ["Ana", "", "Cy"]
    english, spanish = english_race(race), race_captions(race, SPANISH)
    assert spanish.unnamed[1] == "jugador 2" and spanish.layout == "disposición de Racing Demon"
    assert spanish.foundations == f"fundaciones compartidas · {len(race.foundation_tops())} de 12"
    # Each word swapped alone changes the image only where it is drawn.
    unnamed = replace(english, unnamed=spanish.unnamed)
    table = render_race_table_image(race, names=names, captions=english)
    rows = changed_rows(table, render_race_table_image(race, names=names, captions=unnamed))
    line = progress_bar_box(race, 1)[1] - 32  # the second player's line: their name above their bar
    assert rows and all(line <= row < line + 32 for row in rows), sorted(rows)
    for draw in (lambda captions: render_race_table_image(race, names=names, captions=captions),
                 lambda captions: render_race_board_image(race, 0, names=names, captions=captions)):
        rows = changed_rows(draw(english), draw(replace(english, layout=spanish.layout)))
        assert rows and all(row < GEOMETRY.header for row in rows), sorted(rows)
        rows = changed_rows(draw(english), draw(replace(english, foundations=spanish.foundations)))
        tray = foundation_tray(race, draw(english).width)
        assert rows and all(tray[1] <= row < tray[1] + GEOMETRY.label for row in rows), sorted(rows)
