"""The dice-sum kind: throw the dice, add the sheet number, read the total by the tiers (CHK-SUM).

The arithmetic of the throw is in ``dice.py`` and its exact odds in ``odds.py``; this module
reads a ``Roll`` into a ``SumCheck``, throws it and writes the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from middleware.cache import IdentityCache
from middleware.character.check import CheckSheet
from middleware.resolve import Context
from middleware.resolve.checks.ask import Difficulty, pick_difficulty
from middleware.resolve.checks.changes import changes_of
from middleware.resolve.checks.dice_sum.dice import (
    EffectDice,
    SumCheck,
    roll_sum,
    settle_mode,
    sum_rules,
)
from middleware.resolve.checks.dice_sum.odds import check_odds
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.outcome import Outcomes, Verdict, judge
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.layers import ladder_of

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


def dice_sum(roll: Roll) -> Rolled:
    """CHK-SUM-01..10 with CHK-OUT: roll, judge by the tiers, write the record with its odds."""
    return roll.unchanged(_dice_sum(roll.ask, roll.sheet, roll.ctx, roll.state.layers))


def _dice_sum(ask: Ask, sheet: CheckSheet, ctx: Context, layers: tuple[str, ...]) -> CheckRecord:
    plan = _plan(ctx.ruleset, sheet, layers, ask)
    roll = roll_sum(plan.check, ctx.dice)
    verdict = judge(plan.outcomes, total=roll.total, needed=plan.check.dc, forced=roll.forced,
                    natural=roll.natural)
    tier = verdict.tier
    return CheckRecord.trusted_values({
        **plan.template, "skill": ask.skill, "who": ask.who, "rolls": list(roll.rolls),
        "used": roll.used, "modifier": roll.total - roll.used, "total": roll.total,
        "success": verdict.success, "critical": verdict.critical, "outcome": verdict.outcome,
        "tier": tier.id if tier else None, "tier_text": tier.text if tier else None,
        "difficulty": plan.difficulty.rung, "unmodified": roll.unmodified, "source": ask.source,
        "feedback": _feedback(ask, sheet, plan.difficulty, verdict, roll.unmodified),
    }, _GIVEN)


_GIVEN = frozenset({
    "status", "skill", "who", "dc", "rolls", "used", "modifier", "total", "success", "critical",
    "outcome", "tier", "tier_text", "mode", "resolution", "dice", "with_", "penalty",
    "difficulty", "adjust", "effects", "from_", "unmodified", "source", "chance", "feedback"})
"""The fields a dice-sum record is given (its ``__pydantic_fields_set__``)."""


class SumPlan(NamedTuple):
    """A dice-sum check as far as it goes before its dice are thrown: the difficulty it is read
    against, the check as plain values, the tiers, and its record's fields that do not depend on
    the throw or on how the ask was written (``CheckRecord.template``: ``chance``, the dice, what
    changed the check), every other field at its default."""

    difficulty: Difficulty
    check: SumCheck
    outcomes: Outcomes | None
    template: dict[str, object]


_PLANS: IdentityCache[SumPlan] = IdentityCache(1024)


def _plan(ruleset: Ruleset, sheet: CheckSheet, layers: tuple[str, ...], ask: Ask) -> SumPlan:
    """CHK-SUM-01..10, CHK-COMMON-08/11: the check's plan, a pure function of frozen values,
    worked out once per (ruleset, sheet) objects, layers and what the ask wrote that it reads
    (``dc``, ``difficulty``, the leans): picking the difficulty and the mode, building the check
    and hashing it for its odds cost as much as throwing it, and its record's fields as much
    again."""
    return _PLANS.get((ruleset, sheet), (layers, ask.dc, ask.difficulty, ask.leans),
                      lambda: _new_plan(ruleset, sheet, layers, ask))


def _new_plan(ruleset: Ruleset, sheet: CheckSheet, layers: tuple[str, ...], ask: Ask) -> SumPlan:
    resolution = ruleset.resolution
    if not isinstance(resolution, DiceSum):
        raise TypeError(f"dice_sum called on a {resolution.kind} ruleset")
    rules = sum_rules(ruleset)
    difficulty = pick_difficulty(ask, resolution, rules.default_dc, ladder_of(ruleset, layers))
    leans = (*ask.leans, *(lean for lean, _ in sheet.leans))
    mode = settle_mode(leans, rules.advantage) if leans else "normal"
    check = SumCheck(
        dice=rules.dice, dc=difficulty.dc,
        modifier=sheet.number + sheet.adjust + sheet.penalty + _flat(sheet), mode=mode,
        naturals=rules.naturals_save if sheet.target == "save" else rules.naturals_check,
        unmodified=rules.unmodified, effects=_effect_dice(sheet),
    )
    effects, sources = changes_of(sheet, resolution)  # ITM-CHECK-15, written once here
    return SumPlan(difficulty, check, rules.outcomes, CheckRecord.template(
        status="resolved", dc=check.dc, mode=check.mode, resolution="sum", dice=rules.dice.label,
        with_=sheet.with_used, penalty=sheet.penalty or None, adjust=sheet.adjust or None,
        effects=effects, from_=sources, chance=check_odds(check, rules.outcomes).chance))


def _feedback(ask: Ask, sheet: CheckSheet, difficulty: Difficulty, verdict: Verdict,
              unmodified: int | None) -> str:
    """The engine's line for the GM: the tier and its text, and anything it chose or ignored."""
    parts = [f"{ask.skill}: {verdict.outcome or ('success' if verdict.success else 'failure')}."]
    if verdict.tier is not None and verdict.tier.text:
        parts.append(verdict.tier.text)
    if unmodified is not None:
        parts.append(f"Unmodified {unmodified}: apply what your rules say about it.")
    if getattr(sheet, "target", None) == "unknown":
        parts.append(f'No check is named "{ask.skill}": rolled with no sheet number.')
    if difficulty.note:
        parts.append(difficulty.note)
    return " ".join(parts)


def _flat(sheet: CheckSheet) -> int:
    return sum(modifier.flat for modifier in sheet.modifiers) if sheet.modifiers else 0


def _effect_dice(sheet: CheckSheet) -> tuple[EffectDice, ...]:
    """SHEET-COND-05: each modifier's ``dice``, thrown through the same seam as the check."""
    if not sheet.modifiers:
        return ()
    found = (EffectDice.parse(m.dice, m.minus) for m in sheet.modifiers if m.dice)
    return tuple(d for d in found if d is not None)
