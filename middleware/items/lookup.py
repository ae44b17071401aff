"""What an item name or a stored ref means in one game: ruleset items, then invented ones.

Every reader of a game's bags takes its items from ``items_in(ruleset, state)``: the ruleset's
``ItemIndex`` seen with the game's invented items (``ItemIndex.with_invented``), so an item the Game
Master invented works everywhere a catalog item does (ITM-PROPOSE-13): weight, slots, binding,
labels, ``itemStat`` and worn or carried effects. It comes back as a ``RulesetItem`` whose catalog
is ``invented``. Ruleset items always win (ITM-BAG-03/04, ITM-PROPOSE-11).
"""

from __future__ import annotations

from middleware.items.index import ItemIndex, RulesetItem, as_item, item_index
from middleware.names import normalize_name
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, InventedItem


def items_in(ruleset: Ruleset, state: GameState | None) -> ItemIndex:
    """ITM-PROPOSE-13: the items of ``ruleset`` as the game in ``state`` knows them (without a
    state, the ruleset's own index); cached per ruleset and per tuple of inventions."""
    index = item_index(ruleset)
    return index.with_invented(state.invented) if state is not None else index


def find_item(ruleset: Ruleset, state: GameState | None, name: str) -> RulesetItem | None:
    """The item a name or ref means: a ruleset item (ref or label, first listed wins), else an
    item invented in this game (ref or name); None when neither knows it."""
    return items_in(ruleset, state).find(name)


def find_invented(state: GameState, name: str) -> InventedItem | None:
    """ITM-PROPOSE-13: the invention stored under this ref or name, without case or accents."""
    key = normalize_name(name)
    return next((i for i in state.invented if i.ref == name or normalize_name(i.label) == key), None)


def as_ruleset_item(invented: InventedItem) -> RulesetItem:
    """The invented item in the shape every item reader takes."""
    return as_item(invented)


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
