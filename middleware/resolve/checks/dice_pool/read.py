"""Reading one pool check's numbers from the tag, the ruleset and what was bought
(CHK-POOL-03/05/08/13/16/17/20..25, CHK-CHARM-05/06, SHEET-UNT-04, SHEET-CHK-03).

Every reader clamps instead of refusing (CHK-COMMON-11) and answers a note for the GM when it
clamped or ignored something the GM wrote.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from middleware.character.check import current, view_for
from middleware.names import normalize_name
from middleware.resolve.checks.dice_pool.rules import Count, Reroll
from middleware.resolve.checks.kind import Roll
from middleware.resolve.checks.spend import Bought
from middleware.rules.common import PoolRung
from middleware.rules.kinds.dice_pool import DicePool, FaceRule
from middleware.rules.layers import ladder_of


@dataclass(frozen=True, slots=True)
class Need:
    """The successes needed (the record's ``dc``), the rung's target and the rung named."""

    needed: int
    rung_target: int | None = None
    rung: str | None = None
    note: str | None = None


def dc_cap(res: DicePool) -> int:
    """CHK-POOL-20, Ambiguity 11: ``pool.max``, doubled with ``explode``, again with ``double``."""
    return max(res.pool.max * (2 if res.explode else 1) * (2 if res.double else 1), 1)


def pick_need(roll: Roll, res: DicePool) -> Need:
    """CHK-POOL-16/20/23, CHK-COMMON-08/09: ``dc=`` wins for the number, the rung supplies the
    rest; ``dc=`` alone takes the target of the one rung needing it. Without either, the middle
    rung (as on a sum), else one success."""
    ask, ladder, cap = roll.ask, ladder_of(roll.ctx.ruleset, roll.state.layers), dc_cap(res)
    rung = _rung(ladder, ask.difficulty)
    unknown = f'difficulty "{ask.difficulty}" names no rung. ' if ask.difficulty and not rung \
        else ""
    if ask.dc is not None:
        needed = _clamp(ask.dc, 1, cap)
        note = f"dc {ask.dc} clamped to {needed}." if needed != ask.dc else None
        same = [r for r in ladder if r.successes == needed]
        target = rung.target if rung else (same[0].target if len(same) == 1 else None)
        return Need(needed, target, rung.label if rung else None, _join(unknown, note))
    if rung is not None:
        return Need(_clamp(rung.successes, 1, cap), rung.target, rung.label)
    if ladder:
        middle = ladder[(len(ladder) - 1) // 2]
        return Need(_clamp(middle.successes, 1, cap), middle.target, middle.label,
                    f"{unknown}No difficulty given: used {middle.label} "
                    f"({middle.successes} successes).")
    return Need(1, note=f"{unknown}No difficulty given: needs 1 success.")


def pick_target(roll: Roll, res: DicePool, rung_target: int | None,
                bought: Bought) -> tuple[int, str | None]:
    """CHK-POOL-05/17/21, CHK-CHARM-05, SHEET-UNT-04: the per-die target, clamped to
    ``target.min..max``. Order: default, rung, ``threshold=``; ``target.from`` replaces those
    (Ambiguity 8); an entry's threshold replaces everything; ``harder`` adds one last."""
    spec, note = res.target, None
    adjustable = spec.min < spec.max
    target = rung_target if rung_target is not None and adjustable else spec.default
    asked = number(roll.ask.attrs.get("threshold"))
    if asked is not None and adjustable and spec.from_ is None:
        target = asked
        note = f"threshold {asked} clamped." if not spec.min <= asked <= spec.max else None
    own = current(roll.state, roll.roller) if spec.from_ is not None else None
    if spec.from_ is not None and own is not None:
        target = math.floor(view_for(roll.ctx.ruleset, own, state=roll.state).ref(spec.from_))
    if bought.threshold is not None:
        target = bought.threshold
    target = _clamp(target, spec.min, spec.max)
    if roll.sheet.untrained == "harder":
        target = min(target + 1, spec.max)
    return target, note


def rule_face(rule: FaceRule | None, asked: str | None, bought: int | None,
              sides: int) -> tuple[int | None, bool]:
    """CHK-POOL-08/24, CHK-CHARM-06, Ambiguity 6: the face ``explode``/``double`` works from
    on this check and whether the check moved it. Only a rule with ``min`` moves, to
    ``min..sides``; an entry's face wins over the tag's."""
    if rule is None:
        return None, False
    wanted = bought if bought is not None else number(asked)
    if rule.min is None or wanted is None:
        return rule.from_, False
    face = _clamp(wanted, rule.min, sides)
    return face, face != rule.from_


def pool_size(roll: Roll, res: DicePool, bought: Bought) -> tuple[int, int]:
    """SHEET-CHK-03, CHK-POOL-03/13/22, Ambiguity 5: the sheet number, adjust, wound penalty and
    effects as dice, plus ``bonus=`` (clamped to ``situationalDice``) and bought dice; the sum
    held to ``pool.min..pool.max``. Returns the dice and the bonus used."""
    sheet = roll.sheet
    asked = number(roll.ask.attrs.get("bonus"))
    limits = res.situational_dice
    bonus = _clamp(asked, limits.min, limits.max) if limits and asked is not None else 0
    effects = sum(m.flat for m in sheet.modifiers) if sheet.modifiers else 0
    dice = sheet.number + sheet.adjust + sheet.penalty + effects + bonus + bought.dice
    return _clamp(dice, res.pool.min, res.pool.max), bonus


def named_reroll(roll: Roll, res: DicePool) -> Reroll | None:
    """CHK-POOL-25: ``reroll=`` names one free entry by id (or label-like spelling); else none."""
    asked = roll.ask.attrs.get("reroll")
    if not asked or not res.reroll:
        return None
    wanted = normalize_name(asked)
    found = [r for r in res.reroll if wanted and normalize_name(r.id) == wanted]
    return Reroll(found[0].up_to, found[0].mode, found[0].id) if found else None


def best_reroll(*candidates: Reroll | None) -> Reroll | None:
    """CHK-POOL-15: one re-roll per check, the one reaching more faces; ``until`` on a tie."""
    best: Reroll | None = None
    for candidate in candidates:
        if candidate is not None and (best is None or candidate.beats(best)):
            best = candidate
    return best


def stance_count(roll: Roll, res: DicePool) -> Count:
    """CHK-POOL-18: a stance's skill counts below / above the target instead."""
    if not res.stances:
        return "reach"
    ids = {normalize_name(x) for x in (roll.sheet.id, roll.sheet.label) if x}
    for stance in res.stances:
        if ids & {normalize_name(s) for s in stance.skills}:
            return stance.count
    return "reach"


_NUMBER = re.compile(r"[-+]?\d{1,7}")


def number(text: str | None) -> int | None:
    """The first whole number in ``text`` (``"8"``, ``"+2"``, ``"-5 dice"``), else None."""
    match = _NUMBER.search(text) if text else None
    return int(match.group()) if match else None


def _rung(ladder: Sequence[PoolRung], label: str | None) -> PoolRung | None:
    """CHK-COMMON-08: the one rung whose label matches; none when no rung or two share it."""
    if not label:
        return None
    found = [r for r in ladder if normalize_name(r.label) == normalize_name(label)]
    return found[0] if len(found) == 1 else None


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _join(*parts: str | None) -> str | None:
    text = " ".join(p.strip() for p in parts if p and p.strip())
    return text or None
