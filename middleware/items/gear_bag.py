"""Putting a kit into a bag: stacks, equipping on the way in, and the weight it adds.

ITM-GEAR-05: a line with ``equip`` equips one piece when its slots are free (so armour counts from
the start); the rest joins the bag by the stack rule (ITM-BAG-05, ``bag.put``). ITM-GEAR-09: a kit
weighs what its items weigh by the ``carry`` stat and its coins by ``perWeight`` (ITM-BLOCK-19).
Given the game's ``state``, invented items already in the bag take their slots and weigh their
``carry`` stat too (ITM-PROPOSE-13).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from middleware.items.bag import Bag, Goods, put
from middleware.items.carry import bag_weight, capacity, load
from middleware.items.gear_lines import Piece
from middleware.items.index import STANDARD_STACK, RulesetItem, item_index
from middleware.items.lookup import items_in
from middleware.rules.items import Kit
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState


def group_key(kit: Kit) -> str:
    """ITM-GEAR-07: a kit's group; a kit without one is its own group, never a named group."""
    return kit.group if kit.group is not None else f"kit:{kit.id}"


def put_pieces(ruleset: Ruleset, bag: Bag, given: Iterable[Piece],
               state: GameState | None = None) -> tuple[Bag, frozenset[int]]:
    """The bag with every piece in it, one piece of each ``equip`` line equipped if its slots are
    free; also the positions (in ``given``) of the pieces that were equipped."""
    equipped: set[int] = set()
    for position, piece in enumerate(given):
        goods = Goods(item=piece.item.ref if piece.item else None,
                      coins=piece.coin.unit.id if piece.coin else None, plain=piece.plain)
        count = piece.count
        if piece.equip and piece.item and _slots_free(ruleset, bag, piece.item, state):
            bag = (*bag, goods.stack(1).model_copy(update={"equipped": True}))
            equipped.add(position)
            count -= 1
        if count:
            bag = put(bag, goods, count, piece.item.stack_limit if piece.item else STANDARD_STACK)
    return bag, frozenset(equipped)


def _slots_free(ruleset: Ruleset, bag: Bag, item: RulesetItem, state: GameState | None) -> bool:
    """ITM-BAG-10: the holder has every slot the item occupies free."""
    block = ruleset.items
    if block is None or not item.item.slots:
        return False
    have = {s.id: s.count for s in block.slots}
    used = dict.fromkeys(have, 0)
    index = items_in(ruleset, state)
    for stack in bag:
        worn = index.by_ref(stack.item) if stack.equipped and stack.item else None
        for slot, n in (worn.item.slots.items() if worn else ()):
            used[slot] = used.get(slot, 0) + n * stack.count
    return all(used.get(slot, 0) + n <= have.get(slot, 0) for slot, n in item.item.slots.items())


def weight_of(ruleset: Ruleset, given: Sequence[Piece]) -> float:
    """ITM-GEAR-09 / ITM-BAG-14: what the pieces weigh (0 without ``carry``, ITM-BLOCK-13)."""
    return bag_weight(item_index(ruleset), tuple(Goods(
        item=p.item.ref if p.item else None, coins=p.coin.unit.id if p.coin else None,
        plain=p.plain).stack(p.count) for p in given))


def carry_unit(ruleset: Ruleset) -> str:
    """ITM-BLOCK-12: `` lb`` after a weight when the ruleset names a unit, else nothing."""
    carry = ruleset.items.carry if ruleset.items else None
    return f" {carry.unit}" if carry and carry.unit else ""


def carry_room(ruleset: Ruleset, member: Character,
               state: GameState | None = None) -> float | None:
    """ITM-GEAR-09 / ITM-BAG-16: what the carrier can still lift under ``limit`` (read from the
    bare sheet, ITM-BLOCK-11); None when nothing limits it."""
    limit = capacity(ruleset, member).limit
    return None if limit is None else limit - load(ruleset, member, state)
