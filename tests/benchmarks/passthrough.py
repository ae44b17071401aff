"""A proxy that does nothing: ``POST /v1/chat/completions`` passed to the upstream and its stream
passed back byte for byte, on the stack ``serve`` runs on (Starlette under uvicorn on uvloop and
httptools, the upstream read with aiohttp, the stream sent as ``serve`` sends its events,
``EventAnswer``). The latency benchmark runs it beside ``serve`` as the floor: what any proxy on
this stack adds before doing any work of its own.

``python -m tests.benchmarks.passthrough PORT UPSTREAM_URL``
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import aiohttp
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from middleware.proxy.options import ServeOptions
from middleware.proxy.sse_answer import EventAnswer
from middleware.proxy.upstream import KEEP_ALIVE, MAX_CONNECTIONS


def passthrough(upstream: str) -> Starlette:
    sessions: list[aiohttp.ClientSession] = []

    async def completions(request: Request) -> Response:
        if not sessions:  # kept connections let go before the upstream's 5 s, as ``serve``'s
            connector = aiohttp.TCPConnector(limit=MAX_CONNECTIONS, keepalive_timeout=KEEP_ALIVE)
            sessions.append(aiohttp.ClientSession(connector=connector))
        answer = await sessions[0].post(f"{upstream}/v1/chat/completions",
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


def main() -> None:
    uvicorn.run(passthrough(sys.argv[2]), host="127.0.0.1", port=int(sys.argv[1]),
                log_level="warning", loop="uvloop", http="httptools", lifespan="off", ws="none")


if __name__ == "__main__":
    main()
