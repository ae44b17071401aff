"""The SSE answer a streamed reply goes out in: sse-starlette's ``EventSourceResponse`` (its
keep-alive comments, its watch for the client going away and for the server shutting down), with
each event sent bare when no send timeout is set.

sse-starlette wraps every send in an anyio cancel scope, a timeout of ``send_timeout`` (None here:
no timeout). Entering and leaving a scope costs about 6 µs on this stack, and a streamed reply
sends an event per read from the upstream, near a hundred for a reply of a few hundred words
written a token at a time: a few percent of the proxy's CPU a stream (measured side by side). A
send that raises still marks the answer interrupted, as theirs does. sse-starlette before 3.5 has
no ``_send_with_timeout`` (its scope is written inline) and never calls this one: its sends keep
their scope, and nothing else changes.
"""

from __future__ import annotations

from sse_starlette import EventSourceResponse
from starlette.types import Message, Send


class EventAnswer(EventSourceResponse):
    """``EventSourceResponse`` whose sends take no cancel scope when they have no timeout."""

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        if self.send_timeout is not None:
            await super()._send_with_timeout(send, message)
            return
        try:
            await send(message)
        except BaseException:
            self._send_interrupted = True
            raise
