"""The ``combat`` block: only what checks read is modelled strictly (SHEET-COND).

``conditions`` and ``levels`` are strict models; every other combat key is out of scope (SHEET §22,
[X]) and kept whole as JSON under its declared name, so nothing is dropped and a typo at the top of
the block is still refused.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, JsonValue, model_validator

from middleware.rules.base import Id, Strict

Lean = Literal["advantage", "disadvantage"]


class Modifier(Strict):
    """SHEET-COND-05: what a source adds to one kind of roll."""

    to: str
    """The roll it changes: ``checks`` and ``saves`` reach checks; attacks, defense and speed are
    fight effects."""
    flat: int | None = None
    """A whole number added, with its sign (never 0)."""
    dice: str | None = Field(default=None, pattern=r"^\d{1,3}d\d{1,4}$")
    """Dice rolled and added, e.g. ``1d4``."""
    minus: bool = False
    """Whether ``dice`` are subtracted instead."""
    mode: Lean | None = None
    """``advantage`` or ``disadvantage`` on the roll."""
    times: float | None = None
    """A multiplier on the roll, read by fights."""
    skills: list[Id] | None = None
    """Only these skills; the source's ``skills`` when absent."""
    saves: list[Id] | None = None
    """Only these saves; the source's ``saves`` when absent."""

    @model_validator(mode="after")
    def _non_zero(self) -> Modifier:
        if self.flat == 0:
            raise ValueError("a modifier's flat must not be 0")
        return self


class _Source(Strict):
    effects: list[str] = Field(default_factory=list)
    """Named effects, e.g. ``own-checks-disadvantage`` or ``own-saves-advantage``; others are fight
    effects."""
    modifiers: list[Modifier] = Field(default_factory=list)
    """Numbers, dice and leans it adds to rolls."""
    fails_saves: list[Id] = Field(default_factory=list, alias="failsSaves")
    """Saves it fails without a roll."""
    saves: list[Id] | None = None
    """The saves its effects reach; all when absent."""
    skills: list[Id] | None = None
    """The skills its effects reach; all when absent."""


class ConditionEffect(_Source):
    """SHEET-COND-01/02/04: what an active condition does."""

    condition: Id
    """The live condition this entry is for."""
    while_source_in_sight: bool | list[str] | None = Field(default=None,
                                                           alias="whileSourceInSight")
    """In a fight, the effect holds only while its source is in sight; outside a fight it gates
    nothing."""
    ends_when_source_down: bool = Field(default=False, alias="endsWhenSourceDown")
    """In a fight, the condition ends when its source goes down."""


class LevelEffect(_Source):
    """SHEET-COND-03: reached when a plain track or a derived value is at least ``at``."""

    track: Id | None = None
    """The plain live track read."""
    derived: Id | None = None
    """The derived value read."""
    at: float
    """The level is reached while the value is at least this; levels reached stack."""

    @model_validator(mode="after")
    def _one_source(self) -> LevelEffect:
        if (self.track is None) == (self.derived is None):
            raise ValueError("a level names exactly one of track, derived")
        return self


class CombatBlock(Strict):
    """The combat block: conditions and levels strict, the rest kept as JSON ([X])."""

    kind: JsonValue = None
    """The kind of combat (its rolls); kept as the file gives it and not read by checks or
    items."""
    health: JsonValue = None
    """What a fighter's health is; kept as the file gives it and not read by checks or items."""
    defense: JsonValue = None
    """How a fighter is hard to hit; kept as the file gives it and not read by checks or items."""
    initiative: JsonValue = None
    """Who acts first; kept as the file gives it and not read by checks or items."""
    attack_roll: JsonValue = Field(default=None, alias="attackRoll")
    """How an attack is rolled; kept as the file gives it and not read by checks or items."""
    economy: JsonValue = None
    """What a fighter may do on a turn; kept as the file gives it and not read by checks or
    items."""
    distance: JsonValue = None
    """How far apart fighters are; kept as the file gives it and not read by checks or items."""
    ranged: JsonValue = None
    """Ranged attacks; kept as the file gives it and not read by checks or items."""
    cover: JsonValue = None
    """Cover; kept as the file gives it and not read by checks or items."""
    opportunity: JsonValue = None
    """Opportunity attacks; kept as the file gives it and not read by checks or items."""
    attacks: JsonValue = None
    """Attack rows; kept as the file gives it and not read by checks or items."""
    abilities: JsonValue = None
    """Fight abilities; kept as the file gives it and not read by checks or items."""
    standard: JsonValue = None
    """Standard actions; kept as the file gives it and not read by checks or items."""
    standard_effects: JsonValue = Field(default=None, alias="standardEffects")
    """What standard actions do; kept as the file gives it and not read by checks or items."""
    checks: JsonValue = None
    """Checks made in a fight; kept as the file gives it and not read by checks or items."""
    contests: JsonValue = None
    """Contests between fighters; kept as the file gives it and not read by checks or items."""
    concentration: JsonValue = None
    """Holding concentration when hurt; kept as the file gives it and not read by checks or
    items."""
    dying: JsonValue = None
    """What happens at 0 health; kept as the file gives it and not read by checks or items."""
    damage_types: JsonValue = Field(default=None, alias="damageTypes")
    """Kinds of harm; kept as the file gives it and not read by checks or items."""
    damage_kinds: JsonValue = Field(default=None, alias="damageKinds")
    """Families of harm; kept as the file gives it and not read by checks or items."""
    pool: JsonValue = None
    """A fight's dice pool; kept as the file gives it and not read by checks or items."""
    off_hand: JsonValue = Field(default=None, alias="offHand")
    """Fighting with two weapons; kept as the file gives it and not read by checks or items."""
    spend_limits: JsonValue = Field(default=None, alias="spendLimits")
    """How much may be spent per turn; kept as the file gives it and not read by checks or
    items."""
    threat: JsonValue = None
    """How enemies choose whom to strike; kept as the file gives it and not read by checks or
    items."""
    conditions: list[ConditionEffect] = Field(default_factory=list)
    """What each live condition does to checks and saves (and in a fight)."""
    levels: list[LevelEffect] = Field(default_factory=list)
    """What a plain track or derived value does to checks and saves from some level on
    (exhaustion)."""
