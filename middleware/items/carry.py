"""Weight, load, encumbrance and the shared view's carry rule (ITM-BAG-14..16, ITM-MONEY-02).

- An item weighs the value of its ``carry.stat`` (an item without it weighs nothing); a coin weighs
  ``1 / perWeight`` (a family without ``perWeight`` weighs nothing); a plain item weighs nothing
  (it has no stats). Without a ``carry`` block nothing weighs anything (ITM-BLOCK-13).
- ``encumberedAbove`` and ``limit`` are read from the holder's sheet without current state or items
  (ITM-BLOCK-11: the static view); a character without a sheet reads a blank one.
- ``distribute`` is the shared view (ITM-BAG-15/16, Ambiguity 8): the whole lot to the first
  character who stays unencumbered (player first, then the party in order); otherwise each fills
  their room below ``encumberedAbove`` in that order, then their room below ``limit``; with a member
  who has no ``limit`` the rest goes to the first such member; whatever is left stays behind.

Given the game's ``state``, an item the Game Master invented weighs its own ``carry.stat`` like a
catalog item (ITM-PROPOSE-13, through ``items_in``); without it only catalog items are known.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from middleware.cache import IdentityCache
from middleware.items.bag import Bag, Goods, per_stack
from middleware.items.index import ItemIndex
from middleware.items.lookup import items_in
from middleware.rules.ruleset import Ruleset
from middleware.sheet.view import bare_view
from middleware.state import Character, GameState

_EPSILON = 1e-9
"""Loads are sums of fractions (a coin weighs 1/100): compare with a little slack."""

_Room = Callable[[int], int | None]
"""A member's room, in pieces, by party index (None: no bound)."""


@dataclass(frozen=True, slots=True)
class Capacity:
    """What a character may carry: unencumbered up to ``encumbered_above``, never past ``limit``.

    None means no bound (no ``carry`` block, or no ``limit``).
    """

    encumbered_above: float | None
    limit: float | None


@dataclass(frozen=True, slots=True)
class Share:
    """How many pieces one party member (by index) takes from a distributed lot."""

    index: int
    count: int


def piece_weight(index: ItemIndex, goods: Goods) -> float:
    """ITM-BAG-14 / ITM-MONEY-02: the weight of one piece of ``goods``."""
    carry = index.block.carry if index.block else None
    if carry is None:
        return 0.0
    if goods.coins is not None:
        coin = index.coin(goods.coins)
        per = coin.family.per_weight if coin else None
        return 1.0 / per if per else 0.0
    found = index.by_ref(goods.item) if goods.item else None
    value = found.item.stats.get(carry.stat) if found else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return max(0.0, float(value))


def bag_weight(index: ItemIndex, bag: Bag) -> float:
    """The weight of every piece in ``bag`` (worked out once per index and bag: both are frozen,
    and one trade asks for the same bag's weight several times). Each stack's weight is kept with
    the bag (``per_stack``: a changed bag weighs only its new stacks); ``sum`` adds them in bag
    order, so the total is the very float a stack-by-stack sum gives."""
    return _WEIGHTS.get((index, bag), None, lambda: sum(per_stack(
        bag, "weight", lambda s: piece_weight(index, Goods.of(s)) * s.count, (index,))))


_WEIGHTS: IdentityCache[float] = IdentityCache(512)


def load(ruleset: Ruleset, character: Character, state: GameState | None = None) -> float:
    """ITM-BAG-14: a character's load is the weight of their bag (invented items read from
    ``state``, ITM-PROPOSE-13)."""
    return bag_weight(items_in(ruleset, state), character.bag)


def capacity(ruleset: Ruleset, character: Character) -> Capacity:
    """ITM-BAG-14: ``encumberedAbove`` and ``limit`` read from the holder's bare sheet."""
    carry = ruleset.items.carry if ruleset.items else None
    if carry is None:
        return Capacity(None, None)
    view = bare_view(ruleset, character)  # the build alone: the bag is never read here
    limit = view.ref(carry.limit) if carry.limit is not None else None
    return Capacity(view.ref(carry.encumbered_above), limit)


def encumbered(ruleset: Ruleset, character: Character, state: GameState | None = None) -> bool:
    """Carrying more than ``encumberedAbove`` (never, without a ``carry`` block)."""
    bound = capacity(ruleset, character).encumbered_above
    return bound is not None and load(ruleset, character, state) > bound + _EPSILON


def fits(ruleset: Ruleset, character: Character, extra: float,
         state: GameState | None = None) -> bool:
    """ITM-BAG-16: ``extra`` more weight keeps the character within their ``limit``."""
    limit = capacity(ruleset, character).limit
    return extra <= 0 or limit is None or \
        load(ruleset, character, state) + extra <= limit + _EPSILON


def room_for(weight: float, bound: float | None, current: float) -> int | None:
    """How many pieces of ``weight`` fit below ``bound`` (None: any number)."""
    if bound is None or weight <= 0:
        return None
    return max(0, math.floor((bound - current) / weight + _EPSILON))


def distribute(ruleset: Ruleset, state: GameState, goods: Goods, count: int) -> list[Share]:
    """ITM-BAG-15/16: who takes how many of ``count`` pieces added to the shared view.

    Pieces nobody can take are not in any share (the caller tells the GM they stay behind).
    """
    order = _carry_order(state)
    weight = piece_weight(items_in(ruleset, state), goods)
    if not order:
        return []
    if weight <= 0:
        return [Share(order[0], count)]  # weighs nothing: changes nobody's load
    loads = {i: load(ruleset, state.party[i], state) for i in order}
    caps = {i: capacity(ruleset, state.party[i]) for i in order}
    for i in order:
        room = room_for(weight, caps[i].encumbered_above, loads[i])
        if room is None or room >= count:
            return [Share(i, count)]
    taken: dict[int, int] = dict.fromkeys(order, 0)
    left = _fill(order, taken, count, lambda i: room_for(weight, caps[i].encumbered_above,
                                                          loads[i]))
    left = _fill(order, taken, left, lambda i: room_for(weight, caps[i].limit, loads[i]))
    return [Share(i, n) for i, n in taken.items() if n > 0]


def _fill(order: list[int], taken: dict[int, int], left: int, room: _Room) -> int:
    """Give each member, in order, as many pieces as ``room`` says they still have space for."""
    for i in order:
        if left <= 0:
            break
        space = room(i)
        free = left if space is None else max(0, space - taken[i])
        moved = min(free, left)
        taken[i] += moved
        left -= moved
    return left


def _carry_order(state: GameState) -> list[int]:
    """ITM-BAG-15: the player first, then the party in order."""
    player = state.player_index
    if player is None:
        return []
    return [player, *(i for i in range(len(state.party)) if i != player)]

