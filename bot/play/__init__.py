"""What players do, whatever the front end: solo games (solo.py), matches and teams (matches.py), dailies
(daily.py), races (race.py), leaderboards (leaderboards.py) and server settings (settings.py). What they
say back is data: the answer (replies.py), what happened (events.py) and what was refused (errors.py)."""

from bot.play.errors import DamagedGame, GameOver, NoGameHere, NotASoloGame, NotYourGame, PlayError, UndoOff
from bot.play.replies import GameStatus, Reply
from bot.play.solo import Player, SoloPlay, check_deal_number, rebuild

__all__ = ["DamagedGame", "GameOver", "GameStatus", "NoGameHere", "NotASoloGame", "NotYourGame", "PlayError",
           "Player", "Reply", "SoloPlay", "UndoOff", "check_deal_number", "rebuild"]
