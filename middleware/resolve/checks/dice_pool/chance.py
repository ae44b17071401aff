"""The exact odds of a dice-pool check before it is thrown: the pool it plans, after buying."""

from __future__ import annotations

from middleware.resolve.checks.charms import buy_charm
from middleware.resolve.checks.dice_pool.odds import pool_odds
from middleware.resolve.checks.dice_pool.resolve import plan_pool
from middleware.resolve.checks.kind import Roll, resolution_as
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.spend import buy_spend
from middleware.rules.kinds.dice_pool import DicePool


def dice_pool_odds(roll: Roll) -> Odds:
    """CHK-POOL, CHK-SPEND, CHK-CHARM: the ``PoolCheck`` the pool kind plans, after buying."""
    res = resolution_as(roll, DicePool)
    use = (roll.ask.attrs.get("use") or "").strip()
    bought = buy_charm(roll, use) if use else buy_spend(roll)
    return pool_odds(plan_pool(roll, res, bought).check, outcomes_from(res.outcomes))
