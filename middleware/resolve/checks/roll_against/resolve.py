"""The ``roll-against`` kind: roll at most (or at least) the sheet number (CHK-AGAINST, CHK-REC-14).

Reading order: the sheet number is the target (CHK-AGAINST-01); a named rung's ``divide`` divides
it (rounding down) and the shift is added: target = floor(number ÷ divide) + dc, where a tag ``dc=``
(−100..100) replaces the rung's ``dc`` but the rung still divides (CHK-AGAINST-04/05,
CHK-COMMON-09, checks.md Ambiguity 15). Without ``dc=`` or ``difficulty=`` the target is the sheet
number itself (a plain Call of Cthulhu roll is Regular).

Our choices where the page is silent: the sheet's own adjustments (``adjust``, the wound penalty,
flat condition effects) move the target in the roller's favour when positive: added on an
``at-most`` roll, taken off on an ``at-least`` one, so a penalty always makes the check harder.
Effect dice and advantage/disadvantage do not apply to this kind (no ``advantage`` key); the GM is
told so, and pointed at ``bonus=`` where the ruleset has tens dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from middleware.character.check import CheckSheet
from middleware.names import normalize_name
from middleware.resolve.checks.changes import marks
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.outcome import Verdict, outcomes_from
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.resolve.checks.roll_against.odds import against_odds
from middleware.resolve.checks.roll_against.roll import (
    AgainstCheck,
    AgainstRules,
    CriticalRule,
    throw_against,
    verdict,
)
from middleware.rules.common import AgainstRung
from middleware.rules.kinds.roll_against import CriticalFailureRule, CriticalSuccessRule, RollAgainst
from middleware.rules.layers import ladder_of

__all__ = ["Aim", "against_check", "against_rules_from", "pick_aim", "read_tens", "roll_against",
           "sheet_number", "target_of"]

SHIFT_LIMIT = 100
"""CHK-AGAINST-05: a tag ``dc=`` shifts the target by −100..100 (clamped)."""


@dataclass(frozen=True, slots=True)
class Aim:
    """What the difficulty does to the sheet number: divide it, then shift it (CHK-AGAINST-04)."""

    shift: int = 0
    divide: int | None = None
    rung: str | None = None
    note: str | None = None


def roll_against(roll: Roll) -> Rolled:
    """CHK-AGAINST-01..10 with CHK-OUT: the Kind for ``resolution.kind == "roll-against"``."""
    resolution = roll.ctx.ruleset.resolution
    if not isinstance(resolution, RollAgainst):
        raise TypeError(f"roll_against called on a {resolution.kind} ruleset")
    return roll.unchanged(_record(roll, resolution))


def _record(roll: Roll, resolution: RollAgainst) -> CheckRecord:
    ask, sheet = roll.ask, roll.sheet
    rules = against_rules_from(resolution)
    aim = pick_aim(ask, ladder_of(roll.ctx.ruleset, roll.state.layers))
    tens, tens_note = read_tens(ask, rules)
    check = against_check(resolution, target_of(sheet_number(sheet, rules), aim), tens)
    thrown = throw_against(check, roll.ctx.dice)
    judged = verdict(check, thrown.kept)
    odds = against_odds(check)
    return CheckRecord.trusted(
        status="resolved", skill=ask.skill, who=ask.who, dc=check.target, rolls=list(thrown.rolls),
        used=thrown.kept, modifier=0, total=thrown.kept, success=judged.success,
        critical=judged.critical, outcome=judged.outcome,
        tier=judged.tier.id if judged.tier else None,
        tier_text=judged.tier.text if judged.tier else None,
        resolution="sum", dice=rules.label, with_=sheet.with_used, bonus=tens or None,
        penalty=sheet.penalty or None, difficulty=aim.rung, adjust=sheet.adjust or None,
        **marks(roll.sheet, roll.ctx.ruleset.resolution), against=rules.against,
        chance=odds.chance if odds else None,
        feedback=_feedback(ask, sheet, check, thrown.kept, judged,
                           (aim.note, tens_note, _unused(ask, sheet, rules))),
    )


def against_check(resolution: RollAgainst, target: int, tens: int = 0) -> AgainstCheck:
    """The check ``resolution`` rolls against ``target`` with ``tens`` (clamped) extra tens dice."""
    outcomes = resolution.outcomes
    return AgainstCheck(rules=against_rules_from(resolution), target=target, tens=tens,
                        outcomes=outcomes_from(outcomes), by=outcomes.by if outcomes else "margin")


def against_rules_from(resolution: RollAgainst) -> AgainstRules:
    """``AgainstRules`` from the ruleset's roll-against model."""
    return AgainstRules(
        count=resolution.dice.count, sides=resolution.dice.sides, against=resolution.against,
        critical_success=tuple(_rule(r) for r in resolution.critical_success),
        critical_failure=tuple(_rule(r) for r in resolution.critical_failure),
        tens_max=resolution.tens.max if resolution.tens else None,
    )


def _rule(model: CriticalSuccessRule) -> CriticalRule:
    when = model.when_target
    return CriticalRule(
        from_=model.from_, to=model.to,
        past=model.past_target if isinstance(model, CriticalFailureRule) else None,
        target_at_least=when.at_least if when else None, target_below=when.below if when else None,
    )


def pick_aim(ask: Ask, ladder: tuple[AgainstRung, ...]) -> Aim:
    """CHK-AGAINST-04/05, CHK-COMMON-08/09/11: ``dc=`` shifts (clamped), a named rung divides
    and, without ``dc=``, shifts; an unknown or shared rung name is ignored with a note."""
    found = [r for r in ladder if ask.difficulty
             and normalize_name(r.label) == normalize_name(ask.difficulty)]
    rung = found[0] if len(found) == 1 else None
    unknown = f'difficulty "{ask.difficulty}" names no rung: ignored.' \
        if ask.difficulty and rung is None else None
    divide = rung.divide if rung else None
    label = rung.label if rung else None
    if ask.dc is not None:
        shift = max(-SHIFT_LIMIT, min(SHIFT_LIMIT, ask.dc))
        clamped = f"dc {ask.dc} clamped to {shift}." if shift != ask.dc else None
        note = " ".join(n for n in (unknown, clamped) if n) or None
        return Aim(shift=shift, divide=divide, rung=label, note=note)
    return Aim(shift=rung.dc if rung else 0, divide=divide, rung=label, note=unknown)


def target_of(number: int, aim: Aim) -> int:
    """CHK-AGAINST-04, Ambiguity 15: floor(number ÷ divide) + shift (60, Hard ÷2 → 30)."""
    return (number // aim.divide if aim.divide else number) + aim.shift


def read_tens(ask: Ask, rules: AgainstRules) -> tuple[int, str | None]:
    """CHK-AGAINST-09, CHK-REC-02: ``bonus="+N"``/``"-N"`` extra tens dice, |N| clamped to
    ``tens.max``; ignored (with a note) where the ruleset has no tens dice."""
    match = re.search(r"[-+]?\d+", ask.attrs.get("bonus") or "")
    wanted = int(match.group()) if match else 0
    if wanted == 0:
        return 0, None
    if not rules.has_tens or rules.tens_max is None:
        return 0, "bonus= ignored: this ruleset throws no tens dice."
    tens = max(-rules.tens_max, min(rules.tens_max, wanted))
    note = f"bonus {wanted:+d} clamped to {tens:+d} tens dice." if tens != wanted else None
    return tens, note


def sheet_number(sheet: CheckSheet, rules: AgainstRules) -> int:
    """The sheet number with its adjustments, each in the roller's favour (module docstring)."""
    extra = sheet.adjust + sheet.penalty + sum(m.flat for m in sheet.modifiers)
    return sheet.number + (extra if rules.against == "at-most" else -extra)


def _unused(ask: Ask, sheet: CheckSheet, rules: AgainstRules) -> str | None:
    """A line for what this kind does not roll: leans and effect dice (CHK-COMMON-11)."""
    parts = []
    if ask.leans or sheet.leans:
        hint = ' (write bonus="+1" or bonus="-1" for tens dice)' if rules.has_tens else ""
        parts.append(f"Advantage and disadvantage do not apply to this roll{hint}.")
    dice = [m.source for m in sheet.modifiers if m.dice]
    if dice:
        parts.append(f"Dice effects ({', '.join(dice)}) do not apply to this roll.")
    return " ".join(parts) or None



def _feedback(ask: Ask, sheet: CheckSheet, check: AgainstCheck, kept: int, judged: Verdict,
              notes: tuple[str | None, ...]) -> str:
    """The engine's line for the GM: the tier (and its text), the roll, and what was changed."""
    word = judged.outcome or ("success" if judged.success else "failure")
    if judged.critical and not judged.outcome:
        word = f"critical {word}"
    rule = "at most" if check.rules.against == "at-most" else "at least"
    parts = [f"{ask.skill}: {word} (rolled {kept}, needed {rule} {check.target})."]
    if judged.tier is not None and judged.tier.text:
        parts.append(judged.tier.text)
    if sheet.target == "unknown":
        parts.append(f'No check is named "{ask.skill}": rolled with no sheet number.')
    parts.extend(n for n in notes if n)
    return " ".join(parts)
