"""The market of one ruleset, indexed once (ITM-MARKET, ITM-DAY): buying and selling look an item,
a level, a seller or a place size up by key instead of scanning every catalog entry per tag.

``market_index(ruleset)`` is built once per ruleset object and cached like ``item_index``. Each
catalog item gets a ``Listing``: its cost in the family's smallest coin and the coin it was written
in, its smallest place, the sellers keeping it among their regular wares and the sellers who buy it
back. An item the Game Master invented is listed on demand (``listing``), never cached here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from middleware.cache import per_ruleset
from middleware.items.index import Coin, ItemIndex, RulesetItem, by_names, item_index
from middleware.names import normalize_name
from middleware.resolve.market.day import market_of, pricing_place, size_rank
from middleware.resolve.market.sellers import dealers_of, regular_ware, sellers_of, smallest_place
from middleware.rules.items_money import Market, PriceLevel, Seller
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, Place

if TYPE_CHECKING:
    from middleware.resolve import Context


@dataclass(frozen=True, slots=True)
class Listing:
    """One item as the market sees it (ITM-MARKET-03/08/09/12/13, ITM-DAY-08).

    ``value`` is the cost in the family's smallest coin and ``coin`` the coin it was written in
    (both None when the item has no cost or names a coin the ruleset lacks: not for sale).
    ``place`` is the rank of the smallest place selling it (None: everywhere). ``sellers`` keep it
    among their regular wares; ``dealers`` buy it back; ``regular`` is false for an ``unsold``,
    cursed or fake item.
    """

    found: RulesetItem
    value: int | None
    coin: Coin | None
    place: int | None
    sellers: tuple[str, ...]
    dealers: tuple[str, ...]
    regular: bool


@dataclass(frozen=True, slots=True)
class MarketIndex:
    """Levels, sellers and place sizes by id or label; listings by item ref; coins by family."""

    market: Market
    items: ItemIndex
    ranks: dict[str, int]
    _levels: dict[str, PriceLevel] = field(repr=False)
    _sellers: dict[str, Seller] = field(repr=False)
    _listings: dict[str, Listing] = field(repr=False)
    _families: dict[str, tuple[Coin, ...]] = field(repr=False)

    def level(self, name: str | None) -> PriceLevel | None:
        """ITM-MARKET-19 / Ambiguity 27: a level by id or label; the default when not given."""
        if name is None or not name.strip():
            return self.market.default_level
        return self._levels.get(normalize_name(name))

    def seller(self, name: str) -> Seller | None:
        """Ambiguity 27: a seller by id or label, without case or punctuation."""
        return self._sellers.get(normalize_name(name))

    def seller_by_id(self, seller_id: str) -> Seller:
        return next(s for s in self.market.sellers if s.id == seller_id)

    def listing(self, found: RulesetItem) -> Listing:
        """The listing of a catalog item (cached) or of an invented one (worked out now)."""
        return self._listings.get(found.ref) or list_item(self.market, self.items, self.ranks,
                                                          found)

    def family(self, family_id: str) -> tuple[Coin, ...]:
        """The family's coins, largest first."""
        return self._families.get(family_id, ())


@per_ruleset
def market_index(ruleset: Ruleset) -> MarketIndex | None:
    """The ``MarketIndex`` of ``ruleset`` (None without a market), built once per ruleset object."""
    return build_market_index(ruleset)


def market_here(state: GameState,
                ctx: Context) -> tuple[MarketIndex | None, Place | None, int | None]:
    """ITM-MARKET-07/20: the ruleset's market, the place a buy or a sale is priced at and that
    place's size rank (None: no market, no place named, or a size the market does not have)."""
    place = pricing_place(state, ctx)
    rank = size_rank(ctx.ruleset, place.size) if place is not None else None
    return market_index(ctx.ruleset), place, rank


def build_market_index(ruleset: Ruleset) -> MarketIndex | None:
    """A fresh index of the ruleset's market (use ``market_index`` to cache)."""
    market = market_of(ruleset)
    if market is None:
        return None
    items = item_index(ruleset)
    ranks = {size.id: rank for rank, size in enumerate(market.places)}
    levels = by_names(market.prices, lambda level: (level.id, level.label))
    sellers = by_names(market.sellers, lambda seller: (seller.id, seller.label))
    listings = {found.ref: list_item(market, items, ranks, found) for found in items.items}
    families: dict[str, tuple[Coin, ...]] = {}
    for coin in items.coins:
        families[coin.family.id] = (*families.get(coin.family.id, ()), coin)
    families = {k: tuple(sorted(v, key=lambda c: -c.worth)) for k, v in families.items()}
    return MarketIndex(market, items, ranks, levels, sellers, listings, families)


def list_item(market: Market, items: ItemIndex, ranks: dict[str, int],
              found: RulesetItem) -> Listing:
    """ITM-MARKET-03/08/09/12/13: how the market sees one item."""
    cost = found.item.cost
    coin = items.coin(cost.unit) if cost is not None else None
    value = cost.amount * coin.worth if cost is not None and coin is not None else None
    place = smallest_place(market, found.item)
    return Listing(found, value, coin if value is not None else None,
                   ranks.get(place) if place is not None else None,
                   sellers_of(market, found), dealers_of(market, found.item),
                   regular_ware(market, found))
