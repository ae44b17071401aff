"""``roll-against``: roll at most (or at least) the sheet number (CHK-AGAINST)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.rules.base import Strict
from middleware.rules.common import AgainstRung, ResolutionBase


class AgainstDice(Strict):
    """CHK-AGAINST-02: what is rolled and summed (1d100 by default)."""

    count: int = Field(default=1, ge=1, le=100)
    sides: int = Field(default=100, ge=2, le=1000)


class WhenTarget(Strict):
    """CHK-AGAINST-07: limits a critical rule to some targets."""

    at_least: int | None = Field(default=None, alias="atLeast")
    below: int | None = None


class CriticalSuccessRule(Strict):
    """CHK-AGAINST-06: faces ``from``..``to`` (either open); no ``pastTarget`` (CHK-IMPORT-19)."""

    from_: int | None = Field(default=None, alias="from")
    to: int | None = None
    when_target: WhenTarget | None = Field(default=None, alias="whenTarget")


class CriticalFailureRule(CriticalSuccessRule):
    """CHK-AGAINST-06: as a success rule, or ``pastTarget``: that far past, failing."""

    past_target: int | None = Field(default=None, alias="pastTarget", ge=1)


class Tens(Strict):
    """CHK-AGAINST-09: extra tens dice on a single d100, at most ``max`` per check."""

    max: int = Field(ge=1, le=9)


class RollAgainst(ResolutionBase):
    """CHK-AGAINST-01..10: Call of Cthulhu, GURPS, old-school percentages."""

    kind: Literal["roll-against"]
    dice: AgainstDice = Field(default_factory=lambda: AgainstDice(count=1, sides=100))
    against: Literal["at-most", "at-least"] = "at-most"
    critical_success: tuple[CriticalSuccessRule, ...] = Field(
        default=(), alias="criticalSuccess", max_length=6
    )
    critical_failure: tuple[CriticalFailureRule, ...] = Field(
        default=(), alias="criticalFailure", max_length=6
    )
    tens: Tens | None = None
    difficulty_ladder: tuple[AgainstRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )
