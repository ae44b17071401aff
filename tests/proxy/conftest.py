"""Real servers for the proxy tests: the proxy and a fake model server, both run by uvicorn on
127.0.0.1 and a free port, in the test's own event loop, shut down when the test ends.

The fake model answers with scripted replies, in order; streamed, it cuts each reply into awkward
chunks (1, 3, 7, 2, 5 ... characters) so tags arrive split across chunks.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from middleware.engine import Engine
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.proxy import GameConfig, HttpUpstream, ServeOptions, create_app
from middleware.proxy.access import Access
from middleware.proxy.chat import Message, chat_id
from middleware.proxy.server import server_config
from middleware.state import Character, Sheet
from middleware.stores import Store
from middleware.stores.memory import MemoryStore
from tests import rulesets

ADA = Character(name="Ada", player=True,
                sheet=Sheet.model_validate({"v": 1, "build": {"abilities": {"brawn": 2},
                                                              "skills": {"haul": "trained"}}}))
CHECK = '[skill_check: skill="Haul" dc="8"]'
CUTS = (1, 3, 7, 2, 5, 11, 4)
TIMEOUT = 10.0


@dataclass
class FakeModel:
    """A model server that answers from a script: a reply text, or an int for an error status.

    ``broken_after`` > 0 streams that many chunks of the reply and then an error event.
    """

    replies: list[str | int] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    broken_after: int = 0

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/chat/completions", self._answer, methods=["POST"]),
                                 Route("/v1/models", self._models, methods=["GET"])])

    async def _answer(self, request: Request) -> Response:
        body = json.loads(await request.body())
        self.seen.append(body)
        self.headers.append(dict(request.headers))
        reply = self.replies.pop(0)
        if isinstance(reply, int):
            return JSONResponse({"error": {"message": "model overloaded"}}, status_code=reply)
        if body.get("stream"):
            return StreamingResponse(self._events(reply), media_type="text/event-stream")
        return JSONResponse({"id": "fake-1", "object": "chat.completion", "model": "fake",
                             "usage": {"total_tokens": 42},
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": reply}}]})

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def _events(self, reply: str) -> AsyncIterator[str]:
        for n, piece in enumerate(pieces(reply)):
            if self.broken_after and n == self.broken_after:
                yield f"data: {json.dumps({'error': {'message': 'model crashed'}})}\n\n"
                return
            chunk = {"object": "chat.completion.chunk", "model": "fake",
                     "choices": [{"index": 0, "delta": {"content": piece}}]}
            yield f"data: {json.dumps(chunk)}\n\n"
            await asyncio.sleep(0)
        yield "data: [DONE]\n\n"


def pieces(text: str, cuts: tuple[int, ...] = CUTS) -> Iterator[str]:
    """``text`` cut into chunks of the awkward sizes in ``cuts`` (default ``CUTS``), cycling."""
    at = 0
    for size in itertools.cycle(cuts):
        if at >= len(text):
            return
        yield text[at : at + size]
        at += size


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@asynccontextmanager
async def serving(app: Any, options: ServeOptions | None = None) -> AsyncIterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 and a free port; yields its base URL. With
    ``options``, uvicorn runs as ``serve`` runs it (its read deadline and limits)."""
    sock = free_socket()
    config = uvicorn.Config(app, log_level="warning", log_config=None, ws="none",
                            lifespan="off") if options is None else \
        server_config(app, options, log_level="warning", log_config=None)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(1000):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, TIMEOUT)
        sock.close()


@dataclass
class Proxy:
    """A running proxy: its client, its engine and the fake model behind it."""

    client: httpx.AsyncClient
    engine: Engine
    model: FakeModel

    async def ask(self, messages: list[dict[str, Any]], **extra: Any) -> httpx.Response:
        headers = extra.pop("headers", {})
        return await self.client.post("/v1/chat/completions", headers=headers,
                                      json={"model": "gm", "messages": messages, **extra})

    async def stream(self, messages: list[dict[str, Any]],
                     headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """The chunks of a streamed answer, parsed, up to ``[DONE]`` (which must come last)."""
        body = {"model": "gm", "messages": messages, "stream": True}
        async with self.client.stream("POST", "/v1/chat/completions", json=body,
                                      headers=headers or {}) as response:
            assert 200 == response.status_code
            lines = [line async for line in response.aiter_lines() if line.startswith("data:")]
        assert "data: [DONE]" == lines[-1]
        return [json.loads(line[len("data:"):]) for line in lines[:-1]]


def streamed_text(chunks: list[dict[str, Any]]) -> list[str]:
    """The content pieces of streamed chunks, in order, empty ones left out."""
    return [c["choices"][0]["delta"]["content"] for c in chunks
            if c["choices"][0]["delta"].get("content")]


@asynccontextmanager
async def running_proxy(games: GameConfig, model: FakeModel, upstream_url: str | None = None,
                        options: ServeOptions | None = None,
                        store: Store | None = None) -> AsyncIterator[Proxy]:
    """The proxy in front of ``model`` (or of ``upstream_url``), with a client talking to it;
    over ``store`` (default: a new memory store)."""
    engine = Engine(store if store is not None else MemoryStore())
    async with serving(model.app()) as model_url:
        upstream = HttpUpstream(upstream_url or model_url + "/v1", timeout=TIMEOUT)
        try:
            async with serving(create_app(engine, upstream, games, options=options)) as proxy_url, \
                    httpx.AsyncClient(base_url=proxy_url, timeout=TIMEOUT) as client:
                yield Proxy(client, engine, model)
        finally:
            await upstream.aclose()


def hearth(dice: str = "candidate") -> GameConfig:
    """The bundled Hearth and Haul (2d6 + stat, no market) with Ada: Haul is Brawn 2 + trained 1
    = +3."""
    rules = rulesets.ruleset("hearth-and-haul")
    return GameConfig(rules, (ADA,), seed=5, dice="turn" if dice == "turn" else "candidate")


def ember(dice: str = "candidate") -> GameConfig:
    """The peer's Ember Roads with Ada (Scrap is Brawn 2 + trained 1 = +3), for the benchmark
    whose figures were measured on it (skipped when the peer's files are absent)."""
    ada = ADA.model_copy(update={"sheet": Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"brawn": 2}, "skills": {"scrap": "trained"}}})})
    return GameConfig(rulesets.ember(), (ada,), seed=5, dice="turn" if dice == "turn" else "candidate")


async def ember_turn() -> Engine:
    """The peer's Ember Roads with Ada and Juno (seed 3) on the memory store, turn 1 opened: the
    game the streaming and tool-call benchmarks play their replies in."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", rulesets.ember(), [ADA, Character(name="Juno")], seed=3)
    await engine.user("chat", 1, "Go.")
    return engine


@contextmanager
def whole_resolves() -> Iterator[list[str]]:
    """The replies ``Engine.process`` resolves whole while the block runs (a streamed reply whose
    store took the stream's own reading adds none)."""
    seen: list[str] = []

    def counted(reply: str, *args: Any, **kwargs: Any) -> ResolvedReply:
        seen.append(reply)
        return resolve_reply(reply, *args, **kwargs)

    with patch("middleware.engine.resolve_reply", counted):
        yield seen


@pytest.fixture
def model() -> FakeModel:
    return FakeModel()


@pytest.fixture
async def proxy(model: FakeModel) -> AsyncIterator[Proxy]:
    async with running_proxy(hearth(), model) as running:
        yield running


@pytest.fixture
async def fair_proxy(model: FakeModel) -> AsyncIterator[Proxy]:
    async with running_proxy(hearth("turn"), model) as running:
        yield running


def history(*turns: str, system: str = "You are the Game Master of Ember Roads.") -> list[dict[str, Any]]:
    """A chat history: the system prompt, then player and Game Master messages alternating,
    starting and ending with the player."""
    messages = [{"role": "system", "content": system}]
    for i, text in enumerate(turns):
        messages.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return messages


def chat_for(messages: list[dict[str, Any]], auth: str | None = None) -> str:
    """The chat id the proxy (with no tokens of its own) stores a conversation sent without
    ``X-GM-Chat`` under, from a client sending ``Authorization: auth`` (None: no header)."""
    identity = Access().identify(auth)
    assert identity is not None
    return identity.chat(chat_id({}, [Message(m["role"], m["content"]) for m in messages]))
