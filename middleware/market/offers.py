"""What each seller found in a place of a given size offers as its regular wares, at the default
price (ITM-MARKET-03/04/08/09/11/12/13, ITM-FAKE-04): the ``MARKET`` block's list.

- Sellers here: those without ``place`` or whose smallest place is no bigger than this one; without
  ``sellers``, one implicit seller (None) sells everything the place sells (ITM-MARKET-11).
- A regular ware: an item with a ``cost`` (ITM-MARKET-13), neither a fake nor cursed (ITM-FAKE-04),
  matched by none of ``unsold`` (ITM-MARKET-12), selected by one of the seller's ``sells``, and sold
  in a place this size: the item's own ``sold.place``, else the first ``sold`` rule naming a place
  that selects it, else everywhere (ITM-MARKET-08, ITM-DAY-05).
- Its default price: the cost in the family's smallest coin times the default level, rounded half
  up, at least one coin for anything that costs something (ITM-MARKET-03, SPEC §10), stated in the
  cost's coin when that coin expresses it exactly, else in the largest coin that does (ITM-MARKET-04).

Computed once per (ruleset, size) and cached: the block never scans the catalogs per line.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from middleware.items.index import RulesetItem, item_index
from middleware.market.day import market_of, size_rank
from middleware.market.stock import selects
from middleware.rules.items_money import Market, Seller
from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Offer:
    """One ware at the default price: ``value`` in the family's smallest coin, ``price`` as text."""

    item: RulesetItem
    value: int
    price: str


Offers = list[tuple[Seller | None, list[Offer]]]

_CACHE: dict[tuple[int, str], tuple[Ruleset, Offers]] = {}


def offers(ruleset: Ruleset, size: str) -> Offers:
    """Every seller found in a place of ``size`` (a place id) with its wares, cheapest first."""
    hit = _CACHE.get((id(ruleset), size))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    if len(_CACHE) > 256:
        _CACHE.clear()
    found = _offers(ruleset, size)
    _CACHE[(id(ruleset), size)] = (ruleset, found)
    return found


def default_value(ruleset: Ruleset, item: RulesetItem) -> int | None:
    """ITM-MARKET-03: the default-level price in the family's smallest coin; None without a cost."""
    market = market_of(ruleset)
    cost = item.item.cost
    coin = item_index(ruleset).coin(cost.unit) if cost is not None else None
    if market is None or cost is None or coin is None:
        return None
    level = next((p for p in market.prices if p.default), market.prices[0])
    exact = Decimal(cost.amount * coin.worth) * Decimal(str(level.times))
    value = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return max(value, 1) if cost.amount > 0 else 0


def stated(ruleset: Ruleset, item: RulesetItem) -> str | None:
    """ITM-MARKET-04: the default price as text (``12 shillings``, ``1 penny``), or None."""
    value = default_value(ruleset, item)
    cost = item.item.cost
    return amount_text(ruleset, cost.unit, value) if value is not None and cost else None


def amount_text(ruleset: Ruleset, unit: str, value: int) -> str:
    """ITM-MARKET-04 / ITM-MONEY-17: ``value`` (in the smallest coin of ``unit``'s family) in
    ``unit`` when it expresses it exactly, else in the largest coin of the family that does."""
    index = item_index(ruleset)
    written = index.coin(unit)
    if written is None:
        return f"{value} {unit}"
    family = sorted((c for c in index.coins if c.family.id == written.family.id),
                    key=lambda c: -c.worth)
    exact = [c for c in family if value % c.worth == 0]
    coin = written if value % written.worth == 0 or not exact else exact[0]
    count = value // coin.worth
    return f"{count} {coin.name_for(count)}"


def _offers(ruleset: Ruleset, size: str) -> Offers:
    market = market_of(ruleset)
    rank = size_rank(ruleset, size)
    if market is None or rank is None:
        return []
    wares = [i for i in item_index(ruleset).items if _sold_here(ruleset, market, i, rank)]
    if not market.sellers:
        return [(None, _priced(ruleset, wares))]
    return [(s, _priced(ruleset, [i for i in wares if any(selects(f, i.item) for f in s.sells)]))
            for s in market.sellers if _found_here(ruleset, s, rank)]


def _found_here(ruleset: Ruleset, seller: Seller, rank: int) -> bool:
    needed = size_rank(ruleset, seller.place) if seller.place else 0
    return needed is not None and needed <= rank


def _sold_here(ruleset: Ruleset, market: Market, found: RulesetItem, rank: int) -> bool:
    item = found.item
    cursed = item.binds is not None and item.binds.cursed
    if item.cost is None or item.is_fake or cursed or any(selects(f, item) for f in market.unsold):
        return False
    place = item.sold.place if item.sold is not None and item.sold.place else next(
        (r.place for r in market.sold if r.place and selects(r.filter, item)), None)
    needed = size_rank(ruleset, place) if place else 0
    return needed is not None and needed <= rank


def _priced(ruleset: Ruleset, wares: list[RulesetItem]) -> list[Offer]:
    priced = [Offer(i, default_value(ruleset, i) or 0, stated(ruleset, i) or "") for i in wares]
    return sorted(priced, key=lambda o: (o.value, o.item.label))
