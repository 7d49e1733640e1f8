"""The engine's sentences as data (bot/game/phrases.py) and its message catalog, the `engine`
gettext domain (bot/engine_catalog.py): every msgid the source marks is in the template and
translated in every language with the same fields, and a translated phrase reads as it should."""

from __future__ import annotations

import ast
import gettext
import io
import pickle

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from bot.engine_catalog import GAME_DIR, LANGUAGES, TEMPLATE, catalog_path, extract_engine_messages, read_catalog
from bot.game import IllegalMoveError, Move, NotationError, UnknownGameError, describe_game, new_game
from bot.game.phrases import ENGLISH, EXTRACTION_KEYWORDS, Phrase, PhrasedError, Sentences, field_names
from bot.game.race import BeatenError, new_race
from bot.words import DISCORD

GAME_SOURCES = sorted(GAME_DIR.glob("*.py"))
# Fields that a call fills by itself: a counted phrase's count, a beaten card's player and card.
GIVEN_BY_THE_CALL = {"counted": {"count"}, "BeatenError": {"player", "card"}}


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    """The engine's msgids, extracted afresh from bot/game."""
    return extract_engine_messages()


def _ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {message.id for message in catalog if message.id}


def _fields(texts: str | tuple[str, ...] | list[str]) -> set[str]:
    return set().union(*(field_names(text) for text in ([texts] if isinstance(texts, str) else texts)))


def test_the_template_holds_exactly_the_msgids_of_the_source(extracted: Catalog) -> None:
    assert len(_ids(extracted)) > 150  # every raise site, rule sentence and title: not a handful
    assert _ids(read_catalog(TEMPLATE)) == _ids(extracted), "run `python -m bot.engine_catalog`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_message_is_translated_with_the_same_fields(extracted: Catalog, language: str) -> None:
    catalog = read_catalog(catalog_path(language), language)
    problems = []
    for message in extracted:
        if not message.id:
            continue
        translated = catalog.get(message.id)
        strings = [] if translated is None else list(translated.string) if message.pluralizable else [translated.string]
        if translated is None or translated.fuzzy or not all(strings):
            problems.append(f"untranslated: {message.id!r}")
        elif len(strings) != (catalog.num_plurals if message.pluralizable else 1):
            problems.append(f"wrong number of plural forms: {message.id!r}")
        elif any(_fields(string) != _fields(message.id) for string in strings):
            problems.append(f"fields differ: {message.id!r} -> {strings!r}")
    assert not problems, "\n".join(problems)
    assert not list(catalog.check())  # Babel's own checks (plural forms, formats) find nothing


def test_every_marked_call_in_the_engine_has_a_literal_template() -> None:
    """A template that is not a string literal where it is made escapes the extractor; a phrase
    made elsewhere goes through `from_phrase` or `Phrase.marked`. (phrases.py defines the marks.)"""
    calls = []
    for path in GAME_SOURCES:
        if path.name == "phrases.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in EXTRACTION_KEYWORDS:
                continue
            calls.append(name)
            positions = EXTRACTION_KEYWORDS[name] or (1,)
            literal = all(len(node.args) >= position and isinstance(node.args[position - 1], ast.Constant)
                          and isinstance(node.args[position - 1].value, str) for position in positions)
            assert literal, f"{path.name}:{node.lineno}: {name}(...) without a literal template"
            given = {keyword.arg for keyword in node.keywords} | GIVEN_BY_THE_CALL.get(name, set())
            if None not in given:  # no **values: every field of the template must be given by name
                needed = _fields([node.args[position - 1].value for position in positions])
                assert needed <= given, f"{path.name}:{node.lineno}: no value for {needed - given}"
    assert {"Phrase", "counted", "N_", "IllegalMoveError", "NotationError", "UnknownGameError"} <= set(calls)


def test_the_engine_imports_no_translation_machinery() -> None:
    banned = {"babel", "gettext", "discord", "bot.words", "bot.i18n"}
    for path in GAME_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] in banned or name in banned for name in names), (path.name, names)


def test_an_illegal_move_carries_its_template_and_values_and_says_the_same_english() -> None:
    game = new_game("canfield", deal=1)
    with pytest.raises(IllegalMoveError) as caught:
        game.play("d t9f")
    error = caught.value
    assert error.template == "{text!r} is not legal: this game has no pile {pile}"
    assert error.values == {"text": "t9f", "pile": "t9"}
    assert str(error) == "'t9f' is not legal: this game has no pile t9"
    assert [str(move) for move in error.played] == ["d"]  # the draw before it stands


def test_a_reason_is_a_phrase_within_the_error() -> None:
    game = new_game("canfield", cards=_canfield_deck())
    with pytest.raises(IllegalMoveError) as caught:
        game.play("t1t2")
    error = caught.value
    assert error.template == "{text!r} is not legal: {reason}" and error.values["text"] == "t1t2"
    explained = error.values["reason"]
    assert isinstance(explained, Phrase) and explained.template == "{reason}; {alternatives}"
    reason = explained.values["reason"]
    assert isinstance(reason, Phrase)
    assert reason.template == "{card} cannot go on {target} ({pile} builds down {build})"
    assert {key: value for key, value in reason.values.items() if key != "build"} == {
        "card": "2C", "target": "3C", "pile": "t2"}
    assert str(error) == ("'t1t2' is not legal: 2C cannot go on 3C (t2 builds down in alternate colours); "
                          + str(explained.values["alternatives"]))


def test_notation_errors_carry_the_token_the_template_and_the_examples() -> None:
    game = new_game("canfield", deal=1)
    with pytest.raises(NotationError) as caught:
        game.play("zz9")
    error = caught.value
    assert error.token == "zz9" and error.template == "{problem}: {examples}"
    problem = error.values["problem"]
    assert isinstance(problem, Phrase) and problem.template == "cannot read {text!r}"
    assert problem.values == {"text": "zz9"} and error.values["examples"] == game.examples
    assert str(error) == f"cannot read 'zz9': {game.examples}"


def test_unknown_games_and_options_are_phrased() -> None:
    with pytest.raises(UnknownGameError) as caught:
        new_game("klondike")
    assert caught.value.template == "unknown game {name!r}; games: {games}"
    assert caught.value.values["name"] == "klondike" and str(caught.value).startswith("unknown game 'klondike'; ")
    with pytest.raises(UnknownGameError) as caught:
        new_game("canfield", draw=9)
    assert caught.value.values == {"value": "9"} and str(caught.value) == "draw=9: draw 1 to 6 cards"


def test_a_beaten_card_names_the_player_and_the_card_and_survives_pickling() -> None:
    race = new_race(5, players=2)
    error = BeatenError("{problem}: player {player} got their {card} there first", owner=1,
                        card=race.hands[0].piles["s"][-1], problem=Phrase("the race is over"))
    assert error.values["player"] == "2" and error.values["card"] == str(error.card)
    twin = pickle.loads(pickle.dumps(error))
    assert type(twin) is BeatenError and (twin.owner, twin.card, twin.phrase) == (1, error.card, error.phrase)
    assert str(twin) == str(error)


def test_errors_with_braces_in_the_typed_text_survive_pickling() -> None:
    with pytest.raises(NotationError) as caught:
        new_game("canfield", deal=1).play("{x}")
    twin = pickle.loads(pickle.dumps(caught.value))
    assert twin.token == "{x}" and str(twin) == str(caught.value) and twin.values == caught.value.values


def test_rules_and_move_descriptions_are_phrases_in_english_by_default() -> None:
    rules = describe_game("storehouse")
    assert isinstance(rules, Sentences) and str(rules).startswith("Storehouse: build the four foundations up")
    assert rules.phrases[0].values["rank"] == "2"
    game = new_game("canfield", cards=_canfield_deck())
    said = game.describe(Move("t1", "f1"))
    assert said == Phrase("{cards} to its foundation", cards="2C") and said.render(ENGLISH) == str(said)
    assert DISCORD.engine(said) == "2C to its foundation"
    assert DISCORD.engine(IllegalMoveError("{text!r} is not legal", text="x")) == "'x' is not legal"


def _translations(language: str) -> gettext.GNUTranslations:
    """The real catalog of `language`, compiled as the bot would load it."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(catalog_path(language), language))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def test_a_phrase_said_in_french_translates_each_part_and_keeps_the_notation() -> None:
    french = _translations("fr")
    game = new_game("canfield", cards=_canfield_deck())
    with pytest.raises(IllegalMoveError) as caught:
        game.play("t1t2")
    said = caught.value.phrase.render(french)
    assert said.startswith("'t1t2' n'est pas permis : 2C ne peut pas aller sur 3C "
                           "(t2 se monte en descendant en alternant rouge et noir) ; ")
    assert "t1" in said and "is not legal" not in said


@pytest.mark.parametrize(("count", "german"), [(1, "mit 1 Neuverteilung."), (2, "mit 2 Neuverteilungen.")])
def test_plural_forms_follow_the_count(count: int, german: str) -> None:
    phrase = Phrase.counted("Then the stock turns {count} card at a time, with {redeals}.",
                            "Then the stock turns {count} cards at a time, with {redeals}.", 3,
                            redeals=Phrase.counted("{count} redeal", "{count} redeals", count))
    assert phrase.render(_translations("de")) == f"Dann deckt der Talon 3 Karten auf einmal auf, {german}"
    assert str(phrase).endswith(f"with {count} redeal{'s' if count > 1 else ''}.")


def test_titles_are_marked_msgids_and_every_rules_text_is_translated() -> None:
    spanish = _translations("es_ES")
    for name in ("canfield", "demons-and-thieves", "patriarchs", "picture-patience"):
        rules = describe_game(name)
        said = rules.render(spanish)
        assert said != str(rules) and "Score" not in said and "Puntuación: 50" in said
    assert spanish.gettext("Demons and Thieves") == "Demonios y ladrones"


def test_a_phrase_is_a_value() -> None:
    phrase = Phrase("{card} cannot go on {target}", card="7H", target=Phrase("{pile} is empty", pile="t1"))
    twin = Phrase(phrase.template, **phrase.values)
    assert phrase == twin == pickle.loads(pickle.dumps(phrase)) and hash(phrase) == hash(twin)
    assert phrase != Phrase("{card} cannot go on {target}", card="7H", target="t1")
    with pytest.raises(AttributeError):
        phrase.template = "something else"  # type: ignore[misc]
    counted = Phrase.counted("{count} redeal", "{count} redeals", 2)
    assert counted.values == {"count": "2"} and pickle.loads(pickle.dumps(counted)) == counted
    with pytest.raises(KeyError):
        str(Phrase("{card} cannot go on {target}", card="7H"))  # a field without a value: the static test's job
    assert issubclass(IllegalMoveError, PhrasedError) and issubclass(NotationError, PhrasedError)


def _canfield_deck() -> list[str]:
    """A Canfield deck whose columns hold 2C, 3C, 4D, 5S (t1..t4), foundations based on AC."""
    from bot.game.cards import full_deck

    head = ["AC", *["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "KD", "QD", "JD"], "2C", "3C", "4D",
            "5S"]
    rest = [str(card) for card in full_deck() if str(card) not in head]
    return head + rest

