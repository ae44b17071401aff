"""Who sells what, where, to whom, and who buys it back (ITM-MARKET-08..13, ITM-DAY-05/08).

- ITM-MARKET-08 / ITM-DAY-05: an item's smallest place is its own ``sold.place``, else the place of
  the first ``sold`` rule that selects it and names one; an item nothing places is sold everywhere.
- ITM-MARKET-09: a seller sells what any of its ``sells`` filters selects, from its ``place`` up
  (everywhere without one); ITM-MARKET-11: without ``sellers`` anyone sells what the place sells.
- ITM-MARKET-12: ``unsold`` filters keep an item out of every seller's regular wares (a seller's
  ``stock`` may still draw it, and sellers still buy it back).
- ITM-FAKE-04: a cursed item or a fake is never among anyone's regular wares.
- ITM-MARKET-10: ``only`` is read on the buyer's sheet with their current state and carried items.
- ITM-DAY-08: a seller buys back what it deals in (its ``sells``), only with a ``buyBack``.

Every function is pure; ``middleware.resolve.market.index`` runs the per-item ones once per ruleset.
"""

from __future__ import annotations

from middleware.character.check import view_for
from middleware.items.index import RulesetItem
from middleware.resolve.market.stock import selects, sold_says
from middleware.rules.item_entry import Item
from middleware.rules.items_money import Market, Seller
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState


def smallest_place(market: Market, item: Item) -> str | None:
    """ITM-MARKET-08 / ITM-DAY-05: the smallest place size (an id) selling ``item``; None when it
    is sold everywhere. The item's own ``sold.place`` overrides every rule."""
    return sold_says(market, item, lambda sold: sold.place)


def unsold(market: Market, item: Item) -> bool:
    """ITM-MARKET-12: no seller keeps ``item`` among its regular wares."""
    return any(selects(wanted, item) for wanted in market.unsold)


def regular_ware(market: Market, found: RulesetItem) -> bool:
    """ITM-MARKET-12 / ITM-FAKE-04: the item may be among some seller's regular wares."""
    item = found.item
    cursed = item.binds is not None and item.binds.cursed
    return not (unsold(market, item) or cursed or item.is_fake)


def deals_in(seller: Seller, item: Item) -> bool:
    """ITM-MARKET-09: any of the seller's ``sells`` filters selects the item."""
    return any(selects(wanted, item) for wanted in seller.sells)


def sellers_of(market: Market, found: RulesetItem) -> tuple[str, ...]:
    """ITM-MARKET-09/12: ids of the sellers keeping ``found`` among their regular wares."""
    if not regular_ware(market, found):
        return ()
    return tuple(s.id for s in market.sellers if deals_in(s, found.item))


def dealers_of(market: Market, item: Item) -> tuple[str, ...]:
    """ITM-DAY-08 / ITM-MARKET-12: ids of the sellers who buy ``item`` back (``unsold`` aside)."""
    return tuple(s.id for s in market.sellers if deals_in(s, item))


def found_in(seller: Seller, rank: int, ranks: dict[str, int]) -> bool:
    """ITM-MARKET-09: the seller is found in a place of size ``rank`` (smallest first, 0)."""
    return seller.place is None or ranks.get(seller.place, len(ranks)) <= rank


def serves(ruleset: Ruleset, state: GameState, buyer: Character, seller: Seller) -> bool:
    """ITM-MARKET-10: the buyer meets the seller's ``only`` (read with current state and the
    buyer's own bag); a seller without ``only`` serves anyone."""
    if seller.only is None:
        return True
    view = view_for(ruleset, buyer, state=state)
    return view.ref(seller.only.value) >= seller.only.at_least
