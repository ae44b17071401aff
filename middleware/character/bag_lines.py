"""What the Game Master reads about each character's bag besides its items (ITM-BAG-17).

One line per character, each part only where the ruleset has the rule behind it:

``Ada: load 5 lb (encumbered above 10 lb, limit 12 lb); slots Body 1 of 1, Hands 1 of 2;
equipped Leather coat, Hand axe; Bound 1 of 2: Dawn bell``

- the load, with ``carry.unit`` after each number (ITM-BLOCK-12), against ``encumberedAbove`` and
  ``limit`` read from the bare sheet, and ``encumbered`` when it is over (ITM-BAG-14);
- the slots each character has and how many are taken (ITM-BAG-10), and what is equipped;
- the binding (by the block's own label), how many pieces are bound of ``binding.max`` and which
  (ITM-BAG-12). A fake is named as what it passes for (ITM-FAKE-07).

A pure function of the ruleset and the state, for the proxy to put in the prompt beside the item
lines (``describe.gm_item_line``) and the purse (``money.purse_lines``).
"""

from __future__ import annotations

import math

from middleware.character.check import view_for
from middleware.character.summary import label_of
from middleware.items.carry import capacity, encumbered, load
from middleware.items.index import ItemIndex
from middleware.items.lookup import items_in
from middleware.rules.items import ItemsBlock
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack


def bag_status_lines(ruleset: Ruleset, state: GameState) -> list[str]:
    """ITM-BAG-17: one status line per party member, in party order."""
    return [bag_status(ruleset, state, member) for member in state.party]


def bag_status(ruleset: Ruleset, state: GameState, member: Character) -> str:
    """ITM-BAG-17: ``member``'s load, slots, what is equipped and what is bound."""
    block = ruleset.items
    if block is None:
        return f"{member.name}: no ruleset items"
    index = items_in(ruleset, state)
    parts = [_load(ruleset, state, member, block), _slots(index, member.bag, block),
             _equipped(index, member.bag, block), _bound(ruleset, index, member, block)]
    shown = [p for p in parts if p]
    return f"{member.name}: {'; '.join(shown) if shown else 'nothing to track'}"


def _load(ruleset: Ruleset, state: GameState, member: Character, block: ItemsBlock) -> str | None:
    if block.carry is None:
        return None  # ITM-BLOCK-13: without carry weight means nothing
    unit = f" {block.carry.unit}" if block.carry.unit else ""
    room = capacity(ruleset, member)
    bounds = [f"encumbered above {_number(room.encumbered_above)}{unit}"
              if room.encumbered_above is not None else None,
              f"limit {_number(room.limit)}{unit}" if room.limit is not None else None]
    text = f"load {_number(load(ruleset, member, state))}{unit}"
    text += f" ({', '.join(b for b in bounds if b)})" if any(bounds) else ""
    return text + (", encumbered" if encumbered(ruleset, member, state) else "")


def _slots(index: ItemIndex, bag: tuple[Stack, ...], block: ItemsBlock) -> str | None:
    if not block.slots:
        return None
    taken: dict[str, int] = {}
    for stack in bag:
        found = index.by_ref(stack.item) if stack.equipped and stack.item else None
        for slot, n in (found.item.slots.items() if found else ()):
            taken[slot] = taken.get(slot, 0) + n * stack.count
    return "slots " + ", ".join(f"{s.label} {taken.get(s.id, 0)} of {s.count}"
                                for s in block.slots)


def _equipped(index: ItemIndex, bag: tuple[Stack, ...], block: ItemsBlock) -> str | None:
    if not block.slots:
        return None
    names = [_named(index, s) for s in bag if s.equipped]
    return f"equipped {', '.join(names)}" if names else "nothing equipped"


def _bound(ruleset: Ruleset, index: ItemIndex, member: Character,
           block: ItemsBlock) -> str | None:
    if block.binding is None:
        return None
    most = max(0, math.floor(view_for(ruleset, member).static.ref(block.binding.max)))
    bound = [s for s in member.bag if s.bound]
    count = sum(s.count for s in bound)
    names = ": " + ", ".join(_named(index, s) for s in bound) if bound else ""
    return f"{block.binding.label} {count} of {most}{names}"


def _named(index: ItemIndex, stack: Stack) -> str:
    label = label_of(index, stack)
    return label if stack.count == 1 else f"{label} ×{stack.count}"


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
