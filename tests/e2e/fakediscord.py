"""A small fake Discord (REST API + websocket gateway) for end-to-end tests.

The real discord.py client connects to it on 127.0.0.1: point ``discord.http.Route.BASE`` at
:attr:`FakeDiscord.api_base` and the gateway URL comes from ``GET /gateway/bot``.

It knows one guild with one text channel (more with :meth:`FakeDiscord.add_guild`), a bot user and a
couple of human users (alice, bob), members of every guild.
Tests drive it through async methods (:meth:`FakeDiscord.slash_command`, :meth:`FakeDiscord.click`,
:meth:`FakeDiscord.select`, :meth:`FakeDiscord.autocomplete`, :meth:`FakeDiscord.message`, ...) and read
back what a user would see: every message the bot sends or edits is stored as a :class:`StoredMessage`.

Behaviour copied from Discord because bots trip over it:

* an interaction must get its first callback within 3 s, else it is marked failed and later callbacks
  get ``404 Unknown interaction`` (code 10062);
* a second callback gets ``400 Interaction has already been acknowledged`` (code 40060);
* the interaction token works for ``@original`` edits and followups for 15 minutes;
* after a deferred (type 5) response, the first followup edits the loading message;
* ephemeral messages can only be seen (and clicked) by the user of the interaction;
* message payloads are checked against Discord's main limits (2000 chars, 5 rows of 5 buttons, ...);
* sharding: ``GET /gateway/bot`` recommends ``recommended_shards``; a session that identified as shard
  ``[id, count]`` gets READY and GUILD_CREATE for, and the events of, only the guilds with
  ``(guild_id >> 22) % count == id`` (:func:`shard_of`); events outside guilds (DMs) go to shard 0.
* installs and contexts: commands keep their ``integration_types`` and ``contexts``; an interaction
  carries its ``context`` (0 a guild, 1 the bot's DM, 2 a group DM) and
  ``authorizing_integration_owners`` ({"0": guild id, or "0" in the bot's DM} for the server's install,
  {"1": user id} for a user's own, :meth:`FakeDiscord.install_for_user`); the client offers a command only
  where its contexts and an install allow it;
* where the app is only a member's own install (a guild with ``bot_member=False``, a group DM): the bot
  sees no messages there, its own channel messages get ``403 Missing Access`` (50001), an interaction
  takes at most 5 follow-ups (then 40094), and where the guild turned external apps off every answer
  is made ephemeral.

Unknown routes are logged and answered with a Discord-style 404 so that missing routes are obvious.
"""

from __future__ import annotations

import asyncio
import fnmatch
import functools
import itertools
import json
import logging
import mimetypes
import re
import secrets
import socket
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson
from aiohttp import MultipartReader, StreamReader, WSMsgType, web
from aiohttp.base_protocol import BaseProtocol
from aiohttp.helpers import parse_mimetype
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

log = logging.getLogger("fakediscord")

T = TypeVar("T")

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Gateway intents the fake looks at.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Application flags: the privileged intents are switched on in the "developer portal".
APP_FLAGS_ALL_INTENTS = (1 << 12) | (1 << 14) | (1 << 18)
# Installation types (a command's integration_types, the keys of authorizing_integration_owners)
# and interaction contexts (a command's contexts, an interaction's context).
GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
USE_EXTERNAL_APPS = 1 << 50  # the member permission a guild turns off to keep members' own apps private
MAX_FOLLOWUPS_WITHOUT_APP = 5  # follow-ups per interaction where the app is not in the server
# What Discord lets a user-installed app do where its bot is not a member (app_permissions).
USER_APP_PERMISSIONS = str((1 << 14) | (1 << 15) | (1 << 17) | (1 << 18) | (1 << 31))

# Interaction types and interaction callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}

# Component types (V2 ones need the IS_COMPONENTS_V2 flag).
SELECT_TYPES = {3, 5, 6, 7, 8}
V2_ONLY_TYPES = {9, 10, 11, 12, 13, 14, 17}
TOP_LEVEL_V2_TYPES = {1, 9, 10, 12, 13, 14, 17}
CONTAINER_CHILD_TYPES = {1, 9, 10, 12, 13, 14}

ALL_PERMISSIONS = str((1 << 51) - 1)
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
# Discord's locales: the keys of name_localizations and description_localizations, and what
# interactions carry as `locale` (the member's client language) and `guild_locale`.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
MENTION = re.compile(r"<@!?(\d+)>")
PAYLOAD_KEY = web.RequestKey("fake_payload", object)
FILES_KEY = web.RequestKey("fake_files", list)


class InteractionFailed(AssertionError):
    """The interaction was not acknowledged within 3 seconds: the user sees "This interaction failed"."""


class CommandNotOffered(LookupError):
    """Discord's client would not offer this command here (its contexts, or no install of the app)."""


class NoBotConnected(RuntimeError):
    """An event was injected while no bot is connected to the gateway."""


class _ApiError(Exception):
    """Raised by a route handler to answer with a Discord-style JSON error."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code, **self.extra}
        if self.errors:
            body["errors"] = self.errors
        return body


def _invalid_form(problem: str) -> _ApiError:
    """A 400 "Invalid Form Body" error carrying a readable description of the problem."""
    return _ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "FAKE_INVALID", "message": problem}]})


# What orjson hands to json instead of writing it its own way (json refuses a dataclass, say).
ORJSON_PASSING = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
# A JSON number of 19 digits or more: orjson reads an integer past 64 bits as a float, json exactly.
LONG_NUMBER = re.compile(r"(?:^|[:\[,])\s*-?\d{19}")


def to_json(data: Any) -> bytes:
    """`data` as JSON, in UTF-8: by orjson (several times faster than the json module, which the
    load benchmark feels), or by json where orjson refuses what json takes (integers of more
    than 64 bits, a lone surrogate) or would write what json refuses. (Unlike json, it writes an
    infinity or NaN as null, valid JSON: no Discord client reads json's `Infinity`.)"""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS | ORJSON_PASSING)
    except orjson.JSONEncodeError:
        return json.dumps(data).encode()


def from_json(text: str) -> Any:
    """What json.loads reads in `text`, read by orjson where it reads the same: not a number of
    19 digits or more (nor something that merely looks like one, in a string), nor what orjson
    refuses (NaN, a lone surrogate: json takes them; or a malformed text: json's error)."""
    if not LONG_NUMBER.search(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    discord.py only decodes a body as JSON when the header is exactly that string (no charset).
    """
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(status=status, body=to_json(data), headers=all_headers)


@dataclass
class FormField:
    """A part of a multipart/form-data body: its name, file name, Content-Type and bytes, and the
    charset its text is in."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes
    charset: str = "utf-8"

    def text(self) -> str:
        """The bytes decoded by the part's charset."""
        return self.data.decode(self.charset)


# A part's header line: a field name (an RFC 9110 token), a colon, the value without the blanks
# around it, and no control character (which aiohttp's header parser refuses).
_PART_HEADER = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*")
MAX_PART_HEADER_LINE = 8190  # aiohttp's multipart reader refuses a longer header line


@functools.lru_cache(maxsize=256)
def _disposition(header: str) -> tuple[str | None, str | None]:
    """The name and file name of a part's Content-Disposition header, parsed by aiohttp as its
    multipart reader does (but once per header text: the same few come in every request)."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(params, "filename")


def split_form_data(body: bytes, content_type: str) -> list[FormField] | None:
    """The parts of a multipart/form-data body as aiohttp's multipart reader reads them, from the
    whole body at once (the reader's streaming costs several times more CPU); None for a body it
    does not take the plain way, for the reader to read: a preamble, a part header other than
    Content-Disposition and Content-Type, a nested multipart, a `_charset_` part, or anything
    malformed (the reader's error is the answer)."""
    mimetype = parse_mimetype(content_type)
    boundary = mimetype.parameters.get("boundary")
    if mimetype.type != "multipart" or mimetype.subtype != "form-data" or not boundary or len(boundary) > 70:
        return None
    delimiter = b"--" + boundary.encode()
    marker = b"\r\n" + delimiter
    if not body.startswith(delimiter + b"\r\n"):
        return None
    fields: list[FormField] = []
    start = len(delimiter) + 2  # where the part's headers begin
    while True:
        blank = body.find(b"\r\n\r\n", start - 2)  # a part without headers starts with its blank line
        if blank < 0:
            return None
        headers: dict[str, str] = {}
        for line in body[start:blank].split(b"\r\n") if blank > start - 2 else ():
            match = _PART_HEADER.fullmatch(line) if len(line) <= MAX_PART_HEADER_LINE else None
            if match is None:
                return None
            header = match[1].decode().lower()
            if header not in ("content-disposition", "content-type") or header in headers:
                return None
            headers[header] = match[2].decode("utf-8", "surrogateescape")
        part_type = headers.get("content-type")
        if part_type is not None and parse_mimetype(part_type).type == "multipart":
            return None
        name, filename = _disposition(headers.get("content-disposition", ""))
        if name == "_charset_" and not fields:
            return None
        end = body.find(marker, blank + 2)  # the blank line's own CRLF ends an empty part
        if end < 0:
            return None
        charset = parse_mimetype(part_type or "").parameters.get("charset", "utf-8")
        fields.append(FormField(name or "", filename, part_type, body[blank + 4 : max(blank + 4, end)], charset))
        after = end + len(marker)
        if body.startswith(b"\r\n", after):
            start = after + 2
        elif body.startswith(b"--", after) and body[after + 2 : after + 4] in (b"", b"\r\n"):
            return fields
        else:
            return None


async def read_form_data(headers: Mapping[str, str], body: bytes, protocol: BaseProtocol) -> list[FormField]:
    """The parts of a multipart body (`headers` its request's): `split_form_data`'s, or where it
    leaves the body alone, aiohttp's multipart reader's (which raises on a malformed body).
    `protocol`: the request's, which aiohttp's stream reader needs."""
    fields = split_form_data(body, headers.get("Content-Type", ""))
    if fields is not None:
        return fields
    content = StreamReader(protocol, max(2**16, len(body)), loop=asyncio.get_running_loop())
    content.feed_data(body)
    content.feed_eof()
    fields = []
    async for part in MultipartReader(headers, content):
        if isinstance(part, MultipartReader):  # the fake has no use for a nested multipart
            raise ValueError("the fake reads no nested multipart body")
        name = part.name or ""
        data = bytes(await part.read(decode=not name.startswith("files[")))
        fields.append(FormField(name, part.filename, part.headers.get("Content-Type"), data, part.get_charset("utf-8")))
    return fields


def _iso(moment: datetime) -> str:
    return moment.isoformat()


class SnowflakeFactory:
    """Makes unique, increasing Discord snowflakes based on the current time."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        """Return a fresh snowflake."""
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(stamp | (1 << 17) | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return value


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that gets a guild's events, by Discord's formula."""
    return (guild_id >> 22) % shard_count


# --------------------------------------------------------------------------------------------------------------
# Data the fake keeps


@dataclass(frozen=True)
class FakeGuild:
    """A guild (server) with its first text channel. `bot_member`: the server has added the app
    (the bot is a member); without it, only members' own (user) installs reach it. With
    `external_apps` off, the answers of members' own apps there are forced ephemeral."""

    id: int
    name: str
    channel_id: int
    bot_member: bool = True
    external_apps: bool = True


@dataclass(frozen=True)
class FakeUser:
    """A Discord user (a guild member unless it is the bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    permissions: str = ""  # the member's permission bits as Discord sends them; "" means all

    @property
    def mention(self) -> str:
        """The mention string, ``<@id>``."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The user object Discord sends."""
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, joined_at: datetime, *, with_user: bool = True) -> dict[str, Any]:
        """The guild member object Discord sends (with ``permissions`` as in interactions)."""
        member: dict[str, Any] = {
            "roles": [],
            "joined_at": _iso(joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "permissions": self.permissions or ALL_PERMISSIONS,
        }
        if with_user:
            member["user"] = self.payload()
        return member


@dataclass(frozen=True)
class FakeChannel:
    """A text channel of the guild (type 0), a DM channel with the bot (type 1) or a group DM
    among users (type 3, `recipients`), where the bot is no member."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    recipient: FakeUser | None = None
    recipients: tuple[FakeUser, ...] = ()

    def payload(self) -> dict[str, Any]:
        """The channel object Discord sends."""
        if self.type == 1:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "recipients": [self.recipient.payload()], "last_message_id": None}
        if self.type == 3:
            return {"id": str(self.id), "type": 3, "name": self.name, "icon": None, "last_message_id": None,
                    "owner_id": str(self.recipients[0].id), "recipients": [u.payload() for u in self.recipients]}
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }


@dataclass
class UploadedFile:
    """A file part of a multipart request (``files[n]``)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class StoredAttachment:
    """An attachment of a stored message, with its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        """The attachment object Discord sends: an image's with its width and height, and an
        animated one's flagged IS_ANIMATED."""
        body: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            body["description"] = self.description
        picture = _picture(self.data) if self.content_type.startswith("image/") else None
        if picture is not None:
            body["width"], body["height"], animated = picture
            body["flags"] = ATTACHMENT_IS_ANIMATED if animated else 0
        return body

    @property
    def animated(self) -> bool:
        """Whether Discord plays this attachment inline as an animation (see `_picture`)."""
        picture = _picture(self.data) if self.content_type.startswith("image/") else None
        return picture is not None and picture[2]


ATTACHMENT_IS_ANIMATED = 1 << 5  # an attachment's flag: an animated image


@functools.lru_cache(maxsize=64)
def _picture(data: bytes) -> tuple[int, int, bool] | None:
    """An image's width, height and whether Discord animates it: a GIF or WebP of more than one
    frame (Discord shows APNG attachments still, on purpose: discord-api-docs issue 6359). None for
    data that is no image."""
    size = _plain_png_size(data)
    return (*size, False) if size is not None else _picture_by_pil(data)


def _picture_by_pil(data: bytes) -> tuple[int, int, bool] | None:
    """`_picture`, by opening the image with Pillow."""
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            frames = getattr(image, "n_frames", 1)
            return image.width, image.height, image.format in ("GIF", "WEBP") and frames > 1
    except (UnidentifiedImageError, OSError):
        return None


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PLAIN_PNG_MODES = {(8, 0), (8, 2), (8, 3), (8, 4), (8, 6)}  # (bit depth, colour type): L, RGB, P, LA, RGBA
PNG_PALETTE = 3  # the colour type of an indexed PNG, whose palette (PLTE) comes before its data


def _plain_png_size(data: bytes) -> tuple[int, int] | None:
    """The width and height of a PNG whose image header (IHDR) is followed by its data (IDAT), or
    in an indexed one by its palette (PLTE) then its data, their checksums right, as the bot's
    boards are: read from that header. Pillow opens an image by reading the chunks up to the first
    IDAT: with no other, the header is all it judges, by these same rules. None for anything else,
    for Pillow to judge (Pillow's Python overhead cost the load benchmark several per cent of the
    fake's CPU)."""
    from PIL import Image

    if len(data) < 41 or not data.startswith(PNG_SIGNATURE) or data[8:16] != b"\x00\x00\x00\x0dIHDR":
        return None
    if zlib.crc32(data[12:29]) != int.from_bytes(data[29:33], "big"):
        return None
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    most = Image.MAX_IMAGE_PIXELS or width * height  # past it, Pillow warns, or refuses the image
    if (data[24], data[25]) not in PLAIN_PNG_MODES or data[27] != 0 or not 0 < width * height <= most:
        return None
    chunk = 33  # the chunk after IHDR
    if data[25] == PNG_PALETTE:
        length = int.from_bytes(data[33:37], "big")
        end = 41 + length  # where its checksum is
        if data[37:41] != b"PLTE" or zlib.crc32(data[37:end]) != int.from_bytes(data[end : end + 4], "big"):
            return None
        chunk = end + 4
    return (width, height) if len(data) >= chunk + 8 and data[chunk + 4 : chunk + 8] == b"IDAT" else None


@dataclass(frozen=True)
class ComponentInfo:
    """One interactive (or text) component of a message, flattened out of its rows/containers."""

    type: int
    custom_id: str | None
    label: str | None
    style: int | None
    disabled: bool
    url: str | None
    emoji: dict[str, Any] | None
    options: tuple[dict[str, Any], ...]
    placeholder: str | None
    content: str | None
    raw: dict[str, Any]

    @property
    def is_button(self) -> bool:
        """True for buttons (type 2)."""
        return self.type == 2

    @property
    def is_select(self) -> bool:
        """True for any kind of select menu (types 3, 5, 6, 7, 8)."""
        return self.type in (3, 5, 6, 7, 8)

    @property
    def option_values(self) -> list[str]:
        """The values of a string select's options."""
        return [option["value"] for option in self.options]


def leaf_components(components: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The leaf components (buttons, selects, text displays, ...) of action rows, containers and
    sections, in display order, as the payload has them."""
    found: list[dict[str, Any]] = []

    def walk(component: dict[str, Any]) -> None:
        if component.get("type") not in (1, 9, 17):  # action row, section and container only hold other components
            found.append(component)
        for child in component.get("components") or ():
            walk(child)
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            walk(accessory)

    for top in components:
        walk(top)
    return found


def flatten_components(components: Iterable[dict[str, Any]]) -> list[ComponentInfo]:
    """Flatten action rows, containers and sections into a list of their leaf components, in display order."""
    found: list[ComponentInfo] = []
    for component in leaf_components(components):
        emoji = component.get("emoji")
        found.append(
            ComponentInfo(
                type=component.get("type") or 0,
                custom_id=component.get("custom_id"),
                label=component.get("label"),
                style=component.get("style"),
                disabled=bool(component.get("disabled", False)),
                url=component.get("url"),
                emoji=emoji if isinstance(emoji, dict) else None,
                options=tuple(component.get("options") or ()),
                placeholder=component.get("placeholder"),
                content=component.get("content"),
                raw=component,
            )
        )
    return found


def _resolve_media(components: list[dict[str, Any]], attachments: list[StoredAttachment]) -> list[dict[str, Any]]:
    """The components with each `attachment://name` media url replaced by the attachment's own url
    and id, as Discord returns them. The request's payload is left as it was: what holds such a url
    is copied, with the lists and objects above it; the rest is shared (the fake never changes a
    stored component in place), which spares the load benchmark a copy of every button."""
    by_name = {a.filename: a for a in attachments}

    def resolve(value: Any) -> Any:
        """`value` itself when nothing in it changes (scalars are not looked into)."""
        if isinstance(value, list):
            items: list[Any] | None = None
            for index, item in enumerate(value):
                if isinstance(item, (dict, list)) and (new := resolve(item)) is not item:
                    items = items or list(value)
                    items[index] = new
            return value if items is None else items
        changed: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(item, (dict, list)) and (new := resolve(item)) is not item:
                changed[key] = new
        url = value.get("url")
        if isinstance(url, str) and url.startswith("attachment://") and url[13:] in by_name:
            attachment = by_name[url[13:]]
            changed.update(url=attachment.url, proxy_url=attachment.url, attachment_id=str(attachment.id),
                           content_type=attachment.content_type)
        return {**value, **changed} if changed else value

    return list(resolve(components))


@dataclass
class StoredMessage:
    """A message as the fake stores it: the current state, updated on every edit."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    created_at: datetime
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    mentions: list[FakeUser] = field(default_factory=list)
    message_reference: dict[str, Any] | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    owner_id: int | None = None
    edited_at: datetime | None = None
    deleted: bool = False
    version: int = 0
    reactions: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """True if only the interaction's user can see the message (flag 64)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while the message is a deferred "Bot is thinking..." placeholder (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user: FakeUser) -> bool:
        """Whether the user can see the message (ephemeral messages are private to one user)."""
        return not self.deleted and (not self.ephemeral or self.owner_id in (None, user.id))

    def components_flat(self) -> list[ComponentInfo]:
        """All leaf components (buttons, selects, text displays, ...) in display order."""
        return flatten_components(self.components)

    @property
    def buttons(self) -> list[ComponentInfo]:
        """The buttons, in display order."""
        return [c for c in self.components_flat() if c.is_button]

    @property
    def selects(self) -> list[ComponentInfo]:
        """The select menus, in display order."""
        return [c for c in self.components_flat() if c.is_select]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> ComponentInfo:
        """The component with this custom_id (or label); raises LookupError listing what is there."""
        for comp in self.components_flat():
            if (custom_id is None or comp.custom_id == custom_id) and (label is None or comp.label == label):
                return comp
        shown = [(c.custom_id, c.label) for c in self.components_flat()]
        raise LookupError(f"message {self.id} has no component custom_id={custom_id!r} label={label!r}; has {shown}")

    def attachment(self, filename: str | None = None) -> StoredAttachment:
        """The attachment with this filename (or the only one); raises LookupError."""
        for attachment in self.attachments:
            if filename is None or attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise LookupError(f"message {self.id} has no attachment {filename!r}; has {names}")

    @property
    def v2(self) -> bool:
        """True for a Components V2 message (flag 1<<15): no content, its words in text displays."""
        return bool(self.flags & FLAG_COMPONENTS_V2)

    def text_displays(self) -> list[str]:
        """The contents of the message's text displays, in display order."""
        return [c.content or "" for c in self.components_flat() if c.type == 10]

    def media_urls(self) -> list[str]:
        """The urls of the media shown by media galleries, thumbnails and file components, in order."""
        urls = []
        for comp in self.components_flat():
            items = comp.raw.get("items") if comp.type == 12 else [comp.raw] if comp.type in (11, 13) else []
            urls += [str((item.get("media") or item.get("file") or {}).get("url")) for item in items or ()]
        return urls

    def text(self) -> str:
        """Everything readable in the message: content, embed texts and text-display components."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for embed_field in embed.get("fields") or ():
                parts.append(f"{embed_field.get('name', '')}: {embed_field.get('value', '')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        parts.extend(c.content for c in self.components_flat() if c.content)
        return "\n".join(parts)

    def payload(self) -> dict[str, Any]:
        """The message object Discord sends (REST answers, gateway events, ``message`` of interactions)."""
        body: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [user.payload() for user in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            body["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            body["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            body["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            body["message_reference"] = self.message_reference
        return body


@dataclass
class CallbackRecord:
    """One interaction callback (``POST /interactions/{id}/{token}/callback``) the bot made."""

    type: int | None
    data: dict[str, Any]
    files: list[UploadedFile]
    elapsed: float
    accepted: bool
    error: str | None = None


@dataclass
class RateLimitRule:
    """Answer the next ``remaining`` requests matching ``method`` and ``path_pattern`` with HTTP 429."""

    method: str
    path_pattern: str
    remaining: int
    retry_after: float
    is_global: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether a request (path relative to /api/v10) is covered by this rule."""
        return self.remaining > 0 and self.method in ("*", method) and fnmatch.fnmatchcase(path, self.path_pattern)


@dataclass
class RecordedRequest:
    """A REST request the fake answered."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    payload: Any
    files: list[UploadedFile]
    at: float


class _Changes:
    """Wakes up waiters whenever the fake's state changes."""

    def __init__(self) -> None:
        self._waiters: set[asyncio.Future[None]] = set()

    def notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``predicate()`` returns something truthy and return it (it may raise to give up)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)


# --------------------------------------------------------------------------------------------------------------
# Interactions


class FakeInteraction:
    """An interaction the fake dispatched, and everything the bot did in answer to it.

    Await :meth:`wait` for the first callback, :meth:`wait_response` for a visible answer, or
    :meth:`wait_for` for any condition. :attr:`message` is the current state of the interaction's
    message (``@original``); :attr:`followups` are the followup messages.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        type: int,
        user: FakeUser,
        channel_id: int,
        guild_id: int | None,
        data: dict[str, Any],
        source_message_id: int | None = None,
        context: int = GUILD_CONTEXT,
        owners: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.context = context  # 0 a guild, 1 the bot's DM, 2 a private channel (group DM)
        self.owners: dict[str, str] = dict(owners or {})  # authorizing_integration_owners
        self.id: int = fake.snowflake()
        self.token: str = "fake-interaction-" + secrets.token_urlsafe(24)
        self.type = type
        self.user = user
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.data = data
        self.source_message_id = source_message_id
        self.dispatched_at: float = 0.0
        self.acked_at: float | None = None
        self.response_type: int | None = None
        self.callbacks: list[CallbackRecord] = []
        self.failed = False
        self.failure: str | None = None
        self.errors: list[str] = []
        self.message_id: int | None = None
        self.followup_ids: list[int] = []
        self.choices: list[dict[str, Any]] | None = None
        self.modal: dict[str, Any] | None = None
        self.expired = False
        self.delivered_to: list[GatewaySession] = []  # the connected sessions the event was sent to
        self._version_at_ack = 0

    def __repr__(self) -> str:
        return f"<FakeInteraction id={self.id} type={self.type} name={self.name!r} response={self.response_type}>"

    @property
    def name(self) -> str:
        """The command name, or the custom_id of the clicked component."""
        return str(self.data.get("name") or self.data.get("custom_id") or "")

    @property
    def acknowledged(self) -> bool:
        """True once the bot's first callback was accepted."""
        return self.acked_at is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching the event to the bot's first accepted callback (None before)."""
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def deferred(self) -> bool:
        """True if the first callback was a deferral (type 5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def rejected_callbacks(self) -> list[CallbackRecord]:
        """Callbacks the fake refused (late, duplicated or invalid)."""
        return [c for c in self.callbacks if not c.accepted]

    @property
    def message(self) -> StoredMessage | None:
        """The current state of the interaction's message (``@original``), if it has one."""
        return None if self.message_id is None else self.fake.messages.get(self.message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        """The followup messages, oldest first (deleted ones included, see ``deleted``)."""
        return [self.fake.messages[i] for i in self.followup_ids]

    @property
    def latest(self) -> StoredMessage | None:
        """The newest visible message of the interaction: the last followup, else ``@original``."""
        for message in reversed(self.followups):
            if not message.deleted:
                return message
        return self.message

    @property
    def content(self) -> str:
        """Content of :attr:`message` ('' if none)."""
        return self.message.content if self.message else ""

    @property
    def attachments(self) -> list[StoredAttachment]:
        """Attachments of :attr:`message`."""
        return self.message.attachments if self.message else []

    @property
    def components(self) -> list[ComponentInfo]:
        """Flattened components of :attr:`message`."""
        return self.message.components_flat() if self.message else []

    @property
    def ephemeral(self) -> bool:
        """True if :attr:`message` is ephemeral."""
        return bool(self.message and self.message.ephemeral)

    @property
    def app_in_place(self) -> bool:
        """Whether the app is in the interaction's place: a server that added it, or its bot's DM.
        Elsewhere (only a member's own install) its answers have Discord's limits."""
        return self.fake.bot_can_see(self.fake.channels[self.channel_id])

    @property
    def forced_ephemeral(self) -> bool:
        """Whether Discord makes every answer ephemeral: a member's own app in a server that turned
        external apps off (its members lack Use External Apps, as the interaction's permissions say)."""
        guild = self.fake.guilds.get(self.guild_id or 0)
        return guild is not None and not self.app_in_place and not guild.external_apps

    def _check(self) -> None:
        if self.failed:
            raise InteractionFailed(f"{self!r} failed: {self.failure}")

    async def wait(self, timeout: float = 5.0, *, check: bool = True) -> FakeInteraction:
        """Wait for the bot's first callback and return self.

        With ``check`` (the default) raise :class:`InteractionFailed` if the interaction failed
        (no accepted callback within 3 s); without it, return once it is acknowledged or failed.
        """

        def done() -> FakeInteraction | None:
            if check:
                self._check()
            return self if (self.acknowledged or self.failed) else None

        return await self.fake._changes.wait_until(done, timeout, f"a callback to {self!r}")

    async def wait_response(self, timeout: float = 5.0) -> StoredMessage | None:
        """Wait until the user sees the bot's answer and return that message.

        For an immediate reply or update (type 4/7) that is the callback itself; after a deferral
        (type 5/6) it is the first edit of ``@original`` or the first followup. Returns None for
        autocomplete and modal callbacks. Raises :class:`InteractionFailed` if the interaction failed.
        """

        def done() -> tuple[StoredMessage | None] | None:
            self._check()
            if self.response_type in (AUTOCOMPLETE_RESULT, MODAL):
                return (None,)
            if self.response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
                return (self.message,)
            if self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
                original = self.message
                if self.followup_ids:
                    return (self.latest,)
                if original is not None and (original.deleted or original.version > self._version_at_ack):
                    return (original,)
            return None

        return (await self.fake._changes.wait_until(done, timeout, f"a visible answer to {self!r}"))[0]

    async def wait_for(self, predicate: Callable[[FakeInteraction], Any], timeout: float = 5.0) -> FakeInteraction:
        """Wait until ``predicate(self)`` is true (checked after every change) and return self."""
        return await self.fake._changes.wait_until(
            lambda: self if predicate(self) else None, timeout, f"a condition on {self!r}"
        )

    def _on_deadline(self) -> None:
        if not self.acknowledged and not self.failed:
            self._fail(f"no callback within {self.fake.ack_deadline:g}s")

    def _fail(self, reason: str) -> None:
        if not self.failed:
            self.failed = True
            self.failure = reason
            log.warning("interaction %s (%s) failed: %s", self.id, self.name, reason)
            self.fake._changes.notify()

    def _event_payload(self) -> dict[str, Any]:
        fake = self.fake
        payload: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(fake.application_id),
            "type": self.type,
            "data": self.data,
            "token": self.token,
            "version": 1,
            "channel_id": str(self.channel_id),
            "channel": fake.channels[self.channel_id].payload(),
            "app_permissions": ALL_PERMISSIONS if self.app_in_place else USER_APP_PERMISSIONS,
            "locale": fake.locale_of(self.user),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": fake.attachment_size_limit,
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
            payload["guild"] = {"id": str(self.guild_id), "locale": fake.guild_locale, "features": []}
            payload["guild_locale"] = fake.guild_locale
            payload["member"] = member = self.user.member_payload(fake.joined_at)
            guild = fake.guilds.get(self.guild_id)
            if guild is not None and not guild.external_apps:
                member["permissions"] = str(int(member["permissions"]) & ~USE_EXTERNAL_APPS)
        else:
            payload["user"] = self.user.payload()
        payload["authorizing_integration_owners"] = dict(self.owners)
        payload["context"] = self.context
        if self.source_message_id is not None:
            payload["message"] = fake.messages[self.source_message_id].payload()
        return payload


# --------------------------------------------------------------------------------------------------------------
# Gateway


@dataclass(eq=False)
class _GatewayConnection:
    ws: web.WebSocketResponse
    query: dict[str, str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    session: GatewaySession | None = None

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, frame: dict[str, Any] | str) -> None:
        text = frame if isinstance(frame, str) else to_json(frame).decode()
        async with self.lock:
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as error:
                log.debug("gateway send failed: %s", error)


@dataclass(eq=False)
class GatewaySession:
    """A gateway session created by IDENTIFY; it survives disconnects so that RESUME works."""

    id: str
    shard: list[int]
    intents: int
    identify: dict[str, Any]
    seq: int = 0
    buffer: list[tuple[int, str]] = field(default_factory=list)
    connection: _GatewayConnection | None = None
    resumes: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        """True while a websocket is attached to this session."""
        return self.connection is not None and self.connection.open

    def wants(self, intent: int) -> bool:
        """Whether the session asked for this intent."""
        return bool(self.intents & intent)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the guild's events (events outside guilds go to shard 0)."""
        shard_id, shard_count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, shard_count))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send (and buffer for RESUME) a DISPATCH event with the next sequence number."""
        async with self.lock:
            self.seq += 1
            frame = to_json({"op": 0, "t": event, "s": self.seq, "d": data}).decode()
            self.buffer.append((self.seq, frame))
            del self.buffer[:-500]
            if self.connection is not None:
                await self.connection.send(frame)


# --------------------------------------------------------------------------------------------------------------
# The server


class FakeDiscord:
    """The fake Discord server. Start it with :meth:`start` (or use ``async with``), stop with :meth:`stop`."""

    def __init__(
        self, *, token: str = "fake-bot-token", heartbeat_interval_ms: int = 2000, recommended_shards: int = 1
    ) -> None:
        self.token = token
        self.recommended_shards = recommended_shards  # the "shards" of GET /gateway/bot
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.snowflake = SnowflakeFactory()
        self.ack_deadline = 3.0
        self.token_lifetime = 15 * 60.0
        self.attachment_size_limit = 10 * 1024 * 1024
        self.allow_privileged_intents = True
        self.require_bot = True
        self.echo_bot_messages = True

        self.application_id = 1_100_000_000_000_000_001
        self.client_secret = "fake-client-secret"  # the application's OAuth2 secret (the bot's DISCORD_CLIENT_SECRET)
        self.oauth_codes: dict[str, int] = {}  # OAuth2 codes not yet exchanged -> their user's id
        self.access_tokens: dict[str, int] = {}  # OAuth2 access tokens -> their user's id
        self.activity_instances: dict[str, tuple[int, list[int]]] = {}  # Activity instance -> (channel, users in it)
        self.bot_user = FakeUser(self.application_id, "PatienceBot", bot=True)
        self.owner = FakeUser(1_200_000_000_000_000_009, "owner")
        self.guild_id = 1_300_000_000_000_000_001
        self.guild_name = "Fake Guild"
        self.channel_id = 1_400_000_000_000_000_001
        self.joined_at = datetime(2024, 1, 1, tzinfo=UTC)
        self.users: dict[str, FakeUser] = {}
        self.locales: dict[int, str] = {}  # user id -> the Discord language of their client (default en-US)
        self.guild_locale = "en-US"  # the server's "primary language" (Community servers set it)
        self.user_installs: set[int] = set()  # users who installed the app to their own account
        self.closed_dms: set[int] = set()  # users who take no private messages from the bot (50007)
        self.alice = self.add_user("alice", 1_200_000_000_000_000_001)
        self.bob = self.add_user("bob", 1_200_000_000_000_000_002)
        self.channels: dict[int, FakeChannel] = {
            self.channel_id: FakeChannel(self.channel_id, "general", 0, self.guild_id),
        }
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, self.guild_name, self.channel_id)}

        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.rate_limits: list[RateLimitRule] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.gateway_queries: list[dict[str, str]] = []
        self.identify_count = 0
        self.resume_count = 0
        self.presence: dict[str, Any] | None = None

        self._changes = _Changes()
        self._connections: set[_GatewayConnection] = set()
        self._timers: list[asyncio.TimerHandle] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- lifecycle -----------------------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 (a free port unless one is given)."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        log.info("fake Discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close the gateway connections and stop the server."""
        for timer in self._timers:
            timer.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=2)
        for conn in list(self._connections):
            await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What the bot puts in ``discord.http.Route.BASE`` (env ``DISCORD_API_BASE``)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The websocket URL handed out by ``GET /gateway/bot``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ---- users, channels, commands ---------------------------------------------------------------------------

    def add_user(self, username: str, user_id: int | None = None, permissions: int | None = None, *,
                 global_name: str | None = None) -> FakeUser:
        """Add a human guild member (with all permissions, or the given permission bits) and return it;
        its display name is ``global_name``, by default its username capitalized."""
        user = FakeUser(user_id or self.snowflake(), username, global_name or username.capitalize(),
                        permissions="" if permissions is None else str(permissions))
        self.users[username] = user
        return user

    def set_locale(self, who: FakeUser | str | int, locale: str) -> None:
        """Set the Discord language a user's client runs in: their interactions carry it as `locale`."""
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is not one of Discord's locales")
        self.locales[self.user(who).id] = locale

    def locale_of(self, who: FakeUser | str | int) -> str:
        """The Discord language of a user's client (en-US unless set)."""
        return self.locales.get(self.user(who).id, "en-US")

    def add_guild(self, name: str, guild_id: int | None = None, channel_name: str = "general", *,
                  bot_member: bool = True, external_apps: bool = True) -> FakeGuild:
        """Add a guild with one text channel (every user is a member, and the bot unless
        ``bot_member`` is false: a server that has not added the app) and return it.

        Add guilds before the bot connects: READY and GUILD_CREATE list the guilds known then.
        Choose ``guild_id`` to put the guild on a shard (see :func:`shard_of`). With
        ``external_apps`` false, members' own apps answer there only ephemerally.
        """
        guild = FakeGuild(guild_id or self.snowflake(), name, self.snowflake(), bot_member, external_apps)
        if guild.id in self.guilds:
            raise ValueError(f"guild {guild.id} exists already")
        self.guilds[guild.id] = guild
        self.channels[guild.channel_id] = FakeChannel(guild.channel_id, channel_name, 0, guild.id)
        return guild

    def add_channel(self, name: str, guild_id: int | None = None) -> FakeChannel:
        """Add another text channel to a guild (default: the first one) and return it.

        Add channels before the bot connects: GUILD_CREATE lists the guild's channels known then.
        """
        guild = self.guilds[guild_id or self.guild_id]
        channel = FakeChannel(self.snowflake(), name, 0, guild.id)
        self.channels[channel.id] = channel
        return channel

    def user(self, who: FakeUser | str | int) -> FakeUser:
        """Find a user by object, username or id."""
        if isinstance(who, FakeUser):
            return who
        for user in (*self.users.values(), self.bot_user):
            if who in (user.username, user.id, str(user.id)):
                return user
        raise LookupError(f"unknown user {who!r}; known: {sorted(self.users)}")

    def oauth_code(self, who: FakeUser | str | int) -> str:
        """A new OAuth2 code for a user, as an Activity's `authorize` gives the page; it is
        exchanged once at POST /oauth2/token for an access token to GET /users/@me with."""
        code = f"code-{self.snowflake()}"
        self.oauth_codes[code] = self.user(who).id
        return code

    def launch_activity(self, instance_id: str, channel_id: int, *users: FakeUser | str) -> None:
        """Members in an Activity's instance launched in a channel, as Discord's
        GET /applications/{id}/activity-instances/{instance} tells the app."""
        self.activity_instances[instance_id] = (channel_id, [self.user(user).id for user in users])

    def dm_channel(self, user: FakeUser | str) -> FakeChannel:
        """The DM channel between the bot and a user (created on first use)."""
        who = self.user(user)
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient == who:
                return channel
        channel = FakeChannel(self.snowflake(), "", 1, None, who)
        self.channels[channel.id] = channel
        return channel

    def install_for_user(self, user: FakeUser | str) -> None:
        """The user installs the app to their own account (a user install)."""
        self.user_installs.add(self.user(user).id)

    def group_dm(self, *users: FakeUser | str, name: str = "") -> FakeChannel:
        """A new group DM among these users (the bot is no member of it)."""
        channel = FakeChannel(self.snowflake(), name, 3, None, None, tuple(self.user(u) for u in users))
        self.channels[channel.id] = channel
        return channel

    def bot_can_see(self, channel: FakeChannel) -> bool:
        """Whether the bot is in this channel: of a server that added the app, or its own DM."""
        if channel.guild_id is not None:
            return self.guilds[channel.guild_id].bot_member
        return channel.type == 1

    def context_of(self, channel: FakeChannel) -> int:
        """The interaction context of a channel: 0 a guild, 1 the bot's DM, 2 a private channel."""
        if channel.guild_id is not None:
            return GUILD_CONTEXT
        return BOT_DM_CONTEXT if channel.type == 1 else PRIVATE_CHANNEL_CONTEXT

    def authorizing_owners(self, user: FakeUser, channel: FakeChannel, installs: Iterable[int]) -> dict[str, str]:
        """authorizing_integration_owners of a command with these integration_types, used by
        ``user`` here: the server's install ("0": its id, or "0" in the bot's DM) where the app is
        in the place, and the user's own install ("1": their id) when they installed the app."""
        installs = set(installs)
        owners: dict[str, str] = {}
        if GUILD_INSTALL in installs and self.bot_can_see(channel):
            owners[str(GUILD_INSTALL)] = str(channel.guild_id or 0)
        if USER_INSTALL in installs and user.id in self.user_installs:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def command_names(self, guild_id: int | None = None) -> list[str]:
        """Names of the commands the bot synced globally (or to ``guild_id``), in order."""
        return [c["name"] for c in self.commands.get(guild_id, [])]

    def find_command(self, name: str, guild_id: int | None = None, type: int = 1) -> dict[str, Any]:
        """The synced command with this name: the guild's version first, then the global one."""
        for scope in (guild_id or self.guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == type:
                    return command
        known = {scope: self.command_names(scope) for scope in self.commands}
        raise LookupError(f"command {name!r} was not synced; synced commands by guild: {known}")

    async def wait_for_commands(self, names: Iterable[str], timeout: float = 10.0) -> None:
        """Wait until commands with all these names are synced (globally or to the guild)."""
        wanted = set(names)

        def synced() -> bool:
            have = {c["name"] for commands in self.commands.values() for c in commands}
            return wanted <= have

        await self._changes.wait_until(synced, timeout, f"commands {sorted(wanted)} to be synced")

    # ---- gateway state ---------------------------------------------------------------------------------------

    @property
    def connected_sessions(self) -> list[GatewaySession]:
        """Sessions with an open websocket."""
        return [s for s in self.sessions.values() if s.connected]

    @property
    def bot_connected(self) -> bool:
        """True if some bot is connected and identified (or resumed)."""
        return bool(self.connected_sessions)

    async def wait_for_identify(self, timeout: float = 10.0, *, count: int | None = None) -> GatewaySession:
        """Wait until a bot has identified and got READY + GUILD_CREATE, and return its session.

        Without ``count``, any connected session will do; with it, wait until ``identify_count >= count``
        (take ``fake.identify_count + 1`` before starting a bot to wait for that bot).
        """

        def ready() -> GatewaySession | None:
            if count is not None and self.identify_count < count:
                return None
            connected = self.connected_sessions
            return connected[-1] if connected else None

        return await self._changes.wait_until(ready, timeout, "the bot to identify")

    async def wait_for_resume(self, count: int, timeout: float = 10.0) -> GatewaySession:
        """Wait until ``resume_count >= count`` and a session is connected again."""

        def resumed() -> GatewaySession | None:
            connected = self.connected_sessions
            return connected[-1] if self.resume_count >= count and connected else None

        return await self._changes.wait_until(resumed, timeout, "the bot to resume")

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Close every gateway websocket with ``code`` (4000 makes discord.py RESUME)."""
        for session in self.connected_sessions:
            assert session.connection is not None
            await session.connection.ws.close(code=code)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes the socket and RESUMEs."""
        for session in self.connected_sessions:
            assert session.connection is not None
            await session.connection.send({"op": 7, "d": None})

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The sessions (connected or waiting for a RESUME) whose shard gets this guild's events."""
        return [session for session in self.sessions.values() if session.receives(guild_id)]

    def connected_shard(self, guild_id: int | None) -> GatewaySession | None:
        """The connected session that gets this guild's events (the newest, if several), or None."""
        connected = [session for session in self.sessions_for(guild_id) if session.connected]
        return connected[-1] if connected else None

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int = 0, required: bool = False) -> int:
        """Send a DISPATCH event to the sessions of its guild's shard (``data["guild_id"]``; shard 0
        without one) that asked for ``intent``; return how many live sessions got it.

        With ``required`` (and :attr:`require_bot`), raise :class:`NoBotConnected` if no bot is connected
        on that shard.
        """
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        sessions = self.sessions_for(guild_id)
        if required and self.require_bot and not any(session.connected for session in sessions):
            raise NoBotConnected(f"cannot send {event}: no bot is connected to the fake gateway "
                                 f"on the shard of guild {guild_id}")
        sent = 0
        for session in sessions:
            if intent and not session.wants(intent):
                continue
            await session.dispatch(event, data)
            sent += session.connected
        return sent

    # ---- control API: events from users ----------------------------------------------------------------------

    def rate_limit(
        self, method: str, path_pattern: str, count: int = 1, *, retry_after: float = 0.05, is_global: bool = False
    ) -> RateLimitRule:
        """Answer the next ``count`` requests of a route with 429 Too Many Requests.

        ``path_pattern`` is a glob on the path after /api/v10, e.g. ``"/interactions/*/*/callback"`` or
        ``"/channels/*/messages"``; ``method`` may be ``"*"``. The returned rule counts its ``hits``.
        """
        rule = RateLimitRule(method.upper(), path_pattern, count, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    async def slash_command(
        self,
        user: FakeUser | str,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        offered: bool = True,
    ) -> FakeInteraction:
        """Send an APPLICATION_COMMAND interaction for a synced slash command and return it.

        ``name`` may hold subcommands (``"game new"``). ``options`` maps option names to values; the
        option types come from the synced command (users may be given as FakeUser or name).
        As Discord's client, it refuses (CommandNotOffered) a command that its ``contexts`` do not
        offer in this place, or that no install of the app authorizes here; ``offered=False``
        sends it anyway, as a client with an out-of-date command list might.
        """
        scope = guild_id if guild_id is not None else self.channels[channel_id or self.channel_id].guild_id
        data = self._command_data(name, options or {}, guild_id=scope)
        if offered:
            self._check_offered(self.user(user), self.channels[channel_id or self.channel_id], data)
        return await self._interact(APPLICATION_COMMAND, user, data, channel_id=channel_id, guild_id=guild_id)

    def _check_offered(self, user: FakeUser, channel: FakeChannel, data: dict[str, Any]) -> None:
        command = self._command_by_id(data["id"])
        context = self.context_of(channel)
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            raise CommandNotOffered(f"/{command['name']} is not offered in context {context} (contexts {contexts})")
        if not self.authorizing_owners(user, channel, self._installs_of(command)):
            raise CommandNotOffered(f"/{command['name']} is authorized by no install of the app here "
                                    f"(integration_types {command.get('integration_types')})")

    async def autocomplete(
        self,
        user: FakeUser | str,
        name: str,
        options: dict[str, Any],
        focused: str | None = None,
        *,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Send an AUTOCOMPLETE interaction and return the bot's choices (``[{"name": ..., "value": ...}]``).

        ``focused`` names the option being typed (default: the last one in ``options``).
        """
        focused = focused or list(options)[-1]
        data = self._command_data(name, options, focused=focused)
        interaction = await self._interact(AUTOCOMPLETE, user, data)
        await interaction.wait(timeout)
        return interaction.choices or []

    async def click(
        self,
        user: FakeUser | str,
        message: StoredMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
    ) -> FakeInteraction:
        """Click a button of a stored message (by custom_id or label) and return the interaction."""
        msg = self._message_for(user, message)
        component = msg.component(custom_id, label=label)
        if not component.is_button or component.custom_id is None:
            raise ValueError(f"{component.custom_id or component.label!r} is not a clickable button")
        if component.disabled:
            raise ValueError(f"button {component.custom_id!r} is disabled: a user cannot click it")
        data = {"custom_id": component.custom_id, "component_type": 2}
        return await self._interact(MESSAGE_COMPONENT, user, data, message=msg)

    async def forged_click(
        self, user: FakeUser | str, custom_id: str, *, channel_id: int | None = None, values: list[str] | None = None
    ) -> FakeInteraction:
        """Click a button (or, with ``values``, pick in a select) with this custom_id on a message
        of the bot's in a channel (default: the first guild's) that shows only that component: a
        button or menu seen where it was never sent (another server, say), as a modified client or
        a copied message might make it appear."""
        channel = self.channels[channel_id or self.channel_id]
        if values is None:
            component = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
        else:
            component = {"type": 3, "custom_id": custom_id,
                         "options": [{"label": value, "value": value} for value in values]}
        msg = StoredMessage(id=self.snowflake(), channel_id=channel.id, guild_id=channel.guild_id,
                            author=self.bot_user, created_at=datetime.now(UTC), content="forged",
                            components=[{"type": 1, "components": [component]}])
        self.messages[msg.id] = msg
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = list(values)
        return await self._interact(MESSAGE_COMPONENT, user, data, message=msg)

    async def select(
        self, user: FakeUser | str, message: StoredMessage | int, custom_id: str, values: list[str]
    ) -> FakeInteraction:
        """Pick ``values`` in a string select of a stored message and return the interaction."""
        msg = self._message_for(user, message)
        component = msg.component(custom_id)
        if component.type != 3:
            raise ValueError(f"{custom_id!r} is not a string select (type {component.type})")
        if component.disabled:
            raise ValueError(f"select {custom_id!r} is disabled")
        unknown = [v for v in values if v not in component.option_values]
        if unknown:
            raise ValueError(f"select {custom_id!r} has no options {unknown}; has {component.option_values}")
        low, high = component.raw.get("min_values", 1), component.raw.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, not {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._interact(MESSAGE_COMPONENT, user, data, message=msg)

    async def submit_modal(
        self, user: FakeUser | str, interaction: FakeInteraction, values: dict[str, str]
    ) -> FakeInteraction:
        """Submit the modal the bot opened for ``interaction``, with text input values by custom_id."""
        if interaction.modal is None:
            raise ValueError(f"{interaction!r} did not open a modal")
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]} for key, value in values.items()
        ]
        data = {"custom_id": interaction.modal["custom_id"], "components": rows}
        return await self._interact(
            MODAL_SUBMIT,
            user,
            data,
            channel_id=interaction.channel_id,
            message=self.messages.get(interaction.source_message_id or 0),
        )

    async def message(
        self,
        user: FakeUser | str,
        content: str,
        mentions_bot: bool = False,
        *,
        channel_id: int | None = None,
    ) -> StoredMessage:
        """Post a user message (MESSAGE_CREATE) and return it.

        With ``mentions_bot`` the content is prefixed with the bot's mention unless it has one already.
        Without the MESSAGE_CONTENT intent the bot gets an empty ``content`` unless it is mentioned,
        as on Discord.
        """
        author = self.user(user)
        channel = self.channels[channel_id or self.channel_id]
        seen = self.bot_can_see(channel)  # no message reaches a bot that is not in the channel
        if seen and self.require_bot and self.connected_shard(channel.guild_id) is None:
            raise NoBotConnected("cannot send MESSAGE_CREATE: no bot is connected to the fake gateway "
                                 f"on the shard of guild {channel.guild_id}")
        if mentions_bot and self.bot_user.mention not in content:
            content = f"{self.bot_user.mention} {content}"
        msg = StoredMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            created_at=datetime.now(UTC),
            content=content,
            mentions=self._mentions(content),
        )
        self.messages[msg.id] = msg
        self._changes.notify()
        if not seen:
            return msg
        payload = msg.payload()
        if channel.guild_id is not None:
            payload["member"] = author.member_payload(self.joined_at, with_user=False)
        intent = INTENT_GUILD_MESSAGES if channel.guild_id is not None else INTENT_DIRECT_MESSAGES
        for session in self.sessions_for(channel.guild_id):
            if session.wants(intent):
                await session.dispatch("MESSAGE_CREATE", self._content_for(session, payload, msg))
        return msg

    async def wait_for_bot_message(
        self,
        *,
        after: StoredMessage | int | None = None,
        channel_id: int | None = None,
        predicate: Callable[[StoredMessage], bool] | None = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """Wait for a message the bot sent (in any channel unless given), newer than ``after``."""
        after_id = after.id if isinstance(after, StoredMessage) else (after or 0)

        def found() -> StoredMessage | None:
            for msg in self.messages.values():
                if (
                    msg.author == self.bot_user
                    and msg.id > after_id
                    and not msg.deleted
                    and (channel_id is None or msg.channel_id == channel_id)
                    and (predicate is None or predicate(msg))
                ):
                    return msg
            return None

        return await self._changes.wait_until(found, timeout, "a message from the bot")

    def channel_messages(
        self, channel_id: int | None = None, *, user: FakeUser | str | None = None
    ) -> list[StoredMessage]:
        """Messages of a channel, oldest first, as ``user`` would see them (all non-deleted if None)."""
        viewer = None if user is None else self.user(user)
        cid = channel_id or self.channel_id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and (viewer is None or m.visible_to(viewer))
        ]

    def bot_messages(self) -> list[StoredMessage]:
        """All non-deleted messages sent by the bot, oldest first."""
        return [m for m in self.messages.values() if m.author == self.bot_user and not m.deleted]

    @property
    def failed_interactions(self) -> list[FakeInteraction]:
        """Interactions a user would see as "This interaction failed"."""
        return [i for i in self.interactions.values() if i.failed]

    @property
    def error_responses(self) -> list[RecordedRequest]:
        """Requests answered with a 4xx/5xx status other than an injected 429."""
        return [r for r in self.requests if r.status >= 400 and r.status != 429]

    # ---- building interaction payloads ------------------------------------------------------------------------

    async def _interact(
        self,
        itype: int,
        user: FakeUser | str,
        data: dict[str, Any],
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        message: StoredMessage | None = None,
    ) -> FakeInteraction:
        channel = self.channels[message.channel_id if message else (channel_id or self.channel_id)]
        who = self.user(user)
        metadata = message.interaction_metadata if message is not None else None
        if metadata is not None:  # a component: the installs that authorized the message's interaction
            owners = dict(metadata.get("authorizing_integration_owners") or {})
        elif itype in (APPLICATION_COMMAND, AUTOCOMPLETE):
            owners = self.authorizing_owners(who, channel, self._installs_of(self._command_by_id(data["id"])))
        else:
            owners = self.authorizing_owners(who, channel, [GUILD_INSTALL])
        interaction = FakeInteraction(
            self,
            type=itype,
            user=who,
            channel_id=channel.id,
            guild_id=channel.guild_id if guild_id is None else guild_id,
            data=data,
            source_message_id=message.id if message else None,
            context=self.context_of(channel),
            owners=owners,
        )
        self.interactions[interaction.id] = interaction
        payload = interaction._event_payload()
        loop = asyncio.get_running_loop()
        interaction.dispatched_at = loop.time()
        interaction.delivered_to = [s for s in self.sessions_for(interaction.guild_id) if s.connected]
        await self.dispatch("INTERACTION_CREATE", payload, required=True)
        self._timers.append(loop.call_at(interaction.dispatched_at + self.ack_deadline, interaction._on_deadline))
        return interaction

    def _command_by_id(self, command_id: str) -> dict[str, Any]:
        for commands in self.commands.values():
            for command in commands:
                if command["id"] == str(command_id):
                    return command
        raise LookupError(f"no synced command has id {command_id}")

    @staticmethod
    def _installs_of(command: dict[str, Any]) -> list[int]:
        """A command's integration_types (Discord's default: the guild install)."""
        return list(command.get("integration_types") or [GUILD_INSTALL])

    def _command_data(
        self, name: str, options: dict[str, Any], *, focused: str | None = None, guild_id: int | None = None
    ) -> dict[str, Any]:
        parts = name.split()
        command = self.find_command(parts[0], guild_id)
        specs = command.get("options", [])
        path: list[dict[str, Any]] = []
        for part in parts[1:]:
            spec = next((o for o in specs if o["name"] == part and o["type"] in (1, 2)), None)
            if spec is None:
                raise LookupError(f"command {parts[0]!r} has no subcommand {part!r}")
            path.append(spec)
            specs = spec.get("options", [])
        resolved: dict[str, dict[str, Any]] = {}
        built = self._build_options(specs, options, focused, resolved)
        for spec in reversed(path):
            built = [{"name": spec["name"], "type": spec["type"], "options": built}]
        data: dict[str, Any] = {"id": str(command["id"]), "name": command["name"], "type": 1, "options": built}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        specs: list[dict[str, Any]],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
    ) -> list[dict[str, Any]]:
        by_name = {spec["name"]: spec for spec in specs}
        built = []
        for name, value in values.items():
            spec = by_name.get(name)
            if spec is None:
                raise LookupError(f"no option {name!r}; the synced command has {sorted(by_name)}")
            option: dict[str, Any] = {"name": name, "type": spec["type"]}
            if name == focused:
                option["value"] = str(value)
                option["focused"] = True
            else:
                option["value"] = self._option_value(spec, value, resolved)
            built.append(option)
        if focused is None:
            missing = [s["name"] for s in specs if s.get("required") and s["name"] not in values]
            if missing:
                raise ValueError(f"required options missing: {missing}")
        return built

    def _option_value(self, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        otype = spec["type"]
        if otype == 3:
            value = str(value)
        elif otype == 4:
            value = int(value)
        elif otype == 5:
            value = bool(value)
        elif otype == 10:
            value = float(value)
        elif otype in (6, 9):
            user = self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if not user.bot:
                member = user.member_payload(self.joined_at, with_user=False)
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        elif otype == 8:  # a role: any id the test names, resolved as a plain mentionable role
            role_id = int(value)
            resolved.setdefault("roles", {})[str(role_id)] = {
                "id": str(role_id), "name": "everyone" if role_id in self.guilds else f"role {role_id}", "color": 0,
                "hoist": False, "position": 0 if role_id in self.guilds else 1, "permissions": "0",
                "managed": False, "mentionable": True, "flags": 0}
            return str(role_id)
        elif otype == 7:
            channel = self.channels[int(value)]
            resolved.setdefault("channels", {})[str(channel.id)] = {**channel.payload(), "permissions": ALL_PERMISSIONS}
            return str(channel.id)
        else:
            raise NotImplementedError(f"option type {otype} is not supported by the fake")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"{value!r} is not one of the choices of {spec['name']!r}: {choices}")
        return value

    def _message_for(self, user: FakeUser | str, message: StoredMessage | int) -> StoredMessage:
        msg_id = message.id if isinstance(message, StoredMessage) else int(message)
        msg = self.messages.get(msg_id)
        if msg is None:
            raise LookupError(f"no stored message {msg_id}")
        if not msg.visible_to(self.user(user)):
            raise PermissionError(f"{self.user(user).username} cannot see message {msg_id} (ephemeral or deleted)")
        return msg

    def _mentions(self, content: str) -> list[FakeUser]:
        found = []
        for raw in MENTION.findall(content):
            try:
                user = self.user(int(raw))
            except LookupError:
                continue
            if user not in found:
                found.append(user)
        return found

    def _content_for(self, session: GatewaySession, payload: dict[str, Any], msg: StoredMessage) -> dict[str, Any]:
        """Blank the content fields, as Discord does without the MESSAGE_CONTENT intent."""
        exempt = msg.author == self.bot_user or self.bot_user in msg.mentions or msg.guild_id is None
        if session.wants(INTENT_MESSAGE_CONTENT) or exempt:
            return payload
        return {**payload, "content": "", "embeds": [], "attachments": [], "components": []}

    # ---- storing messages ----------------------------------------------------------------------------------

    def _new_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        flags: int = 0,
        msg_type: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> StoredMessage:
        channel = self.channels[channel_id]
        msg = StoredMessage(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            created_at=datetime.now(UTC),
            flags=flags,
            type=msg_type,
        )
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": dict(interaction.owners),
            }
            if msg.ephemeral:
                msg.owner_id = interaction.user.id
        self._fill(msg, payload, files)
        self.messages[msg.id] = msg
        self._changes.notify()
        return msg

    def _fill(self, msg: StoredMessage, payload: dict[str, Any], files: list[UploadedFile]) -> None:
        """Apply the message fields of a create or edit payload (absent keys keep their value)."""
        if "content" in payload:
            msg.content = payload["content"] or ""
            msg.mentions = self._mentions(msg.content)
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            editable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            msg.flags = (msg.flags & ~editable) | (int(payload["flags"]) & editable)
        if payload.get("message_reference"):
            ref = payload["message_reference"]
            msg.message_reference = {
                "type": 0,
                "message_id": str(ref.get("message_id")),
                "channel_id": str(ref.get("channel_id") or msg.channel_id),
                "guild_id": str(ref.get("guild_id") or msg.guild_id),
            }
            msg.type = 19
        self._fill_attachments(msg, payload.get("attachments"), files)
        if "components" in payload:
            msg.components = _resolve_media(msg.components, msg.attachments)

    def _fill_attachments(
        self, msg: StoredMessage, wanted: list[dict[str, Any]] | None, files: list[UploadedFile]
    ) -> None:
        new_files = {f.index: f for f in files}

        def store(upload: UploadedFile, description: str | None = None) -> StoredAttachment:
            attachment_id = self.snowflake()
            guessed = mimetypes.guess_type(upload.filename)[0]
            url = f"{self.base_url}/attachments/{msg.channel_id}/{attachment_id}/{upload.filename}"
            content_type = guessed or upload.content_type or "application/octet-stream"
            return StoredAttachment(attachment_id, upload.filename, upload.data, content_type, url, description)

        if wanted is None:
            msg.attachments = msg.attachments + [store(f) for f in files]
            return
        existing = {a.id: a for a in msg.attachments}
        kept: list[StoredAttachment] = []
        used: set[int] = set()
        for entry in wanted:
            key = int(entry["id"])
            if key in existing:
                kept.append(existing[key])
            elif key in new_files:
                kept.append(store(new_files[key], entry.get("description")))
                used.add(key)
            else:
                raise _invalid_form(f"attachments: unknown attachment id {entry['id']!r}")
        kept.extend(store(f) for index, f in sorted(new_files.items()) if index not in used)
        msg.attachments = kept

    def _edit(self, msg: StoredMessage, payload: dict[str, Any], files: list[UploadedFile]) -> None:
        self._check_message(payload, files, creating=False, current=msg)
        msg.history.append(msg.payload())
        self._fill(msg, payload, files)
        msg.flags &= ~FLAG_LOADING
        msg.version += 1
        msg.edited_at = datetime.now(UTC)
        self._changes.notify()

    def _check_message(
        self,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        creating: bool,
        current: StoredMessage | None = None,
    ) -> None:
        """Reject payloads Discord would reject (the most common limits only)."""
        content = payload.get("content") or ""
        if len(content) > 2000:
            raise _invalid_form(f"content: must be 2000 or fewer in length (got {len(content)})")
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise _invalid_form("embeds: must be 10 or fewer in length")
        for embed in embeds:
            if len(embed.get("description") or "") > 4096 or len(embed.get("title") or "") > 256:
                raise _invalid_form("embeds: title/description too long")
            if len(embed.get("fields") or []) > 25:
                raise _invalid_form("embeds: more than 25 fields")
        if len(files) > 10:
            raise _invalid_form("files: must be 10 or fewer")
        for upload in files:
            if len(upload.data) > self.attachment_size_limit:
                raise _ApiError(413, 40005, "Request entity too large")
        components = payload.get("components") or []
        for entry in payload.get("attachments") or []:
            if len(entry.get("description") or "") > 1024:
                raise _invalid_form("attachments: description must be 1024 or fewer in length")
        asked = payload.get("flags")
        if current is not None and current.flags & FLAG_COMPONENTS_V2 and asked is not None \
                and not int(asked) & FLAG_COMPONENTS_V2:
            raise _invalid_form("flags: the IS_COMPONENTS_V2 flag cannot be removed once set")
        flags = int(asked or 0) | (current.flags if current else 0)
        if flags & FLAG_COMPONENTS_V2:
            self._check_v2(payload, files, current)
        else:
            if any(c.get("type") in V2_ONLY_TYPES for c in components):
                raise _invalid_form("components: V2 components need the IS_COMPONENTS_V2 flag")
            if len(components) > 5:
                raise _invalid_form("components: must be 5 or fewer in length")
            for row in components:
                children = row.get("components") or []
                if row.get("type") != 1 or not children:
                    raise _invalid_form("components: top-level components must be non-empty action rows")
                selects = [c for c in children if c.get("type") != 2]
                if len(children) > 5 or (selects and len(children) > 1):
                    raise _invalid_form("components: a row holds up to 5 buttons or exactly one select")
        seen: set[str] = set()
        for comp in leaf_components(components):
            custom_id = comp.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise _invalid_form(f"components: custom_id {custom_id!r} must be 1..100 characters")
                if custom_id in seen:
                    raise _invalid_form(f"components: custom_id {custom_id!r} is duplicated")
                seen.add(custom_id)
            ctype = comp.get("type") or 0
            if ctype == 2:
                label, style = comp.get("label"), comp.get("style")
                if len(label or "") > 80:
                    raise _invalid_form(f"components: button label {label!r} is longer than 80")
                if style != 5 and custom_id is None and style != 6:
                    raise _invalid_form("components: a non-link button needs a custom_id")
            if ctype == 3 and not 1 <= len(comp.get("options") or ()) <= 25:
                raise _invalid_form(f"components: select {custom_id!r} needs 1..25 options")
        has_body = content or embeds or files or components or payload.get("sticker_ids") or payload.get("poll")
        if creating and not has_body:
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _check_v2(self, payload: dict[str, Any], files: list[UploadedFile], current: StoredMessage | None) -> None:
        """Reject a V2 message Discord would reject: content, embeds, stickers or a poll beside the
        flag (an upgraded message must clear them), component types where they cannot go, more
        than 40 components, more than 4000 characters of text, media pointing at no attachment."""
        content = payload.get("content", current.content if current else "")
        embeds = payload.get("embeds", current.embeds if current else [])
        if content or embeds or payload.get("sticker_ids") or payload.get("poll"):
            raise _invalid_form("content, embeds, stickers and polls cannot be used with IS_COMPONENTS_V2")
        components = payload.get("components")
        if components is None:
            return
        if not components:
            raise _invalid_form("components: a V2 message needs at least one component")
        kept = payload.get("attachments")
        names = {upload.filename for upload in files}
        if current is not None:
            kept_ids = None if kept is None else {str(entry.get("id")) for entry in kept}
            names |= {a.filename for a in current.attachments if kept_ids is None or str(a.id) in kept_ids}
        count, text = 0, 0

        def media(item: dict[str, Any], where: str) -> None:
            url = str((item.get("media") or item.get("file") or {}).get("url") or "")
            if not url:
                raise _invalid_form(f"{where}: media needs a url")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                raise _invalid_form(f"{where}: {url} names no attachment of the message")

        def walk(component: dict[str, Any], allowed: set[int], where: str) -> None:
            nonlocal count, text
            ctype = component.get("type")
            if ctype not in allowed:
                raise _invalid_form(f"{where}: component type {ctype} cannot go here")
            count += 1
            children = component.get("components") or []
            if ctype == 1:
                buttons = [c for c in children if c.get("type") == 2]
                if not children or len(children) > 5 or (len(buttons) != len(children) and len(children) > 1):
                    raise _invalid_form(f"{where}: an action row holds 1 to 5 buttons or exactly one select")
                for child in children:
                    walk(child, {2, *SELECT_TYPES}, f"{where}.components")
            elif ctype == 17:
                for child in children:
                    walk(child, CONTAINER_CHILD_TYPES, f"{where}.components")
            elif ctype == 9:
                if not 1 <= len(children) <= 3:
                    raise _invalid_form(f"{where}: a section holds 1 to 3 text displays")
                for child in children:
                    walk(child, {10}, f"{where}.components")
                accessory = component.get("accessory")
                if not isinstance(accessory, dict):
                    raise _invalid_form(f"{where}: a section needs an accessory")
                walk(accessory, {2, 11}, f"{where}.accessory")
            elif ctype == 10:
                text += len(component.get("content") or "")
            elif ctype == 12:
                items = component.get("items") or []
                if not 1 <= len(items) <= 10:
                    raise _invalid_form(f"{where}: a media gallery holds 1 to 10 items")
                for item in items:
                    if len(item.get("description") or "") > 1024:
                        raise _invalid_form(f"{where}: a media item's description must be 1024 or fewer")
                    media(item, where)
            elif ctype in (11, 13):
                media(component, where)

        for top in components:
            walk(top, TOP_LEVEL_V2_TYPES, "components")
        if count > 40:
            raise _invalid_form(f"components: must be 40 or fewer in total (got {count})")
        if text > 4000:
            raise _invalid_form(f"components: text displays hold 4000 characters in all (got {text})")

    # ---- aiohttp plumbing --------------------------------------------------------------------------------------

    def _add_routes(self, router: web.UrlDispatcher) -> None:
        api = API_PREFIX
        router.add_get("/gateway", self._gateway)
        router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        router.add_get(api + "/gateway", self._get_gateway)
        router.add_get(api + "/gateway/bot", self._get_gateway_bot)
        router.add_post(api + "/oauth2/token", self._oauth_token)
        router.add_get(api + "/applications/{app_id}/activity-instances/{instance_id}", self._activity_instance)
        router.add_get(api + "/users/{user_id}", self._get_user)
        router.add_post(api + "/users/@me/channels", self._create_dm)
        router.add_get(api + "/oauth2/applications/@me", self._get_application)
        router.add_get(api + "/applications/@me", self._get_application)
        for path in ("/applications/{app_id}/commands", "/applications/{app_id}/guilds/{guild_id}/commands"):
            router.add_get(api + path, self._get_commands)
            router.add_put(api + path, self._put_commands)
            router.add_post(api + path, self._post_command)
            router.add_delete(api + path + "/{command_id}", self._delete_command)
        router.add_post(api + "/interactions/{interaction_id}/{token}/callback", self._interaction_callback)
        router.add_post(api + "/webhooks/{app_id}/{token}", self._followup)
        router.add_route("*", api + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message)
        router.add_get(api + "/channels/{channel_id}", self._get_channel)
        router.add_post(api + "/channels/{channel_id}/messages", self._post_channel_message)
        router.add_get(api + "/channels/{channel_id}/messages", self._get_channel_messages)
        router.add_route("*", api + "/channels/{channel_id}/messages/{message_id}", self._channel_message)
        router.add_post(api + "/channels/{channel_id}/typing", self._typing)
        router.add_route(
            "*", api + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._own_reaction
        )
        router.add_get(api + "/guilds/{guild_id}", self._get_guild)
        router.add_get(api + "/guilds/{guild_id}/channels", self._get_guild_channels)
        router.add_get(api + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        router.add_route("*", "/{tail:.*}", self._unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path
        relative = path[len(API_PREFIX) :] if path.startswith(API_PREFIX + "/") else None
        response: web.StreamResponse
        try:
            if relative is not None:
                self._check_rate_limit(request.method, relative)
                public = (relative in ("/gateway", "/oauth2/token")
                          or relative.startswith(("/webhooks/", "/interactions/")))
                bearer = relative == "/users/@me" and request.headers.get("Authorization", "").startswith("Bearer ")
                if not public and not bearer and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise _ApiError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except _ApiError as error:
            response = json_response(error.body(), error.status, error.headers)
            if error.status != 429:
                log.warning("%s %s -> %s %s", request.method, request.path_qs, error.status, error.message)
        if relative is not None:
            self.requests.append(
                RecordedRequest(
                    request.method,
                    relative,
                    dict(request.query),
                    response.status,
                    request.get(PAYLOAD_KEY),
                    request.get(FILES_KEY, []),
                    asyncio.get_running_loop().time(),
                )
            )
            self._changes.notify()
        return response

    def _check_rate_limit(self, method: str, path: str) -> None:
        for rule in self.rate_limits:
            if rule.matches(method, path):
                rule.remaining -= 1
                rule.hits += 1
                headers = {
                    "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban and gives up
                    "Retry-After": str(max(1, round(rule.retry_after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
                    "X-RateLimit-Bucket": "fake-" + re.sub(r"\W", "", path)[:32],
                    "X-RateLimit-Scope": "global" if rule.is_global else "user",
                }
                if rule.is_global:
                    headers["X-RateLimit-Global"] = "true"
                log.info("injected 429 for %s %s (%d left)", method, path, rule.remaining)
                extra = {"retry_after": rule.retry_after, "global": rule.is_global}
                raise _ApiError(429, 0, "You are being rate limited.", headers=headers, extra=extra)

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
        """Parse a JSON body or a multipart one (``payload_json`` + ``files[n]``)."""
        payload: dict[str, Any] = {}
        files: list[UploadedFile] = []
        # Not `request.content_type` nor `request.text()`: aiohttp parses the header with the email
        # package, slower than the whole of the rest of a request here (each multipart body has a
        # boundary of its own); `parse_mimetype` is aiohttp's other parser, and keeps the texts it saw.
        content_type = request.headers.get("Content-Type", "")
        body = await request.read() if request.can_read_body else b""
        if content_type.lower().startswith("multipart/"):
            for part in await read_form_data(request.headers, body, request.protocol):
                if part.name == "payload_json":
                    payload = from_json(part.text())
                elif part.name.startswith("files["):
                    files.append(UploadedFile(int(part.name[6:-1]), part.filename or part.name, part.data,
                                              part.content_type))
                else:
                    payload[part.name] = part.text()
        elif body:
            text = body.decode(parse_mimetype(content_type).parameters.get("charset", "utf-8"))
            if text:
                payload = from_json(text)
        request[PAYLOAD_KEY] = payload
        request[FILES_KEY] = files
        return payload, files

    # ---- REST handlers -------------------------------------------------------------------------------------

    async def _unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        log.warning("fake Discord: unknown route %s", route)
        raise _ApiError(404, 0, f"404: Not Found (the fake Discord has no route {route})")

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit})

    async def _get_user(self, request: web.Request) -> web.Response:
        user_id = request.match_info["user_id"]
        authorization = request.headers.get("Authorization", "")
        if user_id == "@me" and authorization.startswith("Bearer "):  # an OAuth2 access token's user
            owner = self.access_tokens.get(authorization.removeprefix("Bearer "))
            if owner is None:
                raise _ApiError(401, 0, "401: Unauthorized")
            return json_response({**self.user(owner).payload(), "locale": self.locale_of(owner)})
        if user_id == "@me":
            return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})
        try:
            return json_response(self.user(int(user_id)).payload())
        except (LookupError, ValueError):
            raise _ApiError(404, 10013, "Unknown User") from None

    async def _activity_instance(self, request: web.Request) -> web.Response:
        """GET /applications/{id}/activity-instances/{instance}: where an Activity's instance runs
        and who is in it (the bot's token); 404 for an instance there is not."""
        found = self.activity_instances.get(request.match_info["instance_id"])
        if request.match_info["app_id"] != str(self.application_id) or found is None:
            raise _ApiError(404, 10_106, "Unknown Activity Instance")
        channel_id, users = found
        channel = self.channels.get(channel_id)
        location = {"id": f"gc-{channel_id}", "kind": "gc", "channel_id": str(channel_id),
                    "guild_id": str(channel.guild_id) if channel is not None and channel.guild_id else None}
        return json_response({"application_id": str(self.application_id),
                              "instance_id": request.match_info["instance_id"],
                              "launch_id": str(self.snowflake()), "location": location,
                              "users": [str(user) for user in users]})

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """POST /oauth2/token: an authorization code (form-encoded, with the application's
        client id and secret) exchanged, once, for an access token; OAuth2's errors otherwise."""
        form = await request.post()
        if form.get("client_id") != str(self.application_id) or form.get("client_secret") != self.client_secret:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        owner = self.oauth_codes.pop(str(form.get("code", "")), None)
        if owner is None:
            return web.json_response({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."},
                                     status=400)
        token = f"access-{self.snowflake()}"
        self.access_tokens[token] = owner
        return json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                              "refresh_token": f"refresh-{self.snowflake()}", "scope": "identify"})

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._read_body(request)
        try:
            user = self.user(int(payload["recipient_id"]))
        except (KeyError, LookupError, ValueError):
            raise _ApiError(400, 50033, "Invalid Recipient(s)") from None
        return json_response(self.dm_channel(user).payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": APP_FLAGS_ALL_INTENTS if self.allow_privileged_intents else 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
            }
        )

    def _check_app(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.application_id):
            raise _ApiError(404, 10002, "Unknown Application")
        guild = request.match_info.get("guild_id")
        if guild is not None and (not guild.isdigit() or int(guild) not in self.guilds):
            raise _ApiError(404, 10004, "Unknown Guild")
        if guild is not None and not self.guilds[int(guild)].bot_member:
            raise _ApiError(403, 50001, "Missing Access")
        return None if guild is None else int(guild)

    def _store_command(self, guild_id: int | None, spec: dict[str, Any], old: list[dict[str, Any]]) -> dict[str, Any]:
        ctype = spec.get("type", 1)
        previous = next((c for c in old if c["name"] == spec["name"] and c.get("type", 1) == ctype), None)
        command = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **spec,
            "type": ctype,
            "id": previous["id"] if previous else str(self.snowflake()),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.commands.get(self._check_app(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild_id = self._check_app(request)
        payload, _ = await self._read_body(request)
        specs: list[dict[str, Any]] = payload if isinstance(payload, list) else []
        _check_commands(specs)
        old = self.commands.get(guild_id, [])
        self.commands[guild_id] = [self._store_command(guild_id, spec, old) for spec in specs]
        self._changes.notify()
        return json_response(self.commands[guild_id])

    async def _post_command(self, request: web.Request) -> web.Response:
        guild_id = self._check_app(request)
        spec, _ = await self._read_body(request)
        old = self.commands.get(guild_id, [])
        _check_commands([*(c for c in old if c["name"] != spec.get("name")), spec])
        command = self._store_command(guild_id, spec, old)
        self.commands[guild_id] = [c for c in old if c["id"] != command["id"]] + [command]
        self._changes.notify()
        return json_response(command, 201)

    async def _delete_command(self, request: web.Request) -> web.Response:
        guild_id = self._check_app(request)
        old = self.commands.get(guild_id, [])
        self.commands[guild_id] = [c for c in old if c["id"] != request.match_info["command_id"]]
        if len(old) == len(self.commands[guild_id]):
            raise _ApiError(404, 10063, "Unknown application command")
        return web.Response(status=204)

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        interaction = self.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise _ApiError(404, 10062, "Unknown interaction")
        elapsed = asyncio.get_running_loop().time() - interaction.dispatched_at
        rtype = payload.get("type")
        data = payload.get("data") or {}
        record = CallbackRecord(rtype, data, files, elapsed, accepted=False)
        interaction.callbacks.append(record)
        try:
            if elapsed > self.ack_deadline:
                interaction._fail(f"first callback came {elapsed:.2f}s after dispatch (Discord allows 3s)")
                raise _ApiError(404, 10062, "Unknown interaction")
            if interaction.acknowledged:
                raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
            if rtype not in ALLOWED_CALLBACKS.get(interaction.type, set()):
                raise _invalid_form(f"type: callback type {rtype} is not valid for interaction type {interaction.type}")
            self._apply_callback(interaction, rtype, data, files)
        except _ApiError as error:
            record.error = error.message
            interaction.errors.append(f"callback type {rtype}: {error.message}")
            self._changes.notify()
            raise
        record.accepted = True
        interaction.acked_at = interaction.dispatched_at + elapsed
        interaction.response_type = rtype
        message = interaction.message
        interaction._version_at_ack = message.version if message else 0
        self._changes.notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": bool(message and message.loading),
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": rtype},
        }
        if message is not None and rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            answer["resource"]["message"] = message.payload()
        return json_response(answer)

    def _apply_callback(
        self, interaction: FakeInteraction, rtype: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> None:
        if rtype == CHANNEL_MESSAGE:
            self._check_message(data, files, creating=True)
            flags = int(data.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS)
            flags |= FLAG_EPHEMERAL if interaction.forced_ephemeral else 0
            msg_type = 20 if interaction.type == APPLICATION_COMMAND else 0
            msg = self._new_message(
                interaction.channel_id, data, files, flags=flags, msg_type=msg_type, interaction=interaction
            )
            interaction.message_id = msg.id
            self._echo("MESSAGE_CREATE", msg)
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            if int(data.get("flags") or 0) & FLAG_COMPONENTS_V2:
                raise _invalid_form("flags: IS_COMPONENTS_V2 cannot be set on a deferred response: set it on the edit")
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            flags |= FLAG_EPHEMERAL if interaction.forced_ephemeral else 0
            msg_type = 20 if interaction.type == APPLICATION_COMMAND else 0
            msg = self._new_message(
                interaction.channel_id, {}, [], flags=flags, msg_type=msg_type, interaction=interaction
            )
            interaction.message_id = msg.id
            self._echo("MESSAGE_CREATE", msg)
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            interaction.message_id = interaction.source_message_id
        elif rtype == UPDATE_MESSAGE:
            source = self.messages[interaction.source_message_id or 0]
            self._edit(source, data, files)
            interaction.message_id = source.id
            self._echo("MESSAGE_UPDATE", source)
        elif rtype == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise _invalid_form("choices: must be 25 or fewer in length")
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise _invalid_form(f"choices: name {choice.get('name')!r} must be 1..100 characters")
            interaction.choices = choices
        elif rtype == MODAL:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise _invalid_form("modal: custom_id, title and components are required")
            interaction.modal = data

    def _echo(self, event: str, msg: StoredMessage, payload: dict[str, Any] | None = None) -> None:
        """Tell the bot about its own message, as Discord does (not for ephemeral messages).
        `payload`: the message's, where the caller has made it already (nothing changes it)."""
        if not self.echo_bot_messages or msg.ephemeral or not self.bot_can_see(self.channels[msg.channel_id]):
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = payload or msg.payload()
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data, intent=intent))
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("fake Discord background task failed", exc_info=task.exception())

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        """The interaction behind ``/webhooks/{app_id}/{token}``, checking that the token still works."""
        if request.match_info["app_id"] != str(self.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        token = request.match_info["token"]
        interaction = next((i for i in self.interactions.values() if i.token == token), None)
        if interaction is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        age = asyncio.get_running_loop().time() - interaction.dispatched_at
        if interaction.expired or age > self.token_lifetime:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        if not interaction.acknowledged:
            interaction.errors.append(f"{request.method} {request.path} before the interaction was acknowledged")
            raise _ApiError(404, 10015, "Unknown Webhook")
        return interaction

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        interaction = self._webhook_interaction(request)
        original = interaction.message
        if (
            interaction.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first followup after a deferred response edits the "thinking" message.
            self._edit(original, {k: v for k, v in payload.items() if k != "flags"}, files)
            msg = original
            self._echo("MESSAGE_UPDATE", msg)
        else:
            self._check_message(payload, files, creating=True)
            if not interaction.app_in_place and len(interaction.followup_ids) >= MAX_FOLLOWUPS_WITHOUT_APP:
                raise _ApiError(400, 40094, "This interaction has hit the maximum number of follow up messages")
            flags = int(payload.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2)
            flags |= FLAG_EPHEMERAL if interaction.forced_ephemeral else 0
            msg = self._new_message(interaction.channel_id, payload, files, flags=flags, interaction=interaction)
            self._echo("MESSAGE_CREATE", msg)
        if msg is not original:
            interaction.followup_ids.append(msg.id)
        self._changes.notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg.payload())
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        interaction = self._webhook_interaction(request)
        raw_id = request.match_info["message_id"]
        if raw_id == "@original":
            msg = interaction.message
        else:
            wanted = int(raw_id) if raw_id.isdigit() else -1
            ours = wanted == interaction.message_id or wanted in interaction.followup_ids
            msg = self.messages.get(wanted) if ours else None
        if msg is None or msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload())
        if request.method == "DELETE":
            msg.deleted = True
            self._changes.notify()
            self._echo("MESSAGE_DELETE", msg)
            return web.Response(status=204)
        if request.method != "PATCH":
            raise _ApiError(405, 0, "405: Method Not Allowed")
        self._edit(msg, payload, files)
        answer = msg.payload()
        self._echo("MESSAGE_UPDATE", msg, answer)
        return json_response(answer)

    def _channel(self, request: web.Request) -> FakeChannel:
        try:
            channel = self.channels[int(request.match_info["channel_id"])]
        except (KeyError, ValueError):
            raise _ApiError(404, 10003, "Unknown Channel") from None
        if not self.bot_can_see(channel):  # a server without the app, a group DM
            raise _ApiError(403, 50001, "Missing Access")
        return channel

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).payload())

    async def _post_channel_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == 1 and channel.recipient is not None and channel.recipient.id in self.closed_dms:
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        payload, files = await self._read_body(request)
        self._check_message(payload, files, creating=True)
        flags = int(payload.get("flags") or 0) & (
            FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        )
        msg = self._new_message(channel.id, payload, files, flags=flags)
        answer = msg.payload()
        self._echo("MESSAGE_CREATE", msg, answer)
        return json_response(answer)

    async def _get_channel_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", "50"))
        visible = [
            m for m in self.messages.values() if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        return json_response([m.payload() for m in reversed(visible)][:limit])

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        payload, files = await self._read_body(request)
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload())
        if request.method == "DELETE":
            msg.deleted = True
            self._changes.notify()
            self._echo("MESSAGE_DELETE", msg)
            return web.Response(status=204)
        if request.method != "PATCH":
            raise _ApiError(405, 0, "405: Method Not Allowed")
        if msg.author != self.bot_user or msg.webhook_id is not None:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(msg, payload, files)
        answer = msg.payload()
        self._echo("MESSAGE_UPDATE", msg, answer)
        return json_response(answer)

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def _own_reaction(self, request: web.Request) -> web.Response:
        self._channel(request)
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if request.method == "PUT" and emoji not in msg.reactions:
            msg.reactions.append(emoji)
        elif request.method == "DELETE" and emoji in msg.reactions:
            msg.reactions.remove(emoji)
        self._changes.notify()
        return web.Response(status=204)

    def _check_guild(self, request: web.Request) -> FakeGuild:
        try:
            guild = self.guilds[int(request.match_info["guild_id"])]
        except (KeyError, ValueError):
            raise _ApiError(404, 10004, "Unknown Guild") from None
        if not guild.bot_member:
            raise _ApiError(403, 50001, "Missing Access")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        return json_response(self._guild_payload(guild, members=False))

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        return json_response([c.payload() for c in self.channels.values() if c.guild_id == guild.id])

    async def _get_member(self, request: web.Request) -> web.Response:
        self._check_guild(request)
        try:
            user = self.user(int(request.match_info["user_id"]))
        except (LookupError, ValueError):
            raise _ApiError(404, 10007, "Unknown Member") from None
        return json_response(user.member_payload(self.joined_at))

    async def _get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for msg in self.messages.values():
            for attachment in msg.attachments:
                if attachment.id == wanted:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise _ApiError(404, 0, "404: Not Found")

    # ---- gateway -------------------------------------------------------------------------------------------

    def _guild_payload(self, guild: FakeGuild, *, members: bool = True) -> dict[str, Any]:
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": "1071698660929",
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        body: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": str(guild.channel_id),
            "system_channel_flags": 0,
        }
        if members:
            people = [self.bot_user, *self.users.values()]
            body.update(
                {
                    "unavailable": False,
                    "large": False,
                    "member_count": len(people),
                    "joined_at": _iso(self.joined_at),
                    "members": [u.member_payload(self.joined_at) for u in people],
                    "channels": [c.payload() for c in self.channels.values() if c.guild_id == guild.id],
                    "threads": [],
                    "voice_states": [],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return body

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _GatewayConnection(ws, dict(request.query))
        self.gateway_queries.append(conn.query)
        self._connections.add(conn)
        log.info("gateway connection opened (%s)", request.query_string)
        try:
            if conn.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Only JSON encoding is supported by the fake")
                return ws
            # Text frames: discord.py only runs its zlib/zstd decompressor on binary frames.
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for frame in ws:
                if frame.type is WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(frame.data))
                elif frame.type is WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            log.info("gateway connection closed (code %s)", ws.close_code)
            self._changes.notify()
        return ws

    async def _gateway_op(self, conn: _GatewayConnection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11})
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data or {})
        elif op == 6:  # RESUME
            await self._resume(conn, data or {})
        elif op == 3:  # PRESENCE UPDATE
            self.presence = data
        elif op == 8:  # REQUEST GUILD MEMBERS
            members = [u.member_payload(self.joined_at) for u in (self.bot_user, *self.users.values())]
            chunk = {
                "guild_id": str((data or {}).get("guild_id") or self.guild_id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data and data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            if conn.session is not None:
                await conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op == 4:  # VOICE STATE UPDATE
            pass
        else:
            log.warning("gateway: unhandled op %s: %s", op, frame)

    async def _identify(self, conn: _GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = [int(n) for n in data.get("shard") or [0, 1]]
        if len(shard) != 2 or not 0 <= shard[0] < shard[1]:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = GatewaySession(secrets.token_hex(16), shard, intents, data)
        self.sessions[session.id] = session
        conn.session = session
        async with session.lock:
            session.connection = conn
        guilds = [guild for guild in self.guilds.values() if guild.bot_member and session.receives(guild.id)]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": shard,
            "application": {"id": str(self.application_id), "flags": APP_FLAGS_ALL_INTENTS},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "auth": {},
            "_trace": ["fakediscord"],
        }
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", self._guild_payload(guild))
        self.identify_count += 1
        log.info("gateway: bot identified (session %s, intents %s, shard %s)", session.id, intents, shard)
        self._changes.notify()

    async def _resume(self, conn: _GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if session is None:
            # Note: discord.py then re-identifies on DiscordWebSocket.DEFAULT_GATEWAY (the real Discord)
            # unless the bot points that at the fake too.
            await conn.send({"op": 9, "d": False})
            return
        conn.session = session
        seq = int(data.get("seq") or 0)
        async with session.lock:
            old = session.connection
            session.connection = conn
            for number, frame in session.buffer:
                if number > seq:
                    await conn.send(frame)
        if old is not None and old is not conn and old.open:
            await old.ws.close(code=4000)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        session.resumes += 1
        self.resume_count += 1
        log.info("gateway: session %s resumed from seq %s", session.id, seq)
        self._changes.notify()


def _check_commands(specs: list[dict[str, Any]]) -> None:
    """Reject command definitions Discord would reject (names, descriptions, option order, counts)."""
    if len([s for s in specs if s.get("type", 1) == 1]) > 100:
        raise _invalid_form("commands: more than 100 slash commands")
    seen: set[tuple[str, int]] = set()
    for spec in specs:
        ctype = spec.get("type", 1)
        name = str(spec.get("name", ""))
        key = (name, ctype)
        if key in seen:
            raise _invalid_form(f"commands: duplicate command name {name!r}")
        seen.add(key)
        for key, allowed in (("integration_types", (GUILD_INSTALL, USER_INSTALL)),
                             ("contexts", (GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT))):
            values = spec.get(key)
            if values is not None and (not values or any(value not in allowed for value in values)):
                raise _invalid_form(f"commands: {key} of {name!r} must be a non-empty list of {allowed}, not {values}")
        if ctype == 1:
            _check_option_list(name, spec)
        elif not 1 <= len(name) <= 32:
            raise _invalid_form(f"commands: context menu name {name!r} must be 1..32 characters")
    _check_unique_localized("commands", [s for s in specs if s.get("type", 1) == 1])


def _check_localizations(where: str, spec: dict[str, Any], *, named: bool = True) -> None:
    """Reject localizations Discord would reject: an unknown locale, a name that breaks the rules
    of names (or of choice names: 1..100 characters), a description over 100 characters."""
    names = spec.get("name_localizations") or {}
    descriptions = spec.get("description_localizations") or {}
    for locale in (*names, *descriptions):
        if locale not in LOCALES:
            raise _invalid_form(f"{where}: {locale!r} is not a valid locale")
    for locale, name in names.items():
        if named and (not COMMAND_NAME.match(str(name)) or name != str(name).lower()):
            raise _invalid_form(f"{where}: {locale} name {name!r} must be 1..32 lowercase letters, digits, - or _")
        if not named and not 1 <= len(str(name)) <= 100:
            raise _invalid_form(f"{where}: {locale} choice name {name!r} must be 1..100 characters")
    for locale, description in descriptions.items():
        if not 1 <= len(str(description)) <= 100:
            raise _invalid_form(f"{where}: {locale} description {description!r} must be 1..100 characters")


def _check_unique_localized(where: str, siblings: list[dict[str, Any]]) -> None:
    """Reject siblings (commands, or a command's options) whose names clash in some locale."""
    for locale in LOCALES:
        names = [(s.get("name_localizations") or {}).get(locale, s.get("name")) for s in siblings]
        if len(set(names)) != len(names):
            raise _invalid_form(f"{where}: duplicate names in {locale}: {names}")


def _check_option_list(where: str, spec: dict[str, Any]) -> None:
    name = str(spec.get("name", ""))
    if not COMMAND_NAME.match(name) or name != name.lower():
        raise _invalid_form(f"{where}: name {name!r} must be 1..32 lowercase letters, digits, - or _")
    if not 1 <= len(spec.get("description") or "") <= 100:
        raise _invalid_form(f"{where}: description of {name!r} must be 1..100 characters")
    _check_localizations(where, spec)
    options = spec.get("options") or []
    if len(options) > 25:
        raise _invalid_form(f"{where}: more than 25 options")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        raise _invalid_form(f"{where}: duplicate option names {names}")
    _check_unique_localized(where, options)
    optional_seen = False
    for option in options:
        if option.get("type") in (1, 2):
            _check_option_list(f"{where} {option.get('name')}", option)
            continue
        _check_option_list_leaf(f"{where} {option.get('name')}", option)
        if option.get("required"):
            if optional_seen:
                raise _invalid_form(f"{where}: required option {option.get('name')!r} after an optional one")
        else:
            optional_seen = True


def _check_option_list_leaf(where: str, option: dict[str, Any]) -> None:
    name = str(option.get("name", ""))
    if not COMMAND_NAME.match(name) or name != name.lower():
        raise _invalid_form(f"{where}: option name {name!r} must be 1..32 lowercase letters, digits, - or _")
    if not 1 <= len(option.get("description") or "") <= 100:
        raise _invalid_form(f"{where}: description must be 1..100 characters")
    _check_localizations(where, option)
    choices = option.get("choices") or []
    for choice in choices:
        _check_localizations(f"{where} choice {choice.get('name')!r}", choice, named=False)
    if len(choices) > 25:
        raise _invalid_form(f"{where}: more than 25 choices")
    if choices and option.get("autocomplete"):
        raise _invalid_form(f"{where}: autocomplete and choices cannot both be set")
