"""What each seller found in a place of a given size offers as its regular wares, at the default
price (ITM-MARKET-03/04/08/09/11/12/13, ITM-FAKE-04): the ``MARKET`` block's list.

The rules are the buy's own (``middleware.resolve.market.sellers`` and ``prices``): sellers found from their
``place`` up (ITM-MARKET-09; without ``sellers`` one implicit seller, None, ITM-MARKET-11); regular
wares with a ``cost`` (ITM-MARKET-13), not ``unsold``, fake or cursed (ITM-MARKET-12, ITM-FAKE-04),
that a seller ``sells`` and the place is big enough for (ITM-MARKET-08); each at the default level,
rounded half up in the smallest coin and stated in the cost's coin or the largest exact one
(ITM-MARKET-03/04, SPEC §10).

Computed once per (ruleset, size) and cached: the block never scans the catalogs per line.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.cache import IdentityCache
from middleware.items.index import Coin, RulesetItem, item_index
from middleware.resolve.market.day import market_of, size_rank
from middleware.resolve.market.prices import amount_text, price, stated_in
from middleware.resolve.market.sellers import deals_in, found_in, regular_ware, smallest_place
from middleware.rules.items_money import Market, Seller
from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Offer:
    """One ware at the default price: ``value`` in the family's smallest coin, ``price`` as text."""

    item: RulesetItem
    value: int
    price: str


Offers = list[tuple[Seller | None, list[Offer]]]

_CACHE: IdentityCache[Offers] = IdentityCache(limit=256)


def offers(ruleset: Ruleset, size: str) -> Offers:
    """Every seller found in a place of ``size`` (a place id) with its wares, cheapest first."""
    return _CACHE.get((ruleset,), size, lambda: _offers(ruleset, size))


def default_offer(ruleset: Ruleset, found: RulesetItem) -> Offer | None:
    """ITM-MARKET-03/04: ``found`` at the default price level; None without a cost or market."""
    market = market_of(ruleset)
    cost = found.item.cost
    coin = item_index(ruleset).coin(cost.unit) if cost is not None else None
    if market is None or cost is None or coin is None:
        return None
    level = next((p for p in market.prices if p.default), market.prices[0])
    priced = price(cost.amount * coin.worth, coin, family_of(ruleset, coin), level.times)
    return Offer(found, priced.value, priced.text)


def stated_value(ruleset: Ruleset, coin: Coin, value: int) -> str:
    """``value`` (smallest coin) in ``coin`` when it states it exactly, else the largest coin of its
    family that does (ITM-MARKET-04, ITM-MONEY-17)."""
    return amount_text(value, stated_in(value, coin, family_of(ruleset, coin)))


def family_of(ruleset: Ruleset, coin: Coin) -> list[Coin]:
    """Every coin of ``coin``'s family."""
    return [c for c in item_index(ruleset).coins if c.family.id == coin.family.id]


def _offers(ruleset: Ruleset, size: str) -> Offers:
    market = market_of(ruleset)
    rank = size_rank(ruleset, size)
    if market is None or rank is None:
        return []
    wares = [o for i in item_index(ruleset).items if _sold_here(ruleset, market, i, rank)
             and (o := default_offer(ruleset, i)) is not None]
    wares.sort(key=lambda o: (o.value, o.item.label))
    if not market.sellers:
        return [(None, wares)]
    ranks = {p.id: n for n, p in enumerate(market.places)}
    return [(s, [o for o in wares if deals_in(s, o.item.item)])
            for s in market.sellers if found_in(s, rank, ranks)]


def _sold_here(ruleset: Ruleset, market: Market, found: RulesetItem, rank: int) -> bool:
    place = smallest_place(market, found.item)
    needed = size_rank(ruleset, place) if place else 0
    return found.item.cost is not None and regular_ware(market, found) \
        and needed is not None and needed <= rank
