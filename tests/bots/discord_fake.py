"""Discord without the network: a fake REST API on 127.0.0.1 that records what the real
discord.py bot sends, and gateway payloads fed to the bot's own ``ConnectionState`` parsers (the
way the library turns a gateway dispatch into ``on_message`` and friends; no gateway connection).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

TOKEN = "discord-test-token"
BOT = {"id": "999", "username": "gm", "discriminator": "0", "global_name": "Game Master",
       "avatar": None, "bot": True}
CHANNEL = "555"
GUILD = "777"
STAMP = "2026-12-01T22:00:00+00:00"
WAIT = 10.0


def author(uid: str, username: str, global_name: str) -> dict[str, Any]:
    return {"id": uid, "username": username, "discriminator": "0", "global_name": global_name,
            "avatar": None}


def guild_payload() -> dict[str, Any]:
    """GUILD_CREATE for a server with one text channel, the game's table."""
    everyone = {"id": GUILD, "name": "@everyone", "permissions": "1024", "position": 0,
                "color": 0, "hoist": False, "managed": False, "mentionable": False}
    return {"id": GUILD, "name": "The Lamp Table", "icon": None, "owner_id": "101",
            "roles": [everyone], "emojis": [], "stickers": [], "features": [],
            "member_count": 3, "large": False, "unavailable": False, "members": [],
            "threads": [], "channels": [channel_payload()], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "premium_tier": 0, "nsfw_level": 0, "preferred_locale": "en-US"}


def channel_payload() -> dict[str, Any]:
    return {"id": CHANNEL, "type": 0, "guild_id": GUILD, "name": "table", "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": None}


def member_payload(sender: dict[str, Any]) -> dict[str, Any]:
    return {"user": sender, "roles": [], "joined_at": STAMP, "deaf": False, "mute": False,
            "flags": 0, "permissions": "1024"}


def message_payload(mid: str, sender: dict[str, Any], content: str, **extra: Any) -> dict[str, Any]:
    """A MESSAGE_CREATE / MESSAGE_UPDATE payload in the table's channel."""
    member = {k: v for k, v in member_payload(sender).items() if k not in ("user", "permissions")}
    return {"id": mid, "channel_id": CHANNEL, "guild_id": GUILD, "author": sender,
            "member": member, "content": content,
            "timestamp": STAMP, "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 0, **extra}


@dataclass
class Sent:
    """One REST call the bot made: method, path and JSON body."""

    method: str
    path: str
    body: dict[str, Any]


@dataclass
class FakeDiscord:
    calls: list[Sent] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(800_000))
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/api/v10/{path:path}", self._call,
                                       methods=["GET", "POST", "PATCH"])])

    def new_id(self) -> str:
        return str(next(self._ids))

    def posted(self) -> list[Sent]:
        """Messages the bot posted in the channel or as interaction follow-ups."""
        return [c for c in self.calls if c.method == "POST" and
                (c.path == f"channels/{CHANNEL}/messages" or c.path.startswith("webhooks/"))]

    def callbacks(self) -> list[Sent]:
        return [c for c in self.calls if c.path.endswith("/callback")]

    def interaction(self, sender: dict[str, Any], on: Sent, custom_id: str) -> dict[str, Any]:
        """An INTERACTION_CREATE payload: ``sender`` pressed button ``custom_id`` on ``on``."""
        return {"id": self.new_id(), "application_id": BOT["id"], "type": 3, "token": "tok",
                "version": 1, "channel_id": CHANNEL, "channel": channel_payload(),
                "guild_id": GUILD, "member": member_payload(sender), "locale": "en-US",
                "app_permissions": "0", "entitlements": [], "authorizing_integration_owners": {},
                "attachment_size_limit": 10_485_760,
                "message": on.body["result"],
                "data": {"custom_id": custom_id, "component_type": 2}}

    async def until(self, done: Callable[[FakeDiscord], bool]) -> None:
        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: done(self))

        await asyncio.wait_for(wait(), WAIT)

    async def _call(self, request: Request) -> Response:
        path = request.path_params["path"]
        raw = await request.body()
        body = json.loads(raw) if raw else {}
        result = self._result(request.method, path, body)
        async with self._changed:
            self.calls.append(Sent(request.method, path, {**body, "result": result}))
            self._changed.notify_all()
        return JSONResponse(result)

    def _result(self, method: str, path: str, body: dict[str, Any]) -> Any:
        if path == "users/@me":
            return BOT
        if path == "oauth2/applications/@me":
            return {"id": BOT["id"], "name": "Game Master", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "k",
                    "flags": 0, "owner": BOT, "team": None}
        if path.endswith("/callback"):
            return {"interaction": {"id": path.split("/")[1], "type": 3},
                    "resource": {"type": body.get("type", 6)}}
        posted = message_payload(self.new_id(), BOT, body.get("content", ""))
        posted.pop("member")
        posted["components"] = body.get("components", [])
        return posted
