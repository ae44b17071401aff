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
    """How many dice are thrown and summed (1 to 100)."""
    sides: int = Field(ge=2, le=1000)
    """The faces of each die (2 to 1000)."""
    faces: tuple[int, ...] | None = Field(default=None, min_length=2, max_length=1000)
    """The value of each face, lowest first, one per side, for dice not worth their own number
    (Fate: ``[-1, 0, 1]``)."""


class Naturals(Strict):
    """SPEC §10: naturals on checks and on saves, each ``none`` when not given."""

    check: NaturalsSetting = "none"
    """What the highest and lowest face of the die do on checks: ``none``, ``both``, ``max-only``
    or ``min-only``."""
    save: NaturalsSetting = "none"
    """What the highest and lowest face of the die do on saves: ``none``, ``both``, ``max-only`` or
    ``min-only``."""


class OpenEnded(Strict):
    """CHK-SUM-06: a first face >= ``high`` rolls again and adds; <= ``low`` rolls and subtracts."""

    high: int | None = Field(default=None, ge=1)
    """A face at or above this is thrown again and added, and again while the new die shows this or
    more."""
    low: int | None = Field(default=None, ge=1)
    """A first face at or below this is thrown again and subtracted (Rolemaster's open-ended
    roll)."""


class DiceSum(ResolutionBase):
    """CHK-SUM-01..11: the summed kind (5e, 2d6 games, Fate, Rolemaster)."""

    kind: Literal["dice-sum"]
    """``dice-sum``: add the dice and the sheet number, and compare the total with a difficulty."""
    dice: SumDice
    """What is thrown and summed, e.g. ``{"count": 2, "sides": 6}``."""
    advantage: bool = False
    """Whether the Game Master may ask for two rolls and keep one (``mode="advantage"`` or
    ``"disadvantage"``)."""
    naturals: Naturals | NaturalsSetting | None = None
    """What a single die's highest and lowest face do: one setting for checks and saves, or
    ``{check, save}``. Plain arithmetic when absent."""
    open_ended: OpenEnded | None = Field(default=None, alias="openEnded")
    """A single die that keeps rolling on its highest or lowest faces."""
    unmodified: tuple[int, ...] = Field(default=(), max_length=100)
    """Faces of a single die the record marks as ``unmodified="..."`` when the first die shows one
    (e.g. ``[66, 100]``)."""
    difficulty_ladder: tuple[DcRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )
    """The difficulties the Game Master chooses from by name, each with the total to reach."""

    def naturals_for(self, kind: Literal["check", "save"]) -> NaturalsSetting:
        """SPEC §10: the setting for checks or saves; a bare string sets both, absent is none."""
        if self.naturals is None:
            return "none"
        if isinstance(self.naturals, str):
            return self.naturals
        return self.naturals.check if kind == "check" else self.naturals.save
