"""Every ruleset item and coin by the names the Game Master and the bags use (ITM-BAG-01..09).

Built once per ruleset (``item_index``) and read by bags, money, loot and the market:

- items by catalog ref ``<catalog>/<entry>`` and by label, without case, accents or punctuation;
  two items sharing a label resolve to the one listed first in the catalogs (ITM-BAG-03/04);
- stack limits: ``stack``, or the standard capacity; an item with charges sits alone (ITM-ENTRY-06);
- services, which are bought but never carried (ITM-ENTRY-09, ITM-BAG-09);
- coins by id, plural ``label`` or singular ``one`` (ITM-MONEY-08, ITM-BLOCK-18);
- the block's switches ``freeform``, ``native``, ``propose`` (ITM-BLOCK-22..24);
- ``with_invented``: the same index seen from one game, where the items the Game Master invented
  answer by ref and name after the catalogs (ITM-PROPOSE-11/13), so every reader that takes an
  index (weight, slots, labels, effects) knows them too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar

from middleware.cache import IdentityCache, per_ruleset
from middleware.items.invented import INVENTED_CATALOG
from middleware.names import normalize_name
from middleware.rules.catalogs import CatalogEntry
from middleware.rules.item_entry import Item
from middleware.rules.items import ItemsBlock
from middleware.rules.items_money import CoinUnit, Currency
from middleware.rules.ruleset import Ruleset
from middleware.state import InventedItem

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
    _invented: dict[str, RulesetItem] = field(default_factory=dict, repr=False)
    _invented_names: dict[str, RulesetItem] = field(default_factory=dict, repr=False)
    _root: ItemIndex | None = field(default=None, repr=False)

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

    @property
    def invented(self) -> tuple[RulesetItem, ...]:
        """ITM-PROPOSE-13: the game's invented items this view knows (none on a ruleset's own
        index); never part of ``items``, so a market does not sell them."""
        return tuple(self._invented.values())

    def by_ref(self, ref: str) -> RulesetItem | None:
        """The item stored as ``<catalog>/<entry>`` (or ``invented/<slug>``), or None."""
        return self._by_ref.get(ref) or self._invented.get(ref)

    def find(self, name: str) -> RulesetItem | None:
        """ITM-BAG-03/04, ITM-PROPOSE-11/13: a ref, or a label without case, accents or
        punctuation; ruleset items first (the first listed wins), then invented ones."""
        found = self._by_ref.get(name)
        if found is not None:
            return found
        key = normalize_name(name)
        return self._by_name.get(key) or self._invented.get(name) or self._invented_names.get(key)

    def with_invented(self, invented: Sequence[InventedItem]) -> ItemIndex:
        """ITM-PROPOSE-13: this index as one game sees it, its invented items answering after the
        catalogs; built once per ``invented`` tuple (states share it until an item is invented)."""
        if not invented:
            return self._base
        base = self._base
        return _VIEWS.get((base, invented), None, lambda: base._overlay(invented))

    @property
    def _base(self) -> ItemIndex:
        """The ruleset's own index under any game's view (the two share every catalog map)."""
        return self._root or self

    def _overlay(self, invented: Sequence[InventedItem]) -> ItemIndex:
        made = [as_item(one) for one in invented]
        refs: dict[str, RulesetItem] = {}
        for found in made:
            refs.setdefault(found.ref, found)
        names = by_names(made, lambda found: (found.label,))
        return replace(self, _invented=refs, _invented_names=names, _root=self)

    def coin(self, name: str) -> Coin | None:
        """ITM-MONEY-08: a coin by id, plural label or singular ``one``, without case."""
        return self._coins.get(name) or self._coin_names.get(normalize_name(name))


_VIEWS: IdentityCache[ItemIndex] = IdentityCache()
T = TypeVar("T")


def by_names(things: Iterable[T], names: Callable[[T], Iterable[str | None]]) -> dict[str, T]:
    """Each thing under the ``normalize_name`` of each of its ``names`` (None skipped); a name two
    things share keeps the one listed first (ITM-BAG-04, Ambiguity 27)."""
    found: dict[str, T] = {}
    for thing in things:
        for name in names(thing):
            if name:
                found.setdefault(normalize_name(name), thing)
    return found


@per_ruleset
def item_index(ruleset: Ruleset) -> ItemIndex:
    """The ``ItemIndex`` of ``ruleset``, built once per ruleset object."""
    return build_index(ruleset)


def as_item(invented: InventedItem) -> RulesetItem:
    """An invented item in the shape every item reader takes (its catalog is ``invented``)."""
    item = invented.entry.item
    assert item is not None, "an invented entry always holds an item"
    return RulesetItem(invented.ref, INVENTED_CATALOG, invented.entry, item)


def build_index(ruleset: Ruleset) -> ItemIndex:
    """A fresh index of ``ruleset``'s item catalogs and coins (use ``item_index`` to cache)."""
    items = tuple(RulesetItem(f"{c.id}/{e.id}", c.id, e, e.item)
                  for c in ruleset.catalogs if c.holds_items
                  for e in c.entries if e.item is not None)
    by_name = by_names(items, lambda found: (found.label,))
    coins, coin_names = _coin_maps(ruleset.items)
    return ItemIndex(ruleset.items, items, {i.ref: i for i in items}, by_name, coins, coin_names)


def _coin_maps(block: ItemsBlock | None) -> tuple[dict[str, Coin], dict[str, Coin]]:
    every = [Coin(family, unit) for family in (block.currencies if block else ())
             for unit in family.units]
    coins: dict[str, Coin] = {}
    for coin in every:
        coins.setdefault(coin.unit.id, coin)
    return coins, by_names(every, lambda coin: (coin.unit.id, coin.unit.label, coin.unit.one))
