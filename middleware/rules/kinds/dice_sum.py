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
