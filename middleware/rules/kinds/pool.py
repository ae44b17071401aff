"""``dice-pool``: throw the sheet number in dice and count those that reach a target (CHK-POOL)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.rules.base import Id, Strict
from middleware.rules.common import Label, NamedReroll, PoolRung, ResolutionBase
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
