"""The exact odds of a dice-sum check before it is thrown, read as ``resolve.py`` would roll it."""

from __future__ import annotations

from middleware.resolve.checks.ask import pick_difficulty
from middleware.resolve.checks.dice_sum.dice import (
    EffectDice,
    SumCheck,
    default_dc,
    settle_mode,
    sum_dice_from,
)
from middleware.resolve.checks.dice_sum.odds import check_odds
from middleware.resolve.checks.kind import Roll, game_ladder, resolution_as
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import outcomes_from
from middleware.rules.kinds.dice_sum import DiceSum


def sum_odds(roll: Roll) -> Odds:
    """CHK-SUM with CHK-OUT: the ``SumCheck`` the dice-sum kind builds (``checks.dice_sum``)."""
    res, sheet, ask = resolution_as(roll, DiceSum), roll.sheet, roll.ask
    spec = sum_dice_from(res)
    effects = (EffectDice.parse(m.dice, m.minus) for m in sheet.modifiers if m.dice)
    check = SumCheck(
        dice=spec, dc=pick_difficulty(ask, res, default_dc(spec), game_ladder(roll)).dc,
        modifier=sheet.number + sheet.adjust + sheet.penalty
        + sum(m.flat for m in sheet.modifiers),
        mode=settle_mode((*ask.leans, *(lean for lean, _ in sheet.leans)), bool(res.advantage)),
        naturals=roll.ctx.ruleset.naturals_for("save" if sheet.target == "save" else "check"),
        unmodified=tuple(res.unmodified) if spec.single else (),
        effects=tuple(e for e in effects if e is not None),
    )
    return check_odds(check, outcomes_from(res.outcomes))
