"""What players do, independent of Discord: solo games now; matches, teams and dailies later."""

from bot.play.solo import (
    DamagedGame,
    GameOver,
    NoGameHere,
    NotYourGame,
    Player,
    PlayError,
    Reply,
    SoloPlay,
    rebuild,
)

__all__ = ["DamagedGame", "GameOver", "NoGameHere", "NotYourGame", "PlayError", "Player", "Reply", "SoloPlay",
           "rebuild"]
