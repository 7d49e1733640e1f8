"""What players do, whatever the front end: solo games (solo.py), matches and teams (matches.py), dailies
(daily.py), races (race.py), leaderboards (leaderboards.py) and server settings (settings.py)."""

from bot.play.solo import (
    DamagedGame,
    GameOver,
    GameStatus,
    NoGameHere,
    NotASoloGame,
    NotYourGame,
    Player,
    PlayError,
    Reply,
    SoloPlay,
    UndoOff,
    check_deal_number,
    rebuild,
)

__all__ = ["DamagedGame", "GameOver", "GameStatus", "NoGameHere", "NotASoloGame", "NotYourGame", "PlayError",
           "Player", "Reply", "SoloPlay", "UndoOff", "check_deal_number", "rebuild"]
