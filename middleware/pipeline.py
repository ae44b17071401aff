"""One reply, start to end, with no I/O: parse -> resolve each tag in reading order -> rewrite.

Pure given (reply, state, context): the pipeline calls it between loading the turn-start state and
storing the candidate. It resolves the reply item by item (``resolve_item``: a ``Reading`` in, a
``Step`` out, with the reading the next item starts from), the same steps a streamed reply takes
as each of its items closes, so a tag is resolved once however the reply arrives.

SPEC §3: tags resolve in reading order and each sees what the earlier ones did; SPEC §8: no tag
can crash the reply. In a game with branch blocks on, a block after a check is replaced by the
section the check's record chose (``resolve.branch``), whose tags then resolve in their turn; the
tags of the sections not taken are never resolved.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from middleware.errors import DiceError
from middleware.items.stack_room import new_stacks_left
from middleware.logs import enabled_for, get_logger
from middleware.parse import parse, parse_pieces
from middleware.records import ErrorRecord, IgnoredRecord, Record, clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.branch import Block, Item, choose, read_blocks
from middleware.resolve.dispatch import READS_UNREADABLE, RESOLVERS
from middleware.resolve.place import place_at_end
from middleware.rewrite import rewrite
from middleware.segments import Segment, Tag, Text
from middleware.state import GameState
from middleware.text import MAX_CANDIDATE_CHARS, bounded, clean_text, cut_line, surrogates_line

MAX_GOODS_TAGS = 40
"""SPEC §1b: at most 40 inventory and loot tags per reply; the rest are refused ``too-many``."""

GOODS_TAGS = frozenset({"inventory", "loot"})


class ResolvedReply(NamedTuple):
    """The rewritten text, one record per tag in order (and one per branch block, after its
    check), and the state after the last tag. A named tuple, as ``Step``: one is built per reply."""

    text: str
    records: tuple[Record, ...]
    state: GameState
    timings: tuple[float, ...] = ()

    def log(self, *, chat: str, turn: int, candidate: int) -> None:
        """SPEC §9: one event per tag with chat, turn, candidate, tag, status and time spent."""
        if not enabled_for(logging.INFO):
            return  # a replay logs at warning level: not even a logger bound to drop each event
        # One bound logger for the reply, its keys bound once (the lazy proxy would otherwise
        # bind again per tag): the events are the same, their keys in the same order.
        log = get_logger().bind(chat=chat, turn=turn, candidate=candidate)
        for record, ms in zip(self.records, self.timings, strict=True):
            log.info("tag", tag=record.tag, status=record.status, reason=record.reason, ms=ms)


class Reading(NamedTuple):
    """How far a reply's resolution has got: what its next item resolves against.

    ``start`` is the reply's start state (a reply starts a bounded number of stacks), ``goods``
    counts its inventory and loot tags so far (SPEC §1b), ``check`` is the last check read (where
    it starts, its record): the only one a branch block read next can belong to. A named tuple,
    not a frozen dataclass: one is built per tag."""

    start: GameState
    state: GameState
    goods: int = 0
    check: tuple[int, Record] | None = None

    @classmethod
    def at(cls, start: GameState) -> Reading:
        """A reply's reading before its first item."""
        return cls(start, start)


class Step(NamedTuple):
    """Items of a reply resolved: the reading after them; what stands in the text in their place
    (prose, and tags, each with its record in ``tag_records``: a block leaves the items of the
    section it kept); every record written, in order, with its time (a block's own first).

    A named tuple, not a frozen dataclass: one is built per reply (more with branch blocks), and
    a frozen dataclass sets each field through ``object.__setattr__``."""

    reading: Reading
    kept: tuple[Segment, ...] = ()
    tag_records: tuple[Record, ...] = ()
    records: tuple[Record, ...] = ()
    timings: tuple[float, ...] = ()

    def resolved(self) -> ResolvedReply:
        """The reply resolved up to here: its rewritten text, records and state."""
        return ResolvedReply(rewrite(self.kept, self.tag_records), self.records,
                             self.reading.state, self.timings)


@dataclass(frozen=True, slots=True)
class Preview:
    """What a reply resolves to from ``start``, stored nowhere: whole (call it with the reply), or
    item by item as it streams, from ``Reading.at(start)`` with a ``context()`` of its own. Each
    context throws fresh dice of one seed (``seed``), so every reading throws what the stored
    candidate will.
    """

    start: GameState
    context: Callable[[], Context]
    seed: int
    limit: int = MAX_CANDIDATE_CHARS

    def __call__(self, reply: str) -> ResolvedReply:
        return resolve_reply(reply, self.start, self.context(), self.limit)


def resolve_reply(reply: str, state: GameState, ctx: Context,
                  limit: int = MAX_CANDIDATE_CHARS) -> ResolvedReply:
    """Resolve every tag of ``reply`` against ``state``; never raises for any model output.

    A reply longer than ``limit`` characters is cut there first (``text.bounded``: the rest is
    not read, and the stored reply is the cut one); lone surrogates are replaced
    (``text.clean_text``). Each is told by one more record after the tags' (tag ``text``,
    reason ``reply-cut`` or ``surrogates-replaced``)."""
    reply, cut = bounded(reply, limit)
    reply, replaced = clean_text(reply)
    done = _resolve_clean(reply, state, ctx)
    notes = [Record(tag="text", status="resolved", reason="reply-cut", feedback=cut_line(limit))
             ] if cut else []
    if replaced:
        notes.append(Record(tag="text", status="resolved", reason="surrogates-replaced",
                            feedback=surrogates_line(replaced)))
    if not notes:
        return done
    return done._replace(records=(*done.records, *notes),
                         timings=(*done.timings, *(0.0 for _ in notes)))


def _resolve_clean(reply: str, state: GameState, ctx: Context) -> ResolvedReply:
    items, outside = _items(reply, state.branches)
    place = place_at_end(outside, state, ctx)  # SPEC §3: where buys are priced
    if place is not ctx.place_at_end:  # most replies name no place: no copy of the context
        ctx = replace(ctx, place_at_end=place)
    return resolve_items(Reading.at(state), items, ctx).resolved()


def resolve_items(reading: Reading, items: Iterable[Item], ctx: Context) -> Step:
    """``items`` resolved one after the other from ``reading`` (``resolve_item``), as one step:
    the ``joined`` steps, gathered as they come. Prose is kept as it is with no step of its own
    (half the items of a reply, each a step to build and join), and a tag's record and time are
    gathered with no step built for it (most of the other half)."""
    kept: list[Segment] = []
    tag_records: list[Record] = []
    records: list[Record] = []
    timings: list[float] = []
    for item in items:
        if isinstance(item, Text):
            kept.append(item)
        elif isinstance(item, Tag):  # a tag's step, its parts gathered with no Step built
            reading, record, ms = _tag_resolved(reading, item, ctx)
            kept.append(item)
            tag_records.append(record)
            records.append(record)
            timings.append(ms)
        else:
            step = resolve_item(reading, item, ctx)
            reading = step.reading
            kept += step.kept
            tag_records += step.tag_records
            records += step.records
            timings += step.timings
    return Step(reading, tuple(kept), tuple(tag_records), tuple(records), tuple(timings))


def resolve_item(reading: Reading, item: Item, ctx: Context) -> Step:
    """One item of a reply against ``reading``: prose stays as it is, a tag is resolved, a branch
    block is replaced by the section its check's record keeps, whose items resolve in turn.

    Pure given its arguments but for ``ctx.dice``, which throws on: resolving a reply's items in
    reading order, one call each with the reading the last one left, resolves the reply
    (``resolve_reply`` does exactly that; a streamed reply does it as each item closes)."""
    if isinstance(item, Text):
        return Step(reading, (item,))
    if isinstance(item, Tag):
        return _tag_step(reading, item, ctx)
    check = reading.check
    chosen = choose(item, check[1] if check is not None and check[0] == item.check else None)
    opened = Step(reading, records=(chosen.record,), timings=(0.0,))
    return joined([opened, resolve_items(reading, chosen.kept, ctx)])


def _tag_step(reading: Reading, tag: Tag, ctx: Context) -> Step:
    after, record, ms = _tag_resolved(reading, tag, ctx)
    return Step(after, (tag,), (record,), (record,), (ms,))


def _tag_resolved(reading: Reading, tag: Tag, ctx: Context) -> tuple[Reading, Record, float]:
    """One tag against ``reading``: the reading after it, its record and the milliseconds spent."""
    goods = reading.goods + (tag.name in GOODS_TAGS)
    started = time.perf_counter()
    state, record = _resolved_tag(tag, goods, reading.start, reading.state, ctx)
    ms = round((time.perf_counter() - started) * 1000, 3)
    check = (tag.start, record) if tag.name == "skill_check" else reading.check
    return Reading(reading.start, state, goods, check), record, ms


def joined(steps: Sequence[Step]) -> Step:
    """Steps taken one after the other as one: the reading the last one left."""
    if len(steps) == 1:
        return steps[0]
    return Step(steps[-1].reading, tuple(s for step in steps for s in step.kept),
                tuple(r for step in steps for r in step.tag_records),
                tuple(r for step in steps for r in step.records),
                tuple(t for step in steps for t in step.timings))


def _resolved_tag(tag: Tag, goods: int, start: GameState, state: GameState,
                  ctx: Context) -> tuple[GameState, Record]:
    """One tag against ``state``; ``goods`` counts the reply's inventory and loot tags so far,
    this one included (SPEC §1b), ``start`` is the reply's start state."""
    if tag.name not in GOODS_TAGS:
        result = _resolve_safely(tag, state, ctx)
    elif goods > MAX_GOODS_TAGS:
        result = Resolution(state, _too_many(tag))
    else:  # a reply starts a bounded number of stacks
        result = _resolve_safely(tag, state, replace(ctx, new_stacks=new_stacks_left(start, state)))
    return result.state, result.record


def _items(reply: str, branches: bool) -> tuple[Sequence[Item], Sequence[Segment]]:
    """The reply read, and its items outside branch blocks: with branch blocks on, its markers
    gathered into blocks (``read_blocks``); else it has none, and both are the reply's segments."""
    if not branches:
        segments = list(parse(reply))
        return segments, segments
    items = read_blocks(parse_pieces(reply, branches=True))
    return items, [item for item in items if not isinstance(item, Block)]


def _resolve_safely(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """A resolver bug leaves the tag as written with status ``error`` (SPEC §8)."""
    if tag.problems and tag.name not in READS_UNREADABLE:
        return Resolution(state, IgnoredRecord(tag=tag.name, reason="unreadable", source=tag.raw,
                                               feedback=clean_value("; ".join(tag.problems))))
    resolver = RESOLVERS.get(tag.name)
    if resolver is None:
        return Resolution(state, IgnoredRecord(tag=tag.name, reason="unsupported", source=tag.raw,
                                               feedback=f"[{tag.name}:] is not resolved yet"))
    try:
        return resolver(tag, state, ctx)
    except DiceError as exc:  # a scripted face past its die: the caller's script, not a bug
        get_logger().warning("dice-error", chat=ctx.chat, turn=ctx.turn, tag=tag.name,
                             error=str(exc))
        return _failed(tag, state, exc)
    except Exception as exc:
        get_logger().exception("resolver-error", chat=ctx.chat, turn=ctx.turn, tag=tag.name)
        return _failed(tag, state, exc)


def _failed(tag: Tag, state: GameState, exc: Exception) -> Resolution:
    """The tag left as written, its record ``error`` with what went wrong."""
    return Resolution(state, ErrorRecord(tag=tag.name, source=tag.raw, reason="internal-error",
                                         feedback=clean_value(f"{type(exc).__name__}: {exc}")))


def _too_many(tag: Tag) -> Record:
    return Record(tag=tag.name, status="refused", reason="too-many", source=tag.raw,
                  feedback=f"more than {MAX_GOODS_TAGS} inventory and loot tags in one reply")
