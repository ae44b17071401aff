"""The ``combat`` block: only what checks read is modelled strictly (SHEET-COND).

``conditions`` and ``levels`` are strict models; every other combat key is out of scope (SHEET §22,
[X]) and kept whole as JSON under its declared name, so nothing is dropped and a typo at the top of
the block is still refused.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from middleware.rules.base import Id, Strict

Lean = Literal["advantage", "disadvantage"]


class Modifier(Strict):
    """SHEET-COND-05: what a source adds to one kind of roll."""

    to: str
    flat: int | None = None
    dice: str | None = Field(default=None, pattern=r"^\d{1,3}d\d{1,4}$")
    minus: bool = False
    mode: Lean | None = None
    times: float | None = None
    skills: list[Id] | None = None
    saves: list[Id] | None = None

    @model_validator(mode="after")
    def _non_zero(self) -> Modifier:
        if self.flat == 0:
            raise ValueError("a modifier's flat must not be 0")
        return self


class _Source(Strict):
    effects: list[str] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    fails_saves: list[Id] = Field(default_factory=list, alias="failsSaves")
    saves: list[Id] | None = None
    skills: list[Id] | None = None


class ConditionEffect(_Source):
    """SHEET-COND-01/02/04: what an active condition does."""

    condition: Id
    while_source_in_sight: bool | list[str] | None = Field(default=None,
                                                           alias="whileSourceInSight")
    ends_when_source_down: bool = Field(default=False, alias="endsWhenSourceDown")


class LevelEffect(_Source):
    """SHEET-COND-03: reached when a plain track or a derived value is at least ``at``."""

    track: Id | None = None
    derived: Id | None = None
    at: float

    @model_validator(mode="after")
    def _one_source(self) -> LevelEffect:
        if (self.track is None) == (self.derived is None):
            raise ValueError("a level names exactly one of track, derived")
        return self


class CombatBlock(Strict):
    """The combat block: conditions and levels strict, the rest kept as JSON ([X])."""

    kind: Any = None
    health: Any = None
    defense: Any = None
    initiative: Any = None
    attack_roll: Any = Field(default=None, alias="attackRoll")
    economy: Any = None
    distance: Any = None
    ranged: Any = None
    cover: Any = None
    opportunity: Any = None
    attacks: Any = None
    abilities: Any = None
    standard: Any = None
    standard_effects: Any = Field(default=None, alias="standardEffects")
    checks: Any = None
    contests: Any = None
    concentration: Any = None
    dying: Any = None
    damage_types: Any = Field(default=None, alias="damageTypes")
    damage_kinds: Any = Field(default=None, alias="damageKinds")
    pool: Any = None
    off_hand: Any = Field(default=None, alias="offHand")
    spend_limits: Any = Field(default=None, alias="spendLimits")
    threat: Any = None
    conditions: list[ConditionEffect] = Field(default_factory=list)
    levels: list[LevelEffect] = Field(default_factory=list)
