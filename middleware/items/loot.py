"""Loot tables drawn through the dice seam (ITM-LOOT-03..08, -15, -16; SPEC §5).

A table is drawn ``rolls`` times; each draw is, in this order of throws:

1. one throw of a die with as many sides as the table's total ``weight`` picks the entry
   (``Dice.pick_weighted``, ITM-LOOT-05);
2. a ``filter`` entry then throws a dN to pick uniformly among the N items that match it, in
   catalog order (ITM-LOOT-06);
3. the entry's ``count`` is thrown when it is dice (ITM-LOOT-07).

An entry that yields nothing (an item or coin a layer removed, a filter matching nothing,
ITM-LOOT-08) throws no further dice, so scripted faces decide every drop exactly. ``rolls`` is held
to 0..20 and a count to 0..10,000 however the dice fall (SPEC §8); a count of 0 drops nothing.

``draw_table`` is pure given the dice: ``[loot:]`` throws the candidate's dice, a seller's daily
``stock`` throws the market day's (ITM-LOOT-16, ITM-DAY-07, which keeps only the items).
Services never match a filter: they are bought, never carried (ITM-ENTRY-09); an ``item`` entry
naming one still drops it, and delivering it is refused as an add would be.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from middleware.dice import Dice
from middleware.items.bag import Goods
from middleware.items.index import ItemIndex, RulesetItem, item_index
from middleware.names import normalize_name
from middleware.rules.item_entry import Item
from middleware.rules.items_money import Amount, ItemFilter, LootEntry, LootTable
from middleware.rules.ruleset import Ruleset

MAX_ROLLS = 20
"""ITM-LOOT-04: a table is drawn 0 to 20 times; dice that throw more are held to 20."""

MAX_COUNT = 10_000
"""SPEC §8: pieces of one drop are bounded like an inventory count."""


@dataclass(frozen=True, slots=True)
class Drop:
    """What one draw gave: ``count`` pieces of a ruleset item (``item``, a ``<catalog>/<entry>``
    ref) or of a coin (``coins``, a coin id); ``entry`` is the table entry it came from."""

    entry: int
    count: int
    item: str | None = None
    coins: str | None = None

    @property
    def goods(self) -> Goods:
        """The goods a bag stores this drop as."""
        return Goods(item=self.item, coins=self.coins)


@dataclass(frozen=True, slots=True)
class Draw:
    """A whole table drawn: how many draws were made and the drops, in draw order."""

    rolls: int
    drops: tuple[Drop, ...]


def loot_tables(ruleset: Ruleset) -> tuple[LootTable, ...]:
    """ITM-LOOT-03: the ruleset's tables (none without an ``items`` block)."""
    return ruleset.items.loot_tables if ruleset.items is not None else ()


def find_table(ruleset: Ruleset, name: str) -> LootTable | None:
    """A table by id or label, without case, accents or punctuation (Ambiguity 27)."""
    key = normalize_name(name)
    if not key:
        return None
    return next((t for t in loot_tables(ruleset) if key in (normalize_name(t.id), normalize_name(t.label))),
                None)


def draw_table(ruleset: Ruleset, table: LootTable, dice: Dice,
               removed: frozenset[str] = frozenset()) -> list[Drop]:
    """ITM-LOOT-04..08: the drops of one drawing of ``table``; ``removed`` holds the item refs and
    coin ids a layer took out of the game."""
    return list(draw(ruleset, table, dice, removed).drops)


def draw(ruleset: Ruleset, table: LootTable, dice: Dice,
         removed: frozenset[str] = frozenset()) -> Draw:
    """``draw_table`` with the number of draws made (ITM-LOOT-04)."""
    index = item_index(ruleset)
    rolls = throw_amount(table.rolls, dice, MAX_ROLLS)
    weights = [entry.weight for entry in table.entries]
    drops = (_draw_once(index, table, weights, dice, removed) for _ in range(rolls))
    return Draw(rolls, tuple(d for d in drops if d is not None))


def throw_amount(amount: Amount, dice: Dice, most: int) -> int:
    """A number as written, or ``NdS`` thrown and summed; held to 0..``most``."""
    if isinstance(amount, int):
        return max(0, min(most, amount))
    number, sides = (int(part) for part in amount.strip().lower().split("d"))
    if number <= 0 or sides <= 0:
        return 0
    return min(most, sum(dice.throw_many(number, sides)))


def matching(index: ItemIndex, wanted: ItemFilter,
             removed: frozenset[str] = frozenset()) -> tuple[RulesetItem, ...]:
    """ITM-LOOT-06/08: every item of the catalogs the filter selects, in catalog order, without
    services and without what a layer removed."""
    return tuple(i for i in index.items
                 if selects(wanted, i.item) and not i.is_service and i.ref not in removed)


def selects(wanted: ItemFilter, item: Item) -> bool:
    """The item has every rarity, category and tag the filter names."""
    return (wanted.rarity is None or wanted.rarity == item.rarity) \
        and (wanted.category is None or wanted.category == item.category) \
        and (wanted.tag is None or wanted.tag in item.tags)


def _draw_once(index: ItemIndex, table: LootTable, weights: list[int], dice: Dice,
               removed: frozenset[str]) -> Drop | None:
    """One draw: the weighted entry, then its item or coin, then its count."""
    number = dice.pick_weighted(weights)
    entry = table.entries[number]
    source = _source(index, entry, dice, removed)
    if source is None:
        return None
    count = throw_amount(entry.count, dice, MAX_COUNT)
    if count <= 0:
        return None
    return Drop(number, count, *source)


def _source(index: ItemIndex, entry: LootEntry, dice: Dice,
            removed: frozenset[str]) -> tuple[str | None, str | None] | None:
    """(item ref, coin id) of an entry, or None when it yields nothing (ITM-LOOT-08)."""
    if entry.item is not None:
        found = index.by_ref(entry.item)
        return (found.ref, None) if found is not None and found.ref not in removed else None
    if entry.coins is not None:
        coin = index.coin(entry.coins)
        return (None, coin.unit.id) if coin is not None and coin.unit.id not in removed else None
    if entry.filter is None:
        return None
    found_all = matching(index, entry.filter, removed)
    if not found_all:
        return None
    return found_all[dice.throw(len(found_all)) - 1].ref, None


def loot_instructions(ruleset: Ruleset) -> str | None:
    """ITM-LOOT-15: how the GM draws loot, listing the ruleset's tables; None without tables."""
    tables = loot_tables(ruleset)
    if not tables:
        return None
    listed = ", ".join(f"{t.id} ({t.label})" for t in tables)
    return ('Loot: draw from a table with [loot: table="<table>" who="Name"] (without who= the '
            "loot is shared by the carry rule); the engine throws the dice and adds what falls. "
            f"Tables: {listed}.")


def merged(drops: Iterable[Drop]) -> list[tuple[Goods, int]]:
    """The drops summed by goods, in the order each first fell (one add per kind, ITM-LOOT-14)."""
    counts: dict[Goods, int] = {}
    for drop in drops:
        counts[drop.goods] = counts.get(drop.goods, 0) + drop.count
    return list(counts.items())
