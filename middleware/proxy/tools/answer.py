"""Tool mode over the wire: the loop of upstream requests, streaming and not (SPEC §7 proxy).

Each round is one upstream request (``ToolTurn.request``). A round whose answer calls the
Engine's functions has them run (``ToolTurn.answer``) and is followed by another; a round that
calls none, calls a function the client declared, or is the last allowed ends the turn. The face
then stores the reply as one candidate and answers the client with it: the narration with the
resolved tags where the calls were, never the Engine's own calls. A client's calls are passed on
as the upstream gave them (streamed: their deltas as they come, renumbered from 0), with
``finish_reason: "tool_calls"``. ``usage`` is the sum over the turn's requests.

Streaming, the text of every round goes to the client as it comes (through the same
``ReplyStream`` as tag mode, so a tag the model wrote itself is resolved too), each call's resolved
tag as soon as it has run. An upstream failure in any round ends the stream with an error event
(non-streaming: the usual 502) and stores nothing: a turn is stored whole or not at all.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence

from middleware.engine import Processed
from middleware.errors import UpstreamError
from middleware.json_input import JsonObject
from middleware.proxy.chunks import Envelope, Piece, piece_of
from middleware.proxy.refusals import upstream_event
from middleware.proxy.stream import ReplyStream, ending, gm_fields, opened
from middleware.proxy.tools.calls import CallReader, ToolCall, calls_of
from middleware.proxy.tools.turn import ToolTurn
from middleware.proxy.upstream import Read, Upstream, content_of
from middleware.records import Record

Store = Callable[[str, Sequence[Record]], Awaitable[Processed]]
"""Stores the reply as the turn's candidate, with the turn's notes after its records."""

Chunks = AsyncGenerator[Read, None]


async def tool_answer(turn: ToolTurn, upstream: Upstream, auth: str | None,
                      store: Store, shown: Callable[[Processed], str]) -> JsonObject:
    """The non-streaming answer: every round asked in turn, the candidate stored, the last
    upstream answer with its message's text replaced by the stored candidate (as shown)."""
    while True:
        answer = await upstream.complete(turn.request(), auth)
        turn.add_usage(answer.get("usage"))
        content = content_of(answer)
        calls = calls_of(_first(answer)[1])
        engine = [c for c in calls if c.name in turn.names]
        client = [c for c in calls if c.name not in turn.names]
        turn.text(content)
        if not _goes_on(turn, content, engine, client):
            break
    done = await store(turn.reply.reply, turn.notes)
    return _final(answer, client, done, shown(done), turn.usage)


def _goes_on(turn: ToolTurn, content: str, engine: list[ToolCall],
             client: list[ToolCall]) -> bool:
    """Run this round's engine calls, unless the bound is reached; whether to ask again."""
    if not engine:
        return False
    if turn.last:
        turn.cut(engine)
        return False
    turn.answer(content, engine)
    return not client


def _first(answer: JsonObject) -> tuple[JsonObject, JsonObject]:
    """``choices[0]`` and its message (``content_of`` has read the answer: both are there)."""
    choices = answer["choices"]
    first = choices[0] if isinstance(choices, list) else None
    message = first["message"] if isinstance(first, dict) else None
    if not isinstance(first, dict) or not isinstance(message, dict):
        raise UpstreamError("the upstream answer has no choices[0].message")
    return first, message


def _final(answer: JsonObject, client: list[ToolCall], done: Processed, shown: str,
           usage: JsonObject | None) -> JsonObject:
    first, written = _first(answer)
    choice = dict(first)
    message: JsonObject = {k: v for k, v in written.items() if k != "tool_calls"}
    message["content"] = shown or None
    if client:
        message["tool_calls"] = [c.message() for c in client]
    choice.update(message=message, finish_reason=_finish(choice.get("finish_reason"), client))
    return {**answer, "choices": [choice], **({"usage": usage} if usage else {}),
            **gm_fields(done)}


def _finish(finish: object, client: Sequence[ToolCall]) -> str:
    """The client's calls end the answer with ``tool_calls``; the Engine's own never do."""
    if client:
        return "tool_calls"
    return "stop" if finish in (None, "tool_calls") else str(finish)


async def tool_events(turn: ToolTurn, reply: ReplyStream, upstream: Upstream, auth: str | None,
                      store: Store, shown: Callable[[Processed], str],
                      envelope: Envelope) -> AsyncIterator[bytes]:
    """The streamed answer's events; the first round is opened before the response starts, so an
    upstream that fails at once is answered 502 rather than with an error event."""
    first = await opened(upstream.stream(turn.request(), auth))
    return _events(turn, reply, first, upstream, auth, store, shown, envelope)


async def _events(turn: ToolTurn, reply: ReplyStream, chunks: Chunks, upstream: Upstream,
                  auth: str | None, store: Store, shown: Callable[[Processed], str],
                  envelope: Envelope) -> AsyncIterator[bytes]:
    yield envelope.event({"role": "assistant", "content": ""})
    finish: str | None = None
    client: list[ToolCall] = []
    try:
        while True:
            reader, content = CallReader(turn.names), list[str]()
            async for delta, piece_finish in _round(turn, reader, chunks, content):
                finish = piece_finish or finish
                if delta is not None:
                    yield envelope.event(delta)
            engine, client = reader.engine_calls(), reader.client_calls()
            if engine and not turn.last:
                if sent := turn.answer("".join(content), engine):
                    yield envelope.event({"content": sent})
                if not client:
                    chunks = upstream.stream(turn.request(), auth)
                    continue
            elif engine:
                turn.cut(engine)
            break
    except UpstreamError as exc:
        yield upstream_event(exc)
        return
    done = await store(reply.reply, turn.notes)
    text = reply.tail(done, shown(done))
    yield b"".join([*([envelope.event({"content": text})] if text else []),
                    *ending(done, envelope, _finish(finish, client), turn.usage)])


async def _pieces(reads: Chunks) -> AsyncIterator[Piece]:
    """Each chunk of each read, as it was sent (a tool call's deltas are renumbered one by
    one)."""
    async for read in reads:
        for chunk in read:
            yield piece_of(chunk)


async def _round(turn: ToolTurn, reader: CallReader, chunks: Chunks,
                 content: list[str]) -> AsyncIterator[tuple[JsonObject | None, str | None]]:
    """One upstream answer read: the delta to pass on for each chunk (its text rewritten, the
    client's calls renumbered, the Engine's calls kept back) and the chunk's finish reason."""
    try:
        async for piece in _pieces(chunks):
            content.append(piece.content)
            text = turn.text(piece.content)
            passed = reader.feed(piece.others.get("tool_calls"))
            delta: JsonObject = {k: v for k, v in piece.others.items() if k != "tool_calls"}
            if passed:
                delta["tool_calls"] = passed
            if text:
                delta["content"] = text
            turn.add_usage(piece.usage)
            yield (delta or None), piece.finish
    finally:
        await chunks.aclose()
