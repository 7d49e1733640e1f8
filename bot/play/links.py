"""Signed links to the web table (bot/web): a link names a member, one of their games, the language
they read and when it stops opening (LINK_SECONDS); opened once, it becomes a session cookie of the
same form (SESSION_SECONDS). Both are HMAC-SHA256 under the deployment's `web` secret (the
`secrets` table, made at first start, the same for every process), so no one can forge one, and a
link's nonce is claimed in the store when it is opened, so it opens once, in one browser."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from bot.languages import LANGUAGE_NAMES
from bot.play.errors import BadLink

LINK_SECONDS = 15 * 60  # a link opens within this long of being made
VIEW_SECONDS = 24 * 3600  # a replay's link (to look, not play) opens, as often as wanted, within this long
SESSION_SECONDS = 12 * 3600  # a session lasts this long from the link's opening
SECRET = "web"  # the name of the deployment's secret links are signed with
_TOKEN = re.compile(r"(?P<kind>[lsvwa])\.(?P<member>[0-9]{1,20})\.(?P<game>[0-9]{1,20})\.(?P<language>[A-Za-z_]{2,5})"
                    r"\.(?P<expires>[0-9]{1,12})\.(?P<nonce>[A-Za-z0-9_-]{16})\.(?P<signature>[A-Za-z0-9_-]{43})")


@dataclass(frozen=True, slots=True)
class Pass:
    """What a link or a session lets through: a member, at one game of theirs, in a language,
    until a Unix time; `nonce` tells one link (and the session it became) from another."""

    member_id: int
    game_id: int
    language: str
    expires: int
    nonce: str


def _sign(secret: str, payload: str) -> str:
    digest = hmac.new(secret.encode(), payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _nonce() -> str:
    """What tells one token from another made for the same member and game: 96 random bits."""
    return base64.urlsafe_b64encode(secrets.token_bytes(12)).decode()


def _token(kind: str, secret: str, grant: Pass, bound: str = "") -> str:
    payload = f"{kind}.{grant.member_id}.{grant.game_id}.{grant.language}.{grant.expires}.{grant.nonce}"
    return f"{payload}.{_sign(secret, payload + bound)}"


def make_link(secret: str, member_id: int, game_id: int, language: str, now: float) -> str:
    """A new link's token: for this member and game, opening until LINK_SECONDS from `now`."""
    return _token("l", secret, Pass(member_id, game_id, language, int(now) + LINK_SECONDS, _nonce()))


def make_session(secret: str, link: Pass, now: float) -> str:
    """The session cookie an opened link becomes, lasting SESSION_SECONDS from `now`."""
    return _token("s", secret, Pass(link.member_id, link.game_id, link.language, int(now) + SESSION_SECONDS,
                                    link.nonce))


def make_view(secret: str, member_id: int, game_id: int, language: str, now: float, *, watch: bool = False) -> str:
    """A link's token for `member_id` to look at game `game_id` move by move, as often as they
    like, until VIEW_SECONDS from `now` (what they may see is asked again at every look): a
    finished game's replay, by /replay's rules; or with `watch`, a game watched, by /watch's."""
    return _token("w" if watch else "v", secret, Pass(member_id, game_id, language, int(now) + VIEW_SECONDS, _nonce()))


def read_view(secret: str, token: str, now: float) -> tuple[Pass, bool]:
    """The pass of a look link's token and whether it is to watch (else to replay); BadLink
    (forged, expired) otherwise."""
    kind = token[:1]
    return _read(kind if kind in ("v", "w") else "v", secret, token, now), kind == "w"


def make_activity_session(secret: str, member_id: int, game_id: int, language: str, instance_id: str,
                          now: float) -> str:
    """A session for the member's game in a Discord Activity's instance `instance_id`, lasting
    SESSION_SECONDS from `now`: the page sends it as `?session=` (a cookie does not reach a page in
    Discord's frame). The instance is signed in, not written: the page sends it beside the token."""
    grant = Pass(member_id, game_id, language, int(now) + SESSION_SECONDS, _nonce())
    return _token("a", secret, grant, _bound(instance_id))


def read_activity_session(secret: str, token: str, instance_id: str, now: float) -> Pass:
    """The pass of an Activity's session for this instance; BadLink (forged, expired) otherwise."""
    return _read("a", secret, token, now, _bound(instance_id))


def read_link(secret: str, token: str, now: float) -> Pass:
    """The pass of a link's token; BadLink (forged: not ours or damaged; expired) otherwise."""
    return _read("l", secret, token, now)


def read_session(secret: str, token: str, now: float) -> Pass:
    """The pass of a session cookie; BadLink (forged, expired) otherwise."""
    return _read("s", secret, token, now)


def _bound(instance_id: str) -> str:
    """What an Activity's session is bound to, as signed (the `|` keeps it apart from the nonce)."""
    return f"|{instance_id}"


def _read(kind: str, secret: str, token: str, now: float, bound: str = "") -> Pass:
    found = _TOKEN.fullmatch(token or "")
    if found is None or found["kind"] != kind:
        raise BadLink("forged")
    payload = token.rsplit(".", 1)[0]
    if not hmac.compare_digest(found["signature"], _sign(secret, payload + bound)):
        raise BadLink("forged")
    grant = Pass(int(found["member"]), int(found["game"]), found["language"], int(found["expires"]), found["nonce"])
    if grant.language not in LANGUAGE_NAMES:
        raise BadLink("forged")
    if now >= grant.expires:
        raise BadLink("expired")
    return grant
