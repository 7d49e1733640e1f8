"""What the table's page (bot/web) reads: its fixed words, and why a link does not open."""

from __future__ import annotations

from bot.play.errors import ActivityRefused, BadLink, PlayError, TableOff
from bot.play.links import LINK_SECONDS
from bot.words.voice import Voice


def page_words(voice: Voice) -> dict[str, str]:
    """The page's fixed words in the voice's language, by the names the page knows them by."""
    _ = voice.gettext
    return {"draw": _("Draw"), "undo": _("Undo"), "hint": _("Hint"), "auto": _("Auto"), "resign": _("Resign"),
            "type_here": _("Type moves, such as wt4"), "send": _("Send"), "over": _("This game is over."),
            "reconnecting": _("Connection lost: reconnecting…"), "language": voice.language}


def view_words(voice: Voice) -> dict[str, str]:
    """The replay page's fixed words."""
    _ = voice.gettext
    return {"play": _("Play"), "pause": _("Pause"), "back": _("Step back"), "forward": _("Step forward"),
            "start": _("To the deal"), "end": _("To the end"), "speed": _("Speed"), "score": _("Score"),
            "move": _("Move {number} of {moves}"), "language": voice.language}


def link_error_text(error: PlayError, voice: Voice) -> str:
    """Why a link to the table, or the table as an Activity, does not open ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case BadLink(why="expired"):
            return _("This link has expired: ask for a new one with {table} or the board's Open table button.",
                     table=voice.command("table"))
        case BadLink(why="used"):
            return _("This link was opened already, in another browser: ask for a new one with {table}.",
                     table=voice.command("table"))
        case BadLink(why="other"):
            return _("This browser holds another member's table: open the link in a browser of your own.")
        case TableOff():
            return _("This bot does not serve the table in a browser: its admin can turn it on (WEB_PORT).")
        case ActivityRefused(why="off"):
            return _("This bot does not serve the table as a Discord Activity: its admin can turn it on "
                     "(DISCORD_CLIENT_SECRET).")
        case ActivityRefused():
            return _("Discord did not confirm who you are: close the Activity and start it again.")
        case BadLink():
            return _("This link does not open a table: ask for a new one with {table}.", table=voice.command("table"))
    return ""


def table_link_text(voice: Voice) -> str:
    """What comes with a link to the member's table."""
    return voice.gettext("Your game on a table in your browser: drag the cards, or tap a card then a pile. The link is "
                         "yours alone: it opens once, within {minutes} minutes.", minutes=LINK_SECONDS // 60)
