"""The exact odds of a symbol-pool check before it is thrown: the pool it builds."""

from __future__ import annotations

from middleware.resolve.checks.kind import Roll, game_ladder, resolution_as
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.symbol_pool.buy import buy_dice
from middleware.resolve.checks.symbol_pool.odds import pool_odds as symbol_odds
from middleware.resolve.checks.symbol_pool.pool import build_pool
from middleware.resolve.checks.symbol_pool.resolve import pick_opposition, read_tag, sheet_numbers
from middleware.resolve.checks.symbol_pool.roll import symbol_rules_from
from middleware.rules.kinds.symbol_pool import SymbolPool


def symbol_kind_odds(roll: Roll) -> Odds:
    """CHK-SYM: the pool the symbol-pool kind builds (difficulty, upgrades, bought dice)."""
    res = resolution_as(roll, SymbolPool)
    opposition = pick_opposition(roll.ask.dc, roll.ask.difficulty, res, game_ladder(roll))
    ability, rank, signed = sheet_numbers(roll)
    purchase = buy_dice(roll, res, ability, rank)
    ask = read_tag(roll.ask.attrs, ability, rank, signed, opposition.dc, purchase.dice)
    pool = build_pool(res, ask)
    return symbol_odds(symbol_rules_from(res), pool.plan(res), outcomes_from(res.outcomes))
