"""``dice-highest`` arithmetic: throw a handful of dice, read the highest one to three (CHK-HIGH).

Plain frozen values (``HighestCheck``) so the roll, its verdict and its exact odds
(``odds_highest.py``) share one reading of the rules without a ruleset; ``highest.py`` reads the
ruleset, the sheet and the tag into them and writes the record. Every die goes through the one
``Dice`` seam (SPEC §5) in the order the record shows them: the light dice (or the two
``zeroDice`` dice), then the dark dice last (CHK-HIGH-10, CHK-REC-11).

Which dice are *read* (kept, summed, tiered, counted for the critical) is the one switch of
Trophy Dark's ``dark.outcome``: ``"all"`` reads light and dark together, ``"light"`` the light
dice alone (CHK-HIGH-07/08). A check with nothing to read applies ``zeroDice`` (CHK-HIGH-04/09).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from middleware.dice import Dice
from middleware.resolve.checks.outcome import Outcomes, Verdict, judge

ZeroDice = Literal["lowest-of-two", "fail"]
DarkOutcome = Literal["all", "light"]

MAX_DICE = 20
"""CHK-HIGH-01 / checks.md Ambiguity 14: at most 20 dice in the pool, in the file and in play."""

NOTHING = float("-inf")
"""The number a ``zeroDice: "fail"`` check is judged by: below every tier (Ambiguity 13)."""


@dataclass(frozen=True, slots=True)
class HighestCheck:
    """One dice-highest check as plain values: everything the roll and its odds depend on.

    ``light`` is the number of dice after every addition and the ``pool`` clamp; ``dark`` the dark
    dice after ``dark.max``. ``critical_count`` None means the ruleset declares no ``critical``;
    ``critical_face`` None means the die's highest face (CHK-HIGH-05).
    """

    sides: int
    light: int
    dc: int
    keep: int = 1
    zero_dice: ZeroDice = "lowest-of-two"
    critical_count: int | None = None
    critical_face: int | None = None
    dark: int = 0
    dark_outcome: DarkOutcome = "all"

    @property
    def zero(self) -> bool:
        """CHK-HIGH-04/09: nothing to read: no light dice, and no dark dice read with them."""
        return self.light == 0 and (self.dark == 0 or self.dark_outcome == "light")

    @property
    def crit_face(self) -> int:
        """The lowest face that counts towards a critical (the highest face unless ``face``)."""
        return self.critical_face if self.critical_face is not None else self.sides

    @property
    def read_count(self) -> int:
        """How many dice are read when the check is not a zero-dice one (CHK-HIGH-07/08)."""
        return self.light + (self.dark if self.dark_outcome == "all" else 0)


@dataclass(frozen=True, slots=True)
class HighestRoll:
    """What the dice came to (CHK-HIGH, CHK-REC-10..13)."""

    light: tuple[int, ...]
    dark: tuple[int, ...]
    kept: tuple[int, ...]
    critical: bool
    failed: bool
    zero: bool

    @property
    def rolls(self) -> tuple[int, ...]:
        """Every face thrown, light first and dark last (CHK-REC-11)."""
        return self.light + self.dark

    @property
    def total(self) -> int:
        """The kept dice summed: what the tiers and the ``dc`` read (CHK-HIGH-03/13)."""
        return sum(self.kept)

    @property
    def dark_highest(self) -> bool:
        """CHK-HIGH-10: a dark die strictly beat every light die thrown, or no light die was."""
        if not self.dark:
            return False
        return not self.light or max(self.dark) > max(self.light)


def roll_highest(check: HighestCheck, dice: Dice) -> HighestRoll:
    """Throw a dice-highest check: light (or zero-dice) dice, then dark; keep and read."""
    zero = check.zero
    light_count = (2 if check.zero_dice == "lowest-of-two" else 0) if zero else check.light
    light = tuple(dice.throw_many(light_count, check.sides))
    dark = tuple(dice.throw_many(check.dark, check.sides))
    if zero:
        # CHK-HIGH-04, Ambiguity 13: the lower of two, one die whatever ``keep``; never critical.
        lower: tuple[int, ...] = (min(light),) if light else ()
        return HighestRoll(light, dark, lower, critical=False, failed=not light, zero=True)
    read = light + dark if check.dark_outcome == "all" else light
    kept = tuple(sorted(read, reverse=True)[:check.keep])
    return HighestRoll(light, dark, kept, critical=is_critical(check, read), failed=False,
                       zero=False)


def is_critical(check: HighestCheck, read: tuple[int, ...]) -> bool:
    """CHK-HIGH-05: ``critical.count`` read dice at the critical face or above."""
    if check.critical_count is None:
        return False
    return sum(1 for face in read if face >= check.crit_face) >= check.critical_count


def verdict_of(outcomes: Outcomes | None, dc: int, *, total: int, critical: bool,
               failed: bool) -> Verdict:
    """CHK-HIGH-13/14, CHK-OUT-07/09: the kept dice against the dc, a critical to its tier.

    A ``zeroDice: "fail"`` check fails unrolled and lands in the worst number-read tier
    (Ambiguity 13); it is no critical failure of its own.
    """
    if failed:
        return judge(outcomes, total=NOTHING, needed=dc)
    return judge(outcomes, total=total, needed=dc, forced="success" if critical else None)


def dc_range(sides: int, keep: int) -> tuple[int, int]:
    """CHK-HIGH-13: a ``dc`` runs from 1 to ``keep`` × ``die.sides``."""
    return 1, keep * sides


def clamp(value: int, low: int, high: int) -> int:
    """CHK-COMMON-11: out-of-range values go to the nearest end."""
    return max(low, min(high, value))
