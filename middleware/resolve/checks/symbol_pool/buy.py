"""Spending on a symbol-pool check: points buy extra base dice, within ``pool.max`` (CHK-SYM-17).

The standing-spend rules are the pools' (``spend.py``: the ``spend=`` offer, the rule of that pool,
``perCheck``, all or nothing, whole purchases; CHK-SPEND-08/11..16). What is particular here: a
symbol pool may buy only dice (CHK-SPEND-09, CHK-IMPORT-43), and no more purchases are made than
the room left under ``pool.max`` can hold, so nothing is paid for a die that would not be thrown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from middleware.character.check import pool_value
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.spend import Offer, buy_spend
from middleware.resolve.checks.symbol_pool.pool import SymbolAsk, own_dice
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.state import GameState

__all__ = ["Purchase", "buy_dice"]


@dataclass(frozen=True, slots=True)
class Purchase:
    """What ``spend=`` bought: base dice, the record's ``spend=``, the paid state, a GM note."""

    dice: int = 0
    spend: str | None = None
    state: GameState | None = None
    note: str | None = None


def buy_dice(roll: Roll, resolution: SymbolPool, ability: int, rank: int) -> Purchase:
    """CHK-SYM-17: the base dice ``spend=`` buys for this roller, paid from their live pool."""
    offer = Offer.parse(roll.ask.attrs.get("spend"))
    if offer is None:
        return Purchase()
    room = _room(resolution, ability, rank)
    if room == 0 and resolution.spend:
        return Purchase(note="The pool is already at its limit: nothing spent.")
    found = pool_value(roll.ctx.ruleset, roll.state, roll.roller, offer.pool)
    rule = next((r for r in resolution.spend if found and r.pool == found[0]), None)
    if rule is not None and rule.dice:
        fits = math.ceil(room / rule.dice) * rule.amount
        if offer.points > fits:
            # Offer only what can be thrown: the rest is neither bought nor paid.
            attrs = {**roll.ask.attrs, "spend": f"{offer.pool}:{fits}"}
            roll = roll._replace(ask=roll.ask._replace(attrs=attrs))
    bought = buy_spend(roll)
    return Purchase(dice=min(bought.dice, room), spend=bought.paid,
                    state=bought.paid_state(roll) if bought.character else None,
                    note=bought.note)


def _room(resolution: SymbolPool, ability: int, rank: int) -> int:
    """How many base dice ``pool.max`` still allows after the sheet's pool."""
    upgraded, base, _, _ = own_dice(resolution, SymbolAsk(ability=ability, rank=rank, dc=0))
    return resolution.pool.max - upgraded - base
