"""Today's stock and ``limited`` counts of a place's market (ITM-DAY-03/04/05/07, SPEC §3, §5).

A market day's draws are a pure function of (game seed, place, day): one ``Dice`` seeded by
``derive_seed(game seed, place, day)``, never a candidate's dice, throws first every seller's
``stock`` table (sellers in the file's order, each drawn by ``[loot:]``'s own ``draw_table``) and
then the dice of every ``limited`` ware (items in catalog order). Regenerations, swipes and branches
therefore see the same wares with nothing stored but what was sold (``GameState.market``).

- ITM-DAY-07: only items are taken from a stock table, never coins; what a seller draws is sold by
  that seller alone, in the drawn quantity, whatever ``sells`` and ``sold`` say. An honest seller
  never stocks a fake or a cursed item (ITM-FAKE-04); a dishonest seller's fake is offered as the
  item it passes for (``Ware.shown``, ITM-FAKE-05).
- ITM-DAY-04/05: a ware's ``limited`` count comes from the item's own ``sold`` if it names one, else
  from the first ``sold`` rule that selects the item and names one.

Every seller is drawn whatever the place's size, so the stock does not depend on it: which sellers
are found here is the sellers' rule (ITM-MARKET-09).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from middleware.cache import IdentityCache
from middleware.dice import Dice, derive_seed
from middleware.items.index import ItemIndex, RulesetItem, item_index
from middleware.items.loot import draw_table
from middleware.resolve.market.day import market_of, place_key
from middleware.rules.item_entry import Item, Sold
from middleware.rules.items_money import Amount, ItemFilter, Market, Seller, SoldRule
from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Ware:
    """ITM-DAY-07: pieces of one item a seller has in stock today.

    ``ref`` is the item really handed over; ``shown`` is what it is offered as (the item a fake
    passes for, at a dishonest seller; otherwise ``ref``).
    """

    seller: str
    ref: str
    count: int
    shown: str

    @property
    def key(self) -> str:
        """How ``MarketDay.stock`` counts what was bought of it: ``<seller>:<ref>``."""
        return f"{self.seller}:{self.ref}"


@dataclass(frozen=True, slots=True)
class Stock:
    """What a place's market has today: sellers' stock and pieces of each ``limited`` ware."""

    wares: tuple[Ware, ...] = ()
    limited: Mapping[str, int] = field(default_factory=dict)

    def of(self, seller: str) -> tuple[Ware, ...]:
        """The wares ``seller`` (an id) has in stock today, in the order drawn."""
        return tuple(w for w in self.wares if w.seller == seller)


_CACHE: IdentityCache[Stock] = IdentityCache(limit=256)


def todays_stock(ruleset: Ruleset, game_seed: int, place: str, day: int) -> Stock:
    """ITM-DAY-03: the stock of ``place`` (a name) on ``day``; pure, cached per ruleset object."""
    key = (game_seed, place_key(place), day)
    return _CACHE.get((ruleset,), key, lambda: draw_stock(ruleset, Dice(derive_seed(*key))))


def draw_stock(ruleset: Ruleset, dice: Dice) -> Stock:
    """Every seller's stock table, then every ``limited`` ware's count, thrown with ``dice``."""
    market = market_of(ruleset)
    if market is None:
        return Stock()
    index = item_index(ruleset)
    wares = tuple(w for s in market.sellers if s.stock is not None
                  for w in _seller_stock(ruleset, index, s, dice))
    limited = {i.ref: throw_amount(amount, dice) for i in index.items
               if (amount := limit_of(market, i.item)) is not None}
    return Stock(wares, limited)


S = TypeVar("S")


def limit_of(market: Market, item: Item) -> Amount | None:
    """ITM-DAY-04/05: the item's own ``sold.limited``, else the first rule's that selects it."""
    return sold_says(market, item, _limited)


def sold_says(market: Market, item: Item, read: Callable[[Sold | SoldRule], S]) -> S | None:
    """ITM-MARKET-08 / ITM-DAY-04/05: what ``read`` finds in the item's own ``sold``, else in the
    first ``sold`` rule that gives it and selects the item (the item's own overrides every rule)."""
    own = read(item.sold) if item.sold is not None else None
    if own is not None:
        return own
    return next((said for rule in market.sold
                 if (said := read(rule)) is not None and selects(rule.filter, item)), None)


def _limited(sold: Sold | SoldRule) -> Amount | None:
    return sold.limited


def selects(wanted: ItemFilter, item: Item) -> bool:
    """ITM-MARKET-08: the item has every rarity, category and tag the filter names."""
    return (wanted.rarity is None or wanted.rarity == item.rarity) \
        and (wanted.category is None or wanted.category == item.category) \
        and (wanted.tag is None or wanted.tag in item.tags)


def throw_amount(amount: Amount, dice: Dice) -> int:
    """A number as it is, or ``NdS`` thrown and summed (ITM-DAY-04)."""
    if isinstance(amount, int):
        return amount
    count, sides = (int(part) for part in amount.strip().lower().split("d"))
    return sum(dice.throw_many(count, sides)) if sides >= 1 else 0


def _seller_stock(ruleset: Ruleset, index: ItemIndex, seller: Seller,
                  dice: Dice) -> list[Ware]:
    """ITM-DAY-07: the seller's table drawn once; items only, same items summed, in draw order."""
    tables = ruleset.items.loot_tables if ruleset.items is not None else ()
    table = next((t for t in tables if seller.stock and t.id == seller.stock.table), None)
    counts: dict[str, int] = {}
    for drop in draw_table(ruleset, table, dice) if table is not None else ():
        found = index.by_ref(drop.item) if drop.item is not None else None
        if found is not None and _stocks(seller, found):
            counts[found.ref] = counts.get(found.ref, 0) + drop.count
    return [Ware(seller.id, ref, count, _shown(index, seller, ref)) for ref, count in counts.items()]


def _stocks(seller: Seller, found: RulesetItem) -> bool:
    """ITM-FAKE-04: an honest seller never has a fake or a cursed item in stock."""
    cursed = found.item.binds is not None and found.item.binds.cursed
    return not seller.honest or not (cursed or found.item.is_fake)


def _shown(index: ItemIndex, seller: Seller, ref: str) -> str:
    """ITM-FAKE-05: a dishonest seller offers a fake as the item it passes for."""
    found = index.by_ref(ref)
    target = found.item.passes_for if found is not None else None
    return target if target is not None and not seller.honest and index.by_ref(target) else ref
