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
    """How many dice are thrown and summed (1 by default)."""
    sides: int = Field(default=100, ge=2, le=1000)
    """The faces of each die (100 by default)."""


class WhenTarget(Strict):
    """CHK-AGAINST-07: limits a critical rule to some targets."""

    at_least: int | None = Field(default=None, alias="atLeast")
    """The rule holds only with a target of this or more."""
    below: int | None = None
    """The rule holds only with a target below this."""


class CriticalSuccessRule(Strict):
    """CHK-AGAINST-06: faces ``from``..``to`` (either open); no ``pastTarget`` (CHK-IMPORT-19)."""

    from_: int | None = Field(default=None, alias="from")
    """The lowest face of the rule (open when absent)."""
    to: int | None = None
    """The highest face of the rule (open when absent)."""
    when_target: WhenTarget | None = Field(default=None, alias="whenTarget")
    """Limits the rule to some targets."""


class CriticalFailureRule(CriticalSuccessRule):
    """CHK-AGAINST-06: as a success rule, or ``pastTarget``: that far past, failing."""

    past_target: int | None = Field(default=None, alias="pastTarget", ge=1)
    """A roll that lands this far or farther on the failing side of the target is a critical
    failure."""


class Tens(Strict):
    """CHK-AGAINST-09: extra tens dice on a single d100, at most ``max`` per check."""

    max: int = Field(ge=1, le=9)
    """The most extra tens dice one check may throw with ``bonus=`` (1 to 9)."""


class RollAgainst(ResolutionBase):
    """CHK-AGAINST-01..10: Call of Cthulhu, GURPS, old-school percentages."""

    kind: Literal["roll-against"]
    """``roll-against``: roll at most (or at least) the sheet number."""
    dice: AgainstDice = Field(default_factory=lambda: AgainstDice(count=1, sides=100))
    """What is rolled and summed (1d100 by default)."""
    against: Literal["at-most", "at-least"] = "at-most"
    """``at-most`` (default): a roll at or below the target succeeds; ``at-least``: a roll at or
    above it."""
    critical_success: tuple[CriticalSuccessRule, ...] = Field(
        default=(), alias="criticalSuccess", max_length=6
    )
    """Rules for faces that are a critical success (up to 6); a critical success always
    succeeds."""
    critical_failure: tuple[CriticalFailureRule, ...] = Field(
        default=(), alias="criticalFailure", max_length=6
    )
    """Rules for faces that are a critical failure (up to 6); a critical failure always fails."""
    tens: Tens | None = None
    """Extra tens dice on a single d100: ``bonus="+N"`` keeps the best roll, ``bonus="-N"`` the
    worst."""
    difficulty_ladder: tuple[AgainstRung, ...] = Field(
        default=(), alias="difficultyLadder", max_length=40
    )
    """The difficulties the Game Master chooses from by name, each shifting (and perhaps dividing)
    the target."""

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
