"""One reply, start to end, with no I/O: parse -> resolve each tag in reading order -> rewrite.

Pure given (reply, state, context): the pipeline calls it between loading the turn-start state and
storing the candidate. SPEC §3: tags resolve in reading order and each sees what the earlier ones
did; SPEC §8: no tag can crash the reply. In a game with branch blocks on, a block after a check is
replaced by the section the check's record chose (``resolve.branch``), whose tags then resolve in
their turn; the tags of the sections not taken are never resolved.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from middleware.items.stack_room import new_stacks_left
from middleware.logs import get_logger
from middleware.parse import parse, parse_pieces
from middleware.records import ErrorRecord, IgnoredRecord, Record, clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.branch import Block, Item, choose, read_blocks
from middleware.resolve.dispatch import READS_UNREADABLE, RESOLVERS
from middleware.resolve.place import place_at_end
from middleware.rewrite import rewrite
from middleware.segments import Segment, Tag
from middleware.state import GameState
from middleware.text import MAX_CANDIDATE_CHARS, bounded, clean_text, cut_line, surrogates_line

MAX_GOODS_TAGS = 40
"""SPEC §1b: at most 40 inventory and loot tags per reply; the rest are refused ``too-many``."""

GOODS_TAGS = frozenset({"inventory", "loot"})


@dataclass(frozen=True, slots=True)
class ResolvedReply:
    """The rewritten text, one record per tag in order (and one per branch block, after its
    check), and the state after the last tag."""

    text: str
    records: tuple[Record, ...]
    state: GameState
    timings: tuple[float, ...] = ()

    def log(self, *, chat: str, turn: int, candidate: int) -> None:
        """SPEC §9: one event per tag with chat, turn, candidate, tag, status and time spent."""
        # One bound logger for the reply: the lazy proxy would otherwise bind again per tag.
        log = get_logger().bind()
        if not log.is_enabled_for(logging.INFO):
            return  # a replay logs at warning level: not even the calls that drop each event
        # The reply's keys bound once: the events are the same, their keys in the same order.
        log = log.bind(chat=chat, turn=turn, candidate=candidate)
        for record, ms in zip(self.records, self.timings, strict=True):
            log.info("tag", tag=record.tag, status=record.status, reason=record.reason, ms=ms)


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
    return replace(done, records=(*done.records, *notes),
                   timings=(*done.timings, *(0.0 for _ in notes)))


def _resolve_clean(reply: str, state: GameState, ctx: Context) -> ResolvedReply:
    items = _items(reply, state.branches)
    outside = [item for item in items if not isinstance(item, Block)]
    ctx = replace(ctx, place_at_end=place_at_end(outside, state, ctx))  # SPEC §3: buys
    records: list[Record] = []
    timings: list[float] = []
    kept: list[Segment] = []
    tag_records: list[Record] = []
    checks: dict[int, Record] = {}
    goods, start = 0, state
    todo = items[::-1]  # a stack: a branch block is replaced by what its check keeps of it
    while todo:
        item = todo.pop()
        if isinstance(item, Block):
            chosen = choose(item, None if item.check is None else checks.get(item.check))
            records.append(chosen.record)
            timings.append(0.0)
            todo.extend(reversed(chosen.kept))
            continue
        kept.append(item)
        if isinstance(item, Tag):
            goods += item.name in GOODS_TAGS
            started = time.perf_counter()
            state, record = _resolved_tag(item, goods, start, state, ctx)
            tag_records.append(record)
            timings.append(round((time.perf_counter() - started) * 1000, 3))
            records.append(record)
            checks[item.start] = record
    return ResolvedReply(rewrite(kept, tag_records), tuple(records), state, tuple(timings))


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


def _items(reply: str, branches: bool) -> list[Item]:
    """The reply read: with branch blocks on, its markers gathered into blocks (``read_blocks``)."""
    if not branches:
        return list(parse(reply))
    return read_blocks(parse_pieces(reply, branches=True))


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
    except Exception as exc:
        get_logger().exception("resolver-error", chat=ctx.chat, turn=ctx.turn, tag=tag.name)
        return Resolution(state, ErrorRecord(tag=tag.name, source=tag.raw,
                                             reason="internal-error",
                                             feedback=clean_value(f"{type(exc).__name__}: {exc}")))


def _too_many(tag: Tag) -> Record:
    return Record(tag=tag.name, status="refused", reason="too-many", source=tag.raw,
                  feedback=f"more than {MAX_GOODS_TAGS} inventory and loot tags in one reply")
