"""A fake Telegram Bot API server on 127.0.0.1, for the real aiogram and python-telegram-bot.

Both libraries take a custom API base URL (a self-hosted Bot API server). This one hands out the
updates a test pushes through ``getUpdates`` (each push is one delivery; pushing an update again
is a redelivery, as Telegram does when a bot died before confirming it) and records every call the
bot makes (``sendMessage``, ``editMessageText``, ``answerCallbackQuery`` ...), answering each with
what the real server would return.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

TOKEN = "123456:TEST-TOKEN"
BOT_USER = {"id": 999, "is_bot": True, "first_name": "Game Master", "username": "gm_bot",
            "can_join_groups": True, "can_read_all_group_messages": True,
            "supports_inline_queries": False}
GROUP = {"id": -1001, "type": "supergroup", "title": "The Lamp Table"}
WAIT = 10.0
"""How long ``until`` waits for the bot before the test fails (a hang guard, not a timing)."""


def user(uid: int, first: str, username: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"id": uid, "is_bot": False, "first_name": first}
    if username:
        found["username"] = username
    return found


@dataclass
class Call:
    """One Bot API call the bot made: the method and its parameters (JSON values decoded)."""

    method: str
    params: dict[str, Any]


@dataclass
class FakeTelegram:
    calls: list[Call] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(5000))
    _updates: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _messages: itertools.count[int] = field(default_factory=lambda: itertools.count(10))
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/bot{token}/{method}", self._call, methods=["GET", "POST"])])

    # --- what a test does ---------------------------------------------------------------

    async def push(self, update: dict[str, Any]) -> dict[str, Any]:
        """Deliver ``update`` (again, if it was delivered before)."""
        async with self._changed:
            self.pending.append(update)
            self._changed.notify_all()
        return update

    def message(self, sender: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
        """A new player message in the group, as an update."""
        body = {"message_id": next(self._messages), "date": 1_700_000_000, "chat": GROUP,
                "from": sender, "text": text, **extra}
        if text.startswith("/"):  # Telegram marks a command with an entity
            body["entities"] = [{"type": "bot_command", "offset": 0,
                                 "length": len(text.split()[0])}]
        return {"update_id": next(self._updates), "message": body}

    def edited(self, update: dict[str, Any], text: str) -> dict[str, Any]:
        """The player edited the message of ``update``: a new update with ``edited_message``."""
        body = {**update["message"], "text": text, "edit_date": 1_700_000_100}
        return {"update_id": next(self._updates), "edited_message": body}

    def press(self, sender: dict[str, Any], posted: Call, data: str) -> dict[str, Any]:
        """A press on a button of the bot's message ``posted`` (a recorded sendMessage)."""
        query = {"id": str(next(self._ids)), "from": sender, "chat_instance": "ci-1",
                 "data": data, "message": posted.params["result"]}
        return {"update_id": next(self._updates), "callback_query": query}

    def sent(self, method: str = "sendMessage") -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def until(self, done: Callable[[FakeTelegram], bool], wait_at_most: float = WAIT) -> None:
        """Wait until the bot's calls satisfy ``done``."""
        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: done(self))

        await asyncio.wait_for(wait(), wait_at_most)

    # --- the Bot API --------------------------------------------------------------------

    async def _call(self, request: Request) -> JSONResponse:
        method = request.path_params["method"]
        params = await _params(request)
        if method == "getUpdates":
            return JSONResponse({"ok": True, "result": await self._updates_for(params)})
        result = self._result(method, params)
        async with self._changed:
            self.calls.append(Call(method, {**params, "result": result}))
            self._changed.notify_all()
        return JSONResponse({"ok": True, "result": result})

    async def _updates_for(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        async with self._changed:
            if not self.pending:
                wait = min(float(params.get("timeout") or 0), 0.2)
                try:
                    await asyncio.wait_for(self._changed.wait_for(lambda: bool(self.pending)), wait)
                except TimeoutError:
                    return []
            taken, self.pending = self.pending, []
            return taken

    def _result(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getMe":
            return BOT_USER
        if method in ("sendMessage", "editMessageText"):
            known = {"message_id": int(params.get("message_id") or next(self._messages)),
                     "date": 1_700_000_000, "chat": GROUP, "from": BOT_USER,
                     "text": params["text"]}
            if "reply_markup" in params:
                known["reply_markup"] = params["reply_markup"]
            return known
        return True


async def _params(request: Request) -> dict[str, Any]:
    """The call's parameters: a query string, a urlencoded or JSON body; JSON values decoded."""
    raw = (await request.body()).decode()
    kind = request.headers.get("content-type", "")
    pairs = dict(request.query_params)
    if "json" in kind and raw:
        pairs.update(json.loads(raw))
    elif raw:
        assert "multipart" not in kind, f"the fake Bot API reads no multipart body ({kind})"
        pairs.update(parse_qsl(raw, keep_blank_values=True))
    return {key: _decoded(value) for key, value in pairs.items()}


def _decoded(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value
