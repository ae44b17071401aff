"""``[inventory: action="sell" item= count= seller= who=]``: selling on a market day
(ITM-DAY-08..12, SPEC §10).

A local seller who deals in the item (any seller, in a market without ``sellers``) pays ``buyBack``
of the item's default-level price per piece, worked in the family's smallest coin and rounded half
up, at least one coin for anything worth something, times the count; the pieces leave the seller's
bag (the player's without ``who=``; never a bound cursed one) and the coins come in, largest first.
The place's ``purse`` caps what its sellers pay out in that coin's family per day; what they paid is
kept in today's market (``GameState.market``). Like the buy, a sale is priced at the place in force
at the end of the reply.

Refusals change nothing, in the order of Ambiguity 4: ``unknown-character``, ``no-place``,
``unknown-item`` (ours: the name is nothing here), ``not-bought``, ``not-for-sale``,
``purse-spent`` (the sale is more than what is left, Ambiguity 13), ``not-held`` (ours: nobody in
the bag has it), ``cursed`` (every piece held is bound and cursed), ``too-heavy`` (the coins).
Asking for more pieces than are held sells what is held, and the GM is told.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.items.bag import Goods, held, put, take, takeable
from middleware.items.carry import bag_weight, fits
from middleware.items.index import STANDARD_STACK, RulesetItem
from middleware.items.lookup import find_item
from middleware.items.money import Coins, coins_text
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.fakes.goods import honest_sale
from middleware.resolve.inventory.find import Member, Named, held_goods, holder, named_goods
from middleware.resolve.inventory.goods import unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.resolve.market.day import size_of, today, with_today
from middleware.resolve.market.index import Listing, MarketIndex, market_here, market_index
from middleware.resolve.market.prices import amount_text, buy_back, in_coins, scaled, stated_in
from middleware.resolve.market.sellers import found_in
from middleware.rules.items_money import Seller
from middleware.state import GameState, Place


@dataclass(frozen=True, slots=True)
class Sale:
    """A sale read against the market: who sells what, where, to whom, for how much a piece."""

    ask: ItemAsk
    member: Member
    market: MarketIndex
    place: Place
    listing: Listing
    goods: Goods
    buyer: Seller | None
    each: int
    seen: str | None = None
    """ITM-FAKE-09: what an honest buyer said about a fake, when it was one."""


def sell(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-DAY-08..12: the item out, the coins in; or a refusal that changes nothing."""
    sale = read_sale(ask, state, ctx)
    if isinstance(sale, InventoryRecord):
        return Resolution(state, sale)
    count = _pieces(sale)
    if isinstance(count, InventoryRecord):
        return Resolution(state, count)
    return _settle(sale, count, state, ctx)


# --- reading the sale (unknown-character .. not-for-sale) ----------------------------------------


def read_sale(ask: ItemAsk, state: GameState, ctx: Context) -> Sale | InventoryRecord:
    """The seller in the party, the place, the item, the local buyer and the price per piece."""
    member = holder(state, ask.who)
    if member is None:
        return unknown_character(ask, ask.who)
    market, place, rank = market_here(state, ctx)
    if market is None or place is None or rank is None:
        where = "No market here" if place is None or market is None else f"{place.name} has no "\
            "market"
        return _refuse(ask, member, "no-place", f"{where}: nothing can be sold.")
    found = _what(ask, member, state, ctx)
    if isinstance(found, InventoryRecord):
        return found
    goods, item = found
    listing = market.listing(item) if item is not None else None
    buyer = _buyer(ask, member, market, rank, listing)
    if isinstance(buyer, InventoryRecord):
        return buyer
    assert listing is not None and market.market.buy_back is not None
    seen = _seen_through(ctx, member, goods, buyer, market)
    listing = seen[0] if seen else listing
    if listing.value is None:
        why = seen[1] if seen else f"{listing.found.label} has no price: nobody pays for it."
        return _refuse(ask, member, "not-for-sale", why, item=_shown(market, goods, listing))
    default = scaled(listing.value, market.market.default_level.times)
    each = buy_back(default, market.market.buy_back)
    return Sale(ask, member, market, place, listing, goods, buyer, each, seen[1] if seen else None)


def _seen_through(ctx: Context, member: Member, goods: Goods, buyer: Seller | None,
                  market: MarketIndex) -> tuple[Listing, str] | None:
    """ITM-FAKE-09 / Ambiguity 14: an honest buyer sees a fake for what it is and prices its own
    cost (``buyBack`` applies as to any sale); a dishonest one takes it for what it seems."""
    if goods.really is None:
        return None
    stack = next(s for s in member.character.bag if goods.matches(s))
    sale = honest_sale(ctx.ruleset, stack, buyer)
    return (market.listing(sale.real), sale.line) if sale is not None else None


def _shown(market: MarketIndex, goods: Goods, listing: Listing) -> str:
    """The name the bag shows the goods under (a fake's is the item it passes for)."""
    found = market.items.by_ref(goods.item or "")
    return found.label if found is not None else listing.found.label


def _what(ask: ItemAsk, member: Member, state: GameState,
          ctx: Context) -> tuple[Goods, RulesetItem | None] | InventoryRecord:
    """What ``item=`` means: what the bag holds by that name first (a renamed stack stays its
    item, ITM-BAG-01), else the ruleset item or coin, else an item invented in this game."""
    market = market_index(ctx.ruleset)
    assert market is not None
    named: Named | None = held_goods(market.items, member.character.bag, ask.item, state) \
        or named_goods(market.items, ask.item, state)
    if named is not None:
        ref = named.goods.item
        return named.goods, find_item(ctx.ruleset, state, ref) if ref else None
    invented = find_item(ctx.ruleset, state, ask.item)
    if invented is not None:
        return Goods(item=invented.ref), invented
    return _refuse(ask, member, "unknown-item", f"No item is called {ask.item}.")


def _buyer(ask: ItemAsk, member: Member, market: MarketIndex, rank: int,
           listing: Listing | None) -> Seller | InventoryRecord | None:
    """ITM-DAY-08: the first local seller who deals in the item (``seller=`` narrows it); None
    (anyone) in a market without sellers. ``not-bought`` when nobody here buys it."""
    label = listing.found.label if listing else ask.item
    if market.market.buy_back is None:
        return _refuse(ask, member, "not-bought", "Nobody here buys anything back.", item=label)
    if listing is None:
        return _refuse(ask, member, "not-bought", f"Nobody here buys {label}.", item=label)
    if not market.market.sellers:
        return None
    named = (ask.attrs.get("seller") or "").strip()
    wanted = market.seller(named) if named else None
    local = [market.seller_by_id(s) for s in listing.dealers]
    local = [s for s in local if found_in(s, rank, market.ranks)
             and (not named or (wanted is not None and s.id == wanted.id))]
    if not local:
        who = f"The {wanted.label if wanted else named} does not buy" if named else \
            "Nobody here buys"
        return _refuse(ask, member, "not-bought", f"{who} {label}.", item=label)
    return local[0]


# --- purse, pieces, coins (purse-spent .. too-heavy) ---------------------------------------------


def _pieces(sale: Sale) -> int | InventoryRecord:
    """How many pieces are sold: those asked for (``all``: every one), at most what the bag
    holds that may leave it."""
    bag = sale.member.character.bag
    label = sale.listing.found.label
    cursed = sale.listing.found.item.binds
    loose = held(bag, sale.goods, lambda s: takeable(s, bool(cursed and cursed.cursed)))
    if held(bag, sale.goods) == 0:
        return _refuse(sale.ask, sale.member, "not-held",
                       f"{sale.member.name} holds no {label}.", item=label)
    if loose == 0:
        return _refuse(sale.ask, sale.member, "cursed",
                       f"{label} is bound and cursed: it does not let go.", item=label)
    return loose if sale.ask.every else min(sale.ask.count or 1, loose)


def _settle(sale: Sale, count: int, state: GameState, ctx: Context) -> Resolution:
    """ITM-DAY-09/10: within the purse, the pieces out and the coins in; both or neither."""
    total = sale.each * count
    family = sale.listing.coin.family.id if sale.listing.coin else ""
    left = _purse_left(sale, state, ctx, family)
    if left is not None and total > left:
        return Resolution(state, _purse_spent(sale, count, total, left))
    cursed = bool(sale.listing.found.item.binds and sale.listing.found.item.binds.cursed)
    bag, _ = take(sale.member.character.bag, sale.goods, count, cursed)
    coins = in_coins(total, sale.market.family(family))
    lighter = sale.member.character.model_copy(update={"bag": bag})
    weight = bag_weight(sale.market.items, tuple(Goods(coins=c.unit.id).stack(n)
                                                 for c, n in coins))
    if not fits(ctx.ruleset, lighter, weight):
        return Resolution(state, _refuse(
            sale.ask, sale.member, "too-heavy", f"{sale.member.name} cannot carry "
            f"{coins_text(coins)}: past their limit.", item=sale.listing.found.label))
    for coin, number in coins:
        bag = put(bag, Goods(coins=coin.unit.id), number, STANDARD_STACK)
    state = state.with_character(sale.member.index, lighter.model_copy(update={"bag": bag}))
    day = today(state, sale.place)
    state = with_today(state, day.model_copy(update={
        "paid": {**day.paid, family: day.paid.get(family, 0) + total}}))
    return Resolution(state, _sold(sale, count, total, coins, held(bag, sale.goods)))


def _purse_left(sale: Sale, state: GameState, ctx: Context, family: str) -> int | None:
    """ITM-DAY-09: what the place's sellers may still pay out today in ``family`` (None: no
    purse, or a purse in another family)."""
    size = size_of(ctx.ruleset, sale.place)
    purse = size.purse if size is not None else None
    coin = sale.market.items.coin(purse.unit) if purse is not None else None
    if purse is None or coin is None or coin.family.id != family:
        return None
    return max(0, purse.amount * coin.worth - today(state, sale.place).paid.get(family, 0))


def _purse_spent(sale: Sale, count: int, total: int, left: int) -> InventoryRecord:
    """ITM-DAY-09/11, Ambiguity 13: the sale is more than today's purse has left; none of it."""
    label = sale.listing.found.label
    return _refuse(sale.ask, sale.member, "purse-spent", f"The sellers here have only "
                   f"{_stated(sale, left)} left to pay out today; {count} {label} would fetch "
                   f"{_stated(sale, total)}.", item=label)


def _stated(sale: Sale, value: int) -> str:
    """ITM-MARKET-04 applied to a sale: the cost's coin if exact, else the largest exact one."""
    assert sale.listing.coin is not None
    coin = stated_in(value, sale.listing.coin, sale.market.family(sale.listing.coin.family.id))
    return amount_text(value, coin)


def _sold(sale: Sale, count: int, total: int, coins: Coins, now: int) -> InventoryRecord:
    """ITM-DAY-12: the amount received as ``price``; the coins paid in as ``received``."""
    label = _shown(sale.market, sale.goods, sale.listing)
    short = [f"Only {count} held: {count} sold."] if not sale.ask.every and \
        (sale.ask.count or 1) > count else []
    seen = [sale.seen] if sale.seen else []
    note = " ".join([*sale.ask.notes, *short, *seen, f"Received {coins_text(coins)}."])
    to = f" to the {sale.buyer.label}" if sale.buyer else ""
    line = f"{sale.member.name} sells {count} {label}{to} for {_stated(sale, total)}. {note}"
    return InventoryRecord(
        status="resolved", action="sell", item=label, count=count, who=sale.member.name,
        seller=sale.buyer.id if sale.buyer else None, now=now, price=_stated(sale, total),
        note=note, feedback=line, received={c.unit.id: n for c, n in coins})


def _refuse(ask: ItemAsk, member: Member, reason: str, feedback: str, *,
            item: str | None = None) -> InventoryRecord:
    """A refused sale: nothing changed."""
    return refused(ask.action, reason, feedback, item=item or ask.item or None, who=member.name)
