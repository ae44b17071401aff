"""``[inventory: action="buy" item= count= level= seller= who=]``: buying at the market
(ITM-MARKET-19..23, ITM-DAY-04..07, ITM-MONEY-16, SPEC §3, §10).

The buy is priced at the place in force at the end of the reply (``pricing_place``), paid from the
buyer's purse (the player's without ``who=``) exactly like a payment with change, and delivered into
the buyer's bag (a service only pays). It is all or nothing: it never pays without delivering nor
delivers without paying, even when the bag cannot take it (ITM-MARKET-21).

Refusals change nothing and are checked in the page's order (Ambiguity 4): ``unknown-character``,
``no-place``, ``unknown-level``, ``unknown-item``, ``no-seller`` for a seller nobody answers to
(SPEC §10), ``not-for-sale``, ``not-here``, ``no-seller``, ``not-to-you``, ``sold-out``,
``cannot-afford``, ``too-heavy`` (the bag, or the change, past the buyer's ``limit``).

Where it comes from: without ``seller=`` the first local seller (file order) whose regular wares
hold the item, then the first whose stock today does (never a fake, ITM-FAKE-06); with ``seller=``
only that seller, whose stock may hand over a fake shown as what it passes for (ITM-FAKE-05/06;
``fake_for``), unless another party member notices first (``notice_before_buy``, ITM-FAKE-25..27:
refused ``held``, nothing paid). Regular wares of a ``limited`` item count against the place's pieces today;
stock counts against the seller's drawn quantity (ITM-DAY-04..07).
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.items.bag import Bag, Goods, held, put
from middleware.items.carry import fits, piece_weight
from middleware.items.lookup import find_item
from middleware.items.money import Payment, Refusal, pay, purse_line
from middleware.records import clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.fakes.goods import fake_for
from middleware.resolve.inventory.fakes.notice import notice_before_buy
from middleware.resolve.inventory.find import Member, holder
from middleware.resolve.inventory.goods import unknown_character
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.resolve.market.day import today, with_today
from middleware.resolve.market.index import Listing, MarketIndex, market_here
from middleware.resolve.market.prices import Price, price
from middleware.resolve.market.sellers import found_in, serves
from middleware.resolve.market.stock import Ware, todays_stock
from middleware.rules.items_money import PriceLevel, Seller
from middleware.rules.layers import removed
from middleware.state import GameState, Place


@dataclass(frozen=True, slots=True)
class Deal:
    """A buy read against the market: who, where, at what level, which item, how many."""

    ask: ItemAsk
    buyer: Member
    market: MarketIndex
    place: Place
    rank: int
    level: PriceLevel
    listing: Listing
    count: int
    seller: Seller | None


@dataclass(frozen=True, slots=True)
class Offer:
    """Who sells it: a seller (None: anyone, in a market without sellers), from its regular
    wares or from today's ``ware`` in stock; ``left`` pieces are still for sale today (None: no
    limit)."""

    seller: Seller | None
    ware: Ware | None = None
    left: int | None = None


def buy(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """ITM-MARKET-19..23: price, pay with change, deliver; or refuse and change nothing."""
    deal = read_deal(ask, state, ctx)
    if isinstance(deal, InventoryRecord):
        return Resolution(state, deal)
    offer = find_offer(deal, state, ctx)
    if isinstance(offer, InventoryRecord):
        return Resolution(state, offer)
    return settle(deal, offer, state, ctx)


# --- reading the deal (unknown-character .. not-for-sale) --------------------------------------


def read_deal(ask: ItemAsk, state: GameState, ctx: Context) -> Deal | InventoryRecord:
    """The buyer, the place, the level, the item and the seller the tag names."""
    buyer = holder(state, ask.who)
    if buyer is None:
        return unknown_character(ask, ask.who)
    market, place, rank = market_here(state, ctx)
    if market is None or place is None or rank is None:
        return _no_place(ask, buyer, market is not None, place)
    level = market.level(ask.attrs.get("level"))
    if level is None:
        return _refuse(ask, buyer, "unknown-level", f"No price level {ask.attrs.get('level')}: "
                       f"the levels are {_levels(market)}.")
    listing = _listing(ask, buyer, market, state, ctx)
    if isinstance(listing, InventoryRecord):
        return listing
    seller = _named_seller(ask, buyer, market)
    if isinstance(seller, InventoryRecord):
        return seller
    if listing.value is None:
        return _refuse(ask, buyer, "not-for-sale", f"{listing.found.label} has no price: it is "
                       "not for sale.", item=listing.found.label)
    hidden = _layer_hides(listing, state, ctx)
    if hidden is not None:
        return _refuse(ask, buyer, "not-for-sale", hidden, item=listing.found.label)
    count = ask.count or 1
    return Deal(ask, buyer, market, place, rank, level, listing, count, seller)


def _layer_hides(listing: Listing, state: GameState, ctx: Context) -> str | None:
    """ITM-MARKET-13: not for sale when a layer of this game hides the item or removed its coin."""
    gone = removed(ctx.ruleset, state.layers)
    if listing.found.ref in gone.items:
        return f"{listing.found.label} is not for sale in this game: a layer took it out."
    if listing.coin is not None and listing.coin.unit.id in gone.coins:
        return f"{listing.found.label} is priced in {listing.coin.unit.label}, which are not used " \
            "in this game: it is not for sale."
    return None


def _listing(ask: ItemAsk, buyer: Member, market: MarketIndex, state: GameState,
             ctx: Context) -> Listing | InventoryRecord:
    """ITM-MARKET-23: ``unknown-item`` for a name that is no ruleset item; an item invented in
    this game is known but no market sells it (``not-for-sale``)."""
    found = market.items.find(ask.item)
    if found is not None:
        return market.listing(found)
    invented = find_item(ctx.ruleset, state, ask.item)
    if invented is not None:
        return _refuse(ask, buyer, "not-for-sale", f"{invented.label} was made up in this game: "
                       "no market sells it.", item=invented.label)
    return _refuse(ask, buyer, "unknown-item", f"No item called {ask.item} in this ruleset.")


def _named_seller(ask: ItemAsk, buyer: Member,
                  market: MarketIndex) -> Seller | InventoryRecord | None:
    """SPEC §10: a ``seller=`` nobody answers to is ``no-seller``."""
    name = (ask.attrs.get("seller") or "").strip()
    if not name:
        return None
    seller = market.seller(name)
    if seller is None:
        known = ", ".join(s.label for s in market.market.sellers) or "none: anyone sells"
        return _refuse(ask, buyer, "no-seller", f"Nobody here is called {name}; the sellers are "
                       f"{known}.")
    return seller


# --- finding who sells it (not-here .. sold-out) ------------------------------------------------


def find_offer(deal: Deal, state: GameState, ctx: Context) -> Offer | InventoryRecord:
    """ITM-MARKET-08..11, ITM-DAY-04..07: the first local offer the buyer may take, with enough
    pieces left today."""
    offers = _offers(deal, state, ctx)
    if not offers:
        return _nobody(deal)
    served = [o for o in offers if o.seller is None or serves(ctx.ruleset, state,
                                                              deal.buyer.character, o.seller)]
    if not served:
        return _not_to_you(deal, [o.seller for o in offers if o.seller is not None])
    ready = next((o for o in served if o.left is None or o.left >= deal.count), None)
    if ready is None:
        most = max(o.left or 0 for o in served)
        return _refuse(deal.ask, deal.buyer, "sold-out", f"{deal.listing.found.label}: only "
                       f"{most} left for sale today.", item=deal.listing.found.label)
    return ready


def _offers(deal: Deal, state: GameState, ctx: Context) -> list[Offer]:
    """Regular wares first (sellers in the file's order), then today's stock; but a purchase that
    names a dishonest seller takes their stock first, so it yields the fake (ITM-FAKE-06)."""
    market = deal.market.market
    stock = todays_stock(ctx.ruleset, ctx.seed, deal.place.name, deal.place.day)
    sold = today(state, deal.place)
    local = [s for s in market.sellers if found_in(s, deal.rank, deal.market.ranks)
             and (deal.seller is None or s.id == deal.seller.id)]
    ref = deal.listing.found.ref
    limit = stock.limited.get(ref)
    left = None if limit is None else limit - sold.limited.get(ref, 0)
    regular: list[Offer] = []
    if _placed(deal):
        regular = [Offer(None, None, left)] if not market.sellers and deal.listing.regular \
            else [Offer(s, None, left) for s in local if s.id in deal.listing.sellers]
    wares = [Offer(s, w, w.count - sold.stock.get(w.key, 0)) for s in local for w in stock.of(s.id)
             if w.shown == ref and (deal.seller is not None or w.ref == w.shown)]
    if deal.seller is not None and deal.seller.honest is False:
        return wares + regular
    return regular + wares


def _placed(deal: Deal) -> bool:
    """ITM-MARKET-08: the place is at least the item's smallest place."""
    return deal.listing.place is None or deal.listing.place <= deal.rank


def _nobody(deal: Deal) -> InventoryRecord:
    """``not-here`` when the place is too small for a regular ware, else ``no-seller``."""
    label = deal.listing.found.label
    if deal.listing.regular and not _placed(deal):
        size = deal.market.market.places[deal.listing.place or 0].label
        return _refuse(deal.ask, deal.buyer, "not-here", f"{label} is sold from a {size} up; "
                       f"{deal.place.name} is too small.", item=label)
    who = f"The {deal.seller.label} does not sell" if deal.seller else "Nobody here sells"
    return _refuse(deal.ask, deal.buyer, "no-seller", f"{who} {label}.", item=label)


def _not_to_you(deal: Deal, sellers: list[Seller]) -> InventoryRecord:
    """ITM-MARKET-10: the GM is told the seller's ``only`` label."""
    seller = next(s for s in sellers if s.only is not None)
    whom = seller.only.label if seller.only and seller.only.label else "some buyers"
    label = deal.listing.found.label
    return _refuse(deal.ask, deal.buyer, "not-to-you",
                   f"The {seller.label} sells {label} only to {whom}.", item=label)


# --- paying and delivering (cannot-afford, too-heavy) -------------------------------------------


def settle(deal: Deal, offer: Offer, state: GameState, ctx: Context) -> Resolution:
    """ITM-MARKET-20/21: pay with change, then deliver; both or neither."""
    listing = deal.listing
    assert listing.value is not None and listing.coin is not None
    cost = price(listing.value, listing.coin, deal.market.family(listing.coin.family.id),
                 deal.level.times, deal.count)
    held_back = notice_before_buy(state, ctx, deal.buyer.index, offer.seller, offer.ware,
                                  deal.place)
    if held_back is not None:  # ITM-FAKE-25..27: a party member spoke up; nothing is paid
        return held_back
    character = deal.buyer.character
    payment = pay(ctx.ruleset, character, cost.value, cost.family) if cost.value else None
    if isinstance(payment, Refusal):
        return Resolution(state, _unpaid(deal, cost, payment, ctx))
    paid = character.model_copy(update={"bag": payment.bag}) if payment else character
    goods = fake_for(offer.ware, offer.seller) if offer.ware else Goods(item=listing.found.ref)
    if not listing.found.is_service:
        weight = piece_weight(deal.market.items, goods) * deal.count
        if not fits(ctx.ruleset, paid, weight):
            return Resolution(state, _refuse(
                deal.ask, deal.buyer, "too-heavy", f"{deal.buyer.name} cannot carry "
                f"{deal.count} {listing.found.label}: past their limit. Nothing is paid.",
                item=listing.found.label))
        paid = paid.model_copy(update={"bag": put(paid.bag, goods, deal.count,
                                                  listing.found.stack_limit)})
    state = _sold_today(state.with_character(deal.buyer.index, paid), deal, offer)
    return Resolution(state, _bought(deal, offer, cost, payment, paid.bag, goods))


def _unpaid(deal: Deal, cost: Price, refusal: Refusal, ctx: Context) -> InventoryRecord:
    """``cannot-afford`` with the buyer's purse, or ``too-heavy`` for change past the limit."""
    line = refusal.feedback
    if refusal.reason == "cannot-afford":
        line = f"{deal.buyer.name} cannot afford {cost.text}: " \
            f"{purse_line(ctx.ruleset, deal.buyer.character.bag)}."
    record = _refuse(deal.ask, deal.buyer, refusal.reason, line, item=deal.listing.found.label)
    return record.model_copy(update={"price": cost.text, "level": deal.level.id})


def _sold_today(state: GameState, deal: Deal, offer: Offer) -> GameState:
    """ITM-DAY-04..07: today's market counts the pieces taken from stock or from a limit."""
    if offer.left is None:
        return state
    day = today(state, deal.place)
    if offer.ware is not None:
        key = offer.ware.key
        update = {"stock": {**day.stock, key: day.stock.get(key, 0) + deal.count}}
    else:
        ref = deal.listing.found.ref
        update = {"limited": {**day.limited, ref: day.limited.get(ref, 0) + deal.count}}
    return with_today(state, day.model_copy(update=update))


def _bought(deal: Deal, offer: Offer, cost: Price, payment: Payment | None, bag: Bag,
            goods: Goods) -> InventoryRecord:
    """SPEC §6 / ITM-MARKET-22: the price, what was paid and what came back as change."""
    label = deal.listing.found.label
    service = deal.listing.found.is_service
    paid_line = payment.line if payment else "Nothing to pay."
    note = " ".join([*deal.ask.notes, paid_line])
    source = f" from the {offer.seller.label}" if offer.seller else ""
    line = f"{deal.buyer.name} buys {deal.count} {label}{source} for {cost.text} " \
        f"({deal.level.label}). {note}"
    return InventoryRecord(
        status="resolved", action="buy", item=label, count=deal.count, who=deal.buyer.name,
        level=deal.level.id, seller=offer.seller.id if offer.seller else None,
        now=None if service else held(bag, goods), price=cost.text, note=note, feedback=line,
        paid={c.unit.id: n for c, n in payment.paid} if payment else {},
        change={c.unit.id: n for c, n in payment.back} if payment else {})


# --- refusals ------------------------------------------------------------------------------------


def _refuse(ask: ItemAsk, buyer: Member, reason: str, feedback: str, *,
            item: str | None = None) -> InventoryRecord:
    """A refused buy: nothing changed; the level and seller as the GM wrote them."""
    record = refused(ask.action, reason, feedback, item=item or ask.item or None, who=buyer.name)
    return record.model_copy(update={"level": _written(ask, "level"),
                                     "seller": _written(ask, "seller")})


def _no_place(ask: ItemAsk, buyer: Member, has_market: bool, place: Place | None) -> \
        InventoryRecord:
    """ITM-MARKET-23 / Ambiguity 9: no place named, or one without a market."""
    if not has_market:
        line = "This ruleset has no market: pay and add instead."
    elif place is None:
        line = 'No place has been named: set one with [place: name="…" size="…"].'
    else:
        line = f"{place.name} has no market."
    return _refuse(ask, buyer, "no-place", line)


def _levels(market: MarketIndex) -> str:
    return ", ".join(level.id for level in market.market.prices)


def _written(ask: ItemAsk, key: str) -> str | None:
    value = clean_value(ask.attrs.get(key) or "").strip()
    return value or None
