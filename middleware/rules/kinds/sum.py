"""``dice-sum``: add the dice and the sheet number, compare with a difficulty (CHK-SUM)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.rules.base import Strict
from middleware.rules.common import DcRung, ResolutionBase

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
