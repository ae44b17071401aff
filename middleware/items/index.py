"""Every ruleset item and coin by the names the Game Master and the bags use (ITM-BAG-01..09).

Built once per ruleset (``item_index``) and read by bags, money, loot and the market:

- items by catalog ref ``<catalog>/<entry>`` and by label, without case, accents or punctuation;
  two items sharing a label resolve to the one listed first in the catalogs (ITM-BAG-03/04);
- stack limits: ``stack``, or the standard capacity; an item with charges sits alone (ITM-ENTRY-06);
- services, which are bought but never carried (ITM-ENTRY-09, ITM-BAG-09);
- coins by id, plural ``label`` or singular ``one`` (ITM-MONEY-08, ITM-BLOCK-18);
- the block's switches ``freeform``, ``native``, ``propose`` (ITM-BLOCK-22..24).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from middleware.rules.catalogs import CatalogEntry
from middleware.rules.item_entry import Item
from middleware.rules.items import ItemsBlock
from middleware.rules.items_money import CoinUnit, Currency
from middleware.rules.ruleset import Ruleset
from middleware.state import normalize_name

STANDARD_STACK = 999_999
"""ITM-ENTRY-06: what a stack holds without ``stack``. The page names no number for Game Mode's
standard capacity; we take the largest ``stack`` a ruleset may declare (our choice)."""


@dataclass(frozen=True, slots=True)
class RulesetItem:
    """One entry of an item catalog, with the ref bags store it under (ITM-BAG-01)."""

    ref: str
    catalog: str
    entry: CatalogEntry
    item: Item

    @property
    def label(self) -> str:
        """ITM-ENTRY-02: the entry's label is the item's name."""
        return self.entry.label

    @property
    def is_service(self) -> bool:
        """ITM-ENTRY-09: bought like an item, never carried."""
        return self.item.service

    @property
    def stack_limit(self) -> int:
        """ITM-ENTRY-06 / ITM-BAG-05: the most one stack holds (1 for an item with charges)."""
        if self.item.charges is not None:
            return 1
        return self.item.stack if self.item.stack is not None else STANDARD_STACK


@dataclass(frozen=True, slots=True)
class Coin:
    """A coin and its family (ITM-BLOCK-14..18)."""

    family: Currency
    unit: CoinUnit

    def name_for(self, count: int) -> str:
        """ITM-MONEY-17: ``one`` for a single piece when declared, else ``label``."""
        return self.unit.name_for(count)

    @property
    def worth(self) -> int:
        """ITM-BLOCK-15: the coin's value in the family's smallest coin."""
        return self.unit.value


@dataclass(frozen=True, slots=True)
class ItemIndex:
    """What names mean in one ruleset; build it with ``item_index``."""

    block: ItemsBlock | None
    items: tuple[RulesetItem, ...]
    _by_ref: dict[str, RulesetItem] = field(repr=False)
    _by_name: dict[str, RulesetItem] = field(repr=False)
    _coins: dict[str, Coin] = field(repr=False)
    _coin_names: dict[str, Coin] = field(repr=False)

    @property
    def freeform(self) -> Literal["plain", "refuse"]:
        """ITM-BLOCK-24 / ITM-BAG-06: what a name typed by the player becomes."""
        return self.block.freeform if self.block else "plain"

    @property
    def native(self) -> bool:
        """ITM-BLOCK-23 / ITM-BAG-07: false refuses other names with ``not-ruleset-item``."""
        return self.block.native if self.block else True

    @property
    def propose(self) -> bool:
        """ITM-BLOCK-22: false forbids the Game Master to invent items."""
        return self.block.propose if self.block else True

    @property
    def services(self) -> tuple[RulesetItem, ...]:
        """ITM-ENTRY-09: the items that are services (the selector omits them)."""
        return tuple(i for i in self.items if i.is_service)

    @property
    def coins(self) -> tuple[Coin, ...]:
        """Every coin, family by family, in the file's order."""
        return tuple(self._coins.values())

    def by_ref(self, ref: str) -> RulesetItem | None:
        """The item stored as ``<catalog>/<entry>``, or None."""
        return self._by_ref.get(ref)

    def find(self, name: str) -> RulesetItem | None:
        """ITM-BAG-03/04: a ref, or a label without case, accents or punctuation; first wins."""
        return self._by_ref.get(name) or self._by_name.get(name_key(name))

    def coin(self, name: str) -> Coin | None:
        """ITM-MONEY-08: a coin by id, plural label or singular ``one``, without case."""
        return self._coins.get(name) or self._coin_names.get(name_key(name))


_CACHE: dict[int, tuple[Ruleset, ItemIndex]] = {}
_APOSTROPHES = str.maketrans("", "", "'\u2019\u02bc`")


def name_key(name: str) -> str:
    """How names are compared (SPEC §1b): no case, accents or punctuation; an apostrophe joins
    (``Widow's ring`` = ``widows ring``)."""
    return normalize_name(name.translate(_APOSTROPHES))


def item_index(ruleset: Ruleset) -> ItemIndex:
    """The ``ItemIndex`` of ``ruleset``, built once per ruleset object."""
    hit = _CACHE.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    if len(_CACHE) > 64:
        _CACHE.clear()
    index = build_index(ruleset)
    _CACHE[id(ruleset)] = (ruleset, index)
    return index


def build_index(ruleset: Ruleset) -> ItemIndex:
    """A fresh index of ``ruleset``'s item catalogs and coins (use ``item_index`` to cache)."""
    items = tuple(RulesetItem(f"{c.id}/{e.id}", c.id, e, e.item)
                  for c in ruleset.catalogs if c.holds_items
                  for e in c.entries if e.item is not None)
    by_name: dict[str, RulesetItem] = {}
    for found in items:
        by_name.setdefault(name_key(found.label), found)
    coins, coin_names = _coin_maps(ruleset.items)
    return ItemIndex(ruleset.items, items, {i.ref: i for i in items}, by_name, coins, coin_names)


def _coin_maps(block: ItemsBlock | None) -> tuple[dict[str, Coin], dict[str, Coin]]:
    coins: dict[str, Coin] = {}
    names: dict[str, Coin] = {}
    for family in block.currencies if block else ():
        for unit in family.units:
            coin = Coin(family, unit)
            coins.setdefault(unit.id, coin)
            for name in (unit.id, unit.label, unit.one):
                if name:
                    names.setdefault(name_key(name), coin)
    return coins, names
