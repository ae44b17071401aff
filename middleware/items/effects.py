"""What a character's bag does to their sheet and checks (ITM-SHEET-01..11, ITM-CHECK-01..15).

``held_items`` reads one character's bag against the ruleset's items and the items the Game Master
invented (``find_item``: catalog first, then ``GameState.invented``) and gives ``HeldItems``, the
real implementation of the sheet's ``ItemEffects`` seam (``middleware/sheet/evaluate.py``):

- ``stat``: an ``itemStat`` read over the stacks (ITM-SHEET-02..06, -10);
- ``ability_changes``: ``worn``/``carried`` ``abilities``, each item once (ITM-CHECK-05/06);
- ``sources``: the check sources an item adds beside conditions and levels: its ``worn`` effect
  while worn, its ``carried`` effect while merely carried, and the ``otherwise`` of each unmet
  ``requires`` of a worn item, read on the sheet after the items' attribute changes
  (ITM-CHECK-02/07..10). One item counts once however many stacks of it are held.

Coins and plain items are never read (ITM-SHEET-10). Worn (ITM-SHEET-02 / ITM-CHECK-02): a stack of an
item with slots while equipped, of an item that binds while bound, both while both; an item with
neither is never worn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from middleware.items.index import RulesetItem
from middleware.items.lookup import find_item
from middleware.rules.item_entry import Item, ItemEffect
from middleware.rules.refs import ItemStat
from middleware.sheet.reading import SheetReader
from middleware.state import Character, GameState, Stack

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class HeldStack:
    """One stack of a ruleset (or invented) item in a bag: the item, its name, pieces, worn."""

    key: str
    name: str
    item: Item
    count: int
    worn: bool


def is_worn(item: Item, stack: Stack) -> bool:
    """ITM-SHEET-02 / ITM-CHECK-02: equipped if it takes slots, bound if it binds, never without
    either."""
    if not item.slots and item.binds is None:
        return False
    return (not item.slots or stack.equipped) and (item.binds is None or stack.bound)


@dataclass(frozen=True, slots=True)
class HeldItems:
    """The items one character holds, as the sheet reads them (``ItemEffects``): every stack for
    ``itemStat``, and ``items``, one entry per item, for effects (build it with ``held_items``)."""

    stacks: tuple[HeldStack, ...]
    items: tuple[HeldStack, ...]

    # ITM-SHEET: itemStat
    def stat(self, ref: ItemStat) -> float | None:
        """ITM-SHEET-02..06: the read, or None for the reference's ``default``."""
        chosen = [s for s in self.stacks if _selected(s, ref)]
        if ref.pick == "count":
            counted = [s.count for s in chosen if ref.stat is None or ref.stat in s.item.stats]
            return float(sum(counted)) if counted else None
        values = [(_number(s.item.stats.get(ref.stat or "")), s.count) for s in chosen]
        given = [(value, count) for value, count in values if value is not None]
        if not given:
            return None
        if ref.pick == "sum":
            return sum(value * count for value, count in given)
        numbers = [value for value, _ in given]
        return max(numbers) if ref.pick == "max" else min(numbers)

    # ITM-CHECK-05/06: attributes
    def ability_changes(self, ability: str) -> tuple[float, float | None]:
        """The sum of every ``add`` and the highest ``set`` on ``ability`` (SHEET-ABL-03)."""
        adds = 0.0
        floor: float | None = None
        for _, effect in self._effects():
            change = effect.abilities.get(ability)
            if change is None:
                continue
            adds += change.add or 0.0
            if change.set is not None:
                floor = change.set if floor is None else max(floor, change.set)
        return adds, floor

    # ITM-CHECK-01..10: sources on a check
    def sources(self, view: SheetReader) -> Iterator[tuple[str, ItemEffect]]:
        """Each item's worn or carried effect, then the ``otherwise`` of its unmet requirements
        (worn items only, ITM-CHECK-08..10; Ambiguity 21)."""
        yield from self._effects()
        for held in self.items:
            for need in held.item.requires if held.worn else ():
                if view.ref(need.value) < need.at_least:
                    yield held.name, need.otherwise

    def _effects(self) -> Iterator[tuple[str, ItemEffect]]:
        for held in self.items:
            effect = held.item.worn if held.worn else held.item.carried
            if effect is not None:
                yield held.name, effect


def held_items(ruleset: Any, character: Character, state: GameState | None = None
               ) -> HeldItems:
    """ITM-SHEET-09: the items in ``character``'s own bag, read against ``ruleset``'s catalogs and,
    given the ``state``, the items the Game Master invented in it (ITM-PROPOSE-13)."""
    stacks = []
    for stack in character.bag:
        found = _find(ruleset, state, stack.really or stack.item) if stack.item else None
        if found is not None:  # ITM-FAKE-10: a fake does what it really does, under its shown name
            shown = _find(ruleset, state, stack.item) if stack.really and stack.item else found
            name = stack.nickname or (shown or found).label
            stacks.append(HeldStack(found.ref, name, found.item, stack.count,
                                    is_worn(found.item, stack)))
    return HeldItems(tuple(stacks), _once(tuple(stacks)))


def _find(ruleset: Any, state: GameState | None, ref: str) -> RulesetItem | None:
    """A stack's item (ITM-BAG-01/03); a ruleset without an items block holds none."""
    if getattr(ruleset, "items", None) is None:
        return None
    return find_item(cast("Ruleset", ruleset), state, ref)


def _once(stacks: tuple[HeldStack, ...]) -> tuple[HeldStack, ...]:
    """ITM-CHECK-07 / SHEET-ABL-03: one entry per item; worn when any stack of it is worn (the
    first worn stack's name), else the first stack's."""
    first: dict[str, HeldStack] = {}
    for held in stacks:
        seen = first.get(held.key)
        if seen is None or (held.worn and not seen.worn):
            first[held.key] = held
    return tuple(first.values())


def _selected(held: HeldStack, ref: ItemStat) -> bool:
    """ITM-SHEET-02/05: ``from`` and the ``slot``/``category``/``tag`` filters."""
    if ref.from_ != "all" and held.worn != (ref.from_ == "worn"):
        return False
    item = held.item
    return ((ref.slot is None or item.slots.get(ref.slot, 0) > 0)
            and (ref.category is None or item.category == ref.category)
            and (ref.tag is None or ref.tag in item.tags))


def _number(value: object) -> float | None:
    """A number stat's value; text, dice and booleans give nothing to sum (ITM-SHEET-04)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
