"""The ``MARKET`` block: what the Game Master is told about the market where the scene is
(ITM-MARKET-24/25, ITM-DAY-13, ITM-FAKE-05 and the risky-ware warning).

``market_block(ruleset, state, game_seed)`` is text the proxy puts in the prompt:

- nothing for a ruleset without a market (ITM-MARKET-25: only such a ruleset gets the instructions);
- the instructions for ``[place:]`` and ``buy`` (and ``sell``, ``day="new"`` on a market day);
- where the scene has a market: the place and its size, the price levels, and every local seller
  with a dozen of its wares at the default price, cheapest first (ITM-MARKET-24; without
  ``sellers``, one implicit seller "anyone", Ambiguity 26); ``only`` by its label (ITM-MARKET-10);
  an honest seller's risky ware with ``(warn the buyer first: …)``;
- on a market day (ITM-DAY-13): what each seller has in stock today (a dishonest seller's fake
  shown as what it passes for, with the truth for the GM), the ``limited`` pieces left, what local
  sellers pay back, and how much of today's purse is left.

What a seller offers here follows ITM-MARKET-08/09/12/13 and ITM-FAKE-04 through ``offers``.
"""

from __future__ import annotations

from middleware.items.index import RulesetItem, item_index
from middleware.resolve.market.day import market_of, size_of, today
from middleware.resolve.market.offers import Offer, default_offer, offers, stated_value
from middleware.resolve.market.stock import Stock, todays_stock
from middleware.rules.items_money import Market, PlaceSize, Seller
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, MarketDay, Place

DOZEN = 12
"""ITM-MARKET-24: how many of each seller's wares the block lists."""


def market_block(ruleset: Ruleset, state: GameState, game_seed: int) -> str:
    """The ``MARKET`` block for ``state``'s place in force; "" for a ruleset without a market."""
    market = market_of(ruleset)
    if market is None:
        return ""
    lines = ["MARKET", *_instructions(market)]
    size = size_of(ruleset, state.place)
    if state.place is None or size is None:
        where = state.place.name if state.place else "no place named yet"
        return "\n".join([*lines, f"Here ({where}) there is no market."])
    stock = todays_stock(ruleset, game_seed, state.place.name, state.place.day)
    sold = today(state, state.place)
    lines += _heading(market, state.place, size)
    for seller, wares in offers(ruleset, size.id):
        lines += _seller_lines(ruleset, seller, wares, stock, sold)
    return "\n".join(lines + _day_lines(ruleset, market, size, stock, sold))


def is_market_day(market: Market) -> bool:
    """ITM-DAY-01: the market uses a purse, ``buyBack``, a seller's stock or a ``limited`` rule."""
    return market.buy_back is not None or any(p.purse for p in market.places) \
        or any(s.stock for s in market.sellers) or any(r.limited for r in market.sold)


def _instructions(market: Market) -> list[str]:
    sizes = ", ".join(s.label for s in market.places)
    lines = [f'Set the scene\'s place with [place: name="…" size="…"] (sizes: {sizes}; omit size '
             'where there is no market). Buy with [inventory: action="buy" item="…" count="1" '
             'level="…" seller="…" who="…"]; level and seller are optional.']
    if is_market_day(market):
        lines.append('Sell with [inventory: action="sell" item="…" count="1" seller="…" '
                     'who="…"]. Start a new market day in the same place with day="new".')
    return lines


def _heading(market: Market, place: Place, size: PlaceSize) -> list[str]:
    day = f" (market day {place.day})" if is_market_day(market) else ""
    levels = ", ".join(f"{p.label} ×{p.times:g}" + (" (default)" if p.default else "")
                       for p in market.prices)
    return [f"Place: {place.name}, {size.label}{day}.",
            f"Price levels: {levels}. Haggling or a seller's mood changes the level, never the "
            "price itself.",
            "Sellers here, a dozen wares each at the default price, cheapest first; anything a "
            "seller sells can be bought by name:"]


def _seller_lines(ruleset: Ruleset, seller: Seller | None, wares: list[Offer], stock: Stock,
                  sold: MarketDay) -> list[str]:
    label = seller.label if seller else "anyone"
    only = f", sells only to {seller.only.label}" if seller and seller.only \
        and seller.only.label else ""
    honest = seller is None or seller.honest
    listed = "; ".join(_ware(o, honest) for o in wares[:DOZEN]) or "nothing today"
    lines = [f"- {label}{only}: {listed}"]
    if seller is not None and seller.stock is not None:
        lines.append(f"  In stock today: {_stocked(ruleset, seller, stock, sold)}")
    return lines


def _ware(offer: Offer, honest: bool) -> str:
    warn = f" (warn the buyer first: {offer.item.item.risky})" if honest and offer.item.item.risky \
        else ""
    return f"{offer.item.label} {offer.price}{warn}"


def _stocked(ruleset: Ruleset, seller: Seller, stock: Stock, sold: MarketDay) -> str:
    index = item_index(ruleset)
    parts: list[str] = []
    for ware in stock.of(seller.id):
        shown, real = index.by_ref(ware.shown), index.by_ref(ware.ref)
        if shown is None or real is None:
            continue
        left = ware.count - sold.stock.get(ware.key, 0)
        truth = f" (FAKE: really {real.label})" if ware.shown != ware.ref else ""
        offer = default_offer(ruleset, shown)
        price = offer.price if offer else "no price"
        parts.append(f"{shown.label} ×{left} at {price}{truth}" if left > 0
                     else f"{shown.label} (sold out)")
    return "; ".join(parts) or "nothing"


def _day_lines(ruleset: Ruleset, market: Market, size: PlaceSize, stock: Stock,
               sold: MarketDay) -> list[str]:
    lines: list[str] = []
    limited = _limited_here(ruleset, size, stock, sold)
    if limited:
        lines.append(f"Limited today: {limited}.")
    if market.buy_back is not None:
        lines.append(f"Local sellers buy back what they deal in at ×{market.buy_back:g} of the "
                     "default price.")
    elif is_market_day(market):
        lines.append("Nobody here buys anything back.")
    if size.purse is not None:
        lines.append(f"Today's purse: {_purse_left(ruleset, size, sold)} left to pay out.")
    return lines


def _limited_here(ruleset: Ruleset, size: PlaceSize, stock: Stock, sold: MarketDay) -> str:
    seen: dict[str, RulesetItem] = {}
    for _, wares in offers(ruleset, size.id):
        seen.update({o.item.ref: o.item for o in wares if o.item.ref in stock.limited})
    parts = []
    for ref, item in seen.items():
        left = max(0, stock.limited[ref] - sold.limited.get(ref, 0))
        parts.append(f"{item.label} {left} of {stock.limited[ref]} left")
    return "; ".join(parts)


def _purse_left(ruleset: Ruleset, size: PlaceSize, sold: MarketDay) -> str:
    """ITM-DAY-09: today's purse left, in the purse's coin (or the largest that states it)."""
    coin = item_index(ruleset).coin(size.purse.unit) if size.purse else None
    if coin is None or size.purse is None:
        return "no limit"
    total = size.purse.amount * coin.worth
    left = max(0, total - sold.paid.get(coin.family.id, 0))
    return f"{stated_value(ruleset, coin, left)} of {stated_value(ruleset, coin, total)}"
