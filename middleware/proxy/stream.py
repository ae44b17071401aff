"""A streamed reply, rewritten while the model writes (SPEC §7 proxy): server-sent events.

Prose is passed on as soon as ``TagStream`` says it can no longer become part of a tag; a possible
tag is held back until it closes, then resolved and sent as its rewritten tag, whole. At the end the
reply is stored as one candidate (``Engine.process`` of the full text, with the seed the stream
used), so what the client saw is exactly the stored rewritten text. The store takes the stream's
own reading of the reply (``finished``: what is left resolved, nothing resolved twice) when it is
the whole reply resolved; else it resolves the text again. Tool mode reads its reply with a stream
too, sent or not, and answers each call from the records so far (``read_so_far``).

How a tag is resolved as it closes: the stream takes the pipeline's own steps (``resolve_item``)
with the candidate's seed (``Engine.previewer``), carrying the reading each step leaves on to the
next, so each tag is resolved once, against what came before it (SPEC §3), and the result stands
whatever follows. The one exception: a buy or sale is priced at the place in force at the END of
the reply (SPEC §3, ITM-MARKET-20), so in a ruleset with a market an ``[inventory:]`` tag, and all
after it, wait for the end (the steps streamed run with no place at the end known: it decides
prices, and which market day a ``[place:]`` keeps for them, and nothing a streamed tag shows); so
does text from a lone surrogate on (the store replaces it).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, cast

from middleware.display import shown_tag
from middleware.engine import Engine, Processed
from middleware.errors import UpstreamError
from middleware.logs import get_logger
from middleware.parse import TagStream
from middleware.pipeline import Preview, Reading, ResolvedReply, Step, resolve_item
from middleware.proxy.access import shown as shown_chat
from middleware.proxy.branch_hold import BranchHold, Run
from middleware.proxy.chunks import DONE, Envelope, pieces_of
from middleware.proxy.refusals import upstream_event
from middleware.proxy.upstream import Read
from middleware.records import Record
from middleware.resolve.branch import Item
from middleware.resolve.market.day import market_of
from middleware.rewrite import resolved_text, rewrite
from middleware.rules.ruleset import Ruleset
from middleware.segments import Piece, Segment, Tag, Text
from middleware.state import GameState
from middleware.text import MAX_CANDIDATE_CHARS, clean_text

Waits = Callable[[Tag], bool]
Shown = Callable[[Tag, Record], str]
"""What the client is shown in place of a resolved tag: its resolved tag, or its card line."""


def priced_at_end(ruleset: Ruleset) -> Waits:
    """Which tags wait for the end of the reply: inventory tags where a market prices them."""
    has_market = market_of(ruleset) is not None
    return lambda tag: has_market and tag.name == "inventory"


async def chat_stream(engine: Engine, chat: str, preview: Preview, *, cards: bool,
                      limit: int = MAX_CANDIDATE_CHARS) -> ReplyStream:
    """The stream a face reads a reply of ``chat`` with, as the store will read it: buys held
    where the game's market prices them, branch blocks read where the game reads them, cut at
    ``limit`` (a Continue's room), each tag shown resolved or, with ``cards``, as its card line.
    Every face (a turn or a Continue, tags or tool calls) takes its stream from here, so none
    reads the reply otherwise than the store."""
    game, ruleset = await engine.game(chat), await engine.ruleset(chat)
    return ReplyStream(preview, priced_at_end(ruleset), shown_tag if cards else resolved_text,
                       branches=bool(game.options.get("branches")), limit=limit)


class ReplyStream:
    """One reply's rewriting as it streams: ``feed`` a delta, get the text to send now."""

    def __init__(self, preview: Preview, waits: Waits = lambda tag: False,
                 shown: Shown = resolved_text, *, branches: bool = False,
                 limit: int = MAX_CANDIDATE_CHARS) -> None:
        """``branches``: the game reads branch blocks, each held until it closes
        (``branch_hold``) and then sent as the section its check kept; ``limit``: the characters
        read and kept (the stored candidate is cut there)."""
        self._tags = TagStream(branches=branches)
        self._blocks = BranchHold(waits) if branches else None
        self._branches = branches
        self._limit = limit
        self._uncut = min(limit, preview.limit)
        """The longest reply the stream's reading stands for (the preview cuts a longer one)."""
        self._held = 0
        self._shown = shown
        self._waits = waits
        self._context = preview.context()  # one context, so the dice throw on from tag to tag
        self._reading = Reading.at(preview.start)
        self._source: list[str] = []
        self._sent: list[str] = []
        self._written: list[str] = []
        """The reply resolved so far as the store writes it (resolved tags, not cards)."""
        self._records: list[Record] = []
        self._timings: list[float] = []
        self._holding = False

    @property
    def reply(self) -> str:
        """The reply as the model wrote it so far, up to one character past the limit (so the
        store cuts it and says so)."""
        return "".join(self._source)

    def feed(self, delta: str) -> str:
        """Take the model's next piece of text; return the rewritten text safe to send now.
        Nothing past ``limit`` characters is read or kept (the stored candidate is cut there)."""
        held = self._held + len(delta)
        if held > self._limit:
            delta = self._kept(delta)
        else:  # what ``_kept`` does short of the limit, written out: it runs for every piece
            self._source.append(delta)
            self._held = held
        if not delta or self._holding:
            return ""
        if not delta.isascii() and clean_text(delta)[0] != delta:  # the store writes others here
            self._holding = True
            return ""
        if (self._blocks is None or self._blocks.outside) and self._tags.prose(delta):
            self._written.append(delta)  # most pieces: prose, outside blocks, with no tag in it
            self._sent.append(delta)
            return delta
        pieces = self._tags.feed(delta)
        if not pieces:  # a tag still being written
            return ""
        return self._record(self._read(pieces))

    def _read(self, pieces: list[Piece]) -> str:
        """Pieces the tag stream released, resolved: the text to show for them."""
        if self._blocks is None:
            return self._segments(cast(list[Segment], pieces))  # no markers without blocks
        return "".join([self._run(run) for run in self._blocks.take(pieces)])

    def finished(self) -> ResolvedReply | None:
        """The reply is complete: the whole of it resolved as the stream read it, what is left
        (an unclosed tag is prose, an open block closes at the end) resolved now, nothing
        twice: exactly what the preview resolves the whole reply to. None when that cannot be
        vouched for, and the store resolves the text itself: a tag held for the end (a buy
        priced where the reply ends), a lone surrogate, a reply cut at the limit, a game whose
        start reads branch blocks otherwise than the stream, a ``[place:]`` whose reading may
        have hung on the place where the reply ends (``_placed_alike``). Shows nothing more:
        ``tail`` sends the rest of the stored candidate."""
        if not self._as_whole():  # closing cannot make it so: spare resolving the rest
            return None
        self._read(self._tags.close())
        for run in self._blocks.end() if self._blocks is not None else ():
            self._run(run)
        if not self._as_whole():
            return None
        return ResolvedReply("".join(self._written), tuple(self._records), self._reading.state,
                             tuple(self._timings))

    def read_so_far(self) -> Sequence[Record] | None:
        """The records of the reply so far, exactly as the preview resolving it whole gives them
        (tool mode answers each call from them: each tag was resolved once, as it closed); None
        when that cannot be vouched for: ``finished``'s cases, and text the whole reply so far
        would read otherwise at its end: what the tag stream still holds (a "[" prose left open,
        a tag whose end is not yet certain) or an open branch block. The stream's own list: read
        it, never change it."""
        if self._tags.held or (self._blocks is not None and not self._blocks.outside) \
                or not self._as_whole():
            return None
        return self._records

    def _as_whole(self) -> bool:
        """Whether what the stream read is what the preview reads of the reply so far: nothing
        held for the end, nothing cut, branch blocks read as the start state reads them, nothing
        that hung on the place where the reply ends (``_placed_alike``). Once false, it stays
        false: the reply only grows, and so do the records."""
        return not self._holding and self._held <= self._uncut \
            and self._branches == self._reading.start.branches and self._placed_alike()

    def for_store(self) -> tuple[GameState, ResolvedReply] | None:
        """``finished`` with the start state it was read from, as ``Engine.process`` takes it
        (``resolved``); None when the store must resolve the reply itself."""
        read = self.finished()
        return None if read is None else (self._reading.start, read)

    def _placed_alike(self) -> bool:
        """Whether the steps streamed, taken with no place at the end of the reply known, are
        those of the whole resolve, which knows it (SPEC §3). Only two things read that place: a
        ``[place:]``, to keep today's market of it (there is none to keep while the game has no
        market day going: none at the start, and only buys, sales and inspections start one),
        and those three, for the place they price at (none were read where a market prices
        goods: they wait for the end; where none does, every one is refused alike wherever
        the party is)."""
        records = self._records
        if all(record.tag != "place" for record in records):
            return True
        return self._reading.start.market is None and (
            market_of(self._context.ruleset) is None
            or all(record.tag != "inventory" for record in records))

    def _kept(self, delta: str) -> str:
        """``delta`` added to the reply, up to one character past the limit; the part to read."""
        before = self._held
        if before + len(delta) > self._limit:
            delta = delta[: self._limit + 1 - before]
            self._source.append(delta)
            self._held += len(delta)
            return delta[: max(self._limit - before, 0)]
        self._source.append(delta)
        self._held += len(delta)
        return delta

    def _run(self, run: Run) -> str:
        """One run of ``BranchHold``: pieces resolved as they are, or a block as its check chose."""
        if self._holding:
            return ""
        if run is None:
            self._holding = True
            return ""
        if isinstance(run, list):
            return self._segments(run)
        return self._text(self._step(run))

    def tail(self, done: Processed, whole: str | None = None) -> str:
        """The rest of ``whole``, the stored candidate as the client is shown it (default: its
        text), once the whole reply is stored: what was sent is always the start of it."""
        self._tags.close()
        whole = done.text if whole is None else whole
        sent = "".join(self._sent)
        if not whole.startswith(sent):  # cannot happen: the stream took the store's own steps
            get_logger().error("stream-diverged", chat=done.chat, turn=done.turn,
                               candidate=done.candidate)
            return ""
        return self._record(whole[len(sent):])

    def _segments(self, segments: list[Segment]) -> str:
        """The segments resolved and shown, up to the first tag that waits for the end (which
        starts holding)."""
        out: list[str] = []
        for segment in segments:
            if isinstance(segment, Text):
                self._written.append(segment.text)
                out.append(segment.text)
            elif self._waits(segment):
                self._holding = True
                break
            else:
                out.append(self._text(self._step(segment)))
        return "".join(out)

    def _step(self, item: Item) -> Step:
        """``item`` resolved against the reading so far, which moves on past it."""
        step = resolve_item(self._reading, item, self._context)
        self._reading = step.reading
        self._records += step.records
        self._timings += step.timings
        return step

    def _text(self, step: Step) -> str:
        """What the client is shown for a step: its prose, each tag as ``shown`` shows it (the
        store's own text when it shows resolved tags)."""
        written = rewrite(step.kept, step.tag_records)
        self._written.append(written)
        if self._shown is resolved_text:
            return written
        records = iter(step.tag_records)
        return "".join([s.text if isinstance(s, Text) else self._shown(s, next(records))
                        for s in step.kept])

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
    An upstream failure mid-stream ends it with an error event; nothing is stored.

    What is ready at once goes out in one write: the opening event with the first read's (the
    first read is in before the answer starts, ``opened``), and the rest of the text with the
    last events. Each write to the client is a trip through the server and the socket (about a
    fifth of the proxy's time per stream, measured)."""
    ready = [envelope.event({"role": "assistant", "content": ""})]
    finish, usage = None, None
    try:
        async for read in reads:
            for piece in pieces_of(read):
                text = reply.feed(piece.content) if piece.content else ""
                if delta := {**piece.others, **({"content": text} if text else {})}:
                    ready.append(envelope.event(delta))
                finish, usage = piece.finish or finish, piece.usage or usage
            if ready:
                yield b"".join(ready)
                ready = []
    except UpstreamError as exc:
        yield b"".join([*ready, upstream_event(exc)])
        return
    finally:
        await reads.aclose()
    done = await store(reply.reply)
    if text := reply.tail(done, shown(done)):
        ready.append(envelope.event({"content": text}))
    yield b"".join([*ready, *ending(done, envelope, finish, usage)])


def ending(done: Processed, envelope: Envelope, finish: str | None = None,
           usage: dict[str, Any] | None = None) -> list[bytes]:
    """The last events: the finish reason with the records (``gm_records``, ``gm``), the usage
    when the upstream gave it, ``[DONE]``."""
    usage_event = [envelope.usage(usage)] if usage is not None else []
    return [envelope.event({}, finish=finish or "stop", extra=gm_fields(done)), *usage_event, DONE]


async def sse_stored(done: Processed, shown: str, envelope: Envelope) -> AsyncIterator[bytes]:
    """A retry's answer (SPEC §3): the stored text (as shown) in one event, its records, ``[DONE]``,
    in one write."""
    yield b"".join([envelope.event({"role": "assistant", "content": shown}),
                    *ending(done, envelope)])
