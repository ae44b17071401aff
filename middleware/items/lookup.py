"""What an item name or a stored ref means in one game: ruleset items, then invented ones.

Bags, checks and uses read items through ``find_item`` so that an item the Game Master invented
works everywhere a catalog item does (ITM-PROPOSE-13): it comes back as a ``RulesetItem`` whose
catalog is ``invented``. Ruleset items always win (ITM-BAG-03/04, ITM-PROPOSE-11).
"""

from __future__ import annotations

from middleware.items.index import RulesetItem, item_index, name_key
from middleware.items.invented import INVENTED_CATALOG, InventedItem
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState


def find_item(ruleset: Ruleset, state: GameState | None, name: str) -> RulesetItem | None:
    """The item a name or ref means: a ruleset item (ref or label, first listed wins), else an
    item invented in this game (ref or name); None when neither knows it."""
    found = item_index(ruleset).find(name)
    if found is not None or state is None:
        return found
    invented = find_invented(state, name)
    return as_ruleset_item(invented) if invented is not None else None


def find_invented(state: GameState, name: str) -> InventedItem | None:
    """ITM-PROPOSE-13: the invention stored under this ref or name, without case or accents."""
    key = name_key(name)
    return next((i for i in state.invented if i.ref == name or name_key(i.label) == key), None)


def as_ruleset_item(invented: InventedItem) -> RulesetItem:
    """The invented item in the shape every item reader takes."""
    item = invented.entry.item
    assert item is not None, "an invented entry always holds an item"
    return RulesetItem(invented.ref, INVENTED_CATALOG, invented.entry, item)


def remember(state: GameState, invented: InventedItem) -> GameState:
    """The state with ``invented`` kept for the rest of the game (ITM-PROPOSE-13); an item
    already stored under that ref is left as it was."""
    if any(i.ref == invented.ref for i in state.invented):
        return state
    return state.model_copy(update={"invented": (*state.invented, invented)})


def forget_unheld(state: GameState) -> GameState:
    """ITM-PROPOSE-13: a new session keeps an invention only while someone still holds it."""
    held = {stack.item for member in state.party for stack in member.bag if stack.item}
    kept = tuple(i for i in state.invented if i.ref in held)
    return state if kept == state.invented else state.model_copy(update={"invented": kept})
