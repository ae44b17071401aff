"""What every request to the proxy must pass before a route sees it: the proxy's own bearer
token when it has any (``access``), a body no longer than the limit, sent in time.

An ASGI middleware, so it covers every route, the unknown ones included:

- A request ``Access`` refuses is a 401 before any of its body is read.
- A body announced longer than the limit (``Content-Length``) is a 413 before it is read; one sent
  without a length is counted as it comes and refused the moment it passes the limit, so no more
  than the limit is ever held.
- The whole body must arrive within ``body_timeout`` seconds of the headers (a client trickling
  it byte by byte holds a connection otherwise): past it the answer is a 408 and the connection
  is closed. The request line and headers have their own deadline in the server
  (``server.read_timed``), which an ASGI app cannot see.

A 401 or a 413 leaves the connection open: uvicorn drops the rest of the refused body as it comes
(nothing of it is held), so a client that sends its whole body before it reads (httpx, the OpenAI
SDK) gets the answer rather than a broken connection; the server's read deadline closes one that
drips the rest. A 408 closes the connection (``Connection: close``).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from middleware.errors import RequestTooLarge
from middleware.proxy.access import Access
from middleware.proxy.refusals import error_response

_CLOSE = {"Connection": "close"}


class Guard:
    """``app`` behind ``access`` (the proxy's tokens), the body limit and the body deadline."""

    def __init__(self, app: ASGIApp, access: Access, max_body: int,
                 body_timeout: float = 60.0) -> None:
        self.app = app
        self._access = access
        self._max_body = max_body
        self._body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        header = headers.get(b"authorization")
        if self._access.identify(header.decode("latin-1") if header else None) is None:
            response = error_response(401, "this proxy needs its bearer token (Authorization: "
                                      "Bearer ...)", code="invalid_api_key",
                                      headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        length = headers.get(b"content-length", b"0")
        if length.isdigit() and int(length) > self._max_body:
            await error_response(413, too_large(self._max_body))(scope, receive, send)
            return
        if length in (b"", b"0") and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body to wait for
            return
        await self._with_body(scope, receive, send)

    async def _with_body(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The body read whole within the deadline and the limit, then handed on to the app."""
        try:
            async with asyncio.timeout(self._body_timeout):
                body = await _whole_body(receive, self._max_body)
        except TimeoutError:
            message = f"the request body did not arrive within {self._body_timeout:g} seconds"
            await error_response(408, message, code="request_timeout", headers=_CLOSE)(
                scope, receive, send)
            return
        except RequestTooLarge as exc:
            await error_response(413, str(exc))(scope, receive, send)
            return
        if body is None:
            return  # the client went away
        await self.app(scope, _replayed(body, receive), send)


async def _whole_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, ``RequestTooLarge`` once it passes ``limit``; None on a disconnect."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        part = message.get("body", b"")
        size += len(part)
        if size > limit:
            raise RequestTooLarge(too_large(limit))
        parts.append(part)
        if not message.get("more_body", False):
            return b"".join(parts)


def _replayed(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole once, then waits on the client as before."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, or ``RequestTooLarge`` once it passes ``limit`` bytes."""
    parts: list[bytes] = []
    size = 0
    async for part in request.stream():
        size += len(part)
        if size > limit:
            raise RequestTooLarge(too_large(limit))
        parts.append(part)
    return b"".join(parts)


def too_large(limit: int) -> str:
    return f"the request body is longer than {limit} bytes"
