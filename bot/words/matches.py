"""What a player reads of matches and teams: a round's events, the refusals, the public scoreboard,
the answers to a match's buttons, the winner's announcement and a server's teams."""

from __future__ import annotations

from bot.game import TITLES
from bot.i18n import N_
from bot.play.errors import (
    AlreadyHosting,
    BadTeamName,
    ElsewhereMatch,
    MatchChanged,
    MatchClosed,
    NobodyJoined,
    NoSuchMatch,
    NotATeamMatch,
    NoTeamChosen,
    NotInATeam,
    NotInMatch,
    NotStarted,
    NotTheHost,
    PlayError,
    TargetOutOfRange,
    TeamMatchOffServer,
    TeamRefused,
)
from bot.play.events import Event, MatchEnded, MatchWon, RoundDealt, RoundScored
from bot.play.matches import MatchAction, MatchStatus, Scoreboard, TeamRoster
from bot.store.base import TeamProblem
from bot.words.voice import Voice, die_text, status_text

# What a member reads once a team command is done, by the command (/team create, join, leave).
TEAM_DONE = {"create": N_("You created team {team}."), "join": N_("You joined team {team}."),
             "leave": N_("You left team {team}.")}


def match_event_text(event: Event, voice: Voice) -> str:
    """What one event of a match's round says ("" for another event)."""
    _ = voice.gettext
    match event:
        case RoundDealt(match_id=match_id, round=round_number, deal=deal, resumed=resumed):
            # Never the round's deal number: it would let anyone deal it elsewhere (bot/play/secrecy.py).
            if resumed:
                return (_("Match #{match}, round {round}.", match=match_id, round=round_number)
                        if deal is not None else
                        _("Match #{match}, round {round}: a fixed deck.", match=match_id, round=round_number))
            if deal is not None:
                return _("Match #{match}, round {round}: the same deal for every player.",
                         match=match_id, round=round_number)
            return _("Match #{match}, round {round}: a fixed deck, the same for every player.",
                     match=match_id, round=round_number)
        case RoundScored():
            text = _("Round {round} over: {points} points, {total} in all.", round=event.round,
                     points=f"{event.score:+d}", total=event.total)
            if event.team is not None:
                text += " " + _("Team {team}: {points} of {target}.", team=voice.name(event.team),
                                points=event.team_points, target=event.target)
            if event.next_round is not None:
                button = voice.bold(_("Next round"))
                text += " " + _("Round {round} is dealt: press {button}.", round=event.next_round, button=button)
            return text
        case MatchWon(teams=teams):
            return voice.bold(_("The demon is exorcised!")) + " " + (
                _("You and your team win the match.") if teams else _("You win the match."))
        case MatchEnded(match_id=match_id, status=status):
            return _("Match #{match} is {status}.", match=match_id, status=status_text(status, voice))
    return ""


def match_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a refusal of matches and teams ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case AlreadyHosting(match_id=None):
            return _("You already have a match waiting in its lobby here: start or cancel it first.")
        case AlreadyHosting(match_id=match_id):
            return _("You already have a match waiting in its lobby here (#{match}): start or cancel it first.",
                     match=match_id)
        case TeamMatchOffServer():
            return _("Team matches are played on a server.")
        case TargetOutOfRange(target=target, largest=largest):
            return _("The target must be between 1 and {largest}, not {value}.", largest=largest, value=target)
        case NoSuchMatch(match_id=match_id):
            return _("There is no match #{match}.", match=match_id)
        case MatchClosed(match_id=match_id, status=status, action=action):
            values = {"match": match_id, "status": status_text(status, voice)}
            return {
                MatchAction.JOIN: _("Match #{match} is {status}: open a new one with {match_open}.",
                                    match_open=voice.command("match open"), **values),
                MatchAction.LEAVE: _("Match #{match} is {status}: its scoreboard stays as it ended.", **values),
                MatchAction.START: _("Match #{match} is {status} already.", **values),
                MatchAction.CANCEL: _("Match #{match} is {status}: nothing to cancel.", **values),
                MatchAction.PLAY: _("Match #{match} is {status}: its rounds in play ended with it, unscored.",
                                    **values),
            }[action]
        case NotInMatch(action=MatchAction.PLAY):
            return _("You are not in this match: press Join first.")
        case NotInMatch():
            return _("You are not in this match.")
        case NotTheHost(action=MatchAction.START):
            return _("Only the host, or a member with Manage Server, can start the match.")
        case NotTheHost():
            return _("Only the host, or a member with Manage Server, can cancel the match.")
        case NobodyJoined():
            return _("Nobody has joined yet.")
        case MatchChanged():
            return _("The match changed meanwhile: look again.")
        case NotStarted():
            return _("The match has not started yet: the host presses Start.")
        case ElsewhereMatch(match_id=match_id):
            return _("Match #{match} is played in another channel: its buttons work there.", match=match_id)
        case NotATeamMatch(match_id=match_id):
            return _("Match #{match} is not a team match: join it with its Join button.", match=match_id)
        case NoTeamChosen():
            return _("This is a team match: choose your team in the menu, or {team_create} one.",
                     team_create=voice.command("team create"))
        case BadTeamName(shortest=shortest, longest=longest):
            return _("A team name has {shortest} to {longest} characters.", shortest=shortest, longest=longest)
        case NotInATeam():
            return _("You are not in a team on this server.")
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=None):
            return _("You are already in a team on this server: {team_leave} first.",
                     team_leave=voice.command("team leave"))
        case TeamRefused(problem=TeamProblem.IN_A_TEAM, name=name):
            return _("You are in team {name}: {team_leave} first.", name=voice.name(repr(name)),
                     team_leave=voice.command("team leave"))
        case TeamRefused(problem=TeamProblem.NAME_TAKEN, name=name):
            return _("There is already a team called {name} here, or you joined one meanwhile.",
                     name=voice.name(repr(name)))
        case TeamRefused(problem=TeamProblem.NO_SUCH_TEAM, name=name):
            return _("There is no team called {name} here: {team_list} shows them.", name=voice.name(repr(name)),
                     team_list=voice.command("team list"))
        case TeamRefused(problem=TeamProblem.JOINED_MEANWHILE):
            return _("You joined another team meanwhile.")
    return ""


def scoreboard_text(board: Scoreboard, voice: Voice) -> str:
    """The public scoreboard message: the match, its state, everyone's standing, the winner."""
    match, _ = board.match, voice.gettext
    title = TITLES.get(match.game, match.game)
    heading = (_("{title} team match #{match}", title=title, match=match.id) if match.teams
               else _("{title} match #{match}", title=title, match=match.id))
    # Translators: {heading} is the match's name, such as "Canfield match #7"; {target} a number of points.
    lines = [_("{heading}: first to {target} points · Die of Justice {die}", heading=voice.bold(heading),
               target=voice.bold(match.target), die=die_text(match.options.get("die", "off"), voice))]
    lines[0] += " · " + (_("undo on") if match.undo else _("undo off"))
    join, start, my_board = voice.bold(_("Join")), voice.bold(_("Start")), voice.bold(_("My board"))
    status = {MatchStatus.LOBBY: _("Waiting for players: press {join}; the host presses {start}.", join=join,
                                   start=start),
              MatchStatus.RUNNING: _("Playing: round after round at your own pace. {button} shows your round.",
                                     button=my_board),
              MatchStatus.FINISHED: _("Finished."), MatchStatus.CANCELLED: _("Cancelled."),
              MatchStatus.EXPIRED: _("Expired after 24 hours without a move.")}
    lines.append(status[MatchStatus(match.status)])
    if not board.standings:
        lines.append(_("No players yet."))
    for place, standing in enumerate(board.standings, 1):
        members = f" ({', '.join(map(voice.name, standing.members))})" if standing.members else ""
        marker = " " + _("◀ leads") if standing is board.leader and match.status == MatchStatus.RUNNING else ""
        rounds = voice.ngettext("{points} points, {count} round", "{points} points, {count} rounds", standing.rounds,
                                points=standing.points)
        lines.append(f"`{place:>2}.` {voice.bold(voice.name(standing.name))}{members}: {rounds}{marker}")
    if board.winner is not None:
        lines.append("🏆 " + _("{name} exorcised the demon.", name=voice.bold(voice.name(board.winner.name))))
    return "\n".join(lines)


def match_won_text(board: Scoreboard, voice: Voice) -> str:
    """The announcement in a match's channel once it is won: the winner (a player's mention, or a
    team with its members), the match and the points ("" while nobody has won)."""
    winner, match = board.winner, board.match
    if winner is None:
        return ""
    if match.teams:
        who = voice.gettext("Team {team} ({members})", team=voice.bold(voice.name(winner.name)),
                            members=", ".join(map(voice.name, winner.members)))
    else:
        who = voice.mention(winner.key)
    return voice.bold(voice.gettext("The demon is exorcised!")) + " " + voice.gettext(
        "{winner} won match #{match} with {points} points (target {target}).", winner=who, match=match.id,
        points=winner.points, target=match.target)


def joined_text(match_id: int, voice: Voice, *, playing: bool) -> str:
    """What a member reads once they joined a match: their first round follows when it is `playing`."""
    if playing:
        return voice.gettext("You joined match #{match}: here is your first round.", match=match_id)
    button = voice.bold(voice.gettext("My board"))
    return voice.gettext("You joined match #{match}. The host starts it; then press {button}.", match=match_id,
                         button=button)


def joined_for_team_text(match_id: int, team: str, voice: Voice) -> str:
    """What a member reads once they joined a team match for team `team`."""
    return voice.gettext("You joined match #{match} for team {team}.", match=match_id,
                         team=voice.bold(voice.name(team)))


def left_text(match_id: int, voice: Voice) -> str:
    """What a member reads once they left a match."""
    return voice.gettext("You left match #{match}.", match=match_id)


def started_text(match_id: int, voice: Voice, *, playing: bool) -> str:
    """What the member who started a match reads: their first round follows when they are `playing`."""
    if playing:
        button = voice.bold(voice.gettext("My board"))
        return voice.gettext("Match #{match} has started: here is your first round. Everyone else presses "
                             "{button}.", match=match_id, button=button)
    return voice.gettext("Match #{match} has started.", match=match_id)


def cancelled_text(match_id: int, voice: Voice) -> str:
    """What the member who cancelled a match reads."""
    return voice.gettext("Match #{match} is cancelled.", match=match_id)


def team_done_text(action: str, team: str, voice: Voice) -> str:
    """What a member reads once a team command (`action`: create, join or leave) is done with team `team`."""
    return voice.gettext(TEAM_DONE[action], team=voice.bold(voice.name(team)))


def team_list_text(rosters: list[TeamRoster], voice: Voice) -> str:
    """A server's teams and their members, one line a team."""
    if not rosters:
        return voice.gettext("No teams yet: {team_create} one.", team_create=voice.command("team create"))
    return "\n".join(f"{voice.bold(voice.name(roster.name))}: {', '.join(map(voice.name, roster.members))}"
                     for roster in rosters)
