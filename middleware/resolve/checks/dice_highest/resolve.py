"""The ``dice-highest`` kind: ruleset, sheet and tag read into a ``HighestCheck``, thrown, judged
and recorded (CHK-HIGH-01..14, CHK-REC-10..13).

What the GM may write (CHK-HIGH-06/11/13, CHK-SPEND-11): ``dc=`` or ``difficulty=`` (held to
1..``keep`` × sides), ``bonus=`` (only with ``situationalDice``, clamped to it), ``dark=`` (only
with ``dark``, clamped to 0..``dark.max``) and ``spend=`` (a standing rule buying dice; the pool's
``spend.py`` pays it). The dice are the sheet number, wounds, ``adjust`` and the flat part of
conditions and items (CHK-HIGH-01), plus the bonus and the bought dice; the final count is held to
``pool`` (checks.md Ambiguity 5). ``mode=`` and leans mean nothing here and are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from middleware.character.check import CheckSheet
from middleware.names import normalize_name
from middleware.resolve.checks.changes import marks
from middleware.resolve.checks.dice_highest.odds import highest_odds
from middleware.resolve.checks.dice_highest.roll import (
    MAX_DICE,
    HighestCheck,
    HighestRoll,
    clamp,
    dc_range,
    roll_highest,
    verdict_of,
)
from middleware.resolve.checks.kind import Roll, Rolled
from middleware.resolve.checks.outcome import Verdict, outcomes_from
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.resolve.checks.spend import buy_spend
from middleware.rules.common import DcRung
from middleware.rules.kinds.dice_highest import Dark, DiceHighest
from middleware.rules.kinds.dice_pool import SituationalDice
from middleware.rules.layers import ladder_of

__all__ = ["HighestAsk", "check_from", "dice_highest", "read_highest", "sheet_dice"]


@dataclass(frozen=True, slots=True)
class HighestAsk:
    """What the tag asked of a dice-highest check, after the ruleset's limits (CHK-COMMON-11).

    ``bonus`` is None when the ruleset offers no ``situationalDice`` or the tag wrote none;
    ``notes`` tell the GM what was clamped or ignored.
    """

    dc: int
    rung: str | None
    bonus: int | None
    dark: int
    notes: tuple[str, ...] = ()


def read_highest(ask: Ask, resolution: DiceHighest,
                 ladder: tuple[DcRung, ...] | None = None) -> HighestAsk:
    """CHK-HIGH-06/11/13, CHK-COMMON-08/09/11: ``dc=``/``difficulty=``, ``bonus=``, ``dark=``."""
    low, high = dc_range(resolution.die.sides, resolution.keep)
    ladder = resolution.difficulty_ladder if ladder is None else ladder
    dc, rung, notes = _difficulty(ask, ladder, low, high)
    outcomes = resolution.outcomes
    if outcomes is not None and outcomes.by == "total":
        # The tiers read the kept dice whatever the dc: a default dc is not worth a word.
        notes = tuple(n for n in notes if not n.startswith("No difficulty"))
    bonus, bonus_note = _bounded(ask.attrs.get("bonus"), "bonus", resolution.situational_dice)
    dark, dark_note = _bounded(ask.attrs.get("dark"), "dark", resolution.dark)
    extra = tuple(n for n in (bonus_note, dark_note) if n)
    return HighestAsk(dc=dc, rung=rung, bonus=bonus, dark=dark or 0, notes=(*notes, *extra))


def _difficulty(ask: Ask, ladder: tuple[DcRung, ...], low: int,
                high: int) -> tuple[int, str | None, tuple[str, ...]]:
    """``dc=`` wins, else the named rung, else the middle rung, else just above the middle of
    the range (our choice: an ordinary check); the number held to ``low..high`` (CHK-HIGH-13)."""
    named = [r for r in ladder if ask.difficulty
             and normalize_name(r.label) == normalize_name(ask.difficulty)]
    notes: list[str] = []
    if ask.difficulty and len(named) != 1 and ask.dc is None:
        notes.append(f'Difficulty "{ask.difficulty}" names no rung.')
    if ask.dc is not None:
        wanted, rung = ask.dc, None
    elif len(named) == 1:
        wanted, rung = named[0].dc, named[0].label
    elif ladder:
        middle = ladder[(len(ladder) - 1) // 2]
        wanted, rung = middle.dc, middle.label
        notes.append(f"No difficulty given: used {middle.label} (dc {middle.dc}).")
    else:
        wanted, rung = high // 2 + 1, None
        notes.append(f"No difficulty given: used dc {wanted}.")
    dc = clamp(wanted, low, high)
    if dc != wanted:
        notes.append(f"dc {wanted} clamped to {dc}.")
    return dc, rung, tuple(notes)


def _bounded(text: str | None, name: str,
             rule: SituationalDice | Dark | None) -> tuple[int | None, str | None]:
    """A whole-number attribute held to the rule's range; ignored when the ruleset does not
    offer it or the value is no number (CHK-COMMON-11)."""
    if text is None or not text.strip():
        return None, None
    match = re.search(r"[-+]?\d+", text)
    if rule is None or match is None:
        return None, f'{name}="{text}" ignored: not offered here.' if rule is None else \
            f'{name}="{text}" ignored: not a number.'
    wanted = int(match.group())
    low, high = (rule.min, rule.max) if isinstance(rule, SituationalDice) else (0, rule.max)
    value = clamp(wanted, low, high)
    return value, f"{name} {wanted} clamped to {value}." if value != wanted else None


def sheet_dice(sheet: CheckSheet) -> int:
    """CHK-HIGH-01: the sheet number in dice, with wounds, ``adjust`` and the flat part of
    conditions and items adding or removing dice (before ``bonus=`` and bought dice)."""
    return sheet.number + sheet.adjust + sheet.penalty + sum(m.flat for m in sheet.modifiers)


def check_from(resolution: DiceHighest, asked: HighestAsk, dice: int) -> HighestCheck:
    """The plain check: ``dice`` (sheet, bonus and bought dice together) clamped to ``pool``
    (Ambiguity 5: the final count is clamped) and to 20 (Ambiguity 14)."""
    critical = resolution.critical
    dark = resolution.dark
    return HighestCheck(
        sides=resolution.die.sides, dc=asked.dc, keep=resolution.keep,
        light=clamp(dice, resolution.pool.min, min(resolution.pool.max, MAX_DICE)),
        zero_dice=resolution.zero_dice,
        critical_count=critical.count if critical else None,
        critical_face=critical.face if critical else None,
        dark=asked.dark, dark_outcome=dark.outcome if dark else "all",
    )


def dice_highest(roll: Roll) -> Rolled:
    """The ``dice-highest`` kind (CHK-HIGH-01..14, CHK-SPEND-09/12 dice only, CHK-REC-10..13):
    read the tag, buy dice, throw, judge by the tiers, write the record with its exact odds."""
    resolution = roll.ctx.ruleset.resolution
    if not isinstance(resolution, DiceHighest):
        raise TypeError(f"dice_highest called on a {resolution.kind} ruleset")
    asked = read_highest(roll.ask, resolution, ladder_of(roll.ctx.ruleset, roll.state.layers))
    bought = buy_spend(roll)
    check = check_from(resolution, asked,
                       sheet_dice(roll.sheet) + (asked.bonus or 0) + bought.dice)
    outcomes = outcomes_from(resolution.outcomes)
    rolled = roll_highest(check, roll.ctx.dice)
    verdict = verdict_of(outcomes, check.dc, total=rolled.total, critical=rolled.critical,
                         failed=rolled.failed)
    record = _record(roll, check, asked, rolled, verdict)
    notes = (*asked.notes, bought.note) if bought.note else asked.notes
    feedback = _feedback(roll.ask.skill, verdict, rolled, resolution.dark, notes)
    return Rolled(record.model_copy(update={
        "spend": bought.paid, "chance": highest_odds(check, outcomes).chance,
        "feedback": feedback}), bought.paid_state(roll))


def _record(roll: Roll, check: HighestCheck, asked: HighestAsk, rolled: HighestRoll,
            verdict: Verdict) -> CheckRecord:
    """CHK-REC-10..13: the summed shape, ``modifier`` 0, the kept dice as the total."""
    sheet = roll.sheet
    dark = bool(rolled.dark)
    return CheckRecord.trusted(
        status="resolved", skill=roll.ask.skill, who=roll.ask.who, dc=check.dc,
        rolls=list(rolled.rolls), used=rolled.total, modifier=0, total=rolled.total,
        success=verdict.success, critical=verdict.critical, outcome=verdict.outcome,
        tier=verdict.tier.id if verdict.tier else None,
        tier_text=verdict.tier.text if verdict.tier else None,
        resolution="sum", dice=f"{len(rolled.rolls)}d{check.sides}", pool=check.light,
        with_=sheet.with_used, bonus=asked.bonus or None, penalty=sheet.penalty or None,
        difficulty=asked.rung, adjust=sheet.adjust or None, **marks(roll.sheet, roll.ctx.ruleset.resolution),
        highest=1, zero_dice=True if rolled.zero else None, dark=len(rolled.dark) or None,
        dark_highest=True if rolled.dark_highest else None,
        dark_outcome="light" if dark and check.dark_outcome == "light" else None,
    )


def _feedback(skill: str, verdict: Verdict, rolled: HighestRoll, dark: Dark | None,
              notes: tuple[str, ...]) -> str:
    """The engine's line for the GM: the tier and its text, zero dice, a dark die on top."""
    parts = [f"{skill}: {verdict.outcome or ('success' if verdict.success else 'failure')}."]
    if verdict.tier is not None and verdict.tier.text:
        parts.append(verdict.tier.text)
    if rolled.zero:
        parts.append("No dice: failed without rolling." if rolled.failed
                     else "No dice: rolled two and kept the lower.")
    if rolled.dark_highest and dark is not None:
        # CHK-HIGH-10: the cost of a dark die on top is the GM's to apply, not ours.
        parts.append(f"A {dark.label} die was highest. {dark.text or ''}".strip())
    return " ".join((*parts, *notes))
