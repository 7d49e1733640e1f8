"""What a player reads of fair play (bot/play/secrecy.py): why nothing of a live deal is shown,
and why an answer asked for in public is shown to its member alone."""

from __future__ import annotations

from bot.game import TITLES
from bot.play.errors import DealIsLive, PlayError
from bot.play.secrecy import Live, LiveDaily, Sight
from bot.words.voice import Voice, deadline_text


def secrecy_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads when a live deal is kept from them ("" for another PlayError)."""
    return live_deal_text(error, voice) if isinstance(error, DealIsLive) else ""


def live_deal_text(error: DealIsLive, voice: Voice) -> str:
    """Why nothing of a live deal is shown (bot/play/secrecy.py), by what was asked and why it is live."""
    _, live = voice.gettext, error.live
    if isinstance(live, LiveDaily):
        values = {"title": TITLES.get(live.game, live.game), "day": live.day, "time": deadline_text(live.day)}
        if error.sight is Sight.CARDS and live.day_over:
            return _("The {title} daily of {day} is still being finished by others: its deal stays hidden from you "
                     "until it is over ({time} at the latest).", **values)
        if error.sight is Sight.CARDS:
            return _("Play your own {title} daily of {day} first ({daily}): until then its deal stays hidden from "
                     "you.", daily=voice.command("daily"), **values)
        if error.sight is Sight.COPY:
            return _("That deal is being played as the {title} daily of {day}: it can be dealt on its own once the "
                     "daily is over ({time} at the latest).", **values)
        if error.copy:
            return _("This game has the same cards as the {title} daily of {day}, still being played: what the "
                     "solver finds about them stays hidden until it is over ({time} at the latest).", **values)
        return _("The {title} daily of {day} is still being played: what the solver finds about its deal stays "
                 "hidden until it is over ({time} at the latest).", **values)
    values = {"round": live.round, "match": live.match_id}
    if error.sight is Sight.CARDS:
        return _("Finish your own game of round {round} of match #{match} first: until then its deal stays "
                 "hidden from you.", **values)
    if error.sight is Sight.COPY:
        return _("That deal is being played in round {round} of match #{match}: it can be dealt on its own once "
                 "the match is over.", **values)
    if error.copy:
        return _("This game has the same cards as round {round} of match #{match}, still open: what the solver "
                 "finds about them stays hidden until the match is over.", **values)
    return _("A match's round can be looked back on once the match is over (match #{match}).", **values)


def kept_private_text(live: Live, voice: Voice) -> str:
    """Why an answer asked for in public is shown to its member alone: its deal is live."""
    if isinstance(live, LiveDaily):
        return voice.gettext("Shown to you alone: the {title} daily of {day} stays off the channel until it is "
                             "over ({time} at the latest).", title=TITLES.get(live.game, live.game), day=live.day,
                             time=deadline_text(live.day))
    return voice.gettext("Shown to you alone: round {round} of match #{match} stays off the channel while the "
                         "match is open.", round=live.round, match=live.match_id)
