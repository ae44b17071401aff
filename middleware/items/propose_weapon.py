"""What an invented weapon fights as (ITM-PROPOSE-14..16).

Combat is out of scope (SPEC §1), but an invented weapon keeps the ``attack`` it would fight with:
``like=`` a weapon copies its attack, which reads the new item's own (capped) stats; a weapon made
in a weapon category without ``like=`` takes the attack of the ruleset weapon of that category
whose name is most like its own, else the first listed, with every stat that attack reads and the
proposal did not give, and the template's slots when the proposal gives none (Ambiguity 18).
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import JsonValue

from middleware.items.index import ItemIndex, RulesetItem
from middleware.names import normalize_name


def weapon_template(index: ItemIndex, category: str, name: str) -> RulesetItem | None:
    """ITM-PROPOSE-16: the category's weapon with the most words shared with ``name`` (a word of
    one name inside the other, so "crossbow" resembles "bow"), ties to the first; else the first
    weapon of the category; None when the category has no weapons."""
    weapons = [i for i in index.items if i.item.category == category
               and i.item.attack is not None and not i.is_service]
    if not weapons:
        return None
    scores = [similarity(name, w.label) for w in weapons]
    best = max(scores)
    return weapons[scores.index(best)] if best > 0 else weapons[0]


def similarity(one: str, other: str) -> int:
    """How many words of either name sit inside the other name, without case."""
    a, b = normalize_name(one), normalize_name(other)
    return sum(word in b for word in a.split()) + sum(word in a for word in b.split())


def stats_read(attack: JsonValue) -> set[str]:
    """ITM-PROPOSE-14/16: the item stats an attack reads (``{"stat": "damage"}`` anywhere)."""
    return set(_stat_refs(attack))


def _stat_refs(node: JsonValue) -> Iterator[str]:
    if isinstance(node, dict):
        stat = node.get("stat")
        if isinstance(stat, str) and len(node) == 1:
            yield stat
        for value in node.values():
            yield from _stat_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _stat_refs(value)
