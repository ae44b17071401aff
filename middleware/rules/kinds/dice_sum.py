"""``dice-sum``: add the dice and the sheet number, compare with a difficulty (CHK-SUM)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from middleware.errors import Problem
from middleware.rules.base import Strict
from middleware.rules.combat import CombatBlock
from middleware.rules.common import DcRung, ResolutionBase
from middleware.rules.problems import RESOLUTION, face_problem

NaturalsSetting = Literal["none", "both", "max-only", "min-only"]
"""CHK-SUM-03: what the highest and lowest face of a single die do."""


class SumDice(Strict):
    """CHK-SUM-01/05: ``count`` dice of ``sides`` faces, optionally with a value per face."""

    count: int = Field(ge=1, le=100)
    sides: int = Field(ge=2, le=1000)
    faces: tuple[int, ...] | None = Field(default=None, min_length=2, max_length=1000)


class Naturals(Strict):
    """SPEC §10: naturals on checks and on saves, each ``none`` when not given."""

    check: NaturalsSetting = "none"
    save: NaturalsSetting = "none"


class OpenEnded(Strict):
    """CHK-SUM-06: a first face >= ``high`` rolls again and adds; <= ``low`` rolls and subtracts."""

    high: int | None = Field(default=None, ge=1)
    low: int | None = Field(default=None, ge=1)


class DiceSum(ResolutionBase):
    """CHK-SUM-01..11: the summed kind (5e, 2d6 games, Fate, Rolemaster)."""

    kind: Literal["dice-sum"]
    dice: SumDice
    advantage: bool = False
    naturals: Naturals | NaturalsSetting | None = None
    open_ended: OpenEnded | None = Field(default=None, alias="openEnded")
    unmodified: tuple[int, ...] = Field(default=(), max_length=100)
    difficulty_ladder: tuple[DcRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )

    def naturals_for(self, kind: Literal["check", "save"]) -> NaturalsSetting:
        """SPEC §10: the setting for checks or saves; a bare string sets both, absent is none."""
        if self.naturals is None:
            return "none"
        if isinstance(self.naturals, str):
            return self.naturals
        return self.naturals.check if kind == "check" else self.naturals.save

    def audit(self, combat: CombatBlock | None) -> Iterator[Problem]:
        """CHK-IMPORT: the problems only this kind can have, each with its JSON path."""
        return check_sum(self, combat)


def check_sum(res: DiceSum, combat: CombatBlock | None) -> Iterator[Problem]:
    """CHK-SUM-04/05/06/09: naturals, openEnded and unmodified need one die; a value per face."""
    if res.dice.faces is not None and len(res.dice.faces) != res.dice.sides:
        yield Problem(f"{RESOLUTION}.dice.faces", f"{len(res.dice.faces)} face values for "
                                         f"{res.dice.sides} sides (CHK-IMPORT-02)")
    yield from _naturals(res)
    many = res.dice.count > 1
    if res.open_ended is not None and many:
        yield Problem(f"{RESOLUTION}.openEnded", "openEnded needs a single die (CHK-IMPORT-03)")
    if res.unmodified and many:
        yield Problem(f"{RESOLUTION}.unmodified", "unmodified needs a single die (CHK-IMPORT-03)")
    for i, face in enumerate(res.unmodified):
        yield from face_problem(face, res.dice.sides, f"{RESOLUTION}.unmodified[{i}]")
    if res.open_ended is not None:
        yield from _open_ended(res)


def _naturals(res: DiceSum) -> Iterator[Problem]:
    """CHK-IMPORT-01: naturals other than none with more than one die."""
    if res.dice.count == 1 or res.naturals is None:
        return
    if isinstance(res.naturals, str):
        if res.naturals != "none":
            yield Problem(f"{RESOLUTION}.naturals", "naturals need a single die; use 'none'")
        return
    for which in ("check", "save"):
        if getattr(res.naturals, which) != "none":
            yield Problem(f"{RESOLUTION}.naturals.{which}", "naturals need a single die; use 'none'")


def _open_ended(res: DiceSum) -> Iterator[Problem]:
    """CHK-SUM-06: a ``high`` and ``low`` that can both be rolled and do not overlap."""
    rule, sides = res.open_ended, res.dice.sides
    assert rule is not None
    if rule.high is None and rule.low is None:
        yield Problem(f"{RESOLUTION}.openEnded", "openEnded needs high, low or both")
    if rule.high is not None:
        yield from face_problem(rule.high, sides, f"{RESOLUTION}.openEnded.high")
        if rule.high < 2:
            yield Problem(f"{RESOLUTION}.openEnded.high", "high must be at least 2")
    if rule.low is not None:
        yield from face_problem(rule.low, sides, f"{RESOLUTION}.openEnded.low")
    if rule.high is not None and rule.low is not None and rule.low >= rule.high:
        yield Problem(f"{RESOLUTION}.openEnded.low", "low must be below high")
