"""Exact dice-pool odds (SPEC §5, §6 ``chance``) and the pool roller tested against them.

Small cases are worked by hand from checks.md §3. The roller (``pool_rules.roll_pool``) is checked
two ways: exhaustively, by walking every sequence of faces it can throw for small checks and
weighing each by its probability (the result must equal the exact distribution, not just come
near), and statistically, by many seeded throws compared by chi-square as in ``test_odds.py``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

import middleware.resolve.checks.dice_pool.dice as pool_dice
import middleware.resolve.checks.dice_pool.rules as pool_rules
from middleware.dice import Dice
from middleware.resolve.checks.dice_pool.dice import faces_of
from middleware.resolve.checks.dice_pool.odds import (
    critical_chances,
    exact_net_distribution,
    fast_counts,
    general_counts,
    net_distribution,
    pool_odds,
)
from middleware.resolve.checks.dice_pool.rules import PoolCheck, Reroll, roll_pool
from middleware.resolve.checks.outcome import outcomes_from
from tests.checks.test_odds import chi_square, critical_value

D10 = {"sides": 10, "target": 7}
THROWS = 20_000


def chance(check: PoolCheck) -> Fraction:
    return pool_odds(check).success


def test_two_d10_at_target_7_succeed_unless_both_miss() -> None:
    """CHK-POOL-05: 2d10 target 7, one success needed: 1 − 0.6² = 0.64."""
    assert Fraction(16, 25) == chance(PoolCheck(dice=2, **D10))


def test_successes_needed_and_sheet_number_as_pool_size() -> None:
    """CHK-POOL-01/20: 3d10 needing 2: 3·0.4²·0.6 + 0.4³ = 0.352."""
    assert Fraction(352, 1000) == chance(PoolCheck(dice=3, needed=2, **D10))


def test_a_double_face_counts_twice() -> None:
    """CHK-POOL-06: one d10 needing 2 succeeds only on the doubled 10."""
    assert Fraction(1, 10) == chance(PoolCheck(dice=1, needed=2, double=10, **D10))


def test_a_cancelling_face_takes_a_success_away() -> None:
    """CHK-POOL-09: 2d10 with 1s cancelling: 0.64 less a success and a 1 together (2·0.4·0.1)."""
    assert Fraction(56, 100) == chance(PoolCheck(dice=2, cancel=1, **D10))


def test_explosions_chain_and_stop_at_the_cap() -> None:
    """CHK-POOL-07: 1d10, tens explode, two extra dice at most: three successes need 10, 10 and
    then 7+ (0.1·0.1·0.4); a fourth would need a third extra die, which the cap forbids."""
    rules = {"dice": 1, "explode": 10, "explode_cap": 2, **D10}
    assert Fraction(4, 1000) == chance(PoolCheck(needed=3, **rules))
    assert Fraction(0) == chance(PoolCheck(needed=4, **rules))


def test_botch_no_successes_needs_a_low_face_and_no_success() -> None:
    """CHK-POOL-10: 2d10, botch on 1: no success (0.6²) less no success and no 1 (0.5²)."""
    dist = net_distribution(PoolCheck(dice=2, botch=1, cancel=1, **D10))
    assert Fraction(11, 100) == dist[(0, True)]


def test_botch_half_or_more_reads_the_starting_dice() -> None:
    """CHK-POOL-11: 4d10, no success and 1s on at least two dice:
    6·0.1²·0.5² + 4·0.1³·0.5 + 0.1⁴ = 0.0171."""
    dist = net_distribution(PoolCheck(dice=4, botch=1, botch_rule="halfOrMore", **D10))
    assert Fraction(171, 10_000) == dist[(0, True)]


def test_bought_successes_add_after_counting_and_avert_the_botch() -> None:
    """CHK-SPEND-05: one die needing 2 with one bought success passes on any 7+ (0.4); the
    bought success also means no botch (pool_rules' reading)."""
    check = PoolCheck(dice=1, needed=2, auto=1, botch=1, **D10)
    assert Fraction(4, 10) == chance(check)
    assert all(not botch for _, botch in net_distribution(check))


def test_an_empty_pool_fails_without_a_roll() -> None:
    """CHK-POOL-03: a pool of 0 dice counts only what was bought."""
    assert {(1, False): Fraction(1)} == net_distribution(PoolCheck(dice=0, auto=1, **D10))


def test_stance_counts_below_and_the_exact_die() -> None:
    """CHK-POOL-18/19: d6, Number 4, Lasers (below): 1, 2, 3 and the exact 4 succeed: 4/6."""
    check = PoolCheck(sides=6, dice=1, target=4, count="below", exact_counts=True)
    assert Fraction(4, 6) == chance(check)


def test_an_exact_die_that_does_not_count() -> None:
    """CHK-POOL-19, Ambiguity 9: with ``counts: false`` a die showing the target is no success."""
    assert Fraction(3, 10) == chance(PoolCheck(dice=1, exact_counts=False, **D10))


def test_a_free_reroll_once_throws_the_low_dice_again() -> None:
    """CHK-POOL-14: one d10, faces ≤ 6 thrown once more: 0.4 + 0.6·0.4 = 0.64."""
    assert Fraction(64, 100) == chance(PoolCheck(dice=1, reroll=Reroll(6, "once"), **D10))


def test_a_reroll_until_stops_after_a_hundred_rethrows() -> None:
    """CHK-POOL-14: ``until`` on faces ≤ 6 fails only if the die and all 100 re-throws are low."""
    check = PoolCheck(dice=1, reroll=Reroll(6, "until"), **D10)
    assert 1 - Fraction(6, 10) ** 101 == chance(check)


def test_exceptional_is_a_critical_success_and_never_moves_success() -> None:
    """CHK-POOL-12: one d10 doubled on 10, exceptional at 2: critical 0.1, botch (1s) 0.1."""
    check = PoolCheck(dice=1, double=10, exceptional=2, botch=1, **D10)
    assert (Fraction(1, 10), Fraction(1, 10)) == critical_chances(check)
    assert Fraction(4, 10) == chance(check)


def test_tiers_read_net_successes_and_a_botch_lands_in_the_worst() -> None:
    """CHK-OUT-11/12: Lasers & Feelings tiers by total on 2d6 (target 4, below, exact); a botch
    rule lands in the worst tier; the tiers add up to one."""
    outcomes = outcomes_from({"by": "total", "tiers": [
        {"id": "crit", "label": "Critical success", "atLeast": 3, "success": True},
        {"id": "well", "label": "You do it well", "atLeast": 2, "success": True},
        {"id": "barely", "label": "You barely manage", "atLeast": 1, "success": True},
        {"id": "miss", "label": "Miss"}]})
    check = PoolCheck(sides=6, dice=2, target=4, count="below", exact_counts=True)
    tiers = dict(pool_odds(check, outcomes).tiers)
    hit = Fraction(4, 6)
    expected = {"Critical success": Fraction(0), "You do it well": hit * hit,
                "You barely manage": 2 * hit * (1 - hit), "Miss": (1 - hit) ** 2}
    assert expected == tiers


def test_the_fast_way_and_the_general_way_agree() -> None:
    """The closed-form count of exploding orders equals walking the extra dice one by one."""
    check = PoolCheck(dice=8, explode=9, explode_cap=6, double=10, cancel=1, **D10)
    assert general_counts(check) == fast_counts(8, faces_of(check), 6)


class PathDice(Dice):
    """A ``Dice`` that follows one sequence of faces and records every die it was asked for."""

    def __init__(self, path: list[int]) -> None:
        super().__init__(0)
        self.path, self.asked = path, []

    def throw(self, sides: int) -> int:
        self.asked.append(sides)
        return self.path[len(self.asked) - 1] if len(self.asked) <= len(self.path) else 1


def every_throw(check: PoolCheck) -> dict[tuple[int, bool], Fraction]:
    """The roller's exact distribution: every face sequence it can throw, weighed."""
    out: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    path: list[int] = []
    while True:
        dice = PathDice(path)
        rolled = roll_pool(check, dice)
        faces = path + [1] * (len(dice.asked) - len(path))
        weight = Fraction(1)
        for sides in dice.asked:
            weight /= sides
        out[(rolled.net, rolled.botch)] += weight
        while faces and faces[-1] == dice.asked[len(faces) - 1]:
            faces.pop()
        if not faces:
            return dict(out)
        path = [*faces[:-1], faces[-1] + 1]


SMALL = {
    "explode, double, cancel, botch": PoolCheck(
        sides=6, dice=3, target=4, explode=5, explode_cap=2, double=6, cancel=1, botch=1),
    "explode below the target": PoolCheck(
        sides=4, dice=2, target=3, explode=2, explode_cap=3, botch=1, cancel=1),
    "reroll once with explode": PoolCheck(
        sides=4, dice=2, target=3, explode=4, explode_cap=2, double=4, cancel=1, botch=1,
        reroll=Reroll(2, "once")),
    "halfOrMore with reroll": PoolCheck(
        sides=4, dice=3, target=3, explode=4, explode_cap=2, cancel=1, botch=1,
        botch_rule="halfOrMore", reroll=Reroll(1, "once")),
    "stance and exact": PoolCheck(sides=6, dice=3, target=4, count="above", exact_counts=True),
    "exact not counting, auto": PoolCheck(
        sides=6, dice=3, target=4, exact_counts=False, auto=1, botch=1, cancel=1),
}


@pytest.mark.parametrize("name", list(SMALL))
def test_roller_walked_exhaustively_is_the_exact_distribution(name: str) -> None:
    """SPEC §5: every throw the roller can make, weighed, is exactly our distribution."""
    assert every_throw(SMALL[name]) == net_distribution(SMALL[name])


def test_reroll_until_with_its_stop_walked_exhaustively(monkeypatch: pytest.MonkeyPatch) -> None:
    """CHK-POOL-14: with the re-throw stop lowered to 3 the walk is finite and still exact."""
    monkeypatch.setattr(pool_rules, "MAX_REROLLS", 3)
    monkeypatch.setattr(pool_dice, "MAX_REROLLS", 3)
    check = PoolCheck(sides=4, dice=3, target=3, explode=4, explode_cap=2, cancel=1, botch=1,
                      reroll=Reroll(2, "until"), needed=2)
    assert every_throw(check) == exact_net_distribution(check)


def observe(check: PoolCheck, seed: int) -> dict[int, int]:
    """Seeded throws read as one number: the net successes, or −1 for a botch."""
    dice = Dice(seed)
    counts: dict[int, int] = defaultdict(int)
    for _ in range(THROWS):
        rolled = roll_pool(check, dice)
        counts[-1 if rolled.botch else rolled.net] += 1
    return dict(counts)


def exact(check: PoolCheck) -> dict[int, Fraction]:
    return {-1 if botch else net: p for (net, botch), p in net_distribution(check).items()}


LARGE = {
    "exwod 15 dice: explode, double, cancel, botch": PoolCheck(
        dice=15, explode=10, explode_cap=15, double=10, cancel=1, botch=1, **D10),
    "reference pool 7 dice, careful reroll": PoolCheck(
        dice=7, explode=10, explode_cap=15, cancel=1, botch=1, reroll=Reroll(6, "once"), **D10),
    "halfOrMore with complication": PoolCheck(
        dice=6, botch=2, botch_rule="halfOrMore", target=6, sides=10),
    "reroll until": PoolCheck(dice=5, reroll=Reroll(3, "until"), cancel=1, **D10),
    "low explode with bought success": PoolCheck(
        dice=4, explode=8, explode_cap=4, auto=1, needed=3, **D10),
}


@pytest.mark.parametrize("name", list(LARGE))
def test_roller_matches_the_exact_distribution(name: str) -> None:
    """SPEC §5: many seeded throws of each rule combination fit the exact distribution."""
    check = LARGE[name]
    stat, df = chi_square(observe(check, seed=len(name)), exact(check))
    assert stat < critical_value(df), f"{name}: chi-square {stat:.1f} with {df} df"


def test_a_wrong_distribution_fails_the_statistical_test() -> None:
    """The test has teeth: throws without the double do not fit the doubled distribution."""
    rules = {"dice": 10, "explode": 10, "explode_cap": 10, "cancel": 1, **D10}
    plain = observe(PoolCheck(**rules), seed=5)
    stat, df = chi_square(plain, exact(PoolCheck(double=10, **rules)))
    assert stat > 10 * critical_value(df)
