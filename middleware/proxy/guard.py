"""What every request to the proxy must pass before a route sees it: the proxy's own bearer
token when one is set (compared in constant time) and a body no longer than the limit.

An ASGI middleware, so it covers every route, the unknown ones included. The body limit is
checked here on ``Content-Length``; a body sent without one is counted as it is read
(``read_body``).
"""

from __future__ import annotations

import hmac

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from middleware.errors import RequestTooLarge
from middleware.proxy.refusals import error_response


class Guard:
    """``app`` behind the proxy's token (when ``token`` is set) and the body limit."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int) -> None:
        self.app = app
        self._token = f"Bearer {token}".encode() if token else None
        self._max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if self._token is not None and not hmac.compare_digest(
                headers.get(b"authorization", b""), self._token):
            response = error_response(401, "this proxy needs its bearer token (Authorization: "
                                      "Bearer ...)", code="invalid_api_key",
                                      headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        length = headers.get(b"content-length", b"0")
        if length.isdigit() and int(length) > self._max_body:
            response = error_response(413, too_large(self._max_body))
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


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
