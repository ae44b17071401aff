"""``roll-against`` arithmetic: roll at most (or at least) a target (CHK-AGAINST-02/03/06..10).

Plain frozen values (``AgainstRules``, ``AgainstCheck``) so the roll, its verdict and its exact odds
(``odds_against.py``) share one reading of the rules without a ruleset. ``against.py`` reads the
ruleset and the tag into these values and writes the record.

Tens dice (CHK-AGAINST-09): the d100 is thrown as one die (1..100, read as a tens digit and a units
digit, 100 being "00" and "0"); each extra tens die is a d10 whose face is read as a tens digit
(10 reads 0, as a percentile die shows "00"). Each extra die makes one more candidate roll with the
d100's units digit; a bonus keeps the best candidate, a penalty the worst. "Best" is the lowest on
an ``at-most`` roll and the highest on an ``at-least`` one (checks.md Ambiguity 15).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from middleware.dice import Dice
from middleware.resolve.checks.outcome import Outcomes, Tier, Verdict, judge, land
from middleware.resolve.checks.record import Critical

Against = Literal["at-most", "at-least"]
By = Literal["margin", "total", "fraction"]


@dataclass(frozen=True, slots=True)
class CriticalRule:
    """CHK-AGAINST-06/07: faces ``from``..``to`` (either open), or a failure ``past`` the target
    by at least that much, limited to targets ``target_at_least``.. / below ``target_below``.

    A rule holds when every condition it names holds; a rule naming none holds on every roll.
    """

    from_: int | None = None
    to: int | None = None
    past: int | None = None
    target_at_least: int | None = None
    target_below: int | None = None

    def holds(self, roll: int, target: int, against: Against) -> bool:
        """Whether this rule makes ``roll`` against ``target`` a critical."""
        if self.target_at_least is not None and target < self.target_at_least:
            return False
        if self.target_below is not None and target >= self.target_below:
            return False
        if self.from_ is not None and roll < self.from_:
            return False
        if self.to is not None and roll > self.to:
            return False
        return self.past is None or past_target(roll, target, against) >= self.past


@dataclass(frozen=True, slots=True)
class AgainstRules:
    """The ruleset's roll-against keys as plain values (CHK-AGAINST-02/03/06/09)."""

    count: int = 1
    sides: int = 100
    against: Against = "at-most"
    critical_success: tuple[CriticalRule, ...] = ()
    critical_failure: tuple[CriticalRule, ...] = ()
    tens_max: int | None = None

    @property
    def label(self) -> str:
        """The record's ``dice="NdS"``."""
        return f"{self.count}d{self.sides}"

    @property
    def has_tens(self) -> bool:
        """CHK-AGAINST-09 / CHK-IMPORT-20: tens dice only on a single d100 that declares them."""
        return self.tens_max is not None and self.count == 1 and self.sides == 100


@dataclass(frozen=True, slots=True)
class AgainstCheck:
    """One roll-against check: the rules, the final target, the extra tens dice (signed: bonus
    positive, penalty negative, already clamped) and the tiers with what they read."""

    rules: AgainstRules
    target: int
    tens: int = 0
    outcomes: Outcomes | None = None
    by: By = "margin"


@dataclass(frozen=True, slots=True)
class AgainstRoll:
    """What the dice came to: every candidate roll in throw order and the one kept."""

    rolls: tuple[int, ...]
    kept: int


def throw_against(check: AgainstCheck, dice: Dice) -> AgainstRoll:
    """CHK-AGAINST-02/09: the summed dice, or the d100 and its extra tens dice."""
    rules = check.rules
    if check.tens == 0 or not rules.has_tens:
        faces = tuple(dice.throw_many(rules.count, rules.sides))
        return AgainstRoll(rolls=faces, kept=sum(faces))
    first = dice.throw(100)
    extra = dice.throw_many(abs(check.tens), 10)
    candidates = (first, *(with_tens(first, face % 10) for face in extra))
    return AgainstRoll(rolls=candidates, kept=keep(candidates, rules.against, check.tens > 0))


def with_tens(roll: int, digit: int) -> int:
    """The d100 reading with its tens digit replaced: 23 with 7 → 73; "00" and "0" is 100."""
    value = digit * 10 + roll % 10
    return value or 100


def keep(candidates: tuple[int, ...], against: Against, bonus: bool) -> int:
    """CHK-AGAINST-09: a bonus keeps the best candidate, a penalty the worst."""
    lowest = (against == "at-most") == bonus
    return min(candidates) if lowest else max(candidates)


def past_target(roll: int, target: int, against: Against) -> int:
    """How far the roll lands on the failing side of the target (negative: on the winning side)."""
    return roll - target if against == "at-most" else target - roll


def reaches(roll: int, target: int, against: Against) -> bool:
    """CHK-AGAINST-03: at most the target, or at least it."""
    return past_target(roll, target, against) <= 0


def critical_of(check: AgainstCheck, roll: int) -> Critical | None:
    """CHK-AGAINST-06/07: a critical success rule first (so a GURPS 3 stays a success even
    ten past a tiny target), then a critical failure rule."""
    rules, target = check.rules, check.target
    if any(rule.holds(roll, target, rules.against) for rule in rules.critical_success):
        return "success"
    if any(rule.holds(roll, target, rules.against) for rule in rules.critical_failure):
        return "failure"
    return None


def verdict(check: AgainstCheck, roll: int) -> Verdict:
    """CHK-AGAINST-08/10, CHK-OUT-07/09: a critical wins whatever the comparison; with tiers the
    tier decides, read by ``fraction``, ``margin`` (target − roll at-most) or ``total`` (the roll).
    """
    critical = critical_of(check, roll)
    if check.outcomes is None:
        if critical is not None:
            return Verdict(success=critical == "success", critical=critical)
        return Verdict(success=reaches(roll, check.target, check.rules.against))
    if critical is not None:
        return judge(check.outcomes, total=0, needed=0, forced=critical)
    tier = _land(check, check.outcomes.by_number, roll)
    kind: Critical | None = None
    if tier.critical:
        kind = "success" if tier.success else "failure"
    return Verdict(success=tier.success, critical=kind, tier=tier)


def _land(check: AgainstCheck, tiers: tuple[Tier, ...], roll: int) -> Tier:
    if check.by == "fraction":
        # A roll lands in a tier when it is at most target / atLeast, compared exactly (22.5).
        return next((t for t in tiers if t.at_least is None
                     or roll * Fraction(t.at_least) <= check.target), tiers[-1])
    if check.by == "total":
        return land(tiers, roll)
    return land(tiers, -past_target(roll, check.target, check.rules.against))
