"""A fake OpenAI-compatible model server that speaks the whole protocol, and the real ``serve``
app in front of it, both run by uvicorn on 127.0.0.1.

Each scripted ``Answer`` is a reply text with, optionally, reasoning (``reasoning_content``),
tool calls, a ``finish_reason``, usage, an error status with headers, a pause in the middle of
the reply and a gate to wait on. A tool-call conversation is scripted as answers in order: one
that calls (``calling``), then one that reads the ``tool`` messages it was sent and narrates
(``narrating``); every request the fake got is in ``seen``. Streamed, the reasoning, text and
tool-call deltas are interleaved chunk by chunk, and the text is cut into awkward pieces (tags
arrive split).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from middleware.cli.serve import proxy_app
from middleware.engine import Engine
from middleware.proxy import GameConfig, ServeOptions
from tests.proxy.conftest import CUTS, TIMEOUT, hearth, pieces, serving

USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
SECRET = "sk-upstream-secret-1234"
"""A key the fake upstream echoes in its error messages: it must never reach a client."""


@dataclass
class Answer:
    """One scripted answer of the fake model server."""

    text: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish: str = "stop"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    pause: float = 0.0
    """Seconds to wait before the text piece that starts the second half of the pieces."""
    gate: asyncio.Event | None = None
    """Answer only once this is set."""
    narrate: Callable[[dict[str, Any]], str] | None = None
    """The text worked out from the request (a model narrating the tool results it was sent)."""
    at_once: bool = False
    """Streamed, every event written in one piece (one read for the proxy), not one by one."""
    cuts: tuple[int, ...] = CUTS
    """Streamed, the sizes the text is cut into, cycling."""
    pace: float = 0.0
    """Streamed, seconds between one event and the next, as a model writes its reply token by
    token (0: every event as fast as the server can write it). The events keep the model's own
    clock: the n-th is due ``n * pace`` after the first, however late the server was woken for
    the one before (a model's next token does not wait for its server's last write), so a busy
    machine delays an event without delaying every one after it."""


@dataclass
class FakeUpstream:
    """Answers from ``answers`` in order, at ``<prefix>/chat/completions``; logs what it got."""

    answers: list[Answer] = field(default_factory=list)
    prefix: str = "/v1"
    always: Answer | None = None
    """The answer given once ``answers`` has run out (None: there must be one left)."""
    seen: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    peers: list[tuple[str, int]] = field(default_factory=list)
    """The address each request came from: one port per TCP connection the proxy opened."""

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route(f"{self.prefix}/chat/completions", self._answer, methods=["POST"]),
            Route(f"{self.prefix}/models", self._models, methods=["GET"])])

    async def _answer(self, request: Request) -> Response:
        body = json.loads(await request.body())
        self.seen.append(body)
        self.headers.append(dict(request.headers))
        if request.client is not None:
            self.peers.append((request.client.host, request.client.port))
        answer = self.answers.pop(0) if self.answers or self.always is None else self.always
        if answer.narrate is not None:
            answer = replace(answer, text=answer.narrate(body))
        if answer.gate is not None:
            await answer.gate.wait()
        if answer.status >= 400:
            error = {"error": {"message": f"Incorrect API key provided: {SECRET}",
                               "type": "requests", "code": "rate_limit_exceeded"}}
            return JSONResponse(error, status_code=answer.status, headers=answer.headers)
        if body.get("stream"):
            usage = (body.get("stream_options") or {}).get("include_usage", False)
            events = self._events(answer, usage)
            return StreamingResponse(_joined(events) if answer.at_once else events,
                                     media_type="text/event-stream")
        return Response(_json(_completion(answer)), media_type="application/json")

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "fake-7b", "object": "model",
                                                          "created": 0, "owned_by": "me"}]})

    async def _events(self, answer: Answer, usage: bool) -> AsyncIterator[str]:
        half = len(list(pieces(answer.text, answer.cuts))) // 2
        content = 0
        clock = asyncio.get_running_loop().time
        due = clock()
        for delta in deltas(answer):
            if "content" in delta:
                content += 1
                if answer.pause and content == half + 1:
                    await asyncio.sleep(answer.pause)
                    due = clock()
            yield _event(_chunk([{"index": 0, "delta": delta, "finish_reason": None}]))
            due += answer.pace
            await asyncio.sleep(max(0.0, due - clock()) if answer.pace else 0.0)
        yield _event(_chunk([{"index": 0, "delta": {}, "finish_reason": answer.finish}]))
        if usage:
            yield _event(_chunk([], usage=USAGE))
        yield "data: [DONE]\n\n"


async def _joined(events: AsyncIterator[str]) -> AsyncIterator[str]:
    yield "".join([event async for event in events])


def deltas(answer: Answer) -> Iterator[dict[str, Any]]:
    """The answer's deltas: reasoning, text and tool-call pieces taken in turn, round robin."""
    streams = [[{"reasoning_content": p} for p in pieces(answer.reasoning)],
               [{"content": p} for p in pieces(answer.text, answer.cuts)],
               [{"tool_calls": [d]} for call in answer.tool_calls for d in _call_deltas(call)]]
    while any(streams):
        for stream in streams:
            if stream:
                yield stream.pop(0)


def _call_deltas(call: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A tool call as OpenAI streams it: id, name and empty arguments, then the arguments."""
    yield {"index": call["index"], "id": call["id"], "type": "function",
           "function": {"name": call["function"]["name"], "arguments": ""}}
    for piece in pieces(call["function"]["arguments"]):
        yield {"index": call["index"], "function": {"arguments": piece}}


def _chunk(choices: list[dict[str, Any]], usage: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": "fake-1", "object": "chat.completion.chunk", "created": 1, "model": "fake-7b",
            "choices": choices, **({"usage": usage} if usage else {})}


def _event(chunk: dict[str, Any]) -> str:
    return f"data: {_json(chunk)}\n\n"


def _json(value: Any) -> str:
    """``value`` as JSON text: raw U+2028 and the like go out as the JSON allows
    (``ensure_ascii=False``); text holding a lone surrogate, which UTF-8 cannot carry, goes out
    with ``\\u`` escapes (``"\\ud800"``), as a server that writes ASCII JSON sends it."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(value)
    return text


def _completion(answer: Answer) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text or None}
    if answer.reasoning:
        message["reasoning_content"] = answer.reasoning
    if answer.tool_calls:
        message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"}
                                 for c in answer.tool_calls]
    return {"id": "fake-1", "object": "chat.completion", "created": 1, "model": "fake-7b",
            "usage": USAGE,
            "choices": [{"index": 0, "message": message, "finish_reason": answer.finish}]}


def tool_call(name: str, arguments: str, index: int = 0, id: str | None = None) -> dict[str, Any]:
    return {"index": index, "id": id or f"call_{index}", "type": "function",
            "function": {"name": name, "arguments": arguments}}


def calling(*calls: dict[str, Any], text: str = "") -> Answer:
    """An answer that calls tools (``finish_reason: tool_calls``), with ``text`` before them."""
    return Answer(text, tool_calls=list(calls), finish="tool_calls")


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool`` messages a request carries, their content read as JSON."""
    return [{**m, "content": json.loads(m["content"])} for m in body["messages"]
            if m.get("role") == "tool"]


def narrating(template: str) -> Answer:
    """An answer that narrates the last tool result it was sent: ``template`` formatted with the
    result's ``status`` and the ``result=`` its resolved tag carries (``{result}``)."""
    def narrate(body: dict[str, Any]) -> str:
        last = tool_results(body)[-1]["content"]
        result = last["resolved"].split('result="', 1)[-1].split('"', 1)[0]
        return template.format(status=last["status"], result=result)

    return Answer(narrate=narrate)


@dataclass
class Served:
    """A running ``serve`` app: its URL, its engine and the fake upstream behind it."""

    url: str
    engine: Engine
    upstream: FakeUpstream

    def client(self, **headers: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=TIMEOUT, headers=headers)


@asynccontextmanager
async def served(upstream: FakeUpstream, options: ServeOptions | None = None, *,
                 base: str | None = None, games: GameConfig | None = None,
                 store: str = "memory://", api_key: str | None = None) -> AsyncIterator[Served]:
    """``gm-middleware serve``'s app in front of ``upstream``, playing ``games`` (default: Hearth and
    Haul with Ada), under uvicorn as ``serve`` runs it; ``base`` is the ``--upstream`` URL after
    the fake's address (default: its prefix); ``api_key`` is ``--api-key``."""
    options = options or ServeOptions(timeout=TIMEOUT)
    games = games or hearth()
    async with serving(upstream.app()) as upstream_url:
        running = await proxy_app(games, upstream_url + (upstream.prefix if base is None else base),
                                  api_key, store, options)
        try:
            async with serving(running.app, options) as url:
                yield Served(url, running.engine, upstream)
        finally:
            await running.close()


def main() -> None:
    """``python -m tests.proxy.fake_upstream PORT TEXT [PACE_MS]``: serve ``TEXT`` as every answer
    on 127.0.0.1:PORT, in a process of its own (the load test's upstream); ``{said}`` in ``TEXT``
    is the request's last player message, so each chat's replies are its own, as a model's are;
    ``PACE_MS``, when given, is the time between streamed events (``Answer.pace``)."""
    import sys

    import uvicorn

    def narrate(body: dict[str, Any]) -> str:
        said = [m["content"] for m in body["messages"] if m.get("role") == "user"]
        return sys.argv[2].replace("{said}", str(said[-1]) if said else "")

    pace = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.0
    upstream = FakeUpstream(always=Answer(narrate=narrate, pace=pace))
    # h11, as this upstream ran when the benchmarks' ratios were first taken: it is their
    # yardstick, so it stays as it was while ``serve`` moved to httptools.
    uvicorn.run(upstream.app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                lifespan="off", ws="none", http="h11")


if __name__ == "__main__":
    main()
