"""What players do, independent of Discord: solo games now; matches, teams and dailies later."""

from bot.play.solo import (
    DamagedGame,
    GameOver,
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

__all__ = ["DamagedGame", "GameOver", "NoGameHere", "NotASoloGame", "NotYourGame", "PlayError", "Player", "Reply",
           "SoloPlay", "UndoOff", "check_deal_number", "rebuild"]
