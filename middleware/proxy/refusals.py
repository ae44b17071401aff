"""The proxy's error answers, shaped as OpenAI's: ``{"error": {"message", "type", "param",
"code"}}`` with the status an OpenAI client expects (SPEC §7).

An upstream's refusal keeps its 4xx status and its ``Retry-After`` (so a client's own retry and
error handling work: the OpenAI SDK raises ``RateLimitError`` on a 429); an upstream that fails
(5xx, bad answer, unreachable) is a 502, one that does not answer in time a 504. The message is
always ours: the upstream's error text can hold its key or its internals, and goes to the log only.
"""

from __future__ import annotations

import json
from typing import Final

from starlette.responses import JSONResponse

from middleware.errors import UpstreamError
from middleware.json_input import JsonObject

KINDS: Final = {400: "invalid_request_error", 401: "authentication_error",
                403: "permission_error", 404: "not_found_error", 408: "invalid_request_error",
         409: "conflict_error",
                413: "invalid_request_error", 422: "invalid_request_error",
                429: "rate_limit_error"}
"""The error ``type`` OpenAI gives each status; any other is ``upstream_error`` or ``server_error``."""


def error_body(status: int, message: str, *, kind: str | None = None, code: str | None = None,
               param: str | None = None) -> JsonObject:
    """An OpenAI-shaped error object."""
    kind = kind or KINDS.get(status) or ("server_error" if status == 500 else "upstream_error")
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def error_response(status: int, message: str, *, kind: str | None = None,
                   code: str | None = None, param: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """An OpenAI-shaped error answer."""
    return JSONResponse(error_body(status, message, kind=kind, code=code, param=param),
                        status_code=status, headers=headers)


def upstream_status(exc: UpstreamError) -> int:
    """The status a client gets for an upstream failure: its own 4xx, else 504 or 502."""
    if exc.timed_out:
        return 504
    if exc.status is not None and 400 <= exc.status < 500:
        return exc.status
    return 502


def upstream_refused(exc: UpstreamError) -> JSONResponse:
    """An upstream failure before anything was sent: its status, ``Retry-After`` kept."""
    status = upstream_status(exc)
    headers = {"Retry-After": exc.retry_after} if exc.retry_after else None
    kind = KINDS.get(status) if status < 500 else "upstream_error"
    return error_response(status, str(exc), kind=kind, code=exc.code, headers=headers)


def upstream_event(exc: UpstreamError) -> bytes:
    """An upstream failure once the stream has begun (no status can change): an error event."""
    body = error_body(upstream_status(exc), str(exc), kind="upstream_error", code=exc.code)
    return f"data: {json.dumps(body)}\n\n".encode()
