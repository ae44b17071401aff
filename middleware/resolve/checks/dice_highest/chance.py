"""The exact odds of a dice-highest check before it is thrown, bought dice included."""

from __future__ import annotations

from middleware.resolve.checks.dice_highest.odds import highest_odds
from middleware.resolve.checks.dice_highest.resolve import check_from, read_highest, sheet_dice
from middleware.resolve.checks.kind import Roll, game_ladder, resolution_as
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.spend import buy_spend
from middleware.rules.kinds.dice_highest import DiceHighest


def highest_kind_odds(roll: Roll) -> Odds:
    """CHK-HIGH: the ``HighestCheck`` the dice-highest kind builds, bought dice included."""
    res = resolution_as(roll, DiceHighest)
    asked = read_highest(roll.ask, res, game_ladder(roll))
    dice = sheet_dice(roll.sheet) + (asked.bonus or 0) + buy_spend(roll).dice
    return highest_odds(check_from(res, asked, dice), outcomes_from(res.outcomes))
