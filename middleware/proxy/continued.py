"""A Continue through the proxy: the model adds to a kept candidate (``paths.extend``).

The client shows the candidate's text and asks for more; the answer carries only what was added
(rewritten, its tags resolved against the state after the existing part), which is what chat UIs
append. The stored candidate is the joined text, so the next turn's history finds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from starlette.responses import JSONResponse, Response, StreamingResponse

from middleware.engine import Engine, Processed
from middleware.json_input import JsonObject
from middleware.paths import Extended, continue_seed, extend, extender
from middleware.proxy.chunks import Envelope
from middleware.proxy.stream import ReplyStream, gm_fields, opened, priced_at_end, sse_reply
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


def added(done: Extended) -> Processed:
    """The Continue as its answer shows it: the added text and its records, the joined
    candidate's place."""
    joined = done.joined
    return Processed(joined.chat, joined.turn, joined.candidate, joined.seed, done.added,
                     done.records, joined.state, joined.replayed)


async def continue_answer(tree: ChatTree, upstream: Upstream, body: JsonObject,
                          at: ContinueAt, headers: Mapping[str, str]) -> Response:
    """The non-streaming answer to a Continue of ``at.candidate``."""
    answer = await upstream.complete(body, at.auth)
    done = await extend(tree.engine, at.chat, at.turn, at.candidate, content_of(answer),
                        key=at.key)
    tree.remember(at.chat, at.turn, done.joined.candidate, done.joined.text)
    choices = [dict(c) for c in answer["choices"]]
    choices[0]["message"] = {**choices[0]["message"], "content": done.added}
    return JSONResponse({**answer, "choices": choices, **gm_fields(added(done))},
                        headers=dict(headers))


async def continue_stream(tree: ChatTree, upstream: Upstream, body: JsonObject,
                          at: ContinueAt, envelope: Envelope,
                          headers: Mapping[str, str]) -> Response:
    """The streamed answer to a Continue: each added tag resolved as it closes."""
    engine: Engine = tree.engine
    base = await engine.store.get_candidate(at.chat, at.turn, at.candidate)
    seed = continue_seed(base.seed, at.turn)
    preview = await extender(engine, at.chat, at.turn, at.candidate, seed, base)
    reply = ReplyStream(preview, priced_at_end(await engine.ruleset(at.chat)),
                        branches=bool((await engine.game(at.chat)).options.get("branches")),
                        limit=room(base.reply))
    chunks = await opened(upstream.stream(body, at.auth))

    async def store(text: str) -> Processed:
        done = await extend(engine, at.chat, at.turn, at.candidate, text, key=at.key,
                            base=base, resolved=reply.finished())  # not resolved again
        tree.remember(at.chat, at.turn, done.joined.candidate, done.joined.text)
        return added(done)

    return StreamingResponse(sse_reply(chunks, reply, store, _as_stored, envelope),
                             media_type="text/event-stream", headers=dict(headers))


def _as_stored(done: Processed) -> str:
    """A Continue is shown as the engine wrote it (its added part, resolved tags and all)."""
    return done.text
