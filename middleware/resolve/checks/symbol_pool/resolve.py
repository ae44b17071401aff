"""The ``symbol-pool`` kind: build a pool of narrative dice, throw it, read the symbols (CHK-SYM).

Steps: read the sheet's ability and training rank apart (CHK-COMMON-07, CHK-SYM-06) and fold every
other sheet number into the signed bonus (CHK-SYM-07); read the tag (``dc=``/``difficulty=``,
``upgrade=``, ``bonus=``, ``setback=``, ``upgradeOwn=``, ``spend=``); build the pool
(``pool.py``); throw each die as a die with one side per face (SPEC §5); count and cancel
(``roll.py``); judge by ``success`` or the tiers (CHK-SYM-14/16); write the record with
``symbols``, ``thrown``, ``symbolDetails``, ``setback``, ``upgradeOwn`` and the exact ``chance``
(CHK-REC-16..19, ``odds.py``).

Our readings: a critical symbol is always recorded in ``symbolDetails`` and the GM's line, and the
record's ``critical`` carries the mark that agrees with the result (a failed check with a Triumph
is a plain ``failure`` whose Triumph is still marked), so ``result`` never reads
``critical_failure`` for a Triumph. Advantage and effect dice written for other kinds do nothing.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from middleware.character.check import current, view_for
from middleware.dice import Dice
from middleware.json_input import JsonObject
from middleware.names import normalize_name
from middleware.resolve.checks.changes import marks
from middleware.resolve.checks.kind import Roll, Rolled, game_rungs
from middleware.resolve.checks.outcome import Verdict, judge, outcomes_from
from middleware.resolve.checks.record import CheckRecord, Critical
from middleware.resolve.checks.symbol_pool.buy import Purchase, buy_dice
from middleware.resolve.checks.symbol_pool.odds import pool_odds
from middleware.resolve.checks.symbol_pool.pool import BuiltPool, SymbolAsk, build_pool
from middleware.resolve.checks.symbol_pool.roll import (
    Reading,
    Side,
    SymbolRules,
    ThrownDie,
    read_symbols,
    symbol_rules_from,
    throw_die,
)
from middleware.rules.common import DcRung
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.sheet.numbers import whole

__all__ = ["SymbolThrow", "decode_details", "encode_details", "symbol_pool", "throw_pool"]

DEFAULT_OPPOSING = 2
"""Our choice when the GM named no difficulty and there is no ladder: two opposing dice."""


@dataclass(frozen=True, slots=True)
class Opposition:
    """The opposing dice asked for, the rung that gave them, and a note for the GM."""

    dc: int
    rung: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class SymbolThrow:
    """A thrown pool: every die as it landed and what the symbols came to."""

    dice: tuple[ThrownDie, ...]
    reading: Reading


def symbol_pool(roll: Roll) -> Rolled:
    """CHK-SYM-05..17, CHK-REC-16..19: one symbol-pool check; a spend returns the paid state."""
    resolution = roll.ctx.ruleset.resolution
    if not isinstance(resolution, SymbolPool):
        raise TypeError(f"symbol_pool called on a {resolution.kind} ruleset")
    rules = symbol_rules_from(resolution)
    opposition = pick_opposition(roll.ask.dc, roll.ask.difficulty, resolution,
                                 game_rungs(roll, DcRung))
    ability, rank, signed = sheet_numbers(roll)
    purchase = buy_dice(roll, resolution, ability, rank)
    ask = read_tag(roll.ask.attrs, ability, rank, signed, opposition.dc, purchase.dice)
    pool = build_pool(resolution, ask)
    plan = pool.plan(resolution)
    thrown = throw_pool(rules, plan, roll.ctx.dice)
    outcomes = outcomes_from(resolution.outcomes)
    verdict = judge(outcomes, total=thrown.reading.total,
                    needed=rules.needed if outcomes is None else rules.needed - 1)
    chance = pool_odds(rules, plan, outcomes).chance
    record = _record(roll, resolution, pool, thrown, verdict, chance, opposition, purchase)
    return Rolled(record, purchase.state or roll.state)


def read_tag(attrs: Mapping[str, str], ability: int, rank: int, signed: int, dc: int,
             bought: int = 0) -> SymbolAsk:
    """The tag's symbol-pool numbers (CHK-SYM-09..13; keys arrive lowercased, SPEC §1b)."""
    return SymbolAsk(
        ability=ability, rank=rank, dc=dc, signed=signed + (_number(attrs.get("bonus")) or 0),
        upgrade=_number(attrs.get("upgrade")) or 0, setback=_number(attrs.get("setback")) or 0,
        upgrade_own=_number(attrs.get("upgradeown")) or 0, bought=bought,
    )


def sheet_numbers(roll: Roll) -> tuple[int, int, int]:
    """(ability, rank, signed) of the roller (CHK-SYM-06/07).

    The ability goes through ``abilityModifier`` (``with=`` already chose it); the rank is the
    skill's or save's training tier, 0 on a plain ability check; whatever else the sheet number
    holds (free bonuses, untrained ``by``, a cap), with adjust, wounds and flat effects, is signed
    bonus: boost or setback dice, never the base pool.
    """
    sheet = roll.sheet
    extra = sheet.adjust + sheet.penalty + sum(m.flat for m in sheet.modifiers)
    if roll.roller.stranger or sheet.ability is None:
        return 0, 0, extra + sheet.number
    view = view_for(roll.ctx.ruleset, current(roll.state, roll.roller), state=roll.state)
    ability = whole(view.modifier(sheet.ability))
    rank = 0
    if sheet.target in ("skill", "save") and sheet.id:
        chosen = (view.build.saves if sheet.target == "save" else view.build.skills).get(sheet.id)
        rank = whole(view.tier_value(view.tier(chosen)))
    return ability, rank, extra + sheet.number - ability - rank


def pick_opposition(dc: int | None, difficulty: str | None, resolution: SymbolPool,
                    ladder: Sequence[DcRung] | None = None) -> Opposition:
    """CHK-SYM-08, CHK-COMMON-08/09: ``dc=`` wins, else the named rung, else the middle rung,
    else two; held to 0..``difficulty.max`` with a note when clamped."""
    limit = resolution.difficulty.max
    ladder = resolution.difficulty_ladder if ladder is None else ladder
    named = [r for r in ladder if difficulty and normalize_name(r.label) == normalize_name(difficulty)]
    if dc is not None:
        wanted, rung, note = dc, None, None
    elif len(named) == 1:
        wanted, rung, note = named[0].dc, named[0].label, None
    else:
        middle = ladder[(len(ladder) - 1) // 2] if ladder else None
        wanted = middle.dc if middle else DEFAULT_OPPOSING
        rung = middle.label if middle else None
        unknown = f'Difficulty "{difficulty}" names no rung; ' if difficulty else ""
        note = f"{unknown}no difficulty given: used {rung or wanted} ({wanted} opposing dice)."
    held = min(max(wanted, 0), limit)
    if held != wanted:
        note = f"{note + ' ' if note else ''}dc {wanted} held to {held} opposing dice."
    return Opposition(dc=held, rung=rung, note=note)


def throw_pool(rules: SymbolRules, plan: Iterable[tuple[str, int, Side]],
               dice: Dice) -> SymbolThrow:
    """Throw every die of the plan in order and read the symbols (CHK-SYM-02/03/14/15)."""
    thrown = tuple(throw_die(rules.die_by_id(die), dice, side)
                   for die, count, side in plan for _ in range(count))
    return SymbolThrow(thrown, read_symbols(rules, (t.symbols for t in thrown)))


def encode_details(thrown: SymbolThrow) -> str:
    """CHK-REC-17: dice labels, face symbols and both critical marks, as compact JSON in
    unpadded URL-safe base64 (so no ``"``, ``[`` or ``]`` reaches the tag, and it stays short)."""
    data = {
        "dice": [{"die": t.die.id, "label": t.die.label, "face": t.face,
                  "symbols": list(t.symbols), "side": t.side} for t in thrown.dice],
        "criticalSuccess": thrown.reading.critical_success,
        "criticalFailure": thrown.reading.critical_failure,
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def decode_details(text: str) -> JsonObject:
    """The JSON object ``encode_details`` wrote."""
    padded = text + "=" * (-len(text) % 4)
    data: JsonObject = json.loads(base64.urlsafe_b64decode(padded))
    return data


def _record(roll: Roll, resolution: SymbolPool, pool: BuiltPool, thrown: SymbolThrow,
            verdict: Verdict, chance: float, opposition: Opposition,
            purchase: Purchase) -> CheckRecord:
    ask, sheet, reading = roll.ask, roll.sheet, thrown.reading
    return CheckRecord.trusted(
        status="resolved", skill=ask.skill, who=ask.who, dc=pool.dc,
        rolls=[t.face for t in thrown.dice], used=reading.total, modifier=0, total=reading.total,
        success=verdict.success, critical=verdict.critical or _mark(reading, verdict.success),
        outcome=verdict.outcome, tier=verdict.tier.id if verdict.tier else None,
        tier_text=verdict.tier.text if verdict.tier else None, resolution="sum",
        dice=pool.label(resolution), with_=sheet.with_used, bonus=pool.bonus or None,
        spend=purchase.spend, penalty=sheet.penalty or None, difficulty=opposition.rung,
        adjust=sheet.adjust or None, **marks(roll.sheet, roll.ctx.ruleset.resolution), symbols=reading.text,
        thrown="|".join(t.die.id for t in thrown.dice), symbol_details=encode_details(thrown),
        setback=pool.setback_added or None, upgrade_own=pool.upgrades_applied or None,
        chance=chance, feedback=_feedback(roll, resolution, pool, thrown, verdict, opposition,
                                          purchase),
    )


def _mark(reading: Reading, success: bool) -> Critical | None:
    """The critical mark that agrees with the result (module docstring)."""
    if success and reading.critical_success:
        return "success"
    if not success and reading.critical_failure:
        return "failure"
    return None


def _feedback(roll: Roll, resolution: SymbolPool, pool: BuiltPool, thrown: SymbolThrow,
              verdict: Verdict, opposition: Opposition, purchase: Purchase) -> str:
    """The GM's line: result, net symbols by label, critical marks, and what was held back."""
    reading = thrown.reading
    labels = dict(symbol_rules_from(resolution).symbols)
    word = verdict.outcome or ("success" if verdict.success else "failure")
    net = ", ".join(f"{n} {labels[s]}" for s, n in reading.net) or "no symbols left"
    parts = [f"{roll.ask.skill}: {word} ({net})."]
    if verdict.tier is not None and verdict.tier.text:
        parts.append(verdict.tier.text)
    for symbol, marked in ((resolution.critical_success, reading.critical_success),
                           (resolution.critical_failure, reading.critical_failure)):
        if symbol and marked:
            parts.append(f"{labels[symbol]} rolled: narrate it.")
    parts.extend(n for n in (opposition.note, purchase.note, _ignored(roll, resolution, pool)) if n)
    return " ".join(parts)


def _ignored(roll: Roll, resolution: SymbolPool, pool: BuiltPool) -> str | None:
    """CHK-SYM-12/13, CHK-COMMON-11: say what the tag asked that the rules did not let through."""
    asked = _number(roll.ask.attrs.get("upgradeown")) or 0
    if asked > 0 and not resolution.allow_own_upgrade:
        return "upgradeOwn is not offered by these rules: ignored."
    if asked > pool.upgrades_applied:
        return f"upgradeOwn {asked}: {pool.upgrades_applied} applied within the pool's limit."
    return None



def _number(text: str | None) -> int | None:
    """The first whole number in ``text`` (``"+2"``, ``"-1"``, ``"3 dice"``), else None."""
    match = re.search(r"[-+]?\d+", text or "")
    return int(match.group()) if match else None
