"""Import checks of one resolution kind each (CHK-IMPORT-01..29), keyed by ``kind``.

A rule that could never trigger is refused here rather than found in play (checks.md, CHK-IMPORT).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from middleware.errors import Problem
from middleware.rules.kinds.against import RollAgainst
from middleware.rules.kinds.highest import DiceHighest
from middleware.rules.kinds.pool import DicePool
from middleware.rules.kinds.sum import DiceSum
from middleware.rules.kinds.symbol import SymbolPool
from middleware.rules.problems import repeats

R = "$.resolution"


def single_die(res: Any) -> bool:
    """Whether the kind throws exactly one die (naturals, openEnded, unmodified, tens need it)."""
    dice = getattr(res, "dice", None)
    return isinstance(res, DiceSum | RollAgainst) and dice is not None and dice.count == 1


# --- dice-sum (CHK-IMPORT-01..03) -------------------------------------------------------------


def check_sum(res: DiceSum, ruleset: Any) -> Iterator[Problem]:
    """CHK-SUM-04/05/06/09: naturals, openEnded and unmodified need one die; a value per face."""
    if res.dice.faces is not None and len(res.dice.faces) != res.dice.sides:
        yield Problem(f"{R}.dice.faces", f"{len(res.dice.faces)} face values for "
                                         f"{res.dice.sides} sides (CHK-IMPORT-02)")
    yield from _naturals(res)
    many = res.dice.count > 1
    if res.open_ended is not None and many:
        yield Problem(f"{R}.openEnded", "openEnded needs a single die (CHK-IMPORT-03)")
    if res.unmodified and many:
        yield Problem(f"{R}.unmodified", "unmodified needs a single die (CHK-IMPORT-03)")
    for i, face in enumerate(res.unmodified):
        yield from _face(face, res.dice.sides, f"{R}.unmodified[{i}]")
    if res.open_ended is not None:
        yield from _open_ended(res)


def _naturals(res: DiceSum) -> Iterator[Problem]:
    """CHK-IMPORT-01: naturals other than none with more than one die."""
    if res.dice.count == 1 or res.naturals is None:
        return
    if isinstance(res.naturals, str):
        if res.naturals != "none":
            yield Problem(f"{R}.naturals", "naturals need a single die; use 'none'")
        return
    for which in ("check", "save"):
        if getattr(res.naturals, which) != "none":
            yield Problem(f"{R}.naturals.{which}", "naturals need a single die; use 'none'")


def _open_ended(res: DiceSum) -> Iterator[Problem]:
    """CHK-SUM-06: a ``high`` and ``low`` that can both be rolled and do not overlap."""
    rule, sides = res.open_ended, res.dice.sides
    assert rule is not None
    if rule.high is None and rule.low is None:
        yield Problem(f"{R}.openEnded", "openEnded needs high, low or both")
    if rule.high is not None:
        yield from _face(rule.high, sides, f"{R}.openEnded.high")
        if rule.high < 2:
            yield Problem(f"{R}.openEnded.high", "high must be at least 2")
    if rule.low is not None:
        yield from _face(rule.low, sides, f"{R}.openEnded.low")
    if rule.high is not None and rule.low is not None and rule.low >= rule.high:
        yield Problem(f"{R}.openEnded.low", "low must be below high")


def _face(face: int, sides: int, path: str) -> Iterator[Problem]:
    if not 1 <= face <= sides:
        yield Problem(path, f"face {face} is not on a {sides}-sided die")


# --- dice-pool (CHK-IMPORT-04..12) ------------------------------------------------------------


def check_pool(res: DicePool, ruleset: Any) -> Iterator[Problem]:
    """CHK-IMPORT-06..12: faces on the die, rules that can trigger, rungs inside the target."""
    sides = res.die.sides
    if res.pool.min > res.pool.max:
        yield Problem(f"{R}.pool.min", "pool.min is above pool.max")
    yield from _target(res, sides)
    for name in ("explode", "double"):
        yield from _face_rule(getattr(res, name), name, sides)
    for name in ("cancel", "botch"):
        rule = getattr(res, name)
        if rule is not None:
            yield from _face(rule.up_to, sides, f"{R}.{name}.upTo")
            if rule.up_to >= res.target.min:
                yield Problem(f"{R}.{name}.upTo",
                              f"must be below the lowest target {res.target.min} (CHK-IMPORT-07)")
    for i, reroll in enumerate(res.reroll):
        if reroll.up_to > sides - 1:
            yield Problem(f"{R}.reroll[{i}].upTo", f"upTo runs 1..{sides - 1} (CHK-IMPORT-09)")
    yield from _duplicates([r.id for r in res.reroll], f"{R}.reroll", "id")
    yield from _pool_rungs(res)
    yield from _stances(res)
    if res.situational_dice is not None and res.situational_dice.min > res.situational_dice.max:
        yield Problem(f"{R}.situationalDice.min", "min is above max")


def _target(res: DicePool, sides: int) -> Iterator[Problem]:
    target = res.target
    for key in ("default", "min", "max"):
        yield from _face(getattr(target, key), sides, f"{R}.target.{key}")
    if not target.min <= target.default <= target.max:
        yield Problem(f"{R}.target", "target needs min <= default <= max")


def _face_rule(rule: Any, name: str, sides: int) -> Iterator[Problem]:
    """CHK-IMPORT-06/08/12: ``from`` not below ``min``, both on the die, one of them given."""
    if rule is None:
        return
    path = f"{R}.{name}"
    if rule.from_ is None and rule.min is None:
        yield Problem(path, f"{name} needs from, min or both; it could never trigger")
    if rule.from_ is not None:
        yield from _face(rule.from_, sides, f"{path}.from")
    if rule.min is not None:
        yield from _face(rule.min, sides, f"{path}.min")
    if rule.from_ is not None and rule.min is not None and rule.from_ < rule.min:
        yield Problem(f"{path}.from", f"{name}.from is below {name}.min (CHK-IMPORT-06)")


def _pool_rungs(res: DicePool) -> Iterator[Problem]:
    """CHK-IMPORT-10: a rung target only when adjustable, and within target.min..max."""
    target = res.target
    for i, rung in enumerate(res.difficulty_ladder):
        if rung.target is None:
            continue
        path = f"{R}.difficultyLadder[{i}].target"
        if target.min == target.max:
            yield Problem(path, "the target is fixed (target.min = target.max)")
        elif not target.min <= rung.target <= target.max:
            yield Problem(path, f"outside target {target.min}..{target.max}")


def _stances(res: DicePool) -> Iterator[Problem]:
    """CHK-IMPORT-11: a skill in at most one stance."""
    owner: dict[str, int] = {}
    for i, stance in enumerate(res.stances):
        for j, skill in enumerate(stance.skills):
            if skill in owner and owner[skill] != i:
                yield Problem(f"{R}.stances[{i}].skills[{j}]",
                              f"skill {skill!r} is already in stance {owner[skill]}")
            owner.setdefault(skill, i)
    yield from _duplicates([s.id for s in res.stances], f"{R}.stances", "id")


# --- dice-highest (CHK-IMPORT-13..17) ---------------------------------------------------------


def check_highest(res: DiceHighest, ruleset: Any) -> Iterator[Problem]:
    """CHK-IMPORT-15/17 and faces on the die; keep, zeroDice and dark ranges are structural."""
    if res.pool.min > res.pool.max:
        yield Problem(f"{R}.pool.min", "pool.min is above pool.max")
    if res.critical is not None and res.critical.face is not None:
        yield from _face(res.critical.face, res.die.sides, f"{R}.critical.face")
    if getattr(ruleset, "combat", None) is not None:
        yield Problem("$.combat", "a dice-highest ruleset has no combat (CHK-IMPORT-17)")


# --- roll-against (CHK-IMPORT-18..21) ---------------------------------------------------------


def check_against(res: RollAgainst, ruleset: Any) -> Iterator[Problem]:
    """CHK-IMPORT-20: ``tens`` only on a single d100; critical ranges that can be rolled."""
    if res.tens is not None and (res.dice.count != 1 or res.dice.sides != 100):
        yield Problem(f"{R}.tens", "tens needs the dice to be a single d100 (CHK-IMPORT-20)")
    for key, rules in (("criticalSuccess", res.critical_success),
                       ("criticalFailure", res.critical_failure)):
        for i, rule in enumerate(rules):
            if rule.from_ is not None and rule.to is not None and rule.from_ > rule.to:
                yield Problem(f"{R}.{key}[{i}].from", "from is above to")


# --- symbol-pool (CHK-IMPORT-22..29) ----------------------------------------------------------


def check_symbol(res: SymbolPool, ruleset: Any) -> Iterator[Problem]:
    """CHK-IMPORT-23/24/26/28/29: symbol and die references, counts, cancels, upgrades, combat."""
    symbols = {s.id for s in res.symbols}
    dice = {d.id for d in res.dice}
    yield from _duplicates([s.id for s in res.symbols], f"{R}.symbols", "id")
    yield from _duplicates([d.id for d in res.dice], f"{R}.dice", "id")
    yield from _symbol_links(res, symbols)
    for i, die in enumerate(res.dice):
        for j, face in enumerate(die.faces):
            for k, symbol in enumerate(face):
                yield from _known(symbol, symbols, f"{R}.dice[{i}].faces[{j}][{k}]", "symbol")
    for path, die_id in _named_dice(res):
        yield from _known(die_id, dice, path, "die")
    for path, symbol_id in (("success.symbol", res.success.symbol),
                            ("criticalSuccess", res.critical_success),
                            ("criticalFailure", res.critical_failure)):
        if symbol_id is not None:
            yield from _known(symbol_id, symbols, f"{R}.{path}", "symbol")
    if res.allow_own_upgrade and res.pool.upgrade is None:
        yield Problem(f"{R}.allowOwnUpgrade", "allowOwnUpgrade needs pool.upgrade (CHK-IMPORT-28)")
    combat_kind = getattr(getattr(ruleset, "combat", None), "kind", None)
    if combat_kind is not None and combat_kind != "symbol-pool":
        yield Problem("$.combat.kind", "a symbol-pool ruleset's combat must be symbol-pool "
                                       "(CHK-IMPORT-29)")


def _symbol_links(res: SymbolPool, symbols: set[str]) -> Iterator[Problem]:
    """CHK-IMPORT-23/24: no ``counts`` chains or self-reference; one ``cancels`` partner each."""
    counting = {s.id for s in res.symbols if s.counts is not None}
    partners: dict[str, set[str]] = {}
    for s in res.symbols:
        if s.cancels is not None:
            partners.setdefault(s.id, set()).add(s.cancels)
            partners.setdefault(s.cancels, set()).add(s.id)
    for i, s in enumerate(res.symbols):
        path = f"{R}.symbols[{i}]"
        if s.counts is not None:
            yield from _known(s.counts, symbols, f"{path}.counts", "symbol")
            if s.counts == s.id or s.counts in counting:
                yield Problem(f"{path}.counts", "counts may not name itself or a symbol that "
                                                "counts (CHK-IMPORT-23)")
        if s.cancels is not None:
            yield from _known(s.cancels, symbols, f"{path}.cancels", "symbol")
        if len(partners.get(s.id, ())) > 1:
            yield Problem(f"{path}.cancels", f"symbol {s.id!r} has more than one cancels partner "
                                             "(CHK-IMPORT-24)")


def _named_dice(res: SymbolPool) -> Iterator[tuple[str, str]]:
    yield f"{R}.pool.die", res.pool.die
    if res.pool.upgrade is not None:
        yield f"{R}.pool.upgrade", res.pool.upgrade
    yield f"{R}.difficulty.die", res.difficulty.die
    if res.difficulty.upgrade is not None:
        yield f"{R}.difficulty.upgrade", res.difficulty.upgrade
    for name in ("boost", "setback"):
        extra = getattr(res, name)
        if extra is not None:
            yield f"{R}.{name}.die", extra.die


def _known(name: str, known: set[str], path: str, what: str) -> Iterator[Problem]:
    if name not in known:
        yield Problem(path, f"unknown {what} {name!r} (CHK-IMPORT-26)")


def _duplicates(ids: list[str], path: str, key: str) -> Iterator[Problem]:
    for i, one in repeats(ids):
        yield Problem(f"{path}[{i}].{key}", f"{key} {one!r} is declared twice")


KIND_CHECKS: dict[str, Callable[[Any, Any], Iterator[Problem]]] = {
    "dice-sum": check_sum,
    "dice-pool": check_pool,
    "dice-highest": check_highest,
    "roll-against": check_against,
    "symbol-pool": check_symbol,
}
"""The kind-specific checks, picked by ``resolution.kind`` (STYLE habit 5)."""
