"""The exact odds of a check for every kind, read exactly as the kind would roll it (SPEC §5).

``ODDS`` maps ``resolution.kind`` to a function of the same ``Roll`` a kind gets (STYLE habit 5):
each reads the ask, the sheet and what a ``spend=``/``use=`` would buy through the kind's own
planning functions, then asks that kind's odds module. Nothing is thrown and nothing is paid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from middleware.resolve.checks import pick_difficulty
from middleware.resolve.checks.against import (
    against_check,
    against_rules_from,
    pick_aim,
    read_tens,
    sheet_number,
    target_of,
)
from middleware.resolve.checks.charms import buy_charm
from middleware.resolve.checks.dice_sum import (
    EffectDice,
    SumCheck,
    default_dc,
    settle_mode,
    sum_dice_from,
)
from middleware.resolve.checks.highest import check_from, read_highest, sheet_dice
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.odds import Odds, check_odds
from middleware.resolve.checks.odds_against import against_odds
from middleware.resolve.checks.odds_highest import highest_odds
from middleware.resolve.checks.odds_pool import pool_odds
from middleware.resolve.checks.odds_symbol import pool_odds as symbol_odds
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.pool import plan_pool
from middleware.resolve.checks.spend import buy_spend
from middleware.resolve.checks.symbol import pick_opposition, read_tag, sheet_numbers
from middleware.resolve.checks.symbol_buy import buy_dice
from middleware.resolve.checks.symbol_pool import build_pool
from middleware.resolve.checks.symbol_roll import symbol_rules_from
from middleware.rules.kinds.against import RollAgainst
from middleware.rules.kinds.highest import DiceHighest
from middleware.rules.kinds.pool import DicePool
from middleware.rules.kinds.sum import DiceSum
from middleware.rules.kinds.symbol import SymbolPool
from middleware.rules.layers import ladder_of

OddsOf = Callable[[Roll], Odds | None]
"""One kind's odds: ``def my_odds(roll: Roll) -> Odds | None`` (None: too many sums to work out)."""

R = TypeVar("R")


def sum_odds(roll: Roll) -> Odds:
    """CHK-SUM with CHK-OUT: the ``SumCheck`` the dice-sum kind builds (``checks.dice_sum``)."""
    res, sheet, ask = _resolution(roll, DiceSum), roll.sheet, roll.ask
    spec = sum_dice_from(res)
    effects = (EffectDice.parse(m.dice, m.minus) for m in sheet.modifiers if m.dice)
    check = SumCheck(
        dice=spec, dc=pick_difficulty(ask, res, default_dc(spec), _ladder(roll)).dc,
        modifier=sheet.number + sheet.adjust + sheet.penalty
        + sum(m.flat for m in sheet.modifiers),
        mode=settle_mode((*ask.leans, *(lean for lean, _ in sheet.leans)), bool(res.advantage)),
        naturals=roll.ctx.ruleset.naturals_for("save" if sheet.target == "save" else "check"),
        unmodified=tuple(res.unmodified) if spec.single else (),
        effects=tuple(e for e in effects if e is not None),
    )
    return check_odds(check, outcomes_from(res.outcomes))


def dice_pool_odds(roll: Roll) -> Odds:
    """CHK-POOL, CHK-SPEND, CHK-CHARM: the ``PoolCheck`` the pool kind plans, after buying."""
    res = _resolution(roll, DicePool)
    use = (roll.ask.attrs.get("use") or "").strip()
    bought = buy_charm(roll, use) if use else buy_spend(roll)
    return pool_odds(plan_pool(roll, res, bought).check, outcomes_from(res.outcomes))


def highest_kind_odds(roll: Roll) -> Odds:
    """CHK-HIGH: the ``HighestCheck`` the dice-highest kind builds, bought dice included."""
    res = _resolution(roll, DiceHighest)
    asked = read_highest(roll.ask, res, _ladder(roll))
    dice = sheet_dice(roll.sheet) + (asked.bonus or 0) + buy_spend(roll).dice
    return highest_odds(check_from(res, asked, dice), outcomes_from(res.outcomes))


def against_kind_odds(roll: Roll) -> Odds | None:
    """CHK-AGAINST: the ``AgainstCheck`` the roll-against kind builds (tens dice included); None
    when its dice have too many sums to work out (``odds_against.MAX_SUMS``)."""
    res = _resolution(roll, RollAgainst)
    rules = against_rules_from(res)
    aim = pick_aim(roll.ask, _ladder(roll))
    tens, _ = read_tens(roll.ask, rules)
    check = against_check(res, target_of(sheet_number(roll.sheet, rules), aim), tens)
    return against_odds(check)


def symbol_kind_odds(roll: Roll) -> Odds:
    """CHK-SYM: the pool the symbol-pool kind builds (difficulty, upgrades, bought dice)."""
    res = _resolution(roll, SymbolPool)
    opposition = pick_opposition(roll.ask.dc, roll.ask.difficulty, res, _ladder(roll))
    ability, rank, signed = sheet_numbers(roll)
    purchase = buy_dice(roll, res, ability, rank)
    ask = read_tag(roll.ask.attrs, ability, rank, signed, opposition.dc, purchase.dice)
    pool = build_pool(res, ask)
    return symbol_odds(symbol_rules_from(res), pool.plan(res), outcomes_from(res.outcomes))


ODDS: dict[str, OddsOf] = {
    "dice-sum": sum_odds,
    "dice-pool": dice_pool_odds,
    "dice-highest": highest_kind_odds,
    "roll-against": against_kind_odds,
    "symbol-pool": symbol_kind_odds,
}
"""``resolution.kind`` -> its odds, one entry per kind in ``checks.KINDS``."""


def _resolution(roll: Roll, model: type[R]) -> R:
    res = roll.ctx.ruleset.resolution
    if not isinstance(res, model):
        raise TypeError(f"{model.__name__} odds asked of a {res.kind} ruleset")
    return res


def _ladder(roll: Roll) -> tuple[Any, ...]:
    """The game's difficulty ladder (a layer's replaces the file's while it is on)."""
    return ladder_of(roll.ctx.ruleset, roll.state)
