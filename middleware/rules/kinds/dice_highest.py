"""``dice-highest``: throw a handful, read the highest one to three dice (CHK-HIGH)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from middleware.errors import Problem
from middleware.rules.base import Strict
from middleware.rules.combat import CombatBlock
from middleware.rules.common import DcRung, Label, ResolutionBase
from middleware.rules.kinds.dice_pool import Die, SituationalDice
from middleware.rules.problems import RESOLUTION, face_problem


class HighestPool(Strict):
    """CHK-HIGH-01 / CHK-IMPORT-15: bounds on the dice thrown, at most 20."""

    min: int = Field(default=0, ge=0, le=20)
    max: int = Field(ge=0, le=20)


class Critical(Strict):
    """CHK-HIGH-05: ``count`` dice at the highest face (or at least ``face``) make a critical."""

    count: int = Field(default=2, ge=1, le=20)
    face: int | None = Field(default=None, ge=1, le=100)


class Dark(Strict):
    """CHK-HIGH-06..08: Trophy Dark's dark dice, 1..10 per check (CHK-IMPORT-14)."""

    label: Label
    max: int = Field(ge=1, le=10)
    text: str | None = Field(default=None, max_length=200)
    outcome: Literal["all", "light"] = "all"


class DiceHighest(ResolutionBase):
    """CHK-HIGH-01..15: Blades in the Dark and Trophy Dark."""

    kind: Literal["dice-highest"]
    die: Die
    pool: HighestPool
    keep: int = Field(default=1, ge=1, le=3)
    zero_dice: Literal["lowest-of-two", "fail"] = Field(default="lowest-of-two", alias="zeroDice")
    critical: Critical | None = None
    dark: Dark | None = None
    situational_dice: SituationalDice | None = Field(default=None, alias="situationalDice")
    difficulty_ladder: tuple[DcRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )

    def audit(self, combat: CombatBlock | None) -> Iterator[Problem]:
        """CHK-IMPORT: the problems only this kind can have, each with its JSON path."""
        return check_highest(self, combat)


def check_highest(res: DiceHighest, combat: CombatBlock | None) -> Iterator[Problem]:
    """CHK-IMPORT-15/17 and faces on the die; keep, zeroDice and dark ranges are structural."""
    if res.pool.min > res.pool.max:
        yield Problem(f"{RESOLUTION}.pool.min", "pool.min is above pool.max")
    if res.critical is not None and res.critical.face is not None:
        yield from face_problem(res.critical.face, res.die.sides, f"{RESOLUTION}.critical.face")
    if combat is not None:
        yield Problem("$.combat", "a dice-highest ruleset has no combat (CHK-IMPORT-17)")
