"""A proxy that does nothing: ``POST /v1/chat/completions`` passed to the upstream and its stream
passed back byte for byte, on the stack ``serve`` runs on (Starlette under uvicorn on uvloop and
httptools, the upstream read with aiohttp, the stream sent as ``serve`` sends its events,
``EventAnswer``). The latency benchmark runs it beside ``serve`` as the floor: what any proxy on
this stack adds before doing any work of its own.

``aiohttp`` as a third argument runs the same on aiohttp's own server (its C parser, on uvloop)
in place of Starlette and uvicorn: the floor of the other stack ``serve`` could run on, which the
load benchmark measures beside the first with ``GM_LOAD_FLOOR=aiohttp``.

``python -m tests.benchmarks.passthrough PORT UPSTREAM_URL [aiohttp]``
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import aiohttp
import uvicorn
import uvloop
from aiohttp import web
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from middleware.proxy.options import ServeOptions
from middleware.proxy.sse_answer import EventAnswer
from middleware.proxy.upstream import KEEP_ALIVE, MAX_CONNECTIONS


def _opened(sessions: list[aiohttp.ClientSession]) -> aiohttp.ClientSession:
    """The proxy's one client session, made on its first request (in the server's loop); its kept
    connections let go before the upstream's 5 s, as ``serve``'s are."""
    if not sessions:
        connector = aiohttp.TCPConnector(limit=MAX_CONNECTIONS, keepalive_timeout=KEEP_ALIVE)
        sessions.append(aiohttp.ClientSession(connector=connector))
    return sessions[0]


def passthrough(upstream: str) -> Starlette:
    sessions: list[aiohttp.ClientSession] = []

    async def completions(request: Request) -> Response:
        answer = await _opened(sessions).post(f"{upstream}/v1/chat/completions",
                                              data=await request.body(),
                                              headers={"Content-Type": "application/json"})

        async def body() -> AsyncIterator[bytes]:
            try:
                async for data in answer.content.iter_any():
                    yield data
            finally:
                answer.release()

        return EventAnswer(body(), keepalive=ServeOptions().keepalive)

    async def models(request: Request) -> Response:
        return JSONResponse({"object": "list", "data": []})

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"]),
                             Route("/v1/models", models)])


def on_aiohttp(upstream: str) -> web.Application:
    """The same proxy on aiohttp's server: the upstream's stream written on as it is read."""
    sessions: list[aiohttp.ClientSession] = []

    async def completions(request: web.Request) -> web.StreamResponse:
        answer = await _opened(sessions).post(f"{upstream}/v1/chat/completions",
                                              data=await request.read(),
                                              headers={"Content-Type": "application/json"})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        try:
            async for data in answer.content.iter_any():
                await response.write(data)
        finally:
            answer.release()
        await response.write_eof()
        return response

    async def models(request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": []})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    return app


def main() -> None:
    port, upstream = int(sys.argv[1]), sys.argv[2]
    if sys.argv[3:] == ["aiohttp"]:
        uvloop.install()
        web.run_app(on_aiohttp(upstream), host="127.0.0.1", port=port, print=None,
                    access_log=None)
        return
    uvicorn.run(passthrough(upstream), host="127.0.0.1", port=port, log_level="warning",
                loop="uvloop", http="httptools", lifespan="off", ws="none")


if __name__ == "__main__":
    main()
