"""An item's charges as they live on its stack (ITM-USE-07..09/12..15, ITM-BAG-18).

Charges belong to one item, so an item with ``charges`` always sits alone in its stack. The stack
stores what is left; ``None`` means full (an item nobody used is full), so a stack that comes back to
full drops the number again, like a full pool (SHEET-STORE-02). Everything here is pure: a stack in,
a new stack out; every die goes through the ``Dice`` seam.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from middleware.dice import Dice
from middleware.items.index import RulesetItem
from middleware.rules.item_entry import DiceAmount, Item, StatRef
from middleware.state import Stack

_DICE = re.compile(r"\s*(\d{1,3})\s*[dD]\s*(\d{1,4})\s*")
"""``NdS`` as the ruleset writes dice (checked at import, so N and S are small)."""

Find = Callable[[str], RulesetItem | None]
"""What an item ref or name means in this game (``items.lookup.find_item`` bound to a state)."""

MAX_CHARGES = 100
"""ITM-USE-08: the most charges an item holds, however high the stat it reads."""


@dataclass(frozen=True, slots=True)
class Recharged:
    """ITM-USE-14: what one item stands at after a rest, e.g. ``Dawn bell 3/3 charges``."""

    label: str
    left: int
    max: int

    def __str__(self) -> str:
        return f"{self.label} {self.left}/{self.max} charges"


def capacity(item: Item) -> int | None:
    """ITM-USE-08: ``charges.max`` written or read from the item's own number stat, held to
    1..100; None for an item without charges (or whose stat gives no number)."""
    if item.charges is None:
        return None
    top = item.charges.max
    if isinstance(top, StatRef):
        value = item.stats.get(top.stat)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return min(max(int(value), 1), MAX_CHARGES)
    return top


def left(stack: Stack, item: Item) -> int:
    """ITM-USE-09: what the stack has left; absent is full; 0 for an item without charges."""
    top = capacity(item)
    if top is None:
        return 0
    return top if stack.charges is None else min(max(stack.charges, 0), top)


def with_left(stack: Stack, item: Item, count: int) -> Stack:
    """The stack holding ``count`` charges (held to 0..max; full is stored as absent)."""
    top = capacity(item) or 0
    count = min(max(count, 0), top)
    return stack.model_copy(update={"charges": None if count >= top else count})


def cost(item: Item) -> int:
    """ITM-USE-07/08: the charges one use spends; an item's charges are always spent by its use,
    one when the use names no number."""
    if item.charges is None or item.use is None or item.use.consumes:
        return 0
    return item.use.charges if item.use.charges is not None else 1


def breaks(item: Item, dice: Dice) -> tuple[bool, int | None]:
    """ITM-USE-15: after the last charge is spent, a dD; K or less and the item breaks.
    Returns (broken, the face thrown or None when the item never breaks)."""
    rule = item.charges.breaks_on if item.charges else None
    if rule is None:
        return False, None
    face = dice.throw(rule.die)
    return face <= rule.at_most, face


def roll_amount(amount: DiceAmount | None, dice: Dice) -> int:
    """An amount as items write it (``{dice, flat}``): the dice thrown plus the flat, at least 0."""
    if amount is None:
        return 0
    match = _DICE.fullmatch(amount.dice or "")
    sides = int(match[2]) if match else 0
    thrown = sum(dice.throw_many(int(match[1]), sides)) if match and sides >= 1 else 0
    return max(thrown + (amount.flat or 0), 0)


def recharge_stack(stack: Stack, item: Item, rest_id: str, dice: Dice) -> Stack | None:
    """ITM-USE-12: the stack after rest ``rest_id``, or None when its recharge does not name it.
    ``"max"`` refills; an amount restores that many, never above ``max``."""
    rule = item.charges.recharge if item.charges else None
    if rule is None or rest_id not in rule.rests:
        return None
    if rule.amount == "max":
        return with_left(stack, item, capacity(item) or 0)
    return with_left(stack, item, left(stack, item) + roll_amount(rule.amount, dice))


def recharge_bag(find: Find, bag: Sequence[Stack], rest_id: str,
                 dice: Dice) -> tuple[tuple[Stack, ...], tuple[Recharged, ...]]:
    """ITM-USE-13/14, SHEET-REST-08: every carried item whose recharge names the rest, in bag
    order, and what each stands at after it. ``find`` reads a stack's item ref (ruleset items
    and, through ``items.lookup.find_item``, invented ones: ITM-PROPOSE-18)."""
    stacks: list[Stack] = []
    reports: list[Recharged] = []
    for stack in bag:
        found = find(stack.item) if stack.item else None
        after = recharge_stack(stack, found.item, rest_id, dice) if found else None
        if found is None or after is None:
            stacks.append(stack)
            continue
        stacks.append(after)
        reports.append(Recharged(found.label, left(after, found.item),
                                 capacity(found.item) or 0))
    return tuple(stacks), tuple(reports)


def charges_note(stack: Stack, item: Item) -> str:
    """ITM-USE-14: ``2 of 3 charges left``."""
    return f"{left(stack, item)} of {capacity(item) or 0} charges left"
