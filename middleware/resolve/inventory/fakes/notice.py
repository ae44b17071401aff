"""Noticing a fake before paying for it (ITM-FAKE-25..28).

When a purchase would hand over a fake from a dishonest seller, every other party member, in party
order with the player first and the buyer skipped (Ambiguity 24), scores each check they could make
about the item (the fake's ``tells``) and the seller (its ``manner``) without rolling:
``passiveBase`` (default 10) plus their value, +5 with advantage, -5 with disadvantage; with
``warnBy: "roll"`` each is rolled instead. The first to reach the difficulty holds the purchase:
nothing is paid and the buy answers ``reason="held"`` with who noticed what; the Game Master is asked
to play the warning in character and leave the choice to the buyer. The hold is remembered for the
market day (``MarketDay.held``): asking again for the same purchase from the same seller that day
goes through.

J4's buy calls ``notice_before_buy`` once it knows the offer, before it pays.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.items.index import item_index
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.fakes.tells import About, tries
from middleware.resolve.inventory.fakes.tells import roll as roll_tell
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.resolve.market.day import today
from middleware.resolve.market.stock import Ware
from middleware.rules.items_money import Seller, Tell
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, MarketDay, Place


@dataclass(frozen=True, slots=True)
class Noticed:
    """Who noticed what before a buy paid for a fake."""

    who: str
    check: str
    says: str
    about_seller: bool


def notice_before_buy(state: GameState, ctx: Context, buyer: int, seller: Seller | None,
                      ware: Ware | None, place: Place) -> Resolution | None:
    """ITM-FAKE-25..28: None when the purchase goes through; else the held buy: nothing paid,
    ``reason="held"`` with who noticed what, and the hold remembered so asking again for the same
    purchase from the same seller today goes through."""
    if ware is None or seller is None or seller.honest or ware.shown == ware.ref:
        return None
    day: MarketDay = today(state, place)
    if ware.key in day.held:
        return None
    noticed = _first_to_notice(state, ctx, buyer, seller, ware)
    if noticed is None:
        return None
    held = day.model_copy(update={"held": (*day.held, ware.key)})
    state = state.model_copy(update={"market": held})
    return Resolution(state, _held_record(ctx.ruleset, state, buyer, seller, ware, noticed))


def _asked(ctx: Context, seller: Seller, ware: Ware) -> list[tuple[Tell, About]]:
    found = item_index(ctx.ruleset).by_ref(ware.ref)
    asked: list[tuple[Tell, About]] = [(t, "item") for t in (found.item.tells if found else ())]
    return asked + ([(seller.manner, "seller")] if seller.manner is not None else [])


def _first_to_notice(state: GameState, ctx: Context, buyer: int, seller: Seller,
                     ware: Ware) -> Noticed | None:
    """Ambiguity 24: party order, player first, skipping the buyer; each member's checks in
    order (the fake's tells, then the seller's manner); the first to reach the difficulty."""
    block = ctx.ruleset.items
    base = block.passive_base if block is not None else 10
    rolled = block is not None and block.warn_by == "roll"
    asked = _asked(ctx, seller, ware)
    for at in _party_order(state, buyer):
        for attempt in tries(ctx.ruleset, state, at, asked):
            if rolled:
                record = roll_tell(ctx, state, at, attempt)
                reached = record is not None and record.success is True
            else:
                reached = attempt.passive(base) >= attempt.tell.dc
            if reached:
                return Noticed(state.party[at].name, attempt.name, attempt.tell.says,
                               attempt.about == "seller")
    return None


def _party_order(state: GameState, buyer: int) -> list[int]:
    player = state.player_index
    order = ([player] if player is not None else []) + \
        [i for i in range(len(state.party)) if i != player]
    return [i for i in order if i != buyer]


def _held_record(ruleset: Ruleset, state: GameState, buyer: int, seller: Seller, ware: Ware,
                 noticed: Noticed) -> InventoryRecord:
    shown = item_index(ruleset).by_ref(ware.shown)
    label = shown.label if shown is not None else ware.shown
    name = state.party[buyer].name
    what = "about the seller" if noticed.about_seller else f"about the {label}"
    note = f"{noticed.who} noticed something {what} ({noticed.check}): {noticed.says}."
    line = f"Held: nothing is paid. {note} Play it as {noticed.who} warning {name}, in " \
        "character, without accusing the seller outright unless that is their way, and leave the " \
        f"choice to {name}. Asking again for the same purchase from the {seller.label} today " \
        "goes through."
    record = refused("buy", "held", line, item=label, who=name)
    return record.model_copy(update={"note": note, "seller": seller.id})

