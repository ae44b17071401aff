"""Exact odds (SPEC §5, §6 ``chance``) and statistical tests of the dice-sum roller against them.

Each statistical test throws a check many times with a seeded ``Dice`` and compares the observed
totals with ``odds.py``'s exact distribution by Pearson's chi-square; the bound is the 0.999
quantile for the degrees of freedom (Wilson–Hilferty), so a wrong roller (kept the wrong throw,
subtracted instead of added, wrong face values) fails by orders of magnitude.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from middleware.dice import Dice
from middleware.resolve.checks.dice_sum.dice import EffectDice, SumCheck, SumDice, roll_sum
from middleware.resolve.checks.dice_sum.odds import check_odds, total_distribution
from middleware.resolve.checks.outcome import outcomes_from

D20 = SumDice(count=1, sides=20)
TWO_D6 = SumDice(count=2, sides=6)
FATE = SumDice(count=4, sides=3, faces=(-1, 0, 1))
ROLEMASTER = SumDice(count=1, sides=100, open_high=96, open_low=5)
THROWS = 20_000
Z_999 = 3.090232


def critical_value(df: int) -> float:
    """The 0.999 quantile of chi-square with ``df`` degrees of freedom (Wilson–Hilferty)."""
    h = 2 / (9 * df)
    return df * (1 - h + Z_999 * math.sqrt(h)) ** 3


def chi_square(observed: dict[int, int], exact: dict[int, Fraction]) -> tuple[float, int]:
    """Pearson's statistic and degrees of freedom, neighbouring totals merged into bins of at
    least 1/40 of the mass (so every expected count is large)."""
    bins: list[tuple[float, int]] = []
    mass, seen = 0.0, 0
    for total in sorted(exact):
        mass += float(exact[total])
        seen += observed.get(total, 0)
        if mass >= 1 / 40:
            bins.append((mass, seen))
            mass, seen = 0.0, 0
    if mass or seen:
        last_mass, last_seen = bins.pop()
        bins.append((last_mass + mass, last_seen + seen))
    n = sum(observed.values())
    stat = sum((s - n * p) ** 2 / (n * p) for p, s in bins)
    return stat, len(bins) - 1


def observe(check: SumCheck, seed: int) -> dict[int, int]:
    dice = Dice(seed)
    counts: dict[int, int] = {}
    for _ in range(THROWS):
        total = roll_sum(check, dice).total
        counts[total] = counts.get(total, 0) + 1
    return counts


FEATURES = {
    "2d6 plus modifier (CHK-SUM-01)": SumCheck(dice=TWO_D6, modifier=3, dc=10),
    "advantage (CHK-SUM-02)": SumCheck(dice=D20, modifier=0, dc=11, mode="advantage"),
    "disadvantage (CHK-SUM-02)": SumCheck(dice=D20, modifier=0, dc=11, mode="disadvantage"),
    "advantage on 2d6 (CHK-SUM-02)": SumCheck(dice=TWO_D6, modifier=0, dc=8, mode="advantage"),
    "Fate faces (CHK-SUM-05)": SumCheck(dice=FATE, modifier=1, dc=2),
    "open-ended d100 (CHK-SUM-06/07)": SumCheck(dice=ROLEMASTER, modifier=0, dc=100),
    "open-ended with advantage": SumCheck(dice=ROLEMASTER, modifier=0, dc=100, mode="advantage"),
    "effect dice (SHEET-COND-05)": SumCheck(
        dice=D20, modifier=0, dc=10, effects=(EffectDice(1, 4), EffectDice(1, 6, minus=True))),
}


@pytest.mark.parametrize("name", list(FEATURES))
def test_roller_matches_the_exact_distribution(name: str) -> None:
    """SPEC §5: many seeded throws of each feature fit its exact distribution (chi-square)."""
    check = FEATURES[name]
    stat, df = chi_square(observe(check, seed=len(name)), total_distribution(check))
    assert stat < critical_value(df), f"{name}: chi-square {stat:.1f} with {df} df"


def test_a_wrong_roller_fails_the_statistical_test() -> None:
    """The test has teeth: plain d20 throws do not fit the advantage distribution."""
    plain = observe(SumCheck(dice=D20, modifier=0, dc=11), seed=3)
    exact = total_distribution(SumCheck(dice=D20, modifier=0, dc=11, mode="advantage"))
    stat, df = chi_square(plain, exact)
    assert stat > 10 * critical_value(df)


def test_fate_distribution_is_the_systems_own() -> None:
    """CHK-SUM-05: 4dF totals −4..+4 out of 81: 0 → 19, ±1 → 16, ±2 → 10, ±3 → 4, ±4 → 1."""
    exact = total_distribution(SumCheck(dice=FATE, modifier=0, dc=0))
    expected = {0: 19, 1: 16, -1: 16, 2: 10, -2: 10, 3: 4, -3: 4, 4: 1, -4: 1}
    assert {t: Fraction(n, 81) for t, n in expected.items()} == exact


def test_chance_of_success_with_and_without_advantage() -> None:
    """CHK-SUM-01/02: d20 vs 11 is 1/2; advantage 3/4; disadvantage 1/4; 2d6+0 vs 10 is 6/36."""
    def chance(check: SumCheck) -> Fraction:
        return check_odds(check).success

    assert Fraction(1, 2) == chance(SumCheck(dice=D20, modifier=0, dc=11))
    assert Fraction(3, 4) == chance(SumCheck(dice=D20, modifier=0, dc=11, mode="advantage"))
    assert Fraction(1, 4) == chance(SumCheck(dice=D20, modifier=0, dc=11, mode="disadvantage"))
    assert Fraction(6, 36) == chance(SumCheck(dice=TWO_D6, modifier=0, dc=10))


def test_naturals_change_the_odds() -> None:
    """CHK-SUM-03: with ``both``, +30 vs 10 still fails on a 1 (19/20) and +0 vs 30 wins on a 20."""
    sure = SumCheck(dice=D20, modifier=30, dc=10, naturals="both")
    hopeless = SumCheck(dice=D20, modifier=0, dc=30, naturals="both")
    assert (Fraction(19, 20), Fraction(1, 20)) == (check_odds(sure).success,
                                                   check_odds(hopeless).success)


def test_open_ended_odds_cover_the_whole_chain() -> None:
    """CHK-SUM-06/07: the open-ended distribution sums to exactly 1; a total above 100 needs a
    first die f ≥ 96 and a next die ≥ 101 − f: (100 + 99 + 98 + 97 + 96) / 100²."""
    exact = total_distribution(SumCheck(dice=ROLEMASTER, modifier=0, dc=0))
    above = sum(p for t, p in exact.items() if t >= 101)
    assert Fraction(1) == sum(exact.values())
    assert Fraction(490, 10_000) == above


def test_tier_odds_sum_to_one_and_success_matches_the_tiers() -> None:
    """CHK-OUT-04/09: the tiers' chances add up to 1 and success is the succeeding tiers' sum."""
    outcomes = outcomes_from({"tiers": [
        {"id": "crit", "label": "Critical success", "atLeast": 10, "success": True,
         "critical": True},
        {"id": "ok", "label": "Success", "atLeast": 0, "success": True},
        {"id": "no", "label": "Failure"}]})
    odds = check_odds(SumCheck(dice=D20, modifier=0, dc=10), outcomes)
    tiers = dict(odds.tiers)
    assert Fraction(1) == sum(tiers.values())
    assert odds.success == tiers["Critical success"] + tiers["Success"]
    assert (Fraction(1, 20), Fraction(11, 20)) == (tiers["Critical success"], odds.success)


def test_seeded_dice_throw_what_random_randint_throws() -> None:
    """SPEC §5: a stored seed replays exactly; the seam's fast path draws the same faces as
    ``random.Random(seed).randint(1, sides)`` for every die size, one at a time or many."""
    import random

    from middleware.dice import Dice

    for seed in range(40):
        for sides in (1, 2, 3, 6, 7, 10, 20, 100, 1000, 65_537):
            expected = random.Random(seed)
            one, many = Dice(seed), Dice(seed)
            singles = [one.throw(sides) for _ in range(12)]
            assert [expected.randint(1, sides) for _ in range(12)] == singles
            assert singles == many.throw_many(12, sides) == many.thrown
