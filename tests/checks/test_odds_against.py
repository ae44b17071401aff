"""Exact odds of roll-against checks (SPEC §5, §6 ``chance``; CHK-AGAINST-02/06..10) and
statistical tests of the roller against them, the house way of ``test_odds.py`` (Pearson's
chi-square against the 0.999 quantile)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from middleware.dice import Dice
from middleware.resolve.checks.roll_against.odds import (
    against_odds,
    roll_distribution,
    sum_distribution,
    tens_distribution,
)
from middleware.resolve.checks.roll_against.resolve import against_check
from middleware.resolve.checks.roll_against.roll import AgainstCheck, AgainstRules, throw_against
from middleware.rules.kinds.roll_against import RollAgainst
from tests.checks.test_against import GURPS
from tests.checks.test_odds import THROWS, chi_square, critical_value
from tests.rules.kind_examples import CTHULHU

COC = RollAgainst.model_validate(CTHULHU)
GURPS_RULES = RollAgainst.model_validate(GURPS)


def observe(check: AgainstCheck, seed: int) -> dict[int, int]:
    dice = Dice(seed)
    counts: dict[int, int] = {}
    for _ in range(THROWS):
        kept = throw_against(check, dice).kept
        counts[kept] = counts.get(kept, 0) + 1
    return counts


FEATURES = {
    "one d100 (CHK-AGAINST-02)": against_check(COC, 60),
    "one bonus tens die (CHK-AGAINST-09)": against_check(COC, 60, tens=1),
    "two penalty tens dice (CHK-AGAINST-09)": against_check(COC, 60, tens=-2),
    "bonus die at-least (CHK-AGAINST-03/09)": AgainstCheck(
        rules=AgainstRules(against="at-least", tens_max=2), target=50, tens=1),
    "GURPS 3d6 (CHK-AGAINST-02)": against_check(GURPS_RULES, 12),
}


@pytest.mark.parametrize("name", list(FEATURES))
def test_roller_matches_the_exact_distribution(name: str) -> None:
    """SPEC §5: many seeded rolls of each feature fit its exact distribution (chi-square)."""
    check = FEATURES[name]
    stat, df = chi_square(observe(check, seed=len(name)), roll_distribution(check))
    assert stat < critical_value(df), f"{name}: chi-square {stat:.1f} with {df} df"


def test_a_wrong_roller_fails_the_statistical_test() -> None:
    """The test has teeth: plain d100 rolls do not fit the bonus-die distribution."""
    plain = observe(against_check(COC, 60), seed=5)
    stat, df = chi_square(plain, roll_distribution(against_check(COC, 60, tens=1)))
    assert stat > 10 * critical_value(df)


def test_call_of_cthulhu_tier_odds_target_60() -> None:
    """CHK-AGAINST-10 (target 60), in hundredths: Critical 1, Extreme 2..12 = 11, Hard 13..30 =
    18, Regular 31..60 = 30, Failure 61..99 = 39, Fumble 100 = 1; success 60 %."""
    odds = against_odds(against_check(COC, 60))
    assert odds is not None
    expected = [("Critical", 1), ("Extreme success", 11), ("Hard success", 18),
                ("Regular success", 30), ("Failure", 39), ("Fumble", 1)]
    assert [(label, Fraction(n, 100)) for label, n in expected] == list(odds.tiers)
    assert Fraction(3, 5) == odds.success


def test_call_of_cthulhu_tier_odds_target_45() -> None:
    """CHK-AGAINST-07/10 (target 45): Extreme 2..9, Hard 10..22, Regular 23..45; the 96+ rule
    holds below 50, so the Fumble takes 96..100."""
    odds = against_odds(against_check(COC, 45))
    assert odds is not None
    expected = [("Critical", 1), ("Extreme success", 8), ("Hard success", 13),
                ("Regular success", 23), ("Failure", 50), ("Fumble", 5)]
    assert [(label, Fraction(n, 100)) for label, n in expected] == list(odds.tiers)


def test_tens_dice_change_the_chance() -> None:
    """CHK-AGAINST-09: against 60 a bonus die succeeds unless both tens digits are 6..9 (or 00
    with units 0 on both): 1 − 0.4² = 21/25; a penalty die needs both low: 0.6² = 9/25."""
    bonus, penalty = against_odds(against_check(COC, 60, 1)), against_odds(against_check(COC, 60, -1))
    assert bonus is not None and penalty is not None
    assert (Fraction(21, 25), Fraction(9, 25)) == (bonus.success, penalty.success)


def test_tens_distribution_is_a_distribution() -> None:
    """CHK-AGAINST-09: every kept roll 1..100 has a chance, the chances add up to 1; with one
    bonus die a 1 needs units 1 and a tens 0 on either die: (1 − 0.9²) / 10."""
    exact = tens_distribution("at-most", 1)
    assert (set(range(1, 101)), Fraction(1)) == (set(exact), sum(exact.values()))
    assert Fraction(19, 1000) == exact[1]


def test_gurps_odds_with_criticals() -> None:
    """CHK-AGAINST-06..08 on 3d6: skill 16 fails only on 17 and 18 (4/216); skill 2 succeeds
    only on the always-critical 3 and 4 (4/216), whatever the comparison says."""
    high = against_odds(against_check(GURPS_RULES, 16))
    low = against_odds(against_check(GURPS_RULES, 2))
    assert high is not None and low is not None
    assert (Fraction(212, 216), Fraction(4, 216)) == (high.success, low.success)


def test_sum_distribution_counts_the_ways() -> None:
    """CHK-AGAINST-02: 3d6 makes 10 in 27 of 216 ways; the chances add up to 1."""
    exact = sum_distribution(3, 6)
    assert (Fraction(27, 216), Fraction(1), 3, 18) == (
        exact[10], sum(exact.values()), min(exact), max(exact))


def test_odds_are_cached_and_bounded() -> None:
    """SPEC §5: the same check is worked out once; dice with too many sums to work out give no
    chance rather than stalling the reply (SPEC §8)."""
    check = against_check(COC, 55, tens=2)
    assert against_odds(check) is against_odds(check)
    assert against_odds(AgainstCheck(rules=AgainstRules(count=30, sides=1000), target=50)) is None
