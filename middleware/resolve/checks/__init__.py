"""``[skill_check:]``: read the ask, assemble the sheet, roll the ruleset's kind, write the record.

The steps, in order (SHEET-CHK-03, CHK-COMMON): read what the GM asked (``read_ask``; a model's own
``rolls=``/``total=``/``result=`` are never read, SPEC §3), find the roller and their check sheet,
stop on an untrained ``refuse`` or an automatic failure, then hand over to the kind picked from
``KINDS`` by ``resolution.kind`` (STYLE habit 5). Kinds not written yet answer with an ``error``
record.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from middleware.cache import IdentityCache
from middleware.records import IgnoredRecord
from middleware.resolve import Context, Resolution
from middleware.resolve.checks.against import roll_against
from middleware.resolve.checks.changes import changed_fields, changes_of
from middleware.resolve.checks.dice_sum import (
    EffectDice,
    SumCheck,
    SumRules,
    roll_sum,
    settle_mode,
    sum_rules,
)
from middleware.resolve.checks.highest import dice_highest
from middleware.resolve.checks.kind import Kind, Roll, Rolled
from middleware.resolve.checks.odds import check_odds
from middleware.resolve.checks.outcome import Verdict, judge
from middleware.resolve.checks.overrides import roll_with_overrides
from middleware.resolve.checks.pool import dice_pool
from middleware.resolve.checks.record import Ask, CheckRecord, Mode
from middleware.resolve.checks.symbol import symbol_pool
from middleware.rules.kinds.sum import DiceSum
from middleware.rules.layers import ladder_of
from middleware.segments import Tag
from middleware.sheet.check import CheckSheet, assemble_check
from middleware.sheet.roller import Roller, find_roller
from middleware.state import GameState, normalize_name

__all__ = ["KINDS", "Ask", "CheckRecord", "Difficulty", "Kind", "Roll", "Rolled", "dice_sum",
           "pick_difficulty", "read_ask", "resolve_check"]

DC_LIMIT = 1000
"""A dice-sum ``dc=`` is held to ±1000, the range a ladder rung's ``dc`` may take in the file."""

_LEANS = ("advantage", "disadvantage")
_WHOLE = re.compile(r"[-+]?\d+")


class Difficulty(NamedTuple):
    """The number a check is read against, the rung that gave it (if any) and a note for the GM.

    A named tuple, not a frozen dataclass: one is built per check (issue 2)."""

    dc: int
    rung: str | None = None
    note: str | None = None


def resolve_check(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """The ``skill_check`` resolver (SPEC §2, CHK-COMMON, SHEET-CHK).

    A check changes state only when its kind pays a pool (CHK-SPEND, CHK-CHARM): the kind returns
    the state after the check (``kind.Rolled``) and later tags in the reply see it.
    """
    ask = read_ask(tag)
    if ask is None:
        return Resolution(state, IgnoredRecord(
            tag="skill_check", reason="no-skill", source=tag.raw,
            feedback="A skill_check needs skill=; the tag was left as written."))
    roller = find_roller(state, ask.who)
    sheet = assemble_check(ctx.ruleset, state, roller, ask.skill, ask.with_, ask.save_hint)
    settled = _settled(ask, sheet)
    rolled = Rolled(settled, state) if settled else _by_kind(Roll(ask, sheet, ctx, state, roller))
    return Resolution(rolled.state, _finished(rolled.record, ask, sheet, roller, ctx))


def _finished(record: CheckRecord, ask: Ask, sheet: CheckSheet, roller: Roller,
              ctx: Context) -> CheckRecord:
    """What every check record ends with (ITM-CHECK-15 ``effects``/``from``, the ``source``,
    the stranger's note), in one copy at most: a kind that already wrote the same values is
    answered with its own record."""
    update = changed_fields(record, sheet, ctx.ruleset.resolution)
    if record.source != ask.source:
        update["source"] = ask.source
    if roller.stranger and ask.who:
        # SHEET-CHK-02: a who= that names nobody rolls as a stranger; the GM is told so.
        update["feedback"] = f'{record.feedback or ""} "{ask.who}" is not in the party: rolled ' \
            "as a stranger with no sheet.".lstrip()
    return record.model_copy(update=update) if update else record


def read_ask(tag: Tag) -> Ask | None:
    """What the GM asked (CHK-COMMON-08..12, SPEC §1b); None when no skill is named."""
    attrs = tag.attrs
    skill = attrs.get("skill", "").strip()
    if not skill:
        return None
    dc_text = attrs.get("dc")
    dc = _number(dc_text) if dc_text else None
    difficulty = attrs.get("difficulty")
    if dc is None and dc_text and not difficulty:
        difficulty = dc_text  # dc="Hard": the model named a rung in the wrong attribute
    words = {w.lower() for w in tag.words} if tag.words else frozenset()
    mode = attrs.get("mode", "").strip().lower()
    leans = tuple(lean for lean in _LEANS if lean == mode or lean in words) if mode or words else ()
    # The tag's attrs are handed on as they are: a Tag is never changed after parsing.
    return Ask(skill=skill, who=_blank_none(attrs.get("who")), dc=dc,
               difficulty=_blank_none(difficulty), with_=_blank_none(attrs.get("with")),
               leans=leans, save_hint="save" in words, attrs=attrs, source=tag.raw)


def pick_difficulty(ask: Ask, resolution: Any, fallback: int,
                    ladder: tuple[Any, ...] | None = None) -> Difficulty:
    """CHK-COMMON-08/09, CHK-SUM-10: ``dc=`` wins, else the named rung, else our default.

    Without either, the middle rung of the ladder (our choice: the GM asked for an ordinary
    check), else ``fallback``. A ``dc`` is clamped to ±1000 (CHK-COMMON-11). ``ladder`` is the
    game's (``rules.layers.ladder_of``); without it, the resolution's own.
    """
    if ask.dc is not None:
        return _held(ask.dc)
    if ladder is None:
        ladder = tuple(getattr(resolution, "difficulty_ladder", ()) or ())
    rung = _rung(ladder, ask.difficulty)
    unknown = f'difficulty "{ask.difficulty}" names no rung; ' if ask.difficulty else ""
    if rung is not None:
        return Difficulty(int(rung.dc), rung.label)
    if ladder:
        middle = ladder[(len(ladder) - 1) // 2]
        note = _sentence(f"{unknown}no difficulty given: used {middle.label} (dc {middle.dc}).")
        return Difficulty(dc=int(middle.dc), rung=middle.label, note=note)
    note = _sentence(f"{unknown}no difficulty given: used dc {fallback}.")
    return Difficulty(dc=fallback, note=note)


def _held(dc: int) -> Difficulty:
    """CHK-COMMON-11: the GM's ``dc``, held to ±1000 (and the GM told when it was)."""
    if -DC_LIMIT <= dc <= DC_LIMIT:
        return Difficulty(dc)
    held = max(-DC_LIMIT, min(DC_LIMIT, dc))
    return Difficulty(held, note=f"dc {dc} clamped to {held}.")


def _settled(ask: Ask, sheet: CheckSheet) -> CheckRecord | None:
    """SHEET-UNT-05 refuse and SHEET-CHK-06 automatic failure: nothing is rolled."""
    if sheet.untrained == "refuse":
        return CheckRecord.trusted(status="refused", reason="untrained", skill=ask.skill, who=ask.who,
                           dc=ask.dc, feedback=f"{ask.skill} cannot be tried untrained.")
    if sheet.fails_automatically:
        return CheckRecord.trusted(status="resolved", skill=ask.skill, who=ask.who, dc=ask.dc,
                           success=False, automatic=True, from_=sheet.fails_automatically,
                           feedback=f"Failed automatically ({sheet.fails_automatically}).")
    return None


def _by_kind(roll: Roll) -> Rolled:
    kind_name = str(getattr(roll.ctx.ruleset.resolution, "kind", ""))
    kind = KINDS.get(kind_name)
    if kind is None:
        return roll.unchanged(CheckRecord.trusted(
            status="error", reason="unsupported-kind", skill=roll.ask.skill, who=roll.ask.who,
            feedback=f"Checks of kind {kind_name} are not supported yet."))
    return roll_with_overrides(kind, roll)  # CHK-OVR: the check's own resolution first


def dice_sum(roll: Roll) -> Rolled:
    """CHK-SUM-01..10 with CHK-OUT: roll, judge by the tiers, write the record with its odds."""
    ladder = ladder_of(roll.ctx.ruleset, roll.state)
    return roll.unchanged(_dice_sum(roll.ask, roll.sheet, roll.ctx, ladder))


def _dice_sum(ask: Ask, sheet: CheckSheet, ctx: Context, ladder: tuple[Any, ...]) -> CheckRecord:
    resolution = ctx.ruleset.resolution
    if not isinstance(resolution, DiceSum):
        raise TypeError(f"dice_sum called on a {resolution.kind} ruleset")
    rules = sum_rules(ctx.ruleset)
    difficulty = pick_difficulty(ask, resolution, rules.default_dc, ladder)
    leans = (*ask.leans, *(lean for lean, _ in sheet.leans)) if sheet.leans else ask.leans
    mode = settle_mode(leans, rules.advantage) if leans else "normal"
    check, chance = _sum_check(rules, sheet, difficulty.dc, mode)
    roll = roll_sum(check, ctx.dice)
    verdict = judge(rules.outcomes, total=roll.total, needed=check.dc, forced=roll.forced,
                    natural=roll.natural)
    effects, sources = changes_of(sheet, resolution)  # ITM-CHECK-15, written once here
    return CheckRecord.trusted(
        status="resolved", skill=ask.skill, who=ask.who, dc=check.dc, rolls=list(roll.rolls),
        used=roll.used, modifier=roll.total - roll.used, total=roll.total,
        success=verdict.success, critical=verdict.critical, outcome=verdict.outcome,
        tier=verdict.tier.id if verdict.tier else None,
        tier_text=verdict.tier.text if verdict.tier else None,
        mode=check.mode, resolution="sum", dice=rules.dice.label, with_=sheet.with_used,
        penalty=sheet.penalty or None, difficulty=difficulty.rung, adjust=sheet.adjust or None,
        effects=effects, from_=sources, unmodified=roll.unmodified, source=ask.source,
        chance=chance, feedback=_feedback(ask, sheet, difficulty, verdict, roll.unmodified),
    )


_SUM_CHECKS: IdentityCache[tuple[SumCheck, float]] = IdentityCache(1024)


def _sum_check(rules: SumRules, sheet: CheckSheet, dc: int, mode: Mode) -> tuple[SumCheck, float]:
    """CHK-SUM-01..09: the check as plain values and its chance (SPEC §6 ``chance``).

    A pure function of frozen values, worked out once per (rules, sheet) objects, dc and mode:
    building the check and hashing it for its odds cost as much as throwing it (issue 2).
    """
    return _SUM_CHECKS.get((rules, sheet), (dc, mode),
                           lambda: _new_sum_check(rules, sheet, dc, mode))


def _new_sum_check(rules: SumRules, sheet: CheckSheet, dc: int,
                   mode: Mode) -> tuple[SumCheck, float]:
    check = SumCheck(
        dice=rules.dice, dc=dc, modifier=sheet.number + sheet.adjust + sheet.penalty + _flat(sheet),
        mode=mode, naturals=rules.naturals_save if sheet.target == "save" else rules.naturals_check,
        unmodified=rules.unmodified, effects=_effect_dice(sheet),
    )
    return check, check_odds(check, rules.outcomes).chance


KINDS: dict[str, Kind] = {"dice-sum": dice_sum, "roll-against": roll_against,
                          "dice-highest": dice_highest, "symbol-pool": symbol_pool,
                          "dice-pool": dice_pool}
"""``resolution.kind`` -> its resolver; the other four kinds arrive in the next issue."""


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


def _rung(ladder: tuple[Any, ...], label: str | None) -> Any:
    """CHK-COMMON-08: the one rung whose label matches; none when no rung or two share it."""
    if not label:
        return None
    wanted = normalize_name(label)
    found = [r for r in ladder if normalize_name(r.label) == wanted]
    return found[0] if len(found) == 1 else None


def _number(text: str) -> int | None:
    """The first whole number in ``text`` (``"15"``, ``"DC 15"``, ``"+3"``), else None."""
    if text.isdecimal():
        return int(text)  # the usual dc="15": the same digits ``\d+`` reads, without the search
    match = _WHOLE.search(text)
    return int(match.group()) if match else None


def _blank_none(text: str | None) -> str | None:
    return text.strip() or None if text is not None else None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
