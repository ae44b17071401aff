"""Exact odds of dice-highest checks (SPEC §5, §6 ``chance``) and statistical tests of the roller.

The exact distribution is checked three ways: by hand for the Blades reference example, against an
exhaustive enumeration that drives the real roller through every face sequence of small checks,
and by many seeded throws compared by Pearson's chi-square (the bound and binning of
``test_odds.py``), which a roller reading the wrong dice fails by far.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from middleware.dice import Dice
from middleware.resolve.checks.dice_highest.odds import (
    highest_odds,
    read_distribution,
    total_distribution,
)
from middleware.resolve.checks.dice_highest.roll import HighestCheck, HighestRoll, roll_highest
from middleware.resolve.checks.outcome import outcomes_from
from tests.checks.test_odds import chi_square, critical_value
from tests.rules.kind_examples import BLADES

TIERS = outcomes_from(BLADES["outcomes"])
THROWS = 20_000


def blades(light: int, **changes: object) -> HighestCheck:
    """The reference example's check (d6, keep 1, two sixes critical) on ``light`` dice."""
    values: dict[str, object] = {"sides": 6, "light": light, "dc": 4, "critical_count": 2}
    values.update(changes)
    return HighestCheck(**values)  # type: ignore[arg-type]


def tiers(check: HighestCheck) -> dict[str, Fraction]:
    return dict(highest_odds(check, TIERS).tiers)


def test_blades_three_dice_by_hand() -> None:
    """CHK-HIGH-05/14: of 216 throws of 3d6, 16 show two sixes or more (Critical), 91 − 16 = 75
    a single six (Full), 125 − 27 = 98 a top die of 4 or 5 (Partial), 27 nothing above 3 (Bad);
    success 189/216."""
    odds = highest_odds(blades(3), TIERS)
    assert {"Critical": Fraction(16, 216), "Full success": Fraction(75, 216),
            "Partial success": Fraction(98, 216), "Bad outcome": Fraction(27, 216)
            } == dict(odds.tiers)
    assert (Fraction(189, 216), 0.875) == (odds.success, odds.chance)


def test_zero_dice_odds_are_the_lower_of_two_never_critical() -> None:
    """CHK-HIGH-04: the lower of two d6 is 6 once in 36, 4 or 5 eight times, never a Critical."""
    assert {"Critical": Fraction(0), "Full success": Fraction(1, 36),
            "Partial success": Fraction(8, 36), "Bad outcome": Fraction(27, 36)
            } == tiers(blades(0))


def test_zero_dice_fail_is_a_sure_failure() -> None:
    """CHK-HIGH-04, Ambiguity 13: ``"fail"`` never succeeds and lands in the worst tier."""
    odds = highest_odds(blades(0, zero_dice="fail"), TIERS)
    assert (Fraction(0), Fraction(1)) == (odds.success, dict(odds.tiers)["Bad outcome"])


def test_dark_dice_count_only_under_all() -> None:
    """CHK-HIGH-07/08: two light and one dark die read as three dice under ``"all"``; under
    ``"light"`` the odds are those of the two light dice alone."""
    assert tiers(blades(3)) == tiers(blades(2, dark=1, dark_outcome="all"))
    assert tiers(blades(2)) == tiers(blades(2, dark=1, dark_outcome="light"))
    assert tiers(blades(0)) == tiers(blades(0, dark=2, dark_outcome="light"))


def test_without_tiers_success_is_reaching_the_dc_or_a_critical() -> None:
    """CHK-HIGH-13, CHK-HIGH-05: keep 2 of 2d6 vs dc 12 is 1/36; with ``critical: {count: 2,
    face: 5}`` a 5-5, 5-6 or 6-5 counts too: 4/36."""
    plain = HighestCheck(sides=6, light=2, dc=12, keep=2)
    crits = HighestCheck(sides=6, light=2, dc=12, keep=2, critical_count=2, critical_face=5)
    assert (Fraction(1, 36), Fraction(4, 36)) == (highest_odds(plain).success,
                                                  highest_odds(crits).success)


def test_odds_are_cached_per_distinct_check() -> None:
    """SPEC §6 ``chance``: the same check asks the rules once; another check gets its own."""
    assert highest_odds(blades(4), TIERS) is highest_odds(blades(4), TIERS)
    assert highest_odds(blades(4), TIERS) != highest_odds(blades(5), TIERS)


def reading(rolled: HighestRoll) -> tuple[int, bool, bool]:
    return rolled.total, rolled.critical, rolled.failed


def enumerate_roller(check: HighestCheck) -> dict[tuple[int, bool, bool], Fraction]:
    """The roller's exact distribution: every face sequence of the dice it throws, scripted."""
    thrown = len(roll_highest(check, Dice(0)).rolls)
    counts = Counter(reading(roll_highest(check, Dice(0, script=faces)))
                     for faces in product(range(1, check.sides + 1), repeat=thrown))
    whole = check.sides ** thrown
    return {key: Fraction(n, whole) for key, n in counts.items()}


SMALL = {
    "blades 3d6": blades(3),
    "one die, keep 3": blades(1, keep=3),
    "keep 2 of 4d5, two 4+ critical": HighestCheck(sides=5, light=4, dc=6, keep=2,
                                                   critical_count=2, critical_face=4),
    "keep 3 of 5d4, three 4s critical": HighestCheck(sides=4, light=5, dc=9, keep=3,
                                                     critical_count=3),
    "zero dice": blades(0),
    "zero dice fail with dark": blades(0, zero_dice="fail", dark=2, dark_outcome="light"),
    "dark all, no light": blades(0, dark=2, dark_outcome="all"),
    "dark light": blades(2, dark=2, dark_outcome="light"),
    "dark all": blades(2, dark=2, dark_outcome="all", keep=2),
}


@pytest.mark.parametrize("name", list(SMALL))
def test_exact_distribution_matches_every_throw_of_the_roller(name: str) -> None:
    """SPEC §5: for small checks the face-by-face count equals the roller run on every sequence
    of faces, kept total, critical and unrolled failure alike."""
    check = SMALL[name]
    assert enumerate_roller(check) == read_distribution(check)


def observe(check: HighestCheck, seed: int) -> dict[int, int]:
    """Seeded throws, each read as one number: the kept total, doubled, plus 1 on a critical."""
    dice = Dice(seed)
    counts: Counter[int] = Counter()
    for _ in range(THROWS):
        rolled = roll_highest(check, dice)
        counts[2 * rolled.total + rolled.critical] += 1
    return dict(counts)


def exact(check: HighestCheck) -> dict[int, Fraction]:
    return {2 * total + critical: p
            for (total, critical, _), p in read_distribution(check).items()}


FEATURES = {
    "Blades 3d6 (CHK-HIGH-01/05)": blades(3),
    "Blades six dice": blades(6),
    "keep 2 of 5d10 (CHK-HIGH-03)": HighestCheck(sides=10, light=5, dc=12, keep=2,
                                                 critical_count=3, critical_face=9),
    "keep 3 of 8d6": HighestCheck(sides=6, light=8, dc=15, keep=3),
    "zero dice (CHK-HIGH-04)": blades(0),
    "dark under all (CHK-HIGH-07)": blades(2, dark=3, dark_outcome="all"),
    "dark under light (CHK-HIGH-08)": blades(2, dark=3, dark_outcome="light"),
}


@pytest.mark.parametrize("name", list(FEATURES))
def test_roller_matches_the_exact_distribution(name: str) -> None:
    """SPEC §5: many seeded throws of each feature fit its exact distribution (chi-square)."""
    check = FEATURES[name]
    stat, df = chi_square(observe(check, seed=len(name)), exact(check))
    assert stat < critical_value(df), f"{name}: chi-square {stat:.1f} with {df} df"


def test_a_roller_reading_the_dark_dice_fails_the_statistical_test() -> None:
    """The test has teeth: throws that read the dark dice too do not fit the light-only odds."""
    reads_dark = observe(blades(2, dark=3, dark_outcome="all"), seed=5)
    stat, df = chi_square(reads_dark, exact(blades(2, dark=3, dark_outcome="light")))
    assert stat > 10 * critical_value(df)


def test_a_roller_keeping_the_wrong_die_fails_the_statistical_test() -> None:
    """The test has teeth: two dice read by the higher one do not fit the odds of a zero-dice
    check, which keeps the lower of two."""
    higher = observe(blades(2, critical_count=None), seed=7)
    stat, df = chi_square(higher, exact(blades(0)))
    assert stat > 10 * critical_value(df)


def test_total_distribution_sums_to_one_over_the_kept_range() -> None:
    """CHK-HIGH-03/13: keep 3 of 6d6 totals run 3..18 and add up to exactly 1."""
    totals = total_distribution(HighestCheck(sides=6, light=6, dc=10, keep=3))
    assert (set(range(3, 19)), Fraction(1)) == (set(totals), sum(totals.values()))
