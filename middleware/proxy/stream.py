"""A streamed reply, rewritten while the model writes (SPEC §7 proxy): server-sent events.

Prose is passed on as soon as ``TagStream`` says it can no longer become part of a tag; a possible
tag is held back until it closes, then resolved and sent as its rewritten tag, whole. At the end the
reply is stored as one candidate (``Engine.process`` of the full text, with the seed the stream
used), so what the client saw is exactly the stored rewritten text.

How a tag is resolved as it closes: the reply so far is resolved with the candidate's seed
(``Engine.previewer``); tags resolve in reading order and each sees only what came before it
(SPEC §3), so the result stands whatever follows. The one exception: a buy or sale is priced at
the place in force at the END of the reply (SPEC §3, ITM-MARKET-20), so in a ruleset with a market
an ``[inventory:]`` tag, and all after it, wait for the end. So does everything after
``MAX_STREAMED_TAGS`` tags, which keeps the work per reply bounded.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from middleware.engine import Processed
from middleware.errors import UpstreamError
from middleware.logs import get_logger
from middleware.parse import TagStream, parse
from middleware.pipeline import ResolvedReply
from middleware.proxy.upstream import delta_of
from middleware.records import Record
from middleware.resolve.market.day import market_of
from middleware.rewrite import resolved_text
from middleware.rules.ruleset import Ruleset
from middleware.segments import Segment, Tag, Text

MAX_STREAMED_TAGS: Final = 64
"""Tags resolved one by one as they close; later ones wait for the end (one resolution)."""

DONE: Final = "data: [DONE]\n\n"

Preview = Callable[[str], ResolvedReply]
Waits = Callable[[Tag], bool]


def priced_at_end(ruleset: Ruleset) -> Waits:
    """Which tags wait for the end of the reply: inventory tags where a market prices them."""
    has_market = market_of(ruleset) is not None
    return lambda tag: has_market and tag.name == "inventory"


class ReplyStream:
    """One reply's rewriting as it streams: ``feed`` a delta, get the text to send now."""

    def __init__(self, preview: Preview, waits: Waits = lambda tag: False) -> None:
        self._tags = TagStream()
        self._preview = preview
        self._waits = waits
        self._source: list[str] = []
        self._sent: list[str] = []
        self._sent_to = 0
        self._streamed = 0
        self._holding = False

    @property
    def reply(self) -> str:
        """The reply as the model wrote it so far."""
        return "".join(self._source)

    def feed(self, delta: str) -> str:
        """Take the model's next piece of text; return the rewritten text safe to send now."""
        self._source.append(delta)
        segments = self._tags.feed(delta)
        if self._holding or not segments:
            return ""
        return self._send(segments)

    def tail(self, done: Processed) -> str:
        """The rest of the stored candidate's text, once the whole reply is stored."""
        self._tags.close()
        segments = parse(self.reply)
        tags = [s for s in segments if isinstance(s, Tag)]
        sent = "".join(self._sent)
        if len(tags) != len(done.records) or not done.text.startswith(sent):
            get_logger().warning("stream-diverged", chat=done.chat, turn=done.turn,
                                 candidate=done.candidate)  # a concurrent retry stored another
            return done.text[len(sent):] if done.text.startswith(sent) else ""
        return self._record("".join(_rest(segments, done.records, self._sent_to)))

    def _send(self, segments: list[Segment]) -> str:
        ready = self._ready(segments)
        tags = [s for s in ready if isinstance(s, Tag)]
        rendered = self._render(tags) if tags else []
        if rendered is None:  # the preview read the reply otherwise: everything waits
            self._holding = True
            return ""
        texts = iter(rendered)
        out = [s.text if isinstance(s, Text) else next(texts) for s in ready]
        if ready:
            self._sent_to = ready[-1].end
        return self._record("".join(out))

    def _ready(self, segments: list[Segment]) -> list[Segment]:
        """The segments before the first one that must wait for the end (which starts holding)."""
        streamed = self._streamed
        for i, segment in enumerate(segments):
            if isinstance(segment, Tag):
                streamed += 1
                if streamed > MAX_STREAMED_TAGS or self._waits(segment):
                    self._holding = True
                    return segments[:i]
        return segments

    def _render(self, tags: list[Tag]) -> list[str] | None:
        """Each tag's rewritten text, from the reply resolved up to the last of them."""
        records = self._preview(self.reply[: tags[-1].end]).records
        if len(records) != self._streamed + len(tags):
            return None
        self._streamed += len(tags)
        return [resolved_text(tag, record)
                for tag, record in zip(tags, records[-len(tags):], strict=True)]

    def _record(self, text: str) -> str:
        self._sent.append(text)
        return text


def _rest(segments: Sequence[Segment], records: Sequence[Record], sent_to: int) -> list[str]:
    """The rewritten text of ``segments`` from reply offset ``sent_to`` on."""
    out: list[str] = []
    pending = iter(records)
    for segment in segments:
        if isinstance(segment, Tag):
            record = next(pending)
            if segment.start >= sent_to:
                out.append(resolved_text(segment, record))
        elif segment.end > sent_to:
            out.append(segment.text[max(0, sent_to - segment.start):])
    return out


@dataclass(frozen=True, slots=True)
class Envelope:
    """What every ``chat.completion.chunk`` of one answer shares."""

    id: str
    model: str
    created: int = field(default_factory=lambda: int(time.time()))

    def event(self, delta: dict[str, Any], finish: str | None = None,
              extra: dict[str, Any] | None = None) -> str:
        """One SSE event carrying ``delta``."""
        chunk = {"id": self.id, "object": "chat.completion.chunk", "created": self.created,
                 "model": self.model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **(extra or {})}
        return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"


def gm_fields(done: Processed) -> dict[str, Any]:
    """The records beside the text (``gm_records``) and which candidate this is (``gm``)."""
    return {"gm_records": [r.model_dump(mode="json") for r in done.records],
            "gm": {"chat": done.chat, "turn": done.turn, "candidate": done.candidate,
                   "replayed": done.replayed}}


def error_event(message: str) -> str:
    """An OpenAI-style error object as an SSE event (the stream has begun: no status to set)."""
    body = {"error": {"message": message, "type": "upstream_error", "code": 502}}
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"


async def opened(chunks: AsyncGenerator[dict[str, Any], None]) -> AsyncGenerator[dict[str, Any], None]:
    """``chunks`` with the first one already awaited, so a failing upstream is known before the
    response starts (and answered 502) rather than after."""
    try:
        first = await anext(chunks)
    except StopAsyncIteration:
        return _none()
    return _chain(first, chunks)


async def _none() -> AsyncGenerator[dict[str, Any], None]:
    return
    yield  # an async generator that yields nothing


async def _chain(first: dict[str, Any],
                 rest: AsyncGenerator[dict[str, Any], None]) -> AsyncGenerator[dict[str, Any], None]:
    try:
        yield first
        async for chunk in rest:
            yield chunk
    finally:
        await rest.aclose()


async def sse_reply(chunks: AsyncGenerator[dict[str, Any], None], reply: ReplyStream,
                    store: Callable[[str], Awaitable[Processed]],
                    envelope: Envelope) -> AsyncIterator[str]:
    """The events of a streamed answer: rewritten text as it comes, then the records, then
    ``[DONE]``. An upstream failure mid-stream ends it with an error event; nothing is stored."""
    yield envelope.event({"role": "assistant", "content": ""})
    try:
        async for chunk in chunks:
            if text := reply.feed(delta_of(chunk)):
                yield envelope.event({"content": text})
    except UpstreamError as exc:
        yield error_event(str(exc))
        return
    finally:
        await chunks.aclose()
    done = await store(reply.reply)
    if text := reply.tail(done):
        yield envelope.event({"content": text})
    yield envelope.event({}, finish="stop", extra=gm_fields(done))
    yield DONE


async def sse_stored(done: Processed, envelope: Envelope) -> AsyncIterator[str]:
    """A retry's answer (SPEC §3): the stored text in one event, its records, ``[DONE]``."""
    yield envelope.event({"role": "assistant", "content": done.text})
    yield envelope.event({}, finish="stop", extra=gm_fields(done))
    yield DONE
