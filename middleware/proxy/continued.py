"""A Continue through the proxy: the model adds to a kept candidate (``paths.extend``).

The client shows the candidate's text and asks for more; the answer carries only what was added
(rewritten, its tags resolved against the state after the existing part), which is what chat UIs
append. The stored candidate is the joined text, so the next turn's history finds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from starlette.responses import JSONResponse, Response, StreamingResponse

from middleware.display import for_people
from middleware.engine import Engine, Processed
from middleware.json_input import JsonObject
from middleware.paths import Extended, continue_seed, extend, extender
from middleware.proxy.chunks import Envelope
from middleware.proxy.shown import ShownReplies
from middleware.proxy.stream import chat_stream, gm_fields, opened, sse_reply
from middleware.proxy.tree import ChatTree
from middleware.proxy.upstream import Upstream, content_of
from middleware.text import room


@dataclass(frozen=True, slots=True)
class ContinueAt:
    """Which candidate a Continue extends, its retry key and the client's Authorization."""

    chat: str
    turn: int
    candidate: int
    key: str | None
    auth: str | None


def shown_addition(done: Processed, cards: ShownReplies | None) -> str:
    """A Continue's addition (``added``) as the chat is shown it: the engine's resolved tags, or
    with ``--display cards`` (``cards``) card lines."""
    return done.text if cards is None else for_people(done.text, done.records)


def remember_joined(done: Extended, cards: ShownReplies | None) -> None:
    """With cards, the joined candidate remembered as the chat holds it now: the reply and its
    addition as one message, card lines and all, which the next request sends back."""
    if cards is not None:
        cards.shown(done.joined)


def added(done: Extended) -> Processed:
    """The Continue as its answer shows it: the added text and its records, the joined
    candidate's place."""
    joined = done.joined
    return Processed(joined.chat, joined.turn, joined.candidate, joined.seed, done.added,
                     done.records, joined.state, joined.replayed)


async def continue_answer(tree: ChatTree, upstream: Upstream, body: JsonObject,
                          at: ContinueAt, headers: Mapping[str, str],
                          cards: ShownReplies | None = None) -> Response:
    """The non-streaming answer to a Continue of ``at.candidate`` (``cards``: shown as cards)."""
    answer = await upstream.complete(body, at.auth)
    done = await extend(tree.engine, at.chat, at.turn, at.candidate, content_of(answer),
                        key=at.key)
    tree.stored(done.joined)
    remember_joined(done, cards)
    choices = [dict(c) for c in answer["choices"]]
    choices[0]["message"] = {**choices[0]["message"],
                             "content": shown_addition(added(done), cards)}
    return JSONResponse({**answer, "choices": choices, **gm_fields(added(done))},
                        headers=dict(headers))


async def continue_stream(tree: ChatTree, upstream: Upstream, body: JsonObject,
                          at: ContinueAt, envelope: Envelope, headers: Mapping[str, str],
                          cards: ShownReplies | None = None) -> Response:
    """The streamed answer to a Continue: each added tag resolved as it closes (``cards``: shown
    as card lines)."""
    engine: Engine = tree.engine
    base = await engine.store.get_candidate(at.chat, at.turn, at.candidate)
    seed = continue_seed(base.seed, at.turn)
    preview = await extender(engine, at.chat, at.turn, at.candidate, seed, base)
    reply = await chat_stream(engine, at.chat, preview, cards=cards is not None,
                              limit=room(base.reply))
    chunks = await opened(upstream.stream(body, at.auth))

    async def store(text: str) -> Processed:
        done = await extend(engine, at.chat, at.turn, at.candidate, text, key=at.key,
                            base=base, resolved=reply.finished())  # not resolved again
        tree.stored(done.joined)
        remember_joined(done, cards)
        return added(done)

    return StreamingResponse(sse_reply(chunks, reply, store,
                                       lambda done: shown_addition(done, cards), envelope),
                             media_type="text/event-stream", headers=dict(headers))
