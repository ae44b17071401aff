"""Loot into bags, as the Game Master's adds would put it (ITM-LOOT-10/12/14, ITM-BAG-05/15/16).

- With ``who=``, everything goes to that character's bag, as much as fits below their ``limit``;
  without it, the shared view's carry rule splits the lot (player first, then the party in order).
- Whatever nobody can carry stays where it is and the GM is told (ITM-BAG-16): the last add of that
  goods says how many were left behind, and an add that could take none is refused ``too-heavy``.
- A service can never be put in a bag: its add is refused ``service`` (ITM-BAG-09).
- Stacks fill up to the item's ``stack`` limit and then start new ones (ITM-BAG-05).

Each delivery returns the new state and one ``InventoryRecord`` per bag it reached, exactly as
``[inventory: action="add"]`` answers (ITM-LOOT-14).
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.items.bag import Goods, held, put
from middleware.items.carry import capacity, distribute, encumbered, load, piece_weight, room_for
from middleware.items.index import item_index
from middleware.items.stack_room import cut_line, fitting
from middleware.resolve import Context
from middleware.resolve.inventory.find import Member, Named, named_of
from middleware.resolve.inventory.goods import done
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.state import GameState


@dataclass(frozen=True, slots=True)
class Delivered:
    """The state after one kind of goods was handed out, the adds made, and how many stayed."""

    state: GameState
    parts: tuple[InventoryRecord, ...]
    left: int


def deliver(state: GameState, ctx: Context, goods: Goods, count: int,
            member: Member | None) -> Delivered:
    """``count`` pieces of ``goods`` to ``member``'s bag, or to the shared view when None."""
    named = named_of(item_index(ctx.ruleset), goods)
    if named.found is not None and named.found.is_service:
        line = f"{named.label} is a service: it is bought, never carried."
        return Delivered(state, (_refused_add(named, "service", line, member),), count)
    if member is None:
        return _to_shared(state, ctx, named, count)
    fresh = Member(member.index, state.party[member.index])  # as earlier drops left the bag
    return _to_member(state, ctx, named, count, fresh)


def _to_member(state: GameState, ctx: Context, named: Named, count: int,
               member: Member) -> Delivered:
    """ITM-LOOT-12: all of it into one bag, never past the holder's ``limit``."""
    fitting = _room(ctx, member, named.goods, state)
    taken = count if fitting is None else min(count, fitting)
    if taken <= 0:
        line = f"{member.name} cannot carry {named.label}: past their limit; it stays where it is."
        return Delivered(state, (_refused_add(named, "too-heavy", line, member),), count)
    state, part = _put(state, ctx, named, taken, member)
    return _with_left(state, [part], count - taken)


def _to_shared(state: GameState, ctx: Context, named: Named, count: int) -> Delivered:
    """ITM-LOOT-10 / ITM-BAG-15/16: the carry rule splits the lot over the party."""
    shares = distribute(ctx.ruleset, state, named.goods, count)
    if not shares:
        line = f"Nobody in the party can carry {named.label}: it stays where it is."
        return Delivered(state, (_refused_add(named, "too-heavy", line, None),), count)
    parts: list[InventoryRecord] = []
    for share in shares:
        state, part = _put(state, ctx, named, share.count,
                           Member(share.index, state.party[share.index]))
        parts.append(part)
    return _with_left(state, parts, count - sum(share.count for share in shares))


def _room(ctx: Context, member: Member, goods: Goods, state: GameState) -> int | None:
    """How many pieces fit below the member's ``limit`` (None: any number); the bag's load counts
    items invented in this game (ITM-PROPOSE-13)."""
    weight = piece_weight(item_index(ctx.ruleset), goods)
    limit = capacity(ctx.ruleset, member.character).limit
    return room_for(weight, limit, load(ctx.ruleset, member.character, state))


def _put(state: GameState, ctx: Context, named: Named, count: int,
         member: Member) -> tuple[GameState, InventoryRecord]:
    """``count`` pieces into the member's bag, answered as an add (SPEC §6: ``now`` after)."""
    before = member.character
    moved = fitting(before.bag, named.goods, count, named.limit, ctx.new_stacks)
    if moved <= 0:  # not one stack more fits: refused, and the pieces stay where they are
        line = f"{before.name} cannot take {named.label}: " \
            f"{cut_line(0, before.bag, ctx.new_stacks).split(': ', 1)[1]}"
        return state, _refused_add(named, "bag-full", line, member)
    bag = put(before.bag, named.goods, moved, named.limit)
    after = before.model_copy(update={"bag": bag})
    state = state.with_character(member.index, after)
    notes = [cut_line(count - moved, before.bag, ctx.new_stacks)] if moved < count else []
    notes += [f"{after.name} is now encumbered."] \
        if encumbered(ctx.ruleset, after, state) and not encumbered(ctx.ruleset, before, state) \
        else []
    return state, done(_ask(named, member), after.name, named, moved, held(bag, named.goods),
                       notes)


def _with_left(state: GameState, parts: list[InventoryRecord], left: int) -> Delivered:
    """ITM-BAG-16: the GM is told, on the last add, what nobody could carry."""
    if left > 0:
        last = parts[-1]
        line = f"{left} left behind: nobody can carry more."
        parts[-1] = last.model_copy(update={"note": _join(last.note, line),
                                            "feedback": _join(last.feedback, line)})
    return Delivered(state, tuple(parts), left)


def _refused_add(named: Named, reason: str, line: str, member: Member | None) -> InventoryRecord:
    return refused("add", reason, line, item=named.label, who=member.name if member else None)


def _ask(named: Named, member: Member) -> ItemAsk:
    return ItemAsk(action="add", item=named.label, who=member.name)


def _join(first: str | None, second: str) -> str:
    return f"{first} {second}" if first else second
