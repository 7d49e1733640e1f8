"""What a player reads of demon races: a race's events (to the player who acted, or in the channel
at the end), its refusals, and its public board's words."""

from __future__ import annotations

from bot.game.race import MAX_PLAYERS, MIN_PLAYERS, RACE_LAYOUTS
from bot.play.errors import (
    AlreadyRacing,
    DamagedRace,
    ElsewhereRace,
    NoRaceHere,
    NoSuchRace,
    NotInRace,
    NotRaceHost,
    PlayError,
    RaceChanged,
    RaceFull,
    RaceNotRunning,
    RaceUnderWay,
    TooFewRacers,
    UnknownLayout,
)
from bot.play.events import (
    Beaten,
    Event,
    Moved,
    NothingToDo,
    RaceCancelled,
    RaceEnded,
    RaceJoined,
    RaceOpened,
    RaceStarted,
    Refused,
    SeriesGoesOn,
    SeriesWon,
)
from bot.play.race import RaceReply
from bot.words.voice import Voice, played_text


def race_text(events: tuple[Event, ...], voice: Voice) -> str:
    """What a race's events say, in order: to the player who acted, or in the channel at the end."""
    return " ".join(text for event in events if (text := race_event_text(event, voice)))


def race_event_text(event: Event, voice: Voice) -> str:
    """What one event of a race says ("" for none)."""
    _ = voice.gettext
    match event:
        case RaceOpened(race_id=race_id):
            return _("Race #{race} is open: Join, then the host presses Start ({least} to {most} players).",
                     race=race_id, least=MIN_PLAYERS, most=MAX_PLAYERS)
        case RaceJoined(race_id=race_id):
            return _("You are in race #{race}.", race=race_id)
        case RaceStarted():
            return _("The race is on! Your cards are dealt.")
        case RaceCancelled(race_id=race_id):
            return _("Race #{race} is cancelled.", race=race_id)
        case Moved(played=played):
            return played_text(played, voice)
        case NothingToDo():
            return _("Nothing could be played.")
        case Refused(error=error):
            return voice.engine(error)
        case Beaten(card=card, owner=owner):
            return _("Beaten to it! {owner} got their {card} to that foundation first; your card stays where it was.",
                     owner=voice.name(owner), card=card)
        case RaceEnded(demon=demon, scores=scores, expired=expired):
            if expired:
                return _("Ended after 24 hours without a move. Scores: {scores}.", scores=standings(scores, voice))
            if demon is not None:
                return voice.bold(_("Demon!")) + " " + _("{player} went out. Scores: {scores}.",
                                                         player=voice.mention(demon), scores=standings(scores, voice))
            return _("Nobody can move any more: the race is over. Scores: {scores}.", scores=standings(scores, voice))
        case SeriesWon(winner=winner, points=points, target=target, totals=totals):
            return voice.bold(_("The demon is exorcised!")) + " " + _(
                "{player} wins the series with {points} points (target {target}; {totals}).",
                player=voice.mention(winner), points=points, target=target, totals=standings(totals, voice))
        case SeriesGoesOn(hand=hand, totals=totals, target=target, next_hand=next_hand):
            button = voice.bold(_("My board"))
            return _("Totals after hand {hand}: {totals} (target {target}). Hand {next} is dealt: press {button}.",
                     hand=hand, totals=standings(totals, voice), target=target, next=next_hand, button=button)
    return ""


def standings(points: tuple[tuple[int, int], ...], voice: Voice) -> str:
    """Each player's mention and points, such as "<@1> 62, <@2> 3"."""
    return ", ".join(f"{voice.mention(user)} {score}" for user, score in points)


def race_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of races ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case DamagedRace(race_id=race_id, entry=entry, problem=problem):
            return _("Race #{race} is damaged in storage and cannot be replayed (move {entry}: {problem}).",
                     race=race_id, entry=repr(entry), problem=problem)
        case UnknownLayout(layout=layout):
            return _("Unknown layout {layout}; layouts: {layouts}.", layout=repr(layout),
                     layouts=", ".join(RACE_LAYOUTS))
        case AlreadyRacing(race_id=None):
            return _("You are already in a race in this channel.")
        case AlreadyRacing(race_id=race_id):
            return _("You are already in race #{race} in this channel.", race=race_id)
        case RaceFull(full=True, seats=seats):
            return _("That race is full: {seats} players at most.", seats=seats)
        case RaceFull():
            return _("That race is not taking players any more.")
        case NotRaceHost(action="start"):
            return _("Only the race's host can start it.")
        case NotRaceHost():
            return _("Only the race's host can cancel it.")
        case RaceUnderWay():
            return _("That race has already started.")
        case TooFewRacers(least=least):
            return _("A race needs {least} players at least: wait for someone to join.", least=least)
        case ElsewhereRace(race_id=race_id):
            return _("Race #{race} is run in another channel: its buttons work there.", race=race_id)
        case NoRaceHere():
            return _("You are in no race here: {race_open} starts one.", race_open=voice.command("race open"))
        case RaceChanged():
            return _("The race changed meanwhile: try again.")
        case NotInRace():
            return _("You are not in that race.")
        case RaceNotRunning(status="finished"):
            return _("That race is over.")
        case RaceNotRunning(status="lobby"):
            return _("That race has not started yet.")
        case RaceNotRunning():
            return _("That race is not running.")
        case NoSuchRace(race_id=race_id):
            return _("There is no race #{race}.", race=race_id)
    return ""


def public_text(reply: RaceReply, names: list[str], voice: Voice) -> str:
    """The public board's words: who is in (by mention, with the `names` they race under), and
    what to do."""
    race, _ = reply.race, voice.gettext
    who = ", ".join(map(voice.mention, race.players))
    layout = _("Racing Demon layout") if race.layout == "demon" else _("Klondike layouts")
    if race.target is not None:
        layout += _(", hands to {target} points, hand {hand}", target=race.target, hand=race.hand)
    heading = voice.bold(_("Demon race #{race}", race=race.id))
    if race.status == "lobby":
        # Translators: {heading} is the race's name, such as "Demon race #3".
        return _("{heading} ({layout}): {players} in the lobby. Join, then the host presses Start.",
                 heading=heading, layout=layout, players=who)
    if race.status == "cancelled":
        return _("Demon race #{race} was cancelled.", race=race.id)
    game = reply.game
    assert game is not None
    # Translators: {heading} is the race's name, such as "Demon race #3".
    lines = [_("{heading} ({layout}), shared foundations above.", heading=heading, layout=layout)]
    demon = voice.bold(_("Demon!"))
    for seat, user in enumerate(race.players):
        mark = f" — {demon}" if game.demon == seat else ""
        lines.append(f"{voice.mention(user)} ({voice.name(names[seat])}): " + _(
            "{cards} cards left, {founded} on the foundations", cards=game.cards_left(seat),
            founded=game.on_foundations(seat)) + mark)
    if race.status == "finished":
        lines.append(_("Final scores: {scores}.", scores=", ".join(f"{voice.name(names[s])} {p}"
                                                                   for s, p in enumerate(game.scores))))
    else:
        button = voice.bold(_("My board"))
        lines.append(_("Press {button} for your own cards.", button=button))
    return "\n".join(lines)


def not_started_text(voice: Voice) -> str:
    """What a racer's own board says before the race has started."""
    return voice.gettext("The race has not started yet.")


def only_watching_text(voice: Voice) -> str:
    """What My board says to a member who is not in the race."""
    return voice.gettext("You are not in that race: watch the board in the channel.")
