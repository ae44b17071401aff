"""Issue 3 performance: a check through our resolver, dice included, and exact pool odds.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_checks_bench.py --benchmark-only``.
The side-by-side comparison with Avrae's ``d20.roll("4d6kh3")`` lives in ``d20_bench.py``, which
only the benchmark venv (``.venv-bench``, where d20 and its old ``lark-parser`` are installed)
runs, in the same run as this module; see its docstring for the command. No time is asserted.

- ``check-4d6``: a dice-sum check throwing four d6 (the size of 4d6kh3) via ``resolve_check``.
- ``check-pool-10``: a ten-die Gravewatch pool (tens explode, ones cancel and botch).
- ``odds-pool-15``: the exact odds of a fifteen-die exploding pool with cancel and double, with
  every cache cleared first (goal: ≤ 5 ms).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from middleware.dice import Dice
from middleware.parse import parse
from middleware.resolve import Context, Resolution
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.dice_pool.odds import exact_pool_odds
from middleware.resolve.checks.dice_pool.rules import PoolCheck, pool_verdict, roll_pool
from middleware.resolve.checks.dice_sum.dice import SumCheck, SumDice, roll_sum
from middleware.resolve.checks.outcome import judge, outcomes_from
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.sheet.party import read_party
from middleware.state import GameState
from tests.conftest import compat_json

WARDEN = {"name": "Ilse", "player": True, "sheet": {"v": 1, "build": {
    "abilities": {"sinew": 2, "nerve": 5, "warmth": 2}, "skills": {"ward": "rating_5"}}}}
SCRAPPER = {"name": "Ada", "player": True, "sheet": {"v": 1, "build": {
    "abilities": {"brawn": 2}, "skills": {"scrap": "trained"}}}}
EXWOD_15 = PoolCheck(sides=10, dice=15, target=7, explode=10, explode_cap=15, double=10,
                     cancel=1, botch=1)


def check_tag(text: str) -> Tag:
    return next(s for s in parse(text) if isinstance(s, Tag))


def four_d6_game() -> tuple[Ruleset, GameState]:
    """Ember Roads with four dice to a check instead of two."""
    raw = compat_json("ember-roads.json")
    raw["resolution"]["dice"]["count"] = 4
    ruleset = load_ruleset(raw)
    return ruleset, GameState(ruleset=str(ruleset.id), party=read_party(ruleset, [SCRAPPER]))


def pool_game() -> tuple[Ruleset, GameState]:
    ruleset = load_ruleset(compat_json("gravewatch.json"))
    return ruleset, GameState(ruleset=str(ruleset.id), party=read_party(ruleset, [WARDEN]))


def resolver(ruleset: Ruleset, state: GameState, text: str) -> Any:
    """One check per call, fresh seeded dice each time, as one candidate's tag would be."""
    tag, seeds = check_tag(text), itertools.count()

    def once() -> Resolution:
        return resolve_check(tag, state, Context(ruleset=ruleset, dice=Dice(next(seeds))))
    return once


@pytest.mark.benchmark(group="check-4d6")
def test_sum_check_four_d6_through_the_resolver(benchmark: Any) -> None:
    ruleset, state = four_d6_game()
    once = resolver(ruleset, state, '[skill_check: skill="Scrap" dc="15"]')
    assert 4 == len(once().record.rolls)
    benchmark(once)


@pytest.mark.benchmark(group="check-pool-10")
def test_pool_check_ten_dice_through_the_resolver(benchmark: Any) -> None:
    ruleset, state = pool_game()
    once = resolver(ruleset, state, '[skill_check: skill="Ward" dc="3"]')
    assert 10 == once().record.pool
    benchmark(once)


SUM_4D6 = SumCheck(dice=SumDice(count=4, sides=6), modifier=3, dc=15)
POOL_10 = PoolCheck(sides=10, dice=10, target=7, explode=10, explode_cap=10, cancel=1, botch=1)


@pytest.mark.benchmark(group="check-4d6")
def test_sum_check_four_d6_roll_and_verdict(benchmark: Any) -> None:
    """The check itself, dice included: the kind's throw and its verdict, without the sheet
    look-up and the record (the layer d20's ``roll`` compares with: expression in, result out)."""
    dice, outcomes = Dice(1), outcomes_from(None)

    def once() -> bool:
        roll = roll_sum(SUM_4D6, dice)
        return judge(outcomes, total=roll.total, needed=SUM_4D6.dc, forced=roll.forced,
                     natural=roll.natural).success

    once()
    assert 4 == len(dice.thrown)
    benchmark(once)


@pytest.mark.benchmark(group="check-pool-10")
def test_pool_check_ten_dice_roll_and_verdict(benchmark: Any) -> None:
    """The 10-die exploding pool (tens explode, ones cancel and botch), dice and verdict only."""
    dice = Dice(1)

    def once() -> bool:
        return pool_verdict(POOL_10, roll_pool(POOL_10, dice), None).success

    once()
    assert 10 <= len(dice.thrown)
    benchmark(once)


@pytest.mark.benchmark(group="odds-pool-15")
def test_exact_odds_fifteen_die_exploding_pool_uncached(benchmark: Any) -> None:
    odds = exact_pool_odds(EXWOD_15, None)
    assert 0 < odds.success < 1
    benchmark(exact_pool_odds, EXWOD_15, None)
