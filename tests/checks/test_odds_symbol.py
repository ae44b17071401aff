"""Exact odds of symbol-pool checks (SPEC §5, §6 ``chance``; CHK-SYM-14/16) and a statistical test
of the symbol roller against them (the house way of tests/checks/test_odds.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from middleware.dice import Dice
from middleware.resolve.checks.outcome import outcomes_from
from middleware.resolve.checks.symbol_pool.odds import die_distribution, net_distribution, pool_odds
from middleware.resolve.checks.symbol_pool.resolve import throw_pool
from middleware.resolve.checks.symbol_pool.roll import Side, SymbolRules, symbol_rules_from
from middleware.rules.kinds.symbol_pool import SymbolPool
from middleware.rules.load import load_ruleset
from tests.checks.test_odds import chi_square, critical_value
from tests.rules.kind_examples import GENESYS, ruleset_with

THROWS = 20_000
Plan = tuple[tuple[str, int, Side], ...]


def reference_rules() -> SymbolRules:
    resolution = load_ruleset(ruleset_with(GENESYS)).resolution
    assert isinstance(resolution, SymbolPool)
    return symbol_rules_from(resolution)


RULES = reference_rules()


def test_one_ability_die_succeeds_half_the_time() -> None:
    """CHK-SYM-14: Ability faces with a success: [s], [s], [s s], [s a] → 4 of 8."""
    assert Fraction(1, 2) == pool_odds(RULES, (("ability", 1, "roller"),)).success


def test_ability_against_difficulty_by_hand() -> None:
    """CHK-SYM-03/14: Ability net 0/1/2 with 4/3/1 in 8, Difficulty 0/−1/−2 with 5/2/1 in 8 →
    P(net ≥ 1) = 3/8·5/8 + 1/8·7/8 = 22/64."""
    plan = (("ability", 1, "roller"), ("difficulty", 1, "opposing"))
    assert ({0: Fraction(4, 8), 1: Fraction(3, 8), 2: Fraction(1, 8)}
            == die_distribution(RULES, RULES.die_by_id("ability")))
    assert Fraction(22, 64) == pool_odds(RULES, plan).success


def test_triumph_and_despair_count_in_the_odds() -> None:
    """CHK-SYM-02: the Proficiency Triumph is a success: one success on s ×2, s a ×3 and t,
    two on s s ×2, none on the 4 others; the Challenge Despair is one of its 5 single failures."""
    proficiency = die_distribution(RULES, RULES.die_by_id("proficiency"))
    challenge = die_distribution(RULES, RULES.die_by_id("challenge"))
    assert {0: Fraction(4, 12), 1: Fraction(6, 12), 2: Fraction(2, 12)} == proficiency
    assert Fraction(5, 12) == challenge[-1]


def test_needed_and_tiers_by_margin_and_total() -> None:
    """CHK-SYM-14/16: ``needed`` 2 on two Ability dice; tiers by margin read net − needed + 1 and
    add up to 1 with success their succeeding part."""
    needs_two = SymbolRules(RULES.symbols, RULES.counts, RULES.cancels, RULES.dice, "s", needed=2)
    plan = (("ability", 2, "roller"),)
    net = net_distribution(RULES, plan)
    assert sum(p for n, p in net.items() if n >= 2) == pool_odds(needs_two, plan).success
    outcomes = outcomes_from({"by": "margin", "tiers": [
        {"id": "great", "label": "Great", "atLeast": 2, "success": True},
        {"id": "ok", "label": "Made it", "atLeast": 1, "success": True},
        {"id": "miss", "label": "Missed"}]})
    odds = pool_odds(needs_two, plan, outcomes)
    tiers = dict(odds.tiers)
    assert Fraction(1) == sum(tiers.values())
    assert net[2] == tiers["Made it"]
    assert odds.success == tiers["Great"] + tiers["Made it"]


def test_the_odds_are_cached_per_distinct_pool() -> None:
    """The same dice in another order are one pool: one cached answer."""
    one = pool_odds(RULES, (("ability", 2, "roller"), ("difficulty", 1, "opposing")))
    other = pool_odds(RULES, (("difficulty", 1, "opposing"), ("ability", 1, "roller"),
                              ("ability", 1, "roller")))
    assert one is other


def observe(plan: Plan, seed: int) -> dict[int, int]:
    dice = Dice(seed)
    counts: dict[int, int] = {}
    for _ in range(THROWS):
        total = throw_pool(RULES, plan, dice).reading.total
        counts[total] = counts.get(total, 0) + 1
    return counts


POOLS: dict[str, Plan] = {
    "ability and proficiency vs difficulty": (
        ("proficiency", 1, "roller"), ("ability", 2, "roller"), ("difficulty", 2, "opposing")),
    "upgraded on both sides with boost and setback": (
        ("proficiency", 2, "roller"), ("ability", 1, "roller"), ("boost", 2, "roller"),
        ("challenge", 1, "opposing"), ("difficulty", 2, "opposing"), ("setback", 1, "opposing")),
    "a full pool": (("proficiency", 6, "roller"), ("challenge", 5, "opposing")),
}


@pytest.mark.parametrize("name", list(POOLS))
def test_roller_matches_the_exact_distribution(name: str) -> None:
    """SPEC §5: many seeded throws of each pool fit its exact net-success distribution."""
    plan = POOLS[name]
    stat, df = chi_square(observe(plan, seed=len(name)), net_distribution(RULES, plan))
    assert stat < critical_value(df), f"{name}: chi-square {stat:.1f} with {df} df"


def test_a_wrong_roller_fails_the_statistical_test() -> None:
    """The test has teeth: Ability dice do not fit the Proficiency distribution."""
    thrown = observe((("ability", 3, "roller"),), seed=3)
    stat, df = chi_square(thrown, net_distribution(RULES, (("proficiency", 3, "roller"),)))
    assert stat > 10 * critical_value(df)
