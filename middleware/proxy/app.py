"""The OpenAI-compatible proxy: an ASGI app in front of any model server (SPEC §7).

``POST /v1/chat/completions`` (streaming and not): the request is forwarded to the upstream, the
reply it gets back is resolved as a candidate of the chat's turn (``Engine.process``), and the
rewritten reply goes back with its records beside it (``gm_records``). ``GET /v1/models`` is passed
on so a chat UI can offer a model. Thin: every rule lives below it, in ``Engine``.

- A chat seen for the first time gets a new game from ``GameConfig`` (ruleset, party, seed, dice).
- Player messages the game has not seen open their turns (the player's text is kept, never parsed).
- The client's last assistant message selects the candidate it kept for the turn before (a swipe).
- ``Idempotency-Key``: a retry of a request that was answered returns the stored result: the model is
  not asked again, no dice are thrown (SPEC §3).

Errors, mapped once here: a malformed request is 400, an upstream failure 502, a game that cannot
take the request 409, anything else 500; always an OpenAI-style ``{"error": {...}}`` body.
"""

from __future__ import annotations

import asyncio
import uuid
import weakref
from dataclasses import dataclass
from typing import Any, Final, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from middleware.dice import derive_seed
from middleware.engine import Engine, Processed
from middleware.errors import GameError, GMError, RequestError, UpstreamError
from middleware.logs import get_logger
from middleware.proxy.chat import (
    ChatRequest,
    chat_id,
    kept_candidate,
    kept_reply,
    player_texts,
    read_request,
    turn_of,
)
from middleware.proxy.stream import (
    Envelope,
    ReplyStream,
    gm_fields,
    opened,
    priced_at_end,
    sse_reply,
    sse_stored,
)
from middleware.proxy.upstream import Upstream, content_of
from middleware.rules.ruleset import Ruleset
from middleware.state import Character

MAX_BODY: Final = 16 * 1024 * 1024
"""A request body longer than this (bytes) is refused (SPEC §8)."""

RETRY_HEADER: Final = "idempotency-key"
SSE_HEADERS: Final = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a chat's game starts with when the proxy first sees the chat.

    Each chat's game seed is derived from ``seed`` and the chat id, so chats differ but a chat
    started again with the same id sees the same market stock (SPEC §5).
    """

    ruleset: Ruleset
    party: tuple[Character, ...] = ()
    seed: int = 0
    dice: Literal["candidate", "turn"] = "candidate"


@dataclass(frozen=True, slots=True)
class _Turn:
    """Where a request lands: its chat, turn, retry key and the client's Authorization header."""

    chat: str
    turn: int
    key: str | None
    auth: str | None


def create_app(engine: Engine, upstream: Upstream, games: GameConfig) -> Starlette:
    """The proxy as an ASGI app over ``engine``, asking ``upstream`` for replies."""
    proxy = _Proxy(engine, upstream, games)
    routes = [Route("/v1/chat/completions", proxy.completions, methods=["POST"]),
              Route("/v1/models", proxy.models, methods=["GET"])]
    handlers: dict[Any, Any] = {RequestError: _refused(400, "invalid_request_error"),
                                UpstreamError: _refused(502, "upstream_error"),
                                GameError: _refused(409, "game_error"),
                                GMError: _refused(500, "server_error"),
                                Exception: _internal}
    return Starlette(routes=routes, exception_handlers=handlers)


class _Proxy:
    def __init__(self, engine: Engine, upstream: Upstream, games: GameConfig) -> None:
        self.engine = engine
        self.upstream = upstream
        self.games = games
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def completions(self, request: Request) -> Response:
        """``POST /v1/chat/completions``."""
        ask = read_request(await _body(request))
        at = _Turn(chat_id(request.headers, ask.messages), turn_of(ask.messages),
                   request.headers.get(RETRY_HEADER) or None, request.headers.get("authorization"))
        async with self._lock(at.chat):
            await self._open(at, ask)
        envelope = Envelope(id=f"chatcmpl-{uuid.uuid4().hex}", model=ask.model)
        if at.key is not None and (done := await self.engine.retried(at.chat, at.turn, at.key)):
            return _stored(ask, done, envelope)
        if ask.stream:
            return await self._stream(at, ask, envelope)
        answer = await self.upstream.complete(ask.body, at.auth)
        done = await self.engine.process(at.chat, at.turn, content_of(answer), key=at.key)
        return JSONResponse(_answer(answer, done))

    async def models(self, request: Request) -> Response:
        """``GET /v1/models``, passed on."""
        return JSONResponse(await self.upstream.models(request.headers.get("authorization")))

    async def _open(self, at: _Turn, ask: ChatRequest) -> None:
        """The game, the player's turns up to this one, and the kept candidate of the turn before."""
        await self._game(at.chat)
        last = await self.engine.store.last_turn(at.chat)
        texts = player_texts(ask.messages)
        for turn in range(last + 1, at.turn + 1):
            await self.engine.user(at.chat, turn, texts[turn - 1])
        kept = kept_reply(ask.messages)
        if kept is None or at.turn < 2:
            return
        stored = await self.engine.candidates(at.chat, at.turn - 1)
        index = kept_candidate(kept, [(c.candidate, c.text) for c in stored])
        if index is not None:
            await self.engine.select(at.chat, at.turn - 1, index)

    async def _game(self, chat: str) -> None:
        try:
            await self.engine.game(chat)
        except GameError:
            games = self.games
            await self.engine.create_game(chat, games.ruleset, games.party,
                                          seed=derive_seed(games.seed, chat), dice=games.dice)
            get_logger().info("proxy-new-game", chat=chat, ruleset=games.ruleset.id)

    async def _stream(self, at: _Turn, ask: ChatRequest, envelope: Envelope) -> Response:
        """The seed is picked first so each tag streamed is what the stored candidate says."""
        seed = await self.engine.next_seed(at.chat, at.turn)
        preview = await self.engine.previewer(at.chat, at.turn, seed)
        reply = ReplyStream(preview, priced_at_end(await self.engine.ruleset(at.chat)))
        chunks = await opened(self.upstream.stream(ask.body, at.auth))

        async def store(text: str) -> Processed:
            return await self.engine.process(at.chat, at.turn, text, key=at.key, seed=seed)

        return StreamingResponse(sse_reply(chunks, reply, store, envelope),
                                 media_type="text/event-stream", headers=SSE_HEADERS)

    def _lock(self, chat: str) -> asyncio.Lock:
        """One lock per chat, so two first requests of a chat cannot both create its game."""
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock


async def _body(request: Request) -> bytes:
    parts: list[bytes] = []
    size = 0
    async for part in request.stream():
        size += len(part)
        if size > MAX_BODY:
            raise RequestError(f"the request body is longer than {MAX_BODY} bytes")
        parts.append(part)
    return b"".join(parts)


def _answer(answer: dict[str, Any], done: Processed) -> dict[str, Any]:
    """The upstream's answer with the reply rewritten and the records beside it."""
    choices = [dict(c) for c in answer["choices"]]
    choices[0]["message"] = {**choices[0]["message"], "content": done.text}
    return {**answer, "choices": choices, **gm_fields(done)}


def _stored(ask: ChatRequest, done: Processed, envelope: Envelope) -> Response:
    """A retry's answer: the stored candidate, shaped as the request asked (SPEC §3)."""
    if ask.stream:
        return StreamingResponse(sse_stored(done, envelope), media_type="text/event-stream",
                                 headers=SSE_HEADERS)
    message = {"role": "assistant", "content": done.text}
    return JSONResponse({"id": envelope.id, "object": "chat.completion",
                         "created": envelope.created, "model": ask.model,
                         "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                         **gm_fields(done)})


def _refused(status: int, kind: str) -> Any:
    async def handler(request: Request, exc: Exception) -> Response:
        return _error(status, kind, str(exc))

    return handler


async def _internal(request: Request, exc: Exception) -> Response:
    get_logger().exception("proxy-error", path=request.url.path)
    return _error(500, "server_error", f"internal error: {type(exc).__name__}")


def _error(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "code": status}},
                        status_code=status)
