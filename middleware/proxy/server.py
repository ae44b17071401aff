"""How ``serve`` runs the proxy's app under uvicorn: its HTTP parser, and its limits on
connections and slow clients.

uvicorn runs on httptools (llhttp, in C), not h11: h11 builds and checks each response's head in
Python, three passes over every header, and frames each body part through its state machine;
for a streamed reply (a write per event) that was about 0.3 ms of CPU a stream and 0.2 ms before
the first byte (two ``serve`` processes side by side, requests alternated).

uvicorn's own settings are used where they exist: ``limit_concurrency`` (connections and requests
at once; past it a 503) and ``timeout_keep_alive`` (an idle kept-alive connection is closed).
What uvicorn lacks, ``read_timed`` adds to its httptools protocol:

- A deadline on the request head: uvicorn's keep-alive timer is cancelled by any byte received,
  and a new connection has none, so a client sending a header a byte at a time would hold its
  socket for as long as it likes (slowloris). From the moment a connection opens, and again after
  each response, the client has ``seconds`` to send a whole request head, or the connection is
  closed; after an answer given before the body ended (a 413, a 401), the same ``seconds`` to
  send the rest of it (which uvicorn drops as it comes). The body's own deadline is the app's
  (``guard``).
- A bound on the request head: a request line and headers longer than ``MAX_HEAD`` are a 400 and
  the connection is closed (llhttp would read a head of any length).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from middleware.logs import get_logger
from middleware.proxy.options import ServeOptions

MAX_HEAD: Final = 64 * 1024
"""The longest request line and headers accepted (bytes)."""

KEEP_ALIVE: Final = 5
"""Seconds an idle kept-alive connection stays open (uvicorn's default)."""


class HeadTooLong(ValueError):
    """A request line and headers longer than ``MAX_HEAD``."""


def read_timed(seconds: float) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol, closing a connection that has not sent a whole request head
    ``seconds`` after it opened or after its last response, and refusing a head longer than
    ``MAX_HEAD``."""

    class ReadTimed(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _in_body = False
        """Whether the request's head is whole (its body, if any, may still be coming)."""
        _head_bytes = 0
        """Bytes received while the head was not yet whole."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait_for_head()

        def data_received(self, data: bytes) -> None:
            heading = not self._in_body
            if heading:
                self._head_bytes += len(data)
            super().data_received(data)  # the head made whole resets the count
            if heading and not self._in_body and self._head_bytes > MAX_HEAD \
                    and not self.transport.is_closing():
                self.send_400_response("Request line and headers too long.")

        def on_headers_complete(self) -> None:
            size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
            if size > MAX_HEAD:  # read whole in one go: refused as llhttp's errors are (a 400)
                raise HeadTooLong(f"a request head of {size} bytes")
            self._in_body, self._head_bytes = True, 0
            self._stop_waiting()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._in_body = False  # what comes next is the next request's head

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

        def _stop_waiting(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            """No whole request head yet, or the body of a request already answered still
            coming: the connection is closed. A request being answered keeps it."""
            self._head_timer = None
            answering = self._in_body and self.cycle is not None \
                and not self.cycle.response_complete
            if not answering and not self.transport.is_closing():
                get_logger().info("read-timeout", client=_client(self.client),
                                  seconds=seconds)
                self.transport.close()

    return ReadTimed


def _client(address: Any) -> str | None:
    return f"{address[0]}:{address[1]}" if address else None


def server_config(app: Any, options: ServeOptions, **settings: Any) -> uvicorn.Config:
    """The uvicorn configuration ``serve`` runs ``app`` with: the read deadline, the limits on
    connections and request heads; ``settings`` are the rest (host, port, logging...)."""
    return uvicorn.Config(app, http=read_timed(options.read_timeout), ws="none",
                          lifespan="off", limit_concurrency=options.max_connections,
                          timeout_keep_alive=KEEP_ALIVE, **settings)
