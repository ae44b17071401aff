"""The dice-sum kind: throw the dice, add the sheet number, read the total by the tiers (CHK-SUM).

The arithmetic of the throw is in ``dice.py`` and its exact odds in ``odds.py``; this module
reads a ``Roll`` into a ``SumCheck``, throws it and writes the record.
"""

from __future__ import annotations

from middleware.cache import IdentityCache
from middleware.character.check import CheckSheet
from middleware.resolve import Context
from middleware.resolve.checks.ask import Difficulty, pick_difficulty
from middleware.resolve.checks.changes import changes_of
from middleware.resolve.checks.dice_sum.dice import (
    EffectDice,
    SumCheck,
    SumRules,
    roll_sum,
    settle_mode,
    sum_rules,
)
from middleware.resolve.checks.dice_sum.odds import check_odds
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.outcome import Verdict, judge
from middleware.resolve.checks.record import Ask, CheckRecord, Mode
from middleware.rules.common import Rung
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.layers import ladder_of


def dice_sum(roll: Roll) -> Rolled:
    """CHK-SUM-01..10 with CHK-OUT: roll, judge by the tiers, write the record with its odds."""
    ladder = ladder_of(roll.ctx.ruleset, roll.state.layers)
    return roll.unchanged(_dice_sum(roll.ask, roll.sheet, roll.ctx, ladder))


def _dice_sum(ask: Ask, sheet: CheckSheet, ctx: Context, ladder: tuple[Rung, ...]) -> CheckRecord:
    resolution = ctx.ruleset.resolution
    if not isinstance(resolution, DiceSum):
        raise TypeError(f"dice_sum called on a {resolution.kind} ruleset")
    rules = sum_rules(ctx.ruleset)
    difficulty = pick_difficulty(ask, resolution, rules.default_dc, ladder)
    leans = (*ask.leans, *(lean for lean, _ in sheet.leans)) if sheet.leans else ask.leans
    mode = settle_mode(leans, rules.advantage) if leans else "normal"
    check, template = _sum_check(rules, sheet, difficulty.dc, mode, resolution)
    roll = roll_sum(check, ctx.dice)
    verdict = judge(rules.outcomes, total=roll.total, needed=check.dc, forced=roll.forced,
                    natural=roll.natural)
    tier = verdict.tier
    return CheckRecord.trusted_values({
        **template, "skill": ask.skill, "who": ask.who, "rolls": list(roll.rolls),
        "used": roll.used, "modifier": roll.total - roll.used, "total": roll.total,
        "success": verdict.success, "critical": verdict.critical, "outcome": verdict.outcome,
        "tier": tier.id if tier else None, "tier_text": tier.text if tier else None,
        "difficulty": difficulty.rung, "unmodified": roll.unmodified, "source": ask.source,
        "feedback": _feedback(ask, sheet, difficulty, verdict, roll.unmodified),
    }, _GIVEN)


_GIVEN = frozenset({
    "status", "skill", "who", "dc", "rolls", "used", "modifier", "total", "success", "critical",
    "outcome", "tier", "tier_text", "mode", "resolution", "dice", "with_", "penalty",
    "difficulty", "adjust", "effects", "from_", "unmodified", "source", "chance", "feedback"})
"""The fields a dice-sum record is given (its ``__pydantic_fields_set__``)."""


_SUM_CHECKS: IdentityCache[tuple[SumCheck, dict[str, object]]] = IdentityCache(1024)


def _sum_check(rules: SumRules, sheet: CheckSheet, dc: int, mode: Mode,
               resolution: DiceSum) -> tuple[SumCheck, dict[str, object]]:
    """CHK-SUM-01..09: the check as plain values, and its record's fields that do not depend on
    the throw or on how the ask was written (``CheckRecord.template``: ``chance``, the dice,
    what changed the check), every other field at its default.

    A pure function of frozen values, worked out once per (rules, sheet) objects, dc and mode
    (``resolution`` is the ruleset's, which ``rules`` was read from): building the check and
    hashing it for its odds cost as much as throwing it, and its record's fields as much again.
    """
    return _SUM_CHECKS.get((rules, sheet), (dc, mode),
                           lambda: _new_sum_check(rules, sheet, dc, mode, resolution))


def _new_sum_check(rules: SumRules, sheet: CheckSheet, dc: int, mode: Mode,
                   resolution: DiceSum) -> tuple[SumCheck, dict[str, object]]:
    check = SumCheck(
        dice=rules.dice, dc=dc, modifier=sheet.number + sheet.adjust + sheet.penalty + _flat(sheet),
        mode=mode, naturals=rules.naturals_save if sheet.target == "save" else rules.naturals_check,
        unmodified=rules.unmodified, effects=_effect_dice(sheet),
    )
    effects, sources = changes_of(sheet, resolution)  # ITM-CHECK-15, written once here
    return check, CheckRecord.template(
        status="resolved", dc=check.dc, mode=check.mode, resolution="sum", dice=rules.dice.label,
        with_=sheet.with_used, penalty=sheet.penalty or None, adjust=sheet.adjust or None,
        effects=effects, from_=sources, chance=check_odds(check, rules.outcomes).chance)


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
