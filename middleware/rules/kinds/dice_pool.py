"""``dice-pool``: throw the sheet number in dice and count those that reach a target (CHK-POOL)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from middleware.errors import Problem
from middleware.rules.base import Id, Strict
from middleware.rules.combat import CombatBlock
from middleware.rules.common import Label, NamedReroll, PoolRung, ResolutionBase
from middleware.rules.problems import RESOLUTION, duplicate_ids, face_problem
from middleware.rules.refs import ValueRef


class Die(Strict):
    """CHK-POOL-02 / CHK-HIGH-02: the faces of every die in the pool (CHK-IMPORT-04: 2..100)."""

    sides: int = Field(ge=2, le=100)


class PoolSize(Strict):
    """CHK-POOL-03/04: bounds on the sheet number (``max`` at most 100, CHK-IMPORT-05)."""

    min: int = Field(default=0, ge=0, le=100)
    max: int = Field(ge=0, le=100)
    ability_plus_ability: bool = Field(default=False, alias="abilityPlusAbility")


class Target(Strict):
    """CHK-POOL-05/17: the face a die must reach; adjustable when ``min`` < ``max``."""

    default: int = Field(ge=1, le=100)
    min: int = Field(ge=1, le=100)
    max: int = Field(ge=1, le=100)
    from_: ValueRef | None = Field(default=None, alias="from")


class FaceRule(Strict):
    """CHK-POOL-06..08: ``explode`` / ``double`` from a face; ``min``: how low a check moves it."""

    from_: int | None = Field(default=None, alias="from", ge=1, le=100)
    min: int | None = Field(default=None, ge=1, le=100)


class Cancel(Strict):
    """CHK-POOL-09: each face <= ``upTo`` removes one success."""

    up_to: int = Field(alias="upTo", ge=1, le=100)


class Botch(Strict):
    """CHK-POOL-10/11: faces <= ``upTo`` with no success (or on half the dice) are a botch."""

    up_to: int = Field(alias="upTo", ge=1, le=100)
    rule: Literal["noSuccesses", "halfOrMore"] = "noSuccesses"


class Exceptional(Strict):
    """CHK-POOL-12: this many net successes on a passed check make it a critical success."""

    successes: int = Field(ge=1, le=400)


class SituationalDice(Strict):
    """CHK-POOL-13 / CHK-HIGH-11: how many dice ``bonus=`` may add or remove."""

    min: int = Field(ge=-100, le=0)
    max: int = Field(ge=0, le=100)


class Stance(Strict):
    """CHK-POOL-18: a stance's skills count the dice below (or above) the target instead."""

    id: Id
    label: Label
    count: Literal["below", "above"]
    skills: tuple[str, ...] = Field(min_length=1, max_length=120)


class Exact(Strict):
    """CHK-POOL-19: a die showing exactly the target; one success unless ``counts`` is false."""

    label: Label
    text: str | None = Field(default=None, max_length=200)
    counts: bool = True


class DicePool(ResolutionBase):
    """CHK-POOL-01..26: the counted kind (Gravewatch, exwod, Lasers & Feelings)."""

    kind: Literal["dice-pool"]
    die: Die
    pool: PoolSize
    target: Target
    explode: FaceRule | None = None
    double: FaceRule | None = None
    cancel: Cancel | None = None
    botch: Botch | None = None
    exceptional: Exceptional | None = None
    situational_dice: SituationalDice | None = Field(default=None, alias="situationalDice")
    reroll: tuple[NamedReroll, ...] = Field(default=(), max_length=6)
    stances: tuple[Stance, ...] = Field(default=(), max_length=6)
    exact: Exact | None = None
    difficulty_ladder: tuple[PoolRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )

    def audit(self, combat: CombatBlock | None) -> Iterator[Problem]:
        """CHK-IMPORT: the problems only this kind can have, each with its JSON path."""
        return check_pool(self, combat)


def check_pool(res: DicePool, combat: CombatBlock | None) -> Iterator[Problem]:
    """CHK-IMPORT-06..12: faces on the die, rules that can trigger, rungs inside the target."""
    sides = res.die.sides
    if res.pool.min > res.pool.max:
        yield Problem(f"{RESOLUTION}.pool.min", "pool.min is above pool.max")
    yield from _target(res, sides)
    for name in ("explode", "double"):
        yield from _face_rule(getattr(res, name), name, sides)
    for name in ("cancel", "botch"):
        rule = getattr(res, name)
        if rule is not None:
            yield from face_problem(rule.up_to, sides, f"{RESOLUTION}.{name}.upTo")
            if rule.up_to >= res.target.min:
                yield Problem(f"{RESOLUTION}.{name}.upTo",
                              f"must be below the lowest target {res.target.min} (CHK-IMPORT-07)")
    for i, reroll in enumerate(res.reroll):
        if reroll.up_to > sides - 1:
            yield Problem(f"{RESOLUTION}.reroll[{i}].upTo", f"upTo runs 1..{sides - 1} (CHK-IMPORT-09)")
    yield from duplicate_ids([r.id for r in res.reroll], f"{RESOLUTION}.reroll", "id")
    yield from _pool_rungs(res)
    yield from _stances(res)
    if res.situational_dice is not None and res.situational_dice.min > res.situational_dice.max:
        yield Problem(f"{RESOLUTION}.situationalDice.min", "min is above max")


def _target(res: DicePool, sides: int) -> Iterator[Problem]:
    target = res.target
    for key in ("default", "min", "max"):
        yield from face_problem(getattr(target, key), sides, f"{RESOLUTION}.target.{key}")
    if not target.min <= target.default <= target.max:
        yield Problem(f"{RESOLUTION}.target", "target needs min <= default <= max")


def _face_rule(rule: FaceRule | None, name: str, sides: int) -> Iterator[Problem]:
    """CHK-IMPORT-06/08/12: ``from`` not below ``min``, both on the die, one of them given."""
    if rule is None:
        return
    path = f"{RESOLUTION}.{name}"
    if rule.from_ is None and rule.min is None:
        yield Problem(path, f"{name} needs from, min or both; it could never trigger")
    if rule.from_ is not None:
        yield from face_problem(rule.from_, sides, f"{path}.from")
    if rule.min is not None:
        yield from face_problem(rule.min, sides, f"{path}.min")
    if rule.from_ is not None and rule.min is not None and rule.from_ < rule.min:
        yield Problem(f"{path}.from", f"{name}.from is below {name}.min (CHK-IMPORT-06)")


def _pool_rungs(res: DicePool) -> Iterator[Problem]:
    """CHK-IMPORT-10: a rung target only when adjustable, and within target.min..max."""
    target = res.target
    for i, rung in enumerate(res.difficulty_ladder):
        if rung.target is None:
            continue
        path = f"{RESOLUTION}.difficultyLadder[{i}].target"
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
                yield Problem(f"{RESOLUTION}.stances[{i}].skills[{j}]",
                              f"skill {skill!r} is already in stance {owner[skill]}")
            owner.setdefault(skill, i)
    yield from duplicate_ids([s.id for s in res.stances], f"{RESOLUTION}.stances", "id")
