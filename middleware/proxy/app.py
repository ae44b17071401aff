"""The OpenAI-compatible proxy: an ASGI app in front of any model server (SPEC §7).

``POST /v1/chat/completions`` (streaming and not): the request is forwarded to the upstream, the
reply it gets back is resolved as a candidate of the chat's turn (``Engine.process``), and the
rewritten reply goes back with its records beside it (``gm_records``). ``GET /v1/models`` is passed
on so a chat UI can offer a model. Thin: every rule lives below it, in ``Engine``.

- A chat seen for the first time gets a new game from ``GameConfig`` (ruleset, party, seed, dice).
- Where a request lands (game, turn, the candidates it kept, a branch, a Continue, an edit) is read
  by ``tree.ChatTree``; player messages the game has not seen open their turns (kept, never parsed).
- The GM's view goes into every upstream request (``inject``); a UI's background task passes
  straight through (``nonturn``); ``GET /v1/gm/chats/{chat}/prompt`` is the peek (``peek``).
- ``Idempotency-Key``: a retry of a request that was answered returns the stored result: the model is
  not asked again, no dice are thrown (SPEC §3).

- Two requests with the same key never run together: the second waits for the first's stored
  answer (``InFlight``).
- ``--display cards``: the reply is shown with a card line per tag (``middleware.display``), and a
  shown reply that comes back in the history is put back as the stored text (``History``).
- ``--tools``: the model calls the Engine's functions instead of writing tags; the loop of calls
  and answers is one candidate (``middleware.proxy.tools``).

Errors, mapped once here: a malformed request is 400 (413 when too long), an upstream's own 4xx
is kept, a failing upstream is 502 (504 when it does not answer in time, ``refusals``), a game
that cannot take the request 409, anything else 500; always an OpenAI-style ``{"error": {...}}``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from middleware.dice import derive_seed
from middleware.engine import Engine, Processed
from middleware.errors import GameError, GMError, RequestError, RequestTooLarge, UpstreamError
from middleware.logs import get_logger
from middleware.paths import extended
from middleware.proxy.access import Access, Identity
from middleware.proxy.chat import ChatRequest, read_request
from middleware.proxy.chunks import Envelope
from middleware.proxy.continued import (
    ContinueAt,
    added,
    continue_answer,
    continue_stream,
    remember_joined,
    shown_addition,
)
from middleware.proxy.guard import Guard, read_body
from middleware.proxy.inflight import InFlight, Release
from middleware.proxy.inject import InjectConfig, KeptRecords, inject, viewed_start
from middleware.proxy.nonturn import is_background_task, passed_on
from middleware.proxy.options import ServeOptions
from middleware.proxy.peek import peek
from middleware.proxy.refusals import error_response, upstream_refused
from middleware.proxy.shown import ShownReplies
from middleware.proxy.sse_answer import EventAnswer
from middleware.proxy.stream import (
    chat_stream,
    gm_fields,
    opened,
    sse_reply,
    sse_stored,
)
from middleware.proxy.tools import ToolTurn, engine_tools, tool_answer, tool_events
from middleware.proxy.tools.extend import tool_continue
from middleware.proxy.tools.schemas import Schema
from middleware.proxy.tree import ChatTree, named_chat, route_headers
from middleware.proxy.tree import Route as Path
from middleware.proxy.tree_index import PathIndex
from middleware.proxy.tree_known import KnownPaths
from middleware.proxy.upstream import Upstream, content_of
from middleware.records import Record
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState

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
    branches: bool = False
    """Whether the chats' games read branch blocks after checks (``serve --branches``)."""


@dataclass(frozen=True, slots=True)
class _Turn:
    """Where a request lands: its chat, turn, retry key and the client's Authorization header."""

    chat: str
    turn: int
    key: str | None
    auth: str | None


def create_app(engine: Engine, upstream: Upstream, games: GameConfig,
               *, options: ServeOptions | None = None,
               inject: InjectConfig | None = None) -> Starlette:
    """The proxy as an ASGI app over ``engine``, asking ``upstream`` for replies; ``inject`` says
    how the GM's view goes into each upstream request (default: both blocks)."""
    options = options or ServeOptions()
    inject = inject or InjectConfig()
    if options.tools:  # the GM's view teaches the mode that is on, and only that one
        inject = replace(inject, options=replace(inject.options, tools=True))
    proxy = _Proxy(engine, upstream, games, options, inject)
    routes = [Route("/v1/chat/completions", proxy.completions, methods=["POST"]),
              Route("/v1/models", proxy.models, methods=["GET"]),
              Route("/v1/gm/chats/{chat}/prompt", proxy.prompt, methods=["GET"])]
    handlers: dict[Any, Any] = {RequestTooLarge: _refused(413),
                                RequestError: _refused(400),
                                UpstreamError: _upstream_failed,
                                GameError: _refused(409, "game_error"),
                                GMError: _refused(500, "server_error"),
                                Exception: _internal}
    return Starlette(routes=routes, exception_handlers=handlers,
                     middleware=[Middleware(Guard, access=proxy.access, max_body=options.max_body,
                                            body_timeout=options.body_timeout)])


class _Proxy:
    def __init__(self, engine: Engine, upstream: Upstream, games: GameConfig,
                 options: ServeOptions, inject: InjectConfig) -> None:
        self.engine = engine
        self.inject = inject
        self.tree = ChatTree(engine, PathIndex(options.chats * 16), KeptRecords(options.chats * 16),
                             KnownPaths(options.chats * 16))
        self.upstream = upstream
        self.games = games
        self.options = options
        self.access = Access(options.all_tokens())
        self.history = ShownReplies(engine, options.chats * 16)
        self.inflight = InFlight()

    async def completions(self, request: Request) -> Response:
        """``POST /v1/chat/completions``: routed through the chat's tree, the GM's view put in,
        one request per retry key at a time."""
        ask = read_request(await read_body(request, self.options.max_body))
        _one_choice(ask.body)
        auth = self._auth(request)
        if is_background_task(ask):
            return await self._passed_on(ask, auth)
        identity = self._identity(request)
        if self.options.display == "cards":  # shown replies back as stored, so the tree finds them
            ask = await self.history.known(ask, identity, named_chat(request.headers, ask, identity))
        route = await self.tree.route(request.headers, ask, self._game, identity)
        if self.options.display == "cards":
            ask = await self.history.restored(route.chat, ask)
        at = _Turn(route.chat, route.turn, request.headers.get(RETRY_HEADER) or None, auth)
        release = await self.inflight.claim((at.chat, at.turn, at.key) if at.key else None)
        owned = False
        try:
            response, owned = await self._answer(at, ask, route, release)
            return response
        finally:
            if not owned:
                release()

    async def _answer(self, at: _Turn, ask: ChatRequest, route: Path,
                      release: Release) -> tuple[Response, bool]:
        """The answer, and whether it releases the retry key itself (a stream, when it ends)."""
        envelope = Envelope(id=f"chatcmpl-{uuid.uuid4().hex}", model=ask.model)
        if at.key is not None and route.continues is None \
                and (done := await self.engine.retried(at.chat, at.turn, at.key)):
            return self._stored(ask, done, envelope), False
        body, start = await self._with_view(at, ask, route.continues)
        ask = replace(ask, body=body)
        if route.continues is not None:
            return await self._continue(at, ask, envelope, route), False
        if self.options.tools:
            return await self._tool_turn(at, ask, envelope, route_headers(route), release, start)
        if ask.stream:
            return await self._stream(at, ask, envelope, route_headers(route), release,
                                      start), True
        answer = await self.upstream.complete(ask.body, at.auth)
        done = await self.engine.process(at.chat, at.turn, content_of(answer), key=at.key)
        self.tree.stored(done)
        shown = self._shown(done)
        return JSONResponse(_answer(answer, done, shown), headers=route_headers(route)), False

    async def models(self, request: Request) -> Response:
        """``GET /v1/models``, passed on."""
        return JSONResponse(await self.upstream.models(self._auth(request)))

    def _auth(self, request: Request) -> str | None:
        """The ``Authorization`` passed upstream: the client's, unless it is the proxy's own
        token (``HttpUpstream`` sends the operator's ``--api-key`` in its place when set)."""
        return None if self.access.closed else request.headers.get("authorization")

    def _identity(self, request: Request) -> Identity:
        """Whose games the request plays (``Guard`` has refused a request with none)."""
        identity = self.access.identify(request.headers.get("authorization"))
        assert identity is not None
        return identity

    def _shown(self, done: Processed) -> str:
        """The stored candidate as the chat is shown it (``--display``)."""
        return self.history.shown(done) if self.options.display == "cards" else done.text

    def _stored(self, ask: ChatRequest, done: Processed, envelope: Envelope,
                shown: str | None = None) -> Response:
        """A retry's answer: the stored candidate (as ``shown``, default as the chat is shown
        it), shaped as the request asked (SPEC §3)."""
        shown = self._shown(done) if shown is None else shown
        if ask.stream:
            return self._events(sse_stored(done, shown, envelope))
        message = {"role": "assistant", "content": shown}
        return JSONResponse({"id": envelope.id, "object": "chat.completion",
                             "created": envelope.created, "model": ask.model,
                             "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                             **gm_fields(done)})

    def _events(self, events: AsyncIterator[bytes], release: Release | None = None,
                headers: dict[str, str] | None = None) -> Response:
        """An SSE answer, with a comment every ``keepalive`` seconds while nothing else is sent."""
        return EventAnswer(events, keepalive=self.options.keepalive,
                           headers={**SSE_HEADERS, **(headers or {})},
                           background=BackgroundTask(_on_loop, release) if release else None)

    async def prompt(self, request: Request) -> Response:
        """``GET /v1/gm/chats/{chat}/prompt``: what the chat's next turn will be sent (peek);
        only the client's own chats are found."""
        name = request.path_params["chat"]
        try:
            seen = await peek(self.engine, self._identity(request).chat(name), self.inject)
        except GameError:
            return error_response(404, f"no chat {name!r}", kind="not_found_error")
        return JSONResponse({**seen.as_json(), "chat": name})

    async def _with_view(self, at: _Turn, ask: ChatRequest, extending: int | None = None
                         ) -> tuple[dict[str, Any], GameState | None]:
        """The body the upstream is sent: the client's, with the GM's view put in; and the state
        the view shows when it is the turn's start, S(turn-1) (not for a Continue), so the
        preview takes it rather than reading it again."""
        if self.inject.mode == "off":
            return ask.body, None
        view, state = await viewed_start(self.engine, at.chat, at.turn, self.inject, extending,
                                         self.tree.kept)
        return inject(ask.body, view, self.inject), state if extending is None else None

    async def _passed_on(self, ask: ChatRequest, auth: str | None) -> Response:
        """A chat UI's background task: to the model and back untouched, nothing stored."""
        if ask.stream:
            chunks = await opened(self.upstream.stream(ask.body, auth))
            return StreamingResponse(passed_on(chunks), media_type="text/event-stream",
                                     headers=SSE_HEADERS)
        return JSONResponse(await self.upstream.complete(ask.body, auth))

    async def _continue(self, at: _Turn, ask: ChatRequest, envelope: Envelope,
                        route: Path) -> Response:
        """A Continue of the candidate the history ends with (``continued``)."""
        assert route.continues is not None
        cards = self.history if self.options.display == "cards" else None
        if at.key is not None and (done := await extended(self.engine, at.chat, at.turn,
                                                          route.continues, at.key)):
            remember_joined(done, cards)
            return self._stored(ask, added(done), envelope,
                                shown_addition(added(done), cards))
        where = ContinueAt(at.chat, at.turn, route.continues, at.key, at.auth)
        if self.options.tools:
            headers = {**SSE_HEADERS, **route_headers(route)} if ask.stream \
                else route_headers(route)
            return await tool_continue(self.tree, self.upstream, ask.body, where, envelope,
                                       headers, await self._offered(at.chat), ask.stream, cards)
        if ask.stream:
            return await continue_stream(self.tree, self.upstream, ask.body, where, envelope,
                                         {**SSE_HEADERS, **route_headers(route)}, cards)
        return await continue_answer(self.tree, self.upstream, ask.body, where,
                                     route_headers(route), cards)

    async def _game(self, chat: str) -> bool:
        """``chat``'s game, created with the configured ruleset and party unless it is stored;
        whether it was created."""
        try:
            await self.engine.game(chat)
        except GameError:
            games = self.games
            await self.engine.create_game(chat, games.ruleset, games.party,
                                          seed=derive_seed(games.seed, chat), dice=games.dice,
                                          branches=games.branches)
            get_logger().info("proxy-new-game", chat=chat, ruleset=games.ruleset.id)
            return True
        return False

    async def _stream(self, at: _Turn, ask: ChatRequest, envelope: Envelope,
                      headers: dict[str, str], release: Release,
                      start: GameState | None = None) -> Response:
        """The seed is picked first so each tag streamed is what the stored candidate says;
        ``start``: S(turn-1) when the GM's view has just read it."""
        preview = await self.engine.previewer(at.chat, at.turn, start=start)
        seed = preview.seed
        reply = await chat_stream(self.engine, at.chat, preview,
                                  cards=self.options.display == "cards")
        chunks = await opened(self.upstream.stream(ask.body, at.auth))

        async def store(text: str) -> Processed:
            done = await self.engine.process(at.chat, at.turn, text, key=at.key, seed=seed,
                                             resolved=reply.for_store())  # not resolved again
            self.tree.stored(done)
            return done

        return self._events(_released(sse_reply(chunks, reply, store, self._shown, envelope),
                                      release), release, headers)

    async def _offered(self, chat: str) -> tuple[Schema, ...]:
        """The Engine's functions for ``chat``'s ruleset and layers (tool mode)."""
        layers = tuple((await self.engine.game(chat)).options.get("layers", ()))
        return engine_tools(await self.engine.ruleset(chat), layers)

    async def _tool_turn(self, at: _Turn, ask: ChatRequest, envelope: Envelope,
                         headers: dict[str, str], release: Release,
                         start: GameState | None = None) -> tuple[Response, bool]:
        """Tool mode: the loop of calls and answers, stored as one candidate (``tools``)."""
        preview = await self.engine.previewer(at.chat, at.turn, start=start)
        seed = preview.seed
        offered = await self._offered(at.chat)
        # Streamed or not, the reply is read as it grows: each call is answered from that
        # reading, and the store takes it (not sent when not streaming).
        reply = await chat_stream(self.engine, at.chat, preview,
                                  cards=self.options.display == "cards")

        async def store(text: str, notes: Sequence[Record]) -> Processed:
            done = await self.engine.process(at.chat, at.turn, text, key=at.key, seed=seed,
                                             notes=notes, resolved=reply.for_store())
            self.tree.stored(done)
            if notes:
                get_logger().warning("proxy-tool-loop-cut", chat=done.chat, turn=done.turn,
                                     candidate=done.candidate, reasons=[n.reason for n in notes])
            return done

        turn = ToolTurn(ask.body, offered, preview, reply)
        if not ask.stream:
            answer = await tool_answer(turn, self.upstream, at.auth, store, self._shown)
            return JSONResponse(answer, headers=headers), False
        events = await tool_events(turn, reply, self.upstream, at.auth, store, self._shown,
                                   envelope)
        return self._events(_released(events, release), release, headers), True


def _one_choice(body: dict[str, Any]) -> None:
    """``n`` other than 1 is refused: each choice would be a candidate of the turn with its own
    dice, and a chat shows one reply (regenerate asks for another)."""
    n = body.get("n", 1)
    if n is not None and n != 1:
        raise RequestError("'n' must be 1: the proxy resolves one reply per request "
                           "(regenerate for another candidate)")


async def _released(events: AsyncIterator[bytes], release: Release) -> AsyncIterator[bytes]:
    """``events``, with the retry key released as soon as they end (stored or not)."""
    try:
        async for event in events:
            yield event
    finally:
        release()


async def _on_loop(release: Release) -> None:
    """``release`` called on the event loop: Starlette runs a plain function's background task in
    a worker thread, and that trip (the GIL handed to the thread) cost a stream about 2 ms."""
    release()


def _answer(answer: dict[str, Any], done: Processed, shown: str) -> dict[str, Any]:
    """The upstream's answer with the reply rewritten and the records beside it; the rest of the
    message (``tool_calls``, ``reasoning_content``) and of the answer (``usage``,
    ``finish_reason``) as the upstream gave them."""
    choices = [dict(c) for c in answer["choices"][:1]]
    message = choices[0]["message"]
    content = None if message.get("content") is None and not shown else shown
    choices[0]["message"] = {**message, "content": content}
    return {**answer, "choices": choices, **gm_fields(done)}


def _refused(status: int, kind: str | None = None) -> Any:
    async def handler(request: Request, exc: Exception) -> Response:
        return error_response(status, str(exc), kind=kind)

    return handler


async def _upstream_failed(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, UpstreamError)
    return upstream_refused(exc)


async def _internal(request: Request, exc: Exception) -> Response:
    get_logger().exception("proxy-error", path=request.url.path)
    return error_response(500, "internal error: see the proxy's log")
