"""The model behind the proxy: an ``Upstream`` protocol and ``HttpUpstream`` over httpx (SPEC §7).

The proxy takes an upstream client (STYLE habit 7): ``HttpUpstream`` talks to any OpenAI-compatible
server at ``<base>/v1/chat/completions``; tests pass a fake. Every httpx error, error status and
unreadable answer becomes ``UpstreamError`` here, the one place they are caught (STYLE habit 4).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, Final, Protocol

import httpx

from middleware.errors import UpstreamError
from middleware.json_input import JsonInputError, read_json
from middleware.text import clean_json

__all__ = ["HttpUpstream", "Upstream", "content_of", "delta_of"]

MAX_EVENTS: Final = 200_000
"""A streamed answer with more events than this is cut off (SPEC §8: bounded loops)."""

_ERROR_TEXT: Final = 500
"""How much of an upstream error body is quoted in our error."""


class Upstream(Protocol):
    """An OpenAI-compatible model server. ``auth`` is an ``Authorization`` header value or None."""

    async def complete(self, body: dict[str, Any], auth: str | None) -> dict[str, Any]:
        """The answer to a non-streaming ``chat/completions`` request."""
        ...

    def stream(self, body: dict[str, Any],
               auth: str | None) -> AsyncGenerator[dict[str, Any], None]:
        """The ``chat.completion.chunk`` objects of a streaming request, in order (an async
        generator, so the proxy can close it when the client goes away)."""
        ...

    async def models(self, auth: str | None) -> dict[str, Any]:
        """The upstream's ``/v1/models`` list (chat UIs ask for it to offer a model)."""
        ...


def content_of(answer: dict[str, Any]) -> str:
    """The reply text of a non-streaming answer (``choices[0].message.content``)."""
    try:
        content = answer["choices"][0]["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise UpstreamError("the upstream answer has no choices[0].message") from exc
    if content is not None and not isinstance(content, str):
        raise UpstreamError("the upstream answer's message content is not text")
    return content or ""


def delta_of(chunk: dict[str, Any]) -> str:
    """The text a streamed chunk adds (``choices[0].delta.content``); "" for none."""
    choices = chunk.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    delta = first.get("delta") if isinstance(first, dict) else None
    content = delta.get("content") if isinstance(delta, dict) else None
    return content if isinstance(content, str) else ""


class HttpUpstream:
    """An ``Upstream`` over HTTP. ``api_key``, when given, is sent as a bearer token; otherwise the
    client's own ``Authorization`` header is passed on."""

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 timeout: float = 300.0, transport: httpx.AsyncBaseTransport | None = None) -> None:
        base = base_url.rstrip("/").removesuffix("/v1")  # "http://host:11434/v1" works too
        self.base_url = base
        self._key = api_key
        self._client = httpx.AsyncClient(base_url=base, transport=transport,
                                         timeout=httpx.Timeout(timeout, connect=10.0))

    async def complete(self, body: dict[str, Any], auth: str | None) -> dict[str, Any]:
        """POST the request with ``stream: false``; the answer's JSON object."""
        try:
            response = await self._client.post("/v1/chat/completions", headers=self._headers(auth),
                                               json={**body, "stream": False})
        except httpx.HTTPError as exc:
            raise UpstreamError(f"upstream unreachable: {_describe(exc)}") from exc
        _check_status(response.status_code, response.text)
        return _json_object(response.text)

    async def stream(self, body: dict[str, Any],
                     auth: str | None) -> AsyncGenerator[dict[str, Any], None]:
        """POST the request with ``stream: true``; each SSE ``data:`` event up to ``[DONE]``."""
        request = {**body, "stream": True}
        try:
            async with self._client.stream("POST", "/v1/chat/completions", json=request,
                                           headers=self._headers(auth)) as response:
                if response.status_code >= 400:
                    _check_status(response.status_code, (await response.aread()).decode(errors="replace"))
                async for chunk in _events(response.aiter_lines()):
                    yield chunk
        except httpx.HTTPError as exc:
            raise UpstreamError(f"upstream stream failed: {_describe(exc)}") from exc

    async def models(self, auth: str | None) -> dict[str, Any]:
        """GET ``/v1/models``."""
        try:
            response = await self._client.get("/v1/models", headers=self._headers(auth))
        except httpx.HTTPError as exc:
            raise UpstreamError(f"upstream unreachable: {_describe(exc)}") from exc
        _check_status(response.status_code, response.text)
        return _json_object(response.text)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.aclose()

    def _headers(self, auth: str | None) -> dict[str, str]:
        value = f"Bearer {self._key}" if self._key else auth
        return {"Authorization": value} if value else {}


async def _events(lines: AsyncIterator[str]) -> AsyncGenerator[dict[str, Any], None]:
    """Server-sent events: the JSON of each ``data:`` line; ``[DONE]`` or the end stops."""
    count = 0
    async for line in lines:
        if not line.startswith("data:"):
            continue  # comments, event names, blank separators
        data = line[len("data:"):].strip()
        if data == "[DONE]" or count >= MAX_EVENTS:
            return
        count += 1
        chunk = _json_object(data)
        if "error" in chunk:
            raise UpstreamError(f"upstream error mid-stream: {_quote(json.dumps(chunk['error']))}")
        yield chunk


def _check_status(status: int, text: str) -> None:
    if status >= 400:
        raise UpstreamError(f"upstream answered {status}: {_quote(text)}", status=status)


def _json_object(text: str) -> dict[str, Any]:
    try:  # bounded JSON, every lone surrogate replaced (middleware.text), as for requests
        value = clean_json(read_json(text, "the upstream answer"))
    except JsonInputError as exc:
        raise UpstreamError(f"upstream answer is not JSON: {_quote(text)}") from exc
    if not isinstance(value, dict):
        raise UpstreamError("upstream answer is not a JSON object")
    return value


def _quote(text: str) -> str:
    return text[:_ERROR_TEXT] + ("…" if len(text) > _ERROR_TEXT else "")


def _describe(exc: httpx.HTTPError) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
