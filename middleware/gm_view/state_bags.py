"""The state block's bag parts: every stack as the Game Master reads it, each bag's status and
each purse (ITM-ENTRY-18/19/22, ITM-USE-14, ITM-BAG-16/17, ITM-MONEY-05/06, ITM-FAKE-08/13).

A ruleset or invented item is its ``gm_item_line`` (category, rarity, tags, visible stats, cost,
worn and carried effects, use, charges left), with ``equipped``/``bound`` and, for a fake, the truth
(``gm_note``); coins by their coin's name; a plain item by its name. Then ``bag_status_lines``
(load, slots, what is equipped and bound) and ``purse_lines``, the existing writers.
"""

from __future__ import annotations

from middleware.cache import IdentityCache
from middleware.character.bag_lines import bag_status_lines
from middleware.character.summary import label_of
from middleware.gm_view.parts import safe
from middleware.items.describe import gm_item_line
from middleware.items.index import ItemIndex, RulesetItem
from middleware.items.lookup import items_in
from middleware.items.money import purse_lines
from middleware.items.words import Words, words_of
from middleware.resolve.inventory.fakes.goods import gm_note
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, Stack


def bag_lines(ruleset: Ruleset, state: GameState) -> list[str]:
    """Each member's bag: a heading line, then one line per stack (``(empty)`` for none)."""
    index = items_in(ruleset, state)
    words = words_of(ruleset)
    lines: list[str] = []
    for member in state.party:
        lines.append(f"{safe(member.name)} carries:")
        lines += [f"- {_stack(ruleset, index, words, s)}" for s in member.bag] or ["- (empty)"]
    return lines


def status_lines(ruleset: Ruleset, state: GameState) -> list[str]:
    """ITM-BAG-17: load, slots, equipped and bound, one line per member (none without items)."""
    if ruleset.items is None:
        return []
    return [safe(line) if "[" in line else line for line in bag_status_lines(ruleset, state)]


def purse_text(ruleset: Ruleset, state: GameState) -> list[str]:
    """ITM-MONEY-05: ``Ada: Purse worth 330 coppers`` per bag the Game Master sees."""
    return [f"{safe(name)}: {line}" for name, line in purse_lines(ruleset, state)]


def _stack(ruleset: Ruleset, index: ItemIndex, words: Words, stack: Stack) -> str:
    flags = [w for w, on in (("equipped", stack.equipped), ("bound", stack.bound)) if on]
    tail = f" ({', '.join(flags)})" if flags else ""
    note = gm_note(ruleset, stack)
    return f"{stack.count} × {_goods(index, words, stack)}{tail}" + (f" {note}" if note else "")


def _goods(index: ItemIndex, words: Words, stack: Stack) -> str:
    if stack.item is not None:
        found = index.by_ref(stack.item) or index.find(stack.item)
        if found is not None:
            return _item_line(found, index, words, stack.charges)
        return safe(stack.item)
    if stack.coins is not None:
        coin = index.coin(stack.coins)
        return coin.name_for(stack.count) if coin else safe(stack.coins)
    return safe(label_of(index, stack))


_LINES: IdentityCache[str] = IdentityCache(4096)


def _item_line(found: RulesetItem, index: ItemIndex, words: Words, charges: int | None) -> str:
    """``gm_item_line``, worked out once per item object, words and charges left."""
    return _LINES.get((found, index, words), charges,
                      lambda: gm_item_line(found, index, words, charges=charges))
