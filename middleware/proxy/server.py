"""How ``serve`` runs the proxy's app under uvicorn: its limits on connections and slow clients.

uvicorn's own settings are used where they exist: ``limit_concurrency`` (connections and requests
at once; past it a 503), ``timeout_keep_alive`` (an idle kept-alive connection is closed) and h11's
bound on an incomplete request head (``h11_max_incomplete_event_size``: a request line and headers
longer than that are a 400). What uvicorn lacks is a deadline on the request head itself: its
keep-alive timer is cancelled by any byte received, and a new connection has none, so a client
sending a header a byte at a time holds its socket for as long as it likes (slowloris).
``read_timed`` adds it to uvicorn's h11 protocol: from the moment a connection opens, and again
after each response, the client has ``seconds`` to send a whole request head, or the connection
is closed; after an answer given before the body ended (a 413, a 401), the same ``seconds`` to
send the rest of it (which uvicorn drops as it comes). The body's own deadline is the app's
(``guard``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from middleware.logs import get_logger
from middleware.proxy.options import ServeOptions

MAX_HEAD: Final = 64 * 1024
"""The longest request line and headers accepted (bytes; h11's default is 16 KiB)."""

KEEP_ALIVE: Final = 5
"""Seconds an idle kept-alive connection stays open (uvicorn's default)."""


def read_timed(seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection that has not sent a whole request head
    ``seconds`` after it opened or after its last response."""

    class ReadTimed(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait_for_head()

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
            """No whole request head yet (h11 still waits for one), or the body of a request
            already answered still coming: the connection is closed."""
            self._head_timer = None
            waiting = self.conn.their_state is h11.IDLE or (
                self.conn.our_state is h11.DONE and self.conn.their_state is h11.SEND_BODY)
            if waiting and not self.transport.is_closing():
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
                          timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD,
                          **settings)
