"""The ``dice-pool`` kind: throw the sheet number in dice, count the successes (CHK-POOL-01..26).

``dice_pool`` is the kind ``KINDS["dice-pool"]`` runs. It buys first (a used entry with ``use=``,
else a standing ``spend=``; never both, CHK-CHARM, CHK-SPEND), reads the numbers into a
``PoolCheck`` (``pool_read.py``), throws it (``pool_rules.roll_pool``), judges the net successes by
the tiers (CHK-OUT-02/11) and writes the record (CHK-REC-01..08, CHK-REC-20). The state it answers
carries the paid pool, so the next check in the reply spends from what is left (SPEC §3).
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.cache import per_ruleset
from middleware.resolve.checks.changes import changes_of
from middleware.resolve.checks.charms import buy_charm
from middleware.resolve.checks.dice_pool.odds import pool_odds
from middleware.resolve.checks.dice_pool.read import (
    Need,
    best_reroll,
    named_reroll,
    pick_need,
    pick_target,
    pool_size,
    rule_face,
    stance_count,
)
from middleware.resolve.checks.dice_pool.rules import PoolCheck, PoolRoll, pool_verdict, roll_pool
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.outcome import Outcomes, Verdict, outcomes_from
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.checks.spend import Bought, buy_spend
from middleware.rules.kinds.dice_pool import DicePool
from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Plan:
    """One pool check read and ready to throw, with what the record shows beside the dice."""

    check: PoolCheck
    need: Need
    bonus: int
    explode_moved: bool
    double_moved: bool
    notes: tuple[str, ...]


def dice_pool(roll: Roll) -> Rolled:
    """CHK-POOL, CHK-SPEND, CHK-CHARM, CHK-OUT for a pool: buy, read, throw, judge, record."""
    res = roll.ctx.ruleset.resolution
    if not isinstance(res, DicePool):
        raise TypeError(f"dice_pool called on a {res.kind} ruleset")
    use = (roll.ask.attrs.get("use") or "").strip()
    bought = buy_charm(roll, use) if use else buy_spend(roll)
    plan = plan_pool(roll, res, bought)
    thrown = roll_pool(plan.check, roll.ctx.dice)
    outcomes = _outcomes(roll.ctx.ruleset)
    verdict = pool_verdict(plan.check, thrown, outcomes)
    record = _record(roll, plan, bought, thrown, verdict, pool_odds(plan.check, outcomes).chance)
    return Rolled(record, bought.paid_state(roll))


def plan_pool(roll: Roll, res: DicePool, bought: Bought) -> Plan:
    """Every number of the check, in the order of SHEET-CHK-03 and checks.md §3."""
    need = pick_need(roll, res)
    target, target_note = pick_target(roll, res, need.rung_target, bought)
    dice, bonus = pool_size(roll, res, bought)
    attrs, sides, count = roll.ask.attrs, res.die.sides, stance_count(roll, res)
    explode, explode_moved = rule_face(res.explode, attrs.get("explode"), bought.explode, sides)
    double, double_moved = rule_face(res.double, attrs.get("double"), bought.double, sides)
    counted = count == "reach"  # CHK-POOL-18: a stance skips explode, double, cancel, botch
    check = PoolCheck(
        sides=sides, dice=dice, target=target, needed=need.needed,
        explode=explode if counted else None, explode_cap=res.pool.max,
        double=double if counted else None,
        cancel=res.cancel.up_to if res.cancel and counted else None,
        botch=res.botch.up_to if res.botch and counted else None,
        botch_rule=res.botch.rule if res.botch else "noSuccesses",
        exceptional=res.exceptional.successes if res.exceptional and not res.outcomes
        else None,
        reroll=best_reroll(named_reroll(roll, res), bought.reroll), auto=bought.successes,
        count=count, exact_counts=res.exact.counts if res.exact else None,
    )
    notes = tuple(n for n in (need.note, target_note, bought.note) if n)
    return Plan(check, need, bonus, explode_moved and counted, double_moved and counted, notes)


def _record(roll: Roll, plan: Plan, bought: Bought, thrown: PoolRoll, verdict: Verdict,
            chance: float) -> CheckRecord:
    """CHK-REC-01..08/20: what the roll used, each extra only where it applies; built once, with
    ``effects``/``from`` (ITM-CHECK-15) and the source already in place."""
    check, sheet, ask = plan.check, roll.sheet, roll.ask
    reroll = check.reroll
    effects, sources = changes_of(sheet, roll.ctx.ruleset.resolution)
    return CheckRecord.trusted(
        status="resolved", skill=ask.skill, who=ask.who, dc=check.needed,
        rolls=list(thrown.rolls), used=thrown.successes, modifier=thrown.net - thrown.successes,
        total=thrown.net, success=verdict.success, critical=verdict.critical,
        outcome=verdict.outcome, tier=verdict.tier.id if verdict.tier else None,
        tier_text=verdict.tier.text if verdict.tier else None, mode="normal",
        resolution="successes", dice=f"{check.dice}d{check.sides}", threshold=check.target,
        pool=check.dice, with_=sheet.with_used, bonus=plan.bonus or None, spend=bought.paid,
        auto=check.auto or None, use=bought.use, rerolled=thrown.rerolled or None,
        penalty=sheet.penalty or None, difficulty=plan.need.rung,
        explode=check.explode if plan.explode_moved else None,
        double=check.double if plan.double_moved else None,
        complication=True if thrown.complication else None, adjust=sheet.adjust or None,
        reroll=reroll.id if reroll and reroll.id and thrown.rerolled else None,
        reason=bought.reason, effects=effects, from_=sources,
        exact=thrown.exact if check.exact_counts is not None else None,
        chance=chance, source=ask.source, feedback=_feedback(roll, plan, thrown, verdict),
    )


def _feedback(roll: Roll, plan: Plan, thrown: PoolRoll, verdict: Verdict) -> str:
    """The engine's line for the GM: the result, the tier's text, botch or complication, the
    exact dice and anything chosen, clamped or refused."""
    plain = "success" if verdict.success else "failure"
    word = verdict.outcome or (f"critical {plain}" if verdict.critical else plain)
    parts = [f"{roll.ask.skill}: {word} ({thrown.net} successes, {plan.check.needed} needed)."]
    if verdict.tier is not None and verdict.tier.text:
        parts.append(verdict.tier.text)
    if thrown.botch:
        parts.append("Botch: the dice turned against them.")
    if thrown.complication:
        parts.append("Complication: something goes wrong as well.")
    exact = getattr(roll.ctx.ruleset.resolution, "exact", None)
    if exact is not None and thrown.exact:
        parts.append(f"{exact.label} x{thrown.exact}." + (f" {exact.text}" if exact.text else ""))
    if roll.sheet.target == "unknown":
        parts.append(f'No check is named "{roll.ask.skill}": rolled with no sheet number.')
    return " ".join((*parts, *plan.notes))


@per_ruleset
def _outcomes(ruleset: Ruleset) -> Outcomes | None:
    """The pool's tiers (CHK-OUT) as plain values, read once per ruleset object."""
    return outcomes_from(ruleset.resolution.outcomes)
