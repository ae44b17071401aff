"""The ``--json`` state summary of SPEC §7 (and SHEET-TRN-06).

``{"place": {...} | null, "party": {NAME: {"bag": {LABEL: COUNT}, "coins": {FAMILY: VALUE}, "pools":
{POOL: VALUE}}}}``: NAME as the transcript spells it, LABEL as the bag shows the stack, counts summed
over stacks of the same label, coin worth in the family's smallest coin.
"""

from __future__ import annotations

from typing import Any

from middleware.items.index import item_index
from middleware.rules.ruleset import Ruleset
from middleware.sheet.summary import pools_summary
from middleware.state import Character, GameState, Stack


def state_summary(ruleset: Ruleset, state: GameState) -> dict[str, Any]:
    """The summary of ``state`` after a candidate."""
    place = state.place.model_dump(mode="json") if state.place else None
    return {"place": place,
            "party": {m.name: _member(ruleset, m) for m in state.party}}


def _member(ruleset: Ruleset, member: Character) -> dict[str, Any]:
    bag: dict[str, int] = {}
    coins: dict[str, int] = {}
    units = _coin_units(ruleset)
    for stack in member.bag:
        label = stack_label(ruleset, stack)
        bag[label] = bag.get(label, 0) + stack.count
        if stack.coins is not None and stack.coins in units:
            family, worth = units[stack.coins]
            coins[family] = coins.get(family, 0) + worth * stack.count
    return {"bag": bag, "coins": coins, "pools": pools_summary(ruleset, member)}


def stack_label(ruleset: Ruleset, stack: Stack) -> str:
    """How the bag shows a stack: a coin by its coin's label, an item by its catalog label."""
    index = item_index(ruleset)
    if stack.coins is not None:
        coin = index.coin(stack.coins)
        return coin.unit.label if coin else stack.coins
    if stack.plain is not None:
        return stack.plain
    name = stack.item or ""
    found = index.by_ref(name)
    return found.label if found else name


def _coin_units(ruleset: Ruleset) -> dict[str, tuple[str, int]]:
    return {c.unit.id: (c.family.id, c.worth) for c in item_index(ruleset).coins}
