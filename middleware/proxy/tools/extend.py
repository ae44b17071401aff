"""A Continue in tool mode: the model adds to a kept candidate and may call the Engine's functions
while it does (``paths.extend``, as ``proxy.continued`` does for tags).

The calls resolve against the state after the part already there, with the Continue's own dice
(``continue_seed``); the answer carries only what was added, the stored candidate is the joined
text; a cut loop's record is stored with the addition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from starlette.responses import JSONResponse, Response, StreamingResponse

from middleware.engine import Processed
from middleware.json_input import JsonObject
from middleware.logs import get_logger
from middleware.paths import continue_seed, extend, extender
from middleware.proxy.chunks import Envelope
from middleware.proxy.continued import ContinueAt, added, remember_joined, shown_addition
from middleware.proxy.shown import ShownReplies
from middleware.proxy.stream import chat_stream
from middleware.proxy.tools.answer import tool_answer, tool_events
from middleware.proxy.tools.schemas import Schema
from middleware.proxy.tools.turn import ToolTurn
from middleware.proxy.tree import ChatTree
from middleware.proxy.upstream import Upstream
from middleware.records import Record
from middleware.text import room


async def tool_continue(tree: ChatTree, upstream: Upstream, body: JsonObject,
                        at: ContinueAt, envelope: Envelope, headers: Mapping[str, str],
                        offered: Sequence[Schema], stream: bool,
                        cards: ShownReplies | None = None) -> Response:
    """The answer to a Continue of ``at.candidate`` in tool mode, streamed or not (``cards``:
    shown as card lines)."""
    engine = tree.engine
    base = await engine.store.get_candidate(at.chat, at.turn, at.candidate)
    preview = await extender(engine, at.chat, at.turn, at.candidate,
                             continue_seed(base.seed, at.turn), base)

    # Streamed or not, the addition is read as it grows: each call is answered from that
    # reading, and the store takes it (not sent when not streaming).
    reply = await chat_stream(engine, at.chat, preview, cards=cards is not None,
                              limit=room(base.reply))

    async def store(text: str, notes: Sequence[Record]) -> Processed:
        done = await extend(engine, at.chat, at.turn, at.candidate, text, key=at.key, notes=notes,
                            base=base, resolved=reply.finished())
        tree.stored(done.joined)
        remember_joined(done, cards)
        if notes:
            get_logger().warning("proxy-tool-loop-cut", chat=at.chat, turn=at.turn,
                                 candidate=done.joined.candidate,
                                 reasons=[n.reason for n in notes])
        return added(done)

    def shown(done: Processed) -> str:
        return shown_addition(done, cards)

    turn = ToolTurn(dict(body), offered, preview, reply)
    if not stream:
        answer = await tool_answer(turn, upstream, at.auth, store, shown)
        return JSONResponse(answer, headers=dict(headers))
    events = await tool_events(turn, reply, upstream, at.auth, store, shown, envelope)
    return StreamingResponse(events, media_type="text/event-stream", headers=dict(headers))

