"""What a player reads of a watched board (/watch): whose game it is and how it stands."""

from __future__ import annotations

from bot.play.errors import NothingToWatch, PlayError
from bot.play.replies import Reply
from bot.words.voice import Voice, deal_text, status_text


def watched_text(reply: Reply, name: str, voice: Voice) -> str:
    """The words over a watched board: whose game (`name`, as the front end names its player:
    in Discord, `voice.mention`), which deal, how it stands; read-only."""
    game, _ = reply.game, voice.gettext
    deal = deal_text(reply.label, voice)
    state = voice.ngettext("score {score}, {count} move", "score {score}, {count} moves", len(game.moves),
                           score=game.score)
    if reply.finished:
        state += ", " + status_text(reply.status, voice)
    refresh = voice.bold(_("Refresh"))
    return _("Watching {name}'s {title}, {deal}: {state}. {refresh} shows it as it stands.", name=name,
             title=game.title, deal=deal, state=state, refresh=refresh)


def watch_error_text(error: PlayError, voice: Voice) -> str:
    """What a watcher reads when there is nothing to watch ("" for another PlayError)."""
    if isinstance(error, NothingToWatch):
        return voice.gettext("That member has no game in play in this channel.")
    return ""
