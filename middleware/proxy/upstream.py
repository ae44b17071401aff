"""The model behind the proxy: an ``Upstream`` protocol and ``HttpUpstream`` over aiohttp (SPEC §7).

The proxy takes an upstream client (STYLE habit 7): ``HttpUpstream`` talks to any OpenAI-compatible
server; tests pass a fake. aiohttp is the client because it is the cheapest per read: measured with
a bare pass-through proxy in its own process (uvicorn, uvloop) in front of a fake upstream on
127.0.0.1, reading the upstream with httpx added 6.6 ms to a stream's first byte and 10 ms to its
last (p50), with aiohttp 2.1 and 1.5 ms. Every aiohttp error, error status and unreadable answer
becomes
``UpstreamError`` here, the one place they are caught (STYLE habit 4), and each is logged as an
``upstream-failed`` event with its status.

The URL is joined the way the OpenAI SDK joins ``base_url``: ``<base>/chat/completions`` and
``<base>/models``. A base with no path at all (``http://127.0.0.1:11434``) is taken to mean its
``/v1``, as servers such as llama.cpp, Ollama and vLLM serve it (``endpoint``).

A stream is read as ``Read``s: the chunks one read from the network brought, so the proxy can
answer each read with one event rather than one per chunk. The events are split by
``sse.EventReader`` (bytes, lines ended by CR, LF or CRLF only, as SSE says, so a raw U+2028,
U+2029 or U+0085 inside an event's JSON stays inside that event), each one's JSON read by orjson
where it reads it exactly (``json_input.read_objects_fast``: the bounds of a read's events looked
at once for all of them), else by ``read_json``. After
``[DONE]`` the body is read to its end, so the connection goes back to the client's pool and the
next request to the same upstream (a hosted API: a TLS handshake) reuses it.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncGenerator, AsyncIterator
from http import HTTPStatus
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

import aiohttp
import orjson

from middleware.errors import UpstreamError
from middleware.json_input import JsonInputError, read_json, read_objects_fast
from middleware.logs import get_logger
from middleware.proxy.sse import EventReader, EventTooLong
from middleware.text import clean_json

__all__ = ["HttpUpstream", "Read", "Upstream", "content_of", "delta_of", "endpoint"]

Read = list[dict[str, Any]]
"""The ``chat.completion.chunk`` objects one read from the upstream brought, in order (never
empty)."""

MAX_EVENTS: Final = 200_000
"""A streamed answer with more events than this is cut off (SPEC §8: bounded loops)."""

MAX_CONNECTIONS: Final = 1024
"""Connections open to the upstream at once: one per stream in flight (a pool of 100, the default, made
the 101st concurrent stream wait for a free one, and time out). Each is kept for the next request
once its answer is read to the end."""

KEEP_ALIVE: Final = 4.0
"""Seconds an idle connection is kept: under the 5 s after which uvicorn (and so vLLM and other
servers run by it) closes one, so a kept connection is seldom one the server is closing."""

CONNECT_TIMEOUT: Final = 10.0
"""Seconds one connect to the upstream may take."""

CONNECT_RETRIES: Final = 2
"""Connects tried again after one failed or timed out, after ``CONNECT_BACK_OFF`` seconds and then
twice that: a request whose connection never opened was never sent, so it cannot be answered
twice. Measured under load on loopback: about one connect in four thousand went unanswered for
30 s while the next connect opened at once, and a new model server starting up refuses connects
for a moment."""

CONNECT_BACK_OFF: Final = 0.25
"""Seconds before the first connect tried again."""

_CONNECT: Final = (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)
"""A connect that failed or timed out: nothing was sent."""

_STALE: Final = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)
"""How a kept connection the server closed as it was reused fails, before any answer: the request
is sent once more, on another connection."""

_FAILURES: Final = (aiohttp.ClientError, TimeoutError)
"""What aiohttp raises for a failing or silent upstream (its timeouts are ``TimeoutError``s)."""

DRAIN_SECONDS: Final = 5.0
"""How long the rest of a stream's body is read after ``[DONE]`` (an upstream ends it at once):
past it, the connection is closed rather than kept."""

MAX_DRAINED: Final = 64 * 1024
"""The most bytes read after ``[DONE]`` to keep the connection; past it, it is closed."""

_LOGGED_TEXT: Final = 300
"""How much of an upstream error body goes into the log (never to the client)."""

_SECRET: Final = re.compile(r"(?i)\b(?:sk|bearer)[-_ ][^\s\"',]+|[A-Za-z0-9_\-]{24,}")
"""What looks like a key in an upstream's error text (it may echo the key sent): not logged."""

_CODE: Final = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
"""An upstream error code passed on to the client: a short identifier, never free text."""


class Upstream(Protocol):
    """An OpenAI-compatible model server. ``auth`` is an ``Authorization`` header value or None."""

    async def complete(self, body: dict[str, Any], auth: str | None) -> dict[str, Any]:
        """The answer to a non-streaming ``chat/completions`` request."""
        ...

    def stream(self, body: dict[str, Any], auth: str | None) -> AsyncGenerator[Read, None]:
        """The ``chat.completion.chunk`` objects of a streaming request, in order, a ``Read`` at
        a time (an async generator, so the proxy can close it when the client goes away)."""
        ...

    async def models(self, auth: str | None) -> dict[str, Any]:
        """The upstream's model list (chat UIs ask for it to offer a model)."""
        ...


def endpoint(base_url: str, path: str) -> str:
    """``base_url`` joined with ``path`` as the OpenAI SDK joins them (``<base>/<path>``); a base
    with no path gets ``/v1`` first, the path OpenAI-compatible local servers serve."""
    base = base_url.rstrip("/")
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return f"{base}/{path}"


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
    """An ``Upstream`` over HTTP (aiohttp). ``api_key``, when given, is sent as a bearer token;
    otherwise the client's own ``Authorization`` header is passed on. The connection pool is
    opened on first use, in the event loop that uses it."""

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 timeout: float = 300.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._completions = endpoint(base_url, "chat/completions")
        self._models = endpoint(base_url, "models")
        self._key = api_key
        # ``connect`` bounds the wait for a pooled connection and its opening; ``sock_connect``
        # one connect; ``sock_read`` each read (a stream may be long, so no total).
        self._timeout = aiohttp.ClientTimeout(total=None, connect=timeout,
                                              sock_connect=min(timeout, CONNECT_TIMEOUT),
                                              sock_read=timeout)
        self._session: aiohttp.ClientSession | None = None

    async def complete(self, body: dict[str, Any], auth: str | None) -> dict[str, Any]:
        """POST the request with ``stream: false``; the answer's JSON object."""
        try:
            response = await self._sent("POST", self._completions, _encoded(
                {**body, "stream": False}), self._headers(auth))
            async with response:
                text = (await response.read()).decode(errors="replace")
        except _FAILURES as exc:
            raise failed(exc) from exc
        _check_status(response, text)
        return _json_object(text)

    async def stream(self, body: dict[str, Any], auth: str | None) -> AsyncGenerator[Read, None]:
        """POST the request with ``stream: true``; each SSE event's JSON up to ``[DONE]``, a read
        at a time; then the body read to its end, so the connection is kept for the next."""
        headers = {**self._headers(auth), "Accept": "text/event-stream"}
        try:
            response = await self._sent("POST", self._completions,
                                        _encoded({**body, "stream": True}), headers)
            async with response:
                if response.status >= 400:
                    _check_status(response, (await response.read()).decode(errors="replace"))
                if "text/event-stream" not in response.headers.get("content-type", ""):
                    raise _logged(UpstreamError("the upstream did not answer with an event "
                                                "stream"))
                async for read in _reads(response.content.iter_any()):
                    yield read
                await _drained(response.content.iter_any())
        except _FAILURES as exc:
            raise failed(exc) from exc

    async def models(self, auth: str | None) -> dict[str, Any]:
        """GET ``<base>/models``."""
        try:
            response = await self._sent("GET", self._models, None, self._headers(auth))
            async with response:
                text = (await response.read()).decode(errors="replace")
        except _FAILURES as exc:
            raise failed(exc) from exc
        _check_status(response, text)
        return _json_object(text)

    async def _sent(self, method: str, url: str, data: bytes | None,
                    headers: dict[str, str]) -> aiohttp.ClientResponse:
        """The request sent and its answer's head read. A connect that fails is tried again
        (``CONNECT_RETRIES``); a kept connection the server closed under the request (no answer
        came: the upstream did not take it) is replaced once."""
        session = self._opened()
        for attempt in range(CONNECT_RETRIES + 2):
            try:
                return await session.request(method, url, data=data, headers=headers)
            except _CONNECT:
                if attempt >= CONNECT_RETRIES:
                    raise
                await asyncio.sleep(CONNECT_BACK_OFF * 2 ** attempt)
            except _STALE:
                if attempt > 0:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _opened(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=MAX_CONNECTIONS, keepalive_timeout=KEEP_ALIVE)
            self._session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
        return self._session

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._session is not None:
            await self._session.close()

    def _headers(self, auth: str | None) -> dict[str, str]:
        value = f"Bearer {self._key}" if self._key else auth
        headers = {"Content-Type": "application/json"}
        return {**headers, "Authorization": value} if value else headers


async def _reads(bodies: AsyncIterator[bytes]) -> AsyncGenerator[Read, None]:
    """The JSON of each event's data, a network read at a time; ``[DONE]`` or the end stops
    (``MAX_EVENTS`` too); an error event raises."""
    reader = EventReader()
    count = 0
    async for data in bodies:
        try:
            events = reader.feed(data)
        except EventTooLong as exc:
            raise _logged(UpstreamError("the upstream sent an event too long to read")) from exc
        kept, done = _until_done(events, count)
        count += len(kept)
        read: Read = []
        for event, value in zip(kept, read_objects_fast(kept), strict=True):
            chunk = value if value is not None else _json_object(event.decode(errors="replace"))
            if "error" in chunk:
                raise _logged(UpstreamError("the upstream failed mid-stream"),
                              detail=event.decode(errors="replace"))
            read.append(chunk)
        if read:
            yield read
        if done:
            return


def _until_done(events: list[bytes], count: int) -> tuple[list[bytes], bool]:
    """The events of one read up to ``[DONE]``, or to ``MAX_EVENTS`` in all with the ``count``
    read before (``data:`` with nothing after it skipped), and whether the stream ends there."""
    kept: list[bytes] = []
    for event in events:
        if not event:
            continue
        if event.strip() == b"[DONE]" or count + len(kept) >= MAX_EVENTS:
            return kept, True
        kept.append(event)
    return kept, False


async def _drained(bodies: AsyncIterator[bytes]) -> None:
    """The rest of the body read (an upstream ends it right after ``[DONE]``), so aiohttp puts
    the connection back in its pool; one that goes on past ``MAX_DRAINED`` bytes or
    ``DRAIN_SECONDS`` is left, and closed."""
    drained = 0
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            async for data in bodies:
                drained += len(data)
                if drained > MAX_DRAINED:
                    return
    except _FAILURES:
        return  # the answer is whole: only the connection is lost


def failed(exc: BaseException) -> UpstreamError:
    """An aiohttp failure as ours: a timeout (answered 504) or an unreachable upstream (502)."""
    timed_out = isinstance(exc, TimeoutError)
    message = "the upstream did not answer in time" if timed_out else "the upstream is unreachable"
    return _logged(UpstreamError(message, timed_out=timed_out), detail=_describe(exc))


def _check_status(response: aiohttp.ClientResponse, text: str) -> None:
    status = response.status
    if status < 400:
        return
    phrase = _phrase(status)
    raise _logged(UpstreamError(f"the upstream answered {status} {phrase}", status=status,
                                retry_after=response.headers.get("retry-after"),
                                code=_code_of(text)), detail=text)


def _code_of(text: str) -> str | None:
    """The ``error.code`` (or ``error.type``) the upstream gave, when it is a short identifier."""
    try:
        error = json.loads(text).get("error")
    except (json.JSONDecodeError, AttributeError):
        return None
    if not isinstance(error, dict):
        return None
    code = error.get("code") or error.get("type")
    return code if isinstance(code, str) and _CODE.fullmatch(code) else None


def _logged(error: UpstreamError, detail: str = "") -> UpstreamError:
    get_logger().warning("upstream-failed", status=error.status, reason=str(error),
                         timed_out=error.timed_out,
                         detail=_SECRET.sub("[redacted]", detail[:_LOGGED_TEXT]))
    return error


def _encoded(body: dict[str, Any]) -> bytes:
    """A request body as JSON: by orjson, or by ``json`` for what orjson refuses (an integer past
    64 bits, read exactly from the client's request)."""
    try:
        return orjson.dumps(body)
    except TypeError:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False).encode()


def _json_object(text: str) -> dict[str, Any]:
    try:  # bounded JSON, every lone surrogate replaced (middleware.text), as for requests
        value = clean_json(read_json(text, "the upstream answer"))
    except JsonInputError as exc:
        raise _logged(UpstreamError("the upstream answer is not JSON"), detail=text) from exc
    if not isinstance(value, dict):
        raise _logged(UpstreamError("the upstream answer is not a JSON object"), detail=text)
    return value


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "error"
