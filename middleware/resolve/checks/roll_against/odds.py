"""Exact odds of a roll-against check (SPEC §5, §6 ``chance``; CHK-AGAINST-02/09).

The kept roll's distribution is worked out exactly in ``Fraction``: summed dice by counting the
ways to make each sum (a sliding window over prefix sums, so 3d6 or 10d100 stay cheap), or a d100
with extra tens dice, where each units digit gives ten equally likely readings and the kept one is
the best (or worst) of the k tens digits thrown: P(best is the i-th best reading) =
((10 − i)/10)^k − ((9 − i)/10)^k. Every kept roll is then judged by the same ``against_roll.verdict``
the roller uses, so criticals, ``whenTarget`` and every tier reading count exactly as in play.
Results are cached per distinct check (every input is a frozen value).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.roll_against.roll import (
    Against,
    AgainstCheck,
    verdict,
    with_tens,
)

MAX_SUMS = 20_000
"""Distinct sums we work out exactly; past it (hostile rulesets only: 30d1000) ``chance`` is None."""


def against_odds(check: AgainstCheck) -> Odds | None:
    """The chance of success and of each tier (labels best first) of ``check``; None when the
    dice have too many sums to work out."""
    rules = check.rules
    if not _uses_tens(check) and rules.count * (rules.sides - 1) + 1 > MAX_SUMS:
        return None
    return _against_odds(check)


@lru_cache(maxsize=1024)
def _against_odds(check: AgainstCheck) -> Odds:
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for roll, p in roll_distribution(check).items():
        judged = verdict(check, roll)
        success += p if judged.success else 0
        if judged.tier is not None:
            tiers[judged.tier.label] += p
    order = [t.label for t in check.outcomes.tiers] if check.outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))


def roll_distribution(check: AgainstCheck) -> dict[int, Fraction]:
    """P(kept roll) of ``check``: what a statistical test of the roller compares against."""
    if _uses_tens(check):
        return tens_distribution(check.rules.against, check.tens)
    return sum_distribution(check.rules.count, check.rules.sides)


def _uses_tens(check: AgainstCheck) -> bool:
    return check.tens != 0 and check.rules.has_tens


@lru_cache(maxsize=64)
def sum_distribution(count: int, sides: int) -> dict[int, Fraction]:
    """P(sum) of ``count`` dice with ``sides`` faces, from the number of ways to make each sum."""
    ways = [1]
    for _ in range(count):
        prefix = list(accumulate(ways, initial=0))
        size = len(ways)
        # One more die: the ways to reach offset s are the ways to reach s − sides + 1 .. s.
        ways = [prefix[min(s + 1, size)] - prefix[max(s + 1 - sides, 0)]
                for s in range(size + sides - 1)]
    outcomes = sides**count
    return {count + offset: Fraction(w, outcomes) for offset, w in enumerate(ways)}


@lru_cache(maxsize=64)
def tens_distribution(against: Against, tens: int) -> dict[int, Fraction]:
    """P(kept roll) of a d100 with ``|tens|`` extra tens dice, a bonus (> 0) or penalty (< 0)."""
    thrown = abs(tens) + 1  # the d100's own tens digit and each extra die's
    lowest = (against == "at-most") == (tens > 0)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for units in range(10):
        readings = sorted((with_tens(units, digit) for digit in range(10)), reverse=not lowest)
        for i, reading in enumerate(readings):
            kept = Fraction(10 - i, 10) ** thrown - Fraction(9 - i, 10) ** thrown
            out[reading] += kept / 10
    return dict(out)

