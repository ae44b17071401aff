"""``roll-against``: roll at most (or at least) the sheet number (CHK-AGAINST)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from middleware.errors import Problem
from middleware.rules.base import Strict
from middleware.rules.combat import CombatBlock
from middleware.rules.common import AgainstRung, ResolutionBase
from middleware.rules.problems import RESOLUTION


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

    def audit(self, combat: CombatBlock | None) -> Iterator[Problem]:
        """CHK-IMPORT: the problems only this kind can have, each with its JSON path."""
        return check_against(self, combat)


def check_against(res: RollAgainst, combat: CombatBlock | None) -> Iterator[Problem]:
    """CHK-IMPORT-20: ``tens`` only on a single d100; critical ranges that can be rolled."""
    if res.tens is not None and (res.dice.count != 1 or res.dice.sides != 100):
        yield Problem(f"{RESOLUTION}.tens", "tens needs the dice to be a single d100 (CHK-IMPORT-20)")
    for key, rules in (("criticalSuccess", res.critical_success),
                       ("criticalFailure", res.critical_failure)):
        for i, rule in enumerate(rules):
            if rule.from_ is not None and rule.to is not None and rule.from_ > rule.to:
                yield Problem(f"{RESOLUTION}.{key}[{i}].from", "from is above to")
