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

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, Final, cast

from middleware.engine import Processed
from middleware.errors import UpstreamError
from middleware.logs import get_logger
from middleware.parse import TagStream
from middleware.pipeline import ResolvedReply
from middleware.proxy.access import shown as shown_chat
from middleware.proxy.branch_hold import BranchHold, Run
from middleware.proxy.chunks import DONE, Envelope, pieces_of
from middleware.proxy.refusals import upstream_event
from middleware.proxy.upstream import Read
from middleware.records import Record
from middleware.resolve.market.day import market_of
from middleware.rewrite import resolved_text
from middleware.rules.ruleset import Ruleset
from middleware.segments import Segment, Tag, Text
from middleware.text import MAX_CANDIDATE_CHARS

MAX_STREAMED_TAGS: Final = 64
"""Tags resolved one by one as they close; later ones wait for the end (one resolution)."""

Preview = Callable[[str], ResolvedReply]
Whole = Callable[[ResolvedReply], str]
"""A resolved reply as the client is shown it: its text, or its text with card lines."""
Waits = Callable[[Tag], bool]
Shown = Callable[[Tag, Record], str]
"""What the client is shown in place of a resolved tag: its resolved tag, or its card line."""


def priced_at_end(ruleset: Ruleset) -> Waits:
    """Which tags wait for the end of the reply: inventory tags where a market prices them."""
    has_market = market_of(ruleset) is not None
    return lambda tag: has_market and tag.name == "inventory"


class ReplyStream:
    """One reply's rewriting as it streams: ``feed`` a delta, get the text to send now."""

    def __init__(self, preview: Preview, waits: Waits = lambda tag: False,
                 shown: Shown = resolved_text, *, branches: bool = False,
                 whole: Whole = lambda done: done.text, limit: int = MAX_CANDIDATE_CHARS) -> None:
        """``branches``: the game reads branch blocks, each held until it closes
        (``branch_hold``) and then sent as ``whole`` shows the reply resolved up to there;
        ``limit``: the characters read and kept (the stored candidate is cut there)."""
        self._tags = TagStream(branches=branches)
        self._blocks = BranchHold(waits) if branches else None
        self._whole = whole
        self._limit = limit
        self._held = 0
        self._shown = shown
        self._preview = preview
        self._waits = waits
        self._source: list[str] = []
        self._sent: list[str] = []
        self._sent_to = 0
        self._streamed = 0
        self._holding = False

    @property
    def reply(self) -> str:
        """The reply as the model wrote it so far, up to one character past the limit (so the
        store cuts it and says so)."""
        return "".join(self._source)

    def feed(self, delta: str) -> str:
        """Take the model's next piece of text; return the rewritten text safe to send now.
        Nothing past ``limit`` characters is read or kept (the stored candidate is cut there)."""
        before = self._held
        delta = delta[: self._limit + 1 - before]
        self._source.append(delta)
        self._held += len(delta)
        delta = delta[: max(self._limit - before, 0)]
        if not delta:
            return ""
        pieces = self._tags.feed(delta)
        if self._holding or not pieces:
            return ""
        if self._blocks is None:
            return self._send(cast(list[Segment], pieces))  # no markers are read without blocks
        return "".join([self._run(run) for run in self._blocks.take(pieces)])

    def _run(self, run: Run) -> str:
        """One run of ``BranchHold``: pieces sent as they are, or the reply through a block."""
        if self._holding:
            return ""
        if run is None:
            self._holding = True
            return ""
        return self._send(run) if isinstance(run, list) else self._through(run)

    def _through(self, end: int) -> str:
        """The reply resolved through ``end`` (a block's end), as shown, past what was sent."""
        done = self._preview(self.reply[:end])
        text, sent = self._whole(done), "".join(self._sent)
        if not text.startswith(sent):  # cannot happen: what was sent is how it begins
            self._holding = True
            return ""
        self._streamed = len(done.records)
        return self._record(text[len(sent):])

    def tail(self, done: Processed, whole: str | None = None) -> str:
        """The rest of ``whole``, the stored candidate as the client is shown it (default: its
        text), once the whole reply is stored: what was sent is always the start of it."""
        self._tags.close()
        whole = done.text if whole is None else whole
        sent = "".join(self._sent)
        if not whole.startswith(sent):  # cannot happen: the preview is the stored resolution
            get_logger().error("stream-diverged", chat=done.chat, turn=done.turn,
                               candidate=done.candidate)
            return ""
        return self._record(whole[len(sent):])

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
        return [self._shown(tag, record)
                for tag, record in zip(tags, records[-len(tags):], strict=True)]

    def _record(self, text: str) -> str:
        self._sent.append(text)
        return text


def gm_fields(done: Processed) -> dict[str, Any]:
    """The records beside the text (``gm_records``) and which candidate this is (``gm``; its
    chat as the client names it)."""
    return {"gm_records": [r.model_dump(mode="json") for r in done.records],
            "gm": {"chat": shown_chat(done.chat), "turn": done.turn, "candidate": done.candidate,
                   "replayed": done.replayed}}


async def opened(reads: AsyncGenerator[Read, None]) -> AsyncGenerator[Read, None]:
    """``reads`` with the first one already awaited, so a failing upstream is known before the
    response starts (and answered 502) rather than after."""
    try:
        first = await anext(reads)
    except StopAsyncIteration:
        return _none()
    return _chain(first, reads)


async def _none() -> AsyncGenerator[Read, None]:
    return
    yield  # an async generator that yields nothing


async def _chain(first: Read, rest: AsyncGenerator[Read, None]) -> AsyncGenerator[Read, None]:
    try:
        yield first
        async for read in rest:
            yield read
    finally:
        await rest.aclose()


async def sse_reply(reads: AsyncGenerator[Read, None], reply: ReplyStream,
                    store: Callable[[str], Awaitable[Processed]], shown: Callable[[Processed], str],
                    envelope: Envelope) -> AsyncIterator[bytes]:
    """The events of a streamed answer: rewritten text as it comes, one event per read from the
    upstream (the other delta fields passed on as they come), then the rest of the stored
    candidate as shown, the upstream's ``finish_reason`` with the records, its usage, ``[DONE]``.
    An upstream failure mid-stream ends it with an error event; nothing is stored."""
    yield envelope.event({"role": "assistant", "content": ""})
    finish, usage = None, None
    try:
        async for read in reads:
            events = []
            for piece in pieces_of(read):
                text = reply.feed(piece.content) if piece.content else ""
                if delta := {**piece.others, **({"content": text} if text else {})}:
                    events.append(envelope.event(delta))
                finish, usage = piece.finish or finish, piece.usage or usage
            if events:
                yield b"".join(events)
    except UpstreamError as exc:
        yield upstream_event(exc)
        return
    finally:
        await reads.aclose()
    done = await store(reply.reply)
    if text := reply.tail(done, shown(done)):
        yield envelope.event({"content": text})
    for event in ending(done, envelope, finish, usage):
        yield event


def ending(done: Processed, envelope: Envelope, finish: str | None = None,
           usage: dict[str, Any] | None = None) -> list[bytes]:
    """The last events: the finish reason with the records (``gm_records``, ``gm``), the usage
    when the upstream gave it, ``[DONE]``."""
    usage_event = [envelope.usage(usage)] if usage is not None else []
    return [envelope.event({}, finish=finish or "stop", extra=gm_fields(done)), *usage_event, DONE]


async def sse_stored(done: Processed, shown: str, envelope: Envelope) -> AsyncIterator[bytes]:
    """A retry's answer (SPEC §3): the stored text (as shown) in one event, its records, ``[DONE]``."""
    yield envelope.event({"role": "assistant", "content": shown})
    for event in ending(done, envelope):
        yield event
