"""The answer a streamed reply goes out in: Starlette's ``StreamingResponse``, streamed in the
request's own task, with one watcher task beside it.

The events come written (``chunks``: ``data: ...`` and a blank line each); the answer sends them
as they come and does two things besides, both in the watcher, which waits on the client:

- A client that goes away stops the stream where it is: the events are closed (the upstream's
  answer with them, nothing stored, the retry key released by their own ``finally``).
- While nothing was sent for ``keepalive`` seconds (a tag held while the model writes it, a model
  slow to start), a comment (``: keep-alive``) goes out, so proxies and clients between do not
  time the connection out. None while events flow; ``keepalive`` 0: none at all.

Why not sse-starlette's ``EventSourceResponse`` (used before) or Starlette's own streaming
``__call__``: both run the stream in an anyio task group (sse-starlette with four tasks and a
cancel scope around each send, Starlette with two), and that machinery cost 0.4–0.8 ms of CPU a
stream, a tenth of all the proxy spends on one, and about 0.3 ms between the upstream's first
read and the first byte to the client (two ``serve`` processes side by side, requests alternated
one by one, 400 streams each). Starlette's own streaming saved under 0.1 ms of it.

Once the first event is written, the answer gives up the rest of its turn on the CPU
(``os.sched_yield``), once a stream: the write has just woken the client that waits for it (the
player's first token), and where the client shares the proxy's cores (a chat UI, the proxy and a
model server on one machine) the proxy would otherwise go on reading and rewriting the rest of
the reply until the kernel's time slice ran out, and the client with it. Measured on 2 cores,
the client, the proxy and the fake model server left wherever the kernel put them, the model
writing as fast as it can: the first byte's time added 2.5-3.7 ms without it (three runs of
200 streams a path), 1.0-1.4 ms with it (three runs; 1.5-1.6 in a fourth under the benchmark's
own timer, which costs about 0.2 ms). Where the client has a core of its own the call
changes nothing measured, and at 200 streams at once the throughput was the same or better (a
yield a stream, against some 13 reads and writes).

A server shutting down (uvicorn's graceful stop) waits for the streams in progress: each ends
when the model's reply does (bounded by the upstream timeout) and is stored.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Final

from starlette.background import BackgroundTask
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

KEEP_ALIVE: Final = b": keep-alive\n\n"
_GIVE_WAY: Final = getattr(os, "sched_yield", lambda: None)
"""Lets the process the first event woke run now, where it waits for this one's CPU (none off
Unix, where the call does not exist)."""


class EventAnswer(StreamingResponse):
    """A ``text/event-stream`` answer of ``events`` (bytes, each whole events), with keep-alive
    comments after ``keepalive`` seconds of silence and the stream stopped when the client goes."""

    media_type = "text/event-stream"

    def __init__(self, events: AsyncIterator[bytes], *, keepalive: float,
                 headers: dict[str, str] | None = None,
                 background: BackgroundTask | None = None) -> None:
        super().__init__(events, headers=headers, background=background)
        self._keepalive = keepalive
        self._sent_at = 0.0
        self._done = False
        self._gone = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        streaming = asyncio.current_task()
        assert streaming is not None  # an ASGI app runs in a task
        self._sent_at = loop.time()
        watcher = loop.create_task(self._watch(receive, send, streaming))
        try:
            await self._stream(send, loop)
        except asyncio.CancelledError:
            if not self._gone or streaming.uncancel() > 0:
                raise  # cancelled from outside (the server stopping it), not by the watcher
        finally:
            self._done = True  # before any await: the watcher cancels nothing from here on
            watcher.cancel()
            if (aclose := getattr(self.body_iterator, "aclose", None)) is not None:
                await aclose()  # its own cleanup, where a send or the watcher stopped it
        if self.background is not None:
            await self.background()

    async def _stream(self, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        await send({"type": "http.response.start", "status": self.status_code,
                    "headers": self.raw_headers})
        first = True
        async for data in self.body_iterator:
            await send({"type": "http.response.body", "body": data, "more_body": True})
            self._sent_at = loop.time()
            if first:
                first = False
                _GIVE_WAY()  # the client just woken reads its first token now (module doc)
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _watch(self, receive: Receive, send: Send, streaming: asyncio.Task[None]) -> None:
        """Until the client goes: a keep-alive comment whenever nothing was sent for
        ``keepalive`` seconds. The client gone, the stream is cancelled (unless it has ended)."""
        while True:
            due = self._sent_at + self._keepalive if self._keepalive > 0 else None
            try:
                async with asyncio.timeout_at(due):
                    message = await receive()
            except TimeoutError:
                if self._done:
                    return
                if asyncio.get_running_loop().time() - self._sent_at >= self._keepalive:
                    await send({"type": "http.response.body", "body": KEEP_ALIVE,
                                "more_body": True})
                    self._sent_at = asyncio.get_running_loop().time()
                continue
            if message["type"] == "http.disconnect":
                if not self._done:
                    self._gone = True
                    streaming.cancel()
                return
