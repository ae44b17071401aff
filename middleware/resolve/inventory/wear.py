"""``equip``, ``unequip``, ``bind``, ``unbind``: slots and binding (ITM-BAG-10..13).

- Equip needs a block with ``slots`` and an item that occupies some; the pieces equipped are split
  off their stack into one of their own (ITM-BAG-10), and the holder must have those slots free.
- Bind needs a block with ``binding`` and an item with ``binds``; the holder may have at most
  ``binding.max`` pieces bound, read from their bare sheet (ITM-BAG-12: no sheet reads a blank one).
- A bound cursed item cannot be unequipped (ITM-BAG-13). Only the GM can end the curse: his
  ``unbind`` does it, and the item lets go from then on (our reading of "only the GM can end it").

Refusal codes, all ours (the page gives none, Ambiguity 3): ``no-slots`` (the ruleset or the item
has no slots), ``slots-full``, ``not-equipped``, ``no-binding`` (the ruleset has no binding),
``not-bindable`` (the item has no ``binds``), ``binding-full``, ``not-bound``, ``cursed``; plus
``not-held``, ``unknown-item``, ``not-ruleset-item`` and ``unknown-character`` as for goods.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from middleware.character.check import view_for
from middleware.items.bag import (
    Bag,
    Goods,
    held,
    is_loose,
    merge_back,
    positions,
    split_off,
)
from middleware.items.lookup import items_in
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.fakes.goods import reveal_bound, with_lines
from middleware.resolve.inventory.find import Member, Named, holder
from middleware.resolve.inventory.goods import done, held_named, is_cursed, unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.state import GameState, Stack

_Where = Callable[[Stack], bool]
_Full = Callable[[ItemAsk, GameState, Context, Member, Named, int], InventoryRecord | None]
"""The refusal when the holder has no room for ``count`` more pieces, else None."""
_After = Callable[[Context, Resolution, Member], Resolution]


def equip(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-BAG-10/11: put ``count`` (1) pieces on, if their slots are free."""
    return _put_on(ask, state, ctx, _EQUIPPED)


def unequip(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """Take an equipped stack off (never a bound cursed one, ITM-BAG-13)."""
    taken = _take_off(ask, state, ctx, _EQUIPPED)
    if isinstance(taken, Resolution):
        return taken
    member, named, index = taken
    if member.character.bag[index].bound and is_cursed(named):
        return Resolution(state, _cursed(ask, member, named))
    return _let_go(ask, state, taken, _EQUIPPED)


def bind(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-BAG-12: bind ``count`` (1) pieces while fewer than ``binding.max`` are bound; binding
    a fake reveals it (ITM-FAKE-09)."""
    return _put_on(ask, state, ctx, _BOUND, after=_reveal)


def unbind(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """Release a bound stack; on a cursed item the GM's unbind ends the curse (ITM-BAG-13)."""
    taken = _take_off(ask, state, ctx, _BOUND)
    if isinstance(taken, Resolution):
        return taken
    note = "The curse is ended." if is_cursed(taken[1]) else None
    return _let_go(ask, state, taken, _BOUND, note)


def binding_max(ctx: Context, member: Member) -> int:
    """ITM-BAG-12 / ITM-BLOCK-10: ``binding.max`` read from the holder's bare sheet, floored."""
    block = ctx.ruleset.items
    if block is None or block.binding is None:
        return 0
    return max(0, math.floor(view_for(ctx.ruleset, member.character).static.ref(block.binding.max)))


def occupied(ctx: Context, bag: Bag, state: GameState | None = None) -> dict[str, int]:
    """ITM-BAG-10/17: how many of each slot the equipped stacks take (invented items too, given
    the game's ``state``: ITM-PROPOSE-13)."""
    index = items_in(ctx.ruleset, state)
    taken: dict[str, int] = {}
    for stack in bag:
        found = index.by_ref(stack.item) if stack.equipped and stack.item else None
        for slot, n in (found.item.slots.items() if found else ()):
            taken[slot] = taken.get(slot, 0) + n * stack.count
    return taken


def _no_free_slots(ask: ItemAsk, state: GameState, ctx: Context, member: Member, named: Named,
                   count: int) -> InventoryRecord | None:
    """ITM-BAG-10: ``slots-full`` when ``count`` more pieces would overfill a slot."""
    full = _full_slots(ctx, member.character.bag, named, count, state)
    if not full:
        return None
    return refused(ask.action, "slots-full", f"{member.name} has no free {full} for "
                   f"{named.label}.", item=named.label, who=member.name)


def _binding_full(ask: ItemAsk, state: GameState, ctx: Context, member: Member, named: Named,
                  count: int) -> InventoryRecord | None:
    """ITM-BAG-12: ``binding-full`` when ``count`` more would pass ``binding.max``."""
    most = binding_max(ctx, member)
    bound = sum(s.count for s in member.character.bag if s.bound)
    if bound + count <= most:
        return None
    return refused(ask.action, "binding-full", f"{member.name} has {bound} of {most} bound "
                   "already.", item=named.label, who=member.name)


def _reveal(ctx: Context, tied: Resolution, member: Member) -> Resolution:
    """ITM-FAKE-09: a fake just bound shows what it really is."""
    revealed, lines = reveal_bound(ctx.ruleset, tied.state, member.index)
    return with_lines(Resolution(revealed, tied.record), lines)


@dataclass(frozen=True, slots=True)
class _Way:
    """Equipping or binding: what the ruleset and the item must offer, the stack's flag (its name
    is also the word the Game Master reads: "already equipped", ``not-bound``) and the refusal
    when the holder has no room for more."""

    need: Literal["slots", "binds"]
    flag: Literal["equipped", "bound"]
    full: _Full


_EQUIPPED = _Way("slots", "equipped", _no_free_slots)
_BOUND = _Way("binds", "bound", _binding_full)


def _full_slots(ctx: Context, bag: Bag, named: Named, count: int,
                state: GameState) -> str | None:
    """The label of the first slot ``count`` more pieces would overfill, else None."""
    block = ctx.ruleset.items
    assert block is not None and named.found is not None
    taken = occupied(ctx, bag, state)
    for slot in block.slots:
        need = named.found.item.slots.get(slot.id, 0) * count
        if need and taken.get(slot.id, 0) + need > slot.count:
            return slot.label
    return None


def _ruleset_item(ask: ItemAsk, state: GameState, ctx: Context,
                  need: str) -> tuple[Member, Named] | InventoryRecord:
    """ITM-BAG-11: the holder and a held ruleset item that has ``slots`` / ``binds``."""
    block = ctx.ruleset.items
    offered = block is not None and (bool(block.slots) if need == "slots" else
                                     block.binding is not None)
    if not offered:
        code, what = ("no-slots", "slots") if need == "slots" else ("no-binding", "binding")
        return refused(ask.action, code, f"This ruleset has no {what}.", item=ask.item,
                       who=ask.who)
    member = holder(state, ask.who)
    if member is None:
        return unknown_character(ask, ask.who)
    found = held_named(ask, state, ctx, member)
    if isinstance(found, InventoryRecord):
        return found
    if found.found is None:
        return refused(ask.action, "not-ruleset-item", f"{found.label} is not an item of this "
                       "ruleset.", item=found.label, who=member.name)
    if need == "slots" and not found.found.item.slots:
        return refused(ask.action, "no-slots", f"{found.label} occupies no slots.",
                       item=found.label, who=member.name)
    if need == "binds" and found.found.item.binds is None:
        return refused(ask.action, "not-bindable", f"{found.label} cannot be bound.",
                       item=found.label, who=member.name)
    return member, found


def _put_on(ask: ItemAsk, state: GameState, ctx: Context, way: _Way,
            after: _After | None = None) -> Resolution:
    """``count`` (1) pieces of a stack without the ``way`` flag split off with it set, unless the
    holder has no room (``way.full``); pieces that all have it already change nothing."""
    found = _ruleset_item(ask, state, ctx, need=way.need)
    if isinstance(found, InventoryRecord):
        return Resolution(state, found)
    member, named = found
    bag = member.character.bag
    index = _pick(bag, named.goods, lambda s: not getattr(s, way.flag))
    if index is None:
        return _unchanged(ask, state, member, named, f"{named.label} is already {way.flag}.")
    count = min(ask.count or 1, bag[index].count)
    full = way.full(ask, state, ctx, member, named, count)
    if full is not None:
        return Resolution(state, full)
    done = _changed(ask, state, member, named, split_off(bag, index, count, **{way.flag: True}),
                    count)
    return after(ctx, done, member) if after is not None else done


def _take_off(ask: ItemAsk, state: GameState, ctx: Context,
              way: _Way) -> tuple[Member, Named, int] | Resolution:
    """The holder, the item and a stack with the ``way`` flag; ``not-equipped``/``not-bound``
    when they hold none."""
    found = _ruleset_item(ask, state, ctx, need=way.need)
    if isinstance(found, InventoryRecord):
        return Resolution(state, found)
    member, named = found
    index = _pick(member.character.bag, named.goods, lambda s: bool(getattr(s, way.flag)))
    if index is None:
        return Resolution(state, refused(ask.action, f"not-{way.flag}", f"{named.label} is not "
                                         f"{way.flag}.", item=named.label, who=member.name))
    return member, named, index


def _let_go(ask: ItemAsk, state: GameState, taken: tuple[Member, Named, int], way: _Way,
            note: str | None = None) -> Resolution:
    """The whole stack loses the ``way`` flag and joins its loose twins (ITM-BAG-05)."""
    member, named, index = taken
    bag = member.character.bag
    bag = (*bag[:index], bag[index].model_copy(update={way.flag: False}), *bag[index + 1:])
    return _changed(ask, state, member, named, merge_back(bag, index, named.limit),
                    member.character.bag[index].count, note)


def _pick(bag: Bag, goods: Goods, where: _Where) -> int | None:
    """The stack to act on: the first that ``where`` keeps, preferring stacks already worn."""
    hits = [i for i in positions(bag, goods) if where(bag[i])]
    return min(hits, key=lambda i: is_loose(bag[i])) if hits else None


def _changed(ask: ItemAsk, state: GameState, member: Member, named: Named, bag: Bag,
             count: int, note: str | None = None) -> Resolution:
    state = state.with_character(member.index, member.character.model_copy(update={"bag": bag}))
    notes = [*ask.notes, *([note] if note else [])]
    return Resolution(state, done(ask, member.name, named, count, held(bag, named.goods), notes))


def _unchanged(ask: ItemAsk, state: GameState, member: Member, named: Named,
               line: str) -> Resolution:
    bag = member.character.bag
    return Resolution(state, done(ask, member.name, named, 0, held(bag, named.goods),
                                  [*ask.notes, line]))


def _cursed(ask: ItemAsk, member: Member, named: Named) -> InventoryRecord:
    return refused(ask.action, "cursed", f"{named.label} is bound and cursed: it does not let go.",
                   item=named.label, who=member.name)

