"""The exact odds of a roll-against check before it is thrown, tens dice included."""

from __future__ import annotations

from middleware.resolve.checks.kind import Roll, game_ladder, resolution_as
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.roll_against.odds import against_odds
from middleware.resolve.checks.roll_against.resolve import (
    against_check,
    against_rules_from,
    pick_aim,
    read_tens,
    sheet_number,
    target_of,
)
from middleware.rules.kinds.roll_against import RollAgainst


def against_kind_odds(roll: Roll) -> Odds | None:
    """CHK-AGAINST: the ``AgainstCheck`` the roll-against kind builds (tens dice included); None
    when its dice have too many sums to work out (``odds_against.MAX_SUMS``)."""
    res = resolution_as(roll, RollAgainst)
    rules = against_rules_from(res)
    aim = pick_aim(roll.ask, game_ladder(roll))
    tens, _ = read_tens(roll.ask, rules)
    check = against_check(res, target_of(sheet_number(roll.sheet, rules), aim), tens)
    return against_odds(check)
