"""The dice-pool odds agree, bit for bit, with the way they were worked before (SPEC §5, §6).

``pool_odds_reference`` is the previous code, frozen. Every configuration below is worked both ways
and compared as exact fractions: the whole (net, botch) distribution and the odds with and
without outcome tiers. The configurations cover sizes from 1 to 100 dice, targets, ``explode``
with its cap (at, below and above the target, every face exploding), ``double``, ``cancel``,
``botch`` under both rules, ``auto`` successes (what a spend or a used entry buys, CHK-SPEND-05),
re-rolls ``once`` and ``until`` (what a spend or a free entry buys, CHK-SPEND-07), stances and
``exact``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from middleware.resolve.checks.dice_pool import packed
from middleware.resolve.checks.dice_pool.odds import exact_net_distribution, exact_pool_odds
from middleware.resolve.checks.dice_pool.rules import PoolCheck, Reroll
from middleware.resolve.checks.outcome import Outcomes, outcomes_from
from middleware.rules.common import Outcomes as OutcomesBlock
from tests.checks import pool_odds_reference as reference

TIERS = outcomes_from(OutcomesBlock.model_validate({"by": "total", "tiers": [
    {"id": "crit", "label": "Critical success", "atLeast": 4, "success": True},
    {"id": "hit", "label": "Success", "atLeast": 1, "success": True},
    {"id": "miss", "label": "Failure"},
    {"id": "botch", "label": "Botch", "on": "critical-failure"}]}))
MARGIN = outcomes_from(OutcomesBlock.model_validate({"by": "margin", "tiers": [
    {"id": "well", "label": "Well", "atLeast": 2, "success": True},
    {"id": "just", "label": "Just", "atLeast": 0, "success": True},
    {"id": "miss", "label": "Miss"}]}))


def random_check(rng: random.Random, most_dice: int, reroll: bool) -> PoolCheck:
    """One pool check drawn from every rule the pool reads."""
    sides = rng.choice((4, 6, 8, 10, 12))
    target = rng.randint(1, sides)
    stance = rng.random() < 0.15
    rules: dict[str, Any] = {
        "sides": sides, "dice": rng.randint(1, most_dice), "target": target,
        "needed": rng.randint(0, 4), "auto": rng.choice((0, 0, 0, 1, 2)),
        "exact_counts": rng.choice((None, None, True, False)),
    }
    if stance:
        return PoolCheck(count=rng.choice(("below", "above")), **rules)
    if rng.random() < 0.8:
        rules["explode"] = rng.choice((sides, sides, sides - 1, target, 1))
        rules["explode_cap"] = rng.choice((0, 1, 3, rules["dice"], 2 * rules["dice"]))
    if rng.random() < 0.5:
        rules["double"] = rng.randint(target, sides)
    if rng.random() < 0.6:
        rules["cancel"] = rng.choice((1, 1, 2))
    if rng.random() < 0.6:
        rules["botch"] = rng.choice((1, 1, 2))
        rules["botch_rule"] = rng.choice(("noSuccesses", "halfOrMore"))
    if reroll:
        rules["reroll"] = Reroll(rng.randint(1, sides - 1), rng.choice(("once", "until")),
                                 rng.choice((None, "luck")))
    return PoolCheck(**rules)


def configurations() -> dict[str, PoolCheck]:
    rng = random.Random(13)
    plain = [random_check(rng, 24, reroll=False) for _ in range(240)]
    rerolled = [random_check(rng, 6, reroll=True) for _ in range(60)]
    return {repr(check): check for check in (*plain, *rerolled)}


CHECKS = configurations()

EXWOD = {"sides": 10, "target": 7, "explode": 10, "double": 10, "cancel": 1, "botch": 1}
LARGE = {
    f"{dice} dice, {name}": PoolCheck(dice=dice, explode_cap=dice, **EXWOD, **extra)
    for dice, (name, extra) in itertools.product((15, 50, 100), (
        ("explode, double, cancel, botch", {}),
        ("halfOrMore, needing 5", {"botch_rule": "halfOrMore", "needed": 5}),
    ))
} | {
    "12 dice, reroll once": PoolCheck(dice=12, explode_cap=12, reroll=Reroll(6), **EXWOD),
    "10 dice, reroll until": PoolCheck(dice=10, explode_cap=10, reroll=Reroll(6, "until"),
                                       **EXWOD),
    "every face explodes": PoolCheck(sides=6, dice=9, target=4, explode=1, explode_cap=7),
    "no explosion, 100 dice": PoolCheck(sides=10, dice=100, target=7, cancel=1, botch=1),
}


def both_ways(check: PoolCheck, outcomes: Outcomes | None) -> None:
    old = reference.exact_net_distribution(check)
    assert old == exact_net_distribution(check)
    assert reference.odds_from(check, old, outcomes) == exact_pool_odds(check, outcomes)


@pytest.mark.parametrize("name", list(CHECKS))
def test_odds_equal_the_reference_over_many_pools(name: str) -> None:
    """Random pools of 1–24 dice (1–6 with a re-roll): the same exact distribution and odds."""
    check = CHECKS[name]
    both_ways(check, None)
    assert reference.odds_from(check, reference.exact_net_distribution(check), TIERS) \
        == exact_pool_odds(check, TIERS)


@pytest.mark.parametrize("name", list(LARGE))
def test_odds_equal_the_reference_on_large_pools(name: str) -> None:
    """15-, 50- and 100-die exploding pools and the re-rolled ones, with and without tiers."""
    for outcomes in (None, TIERS, MARGIN):
        both_ways(LARGE[name], outcomes)


def test_without_gmpy2_the_same_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worked in plain ``int`` (no gmpy2), the odds are the same fractions."""
    monkeypatch.setattr(packed, "_whole_numbers", lambda: int)
    assert int is type(packed.big(7))
    for name in ("15 dice, explode, double, cancel, botch", "15 dice, halfOrMore, needing 5",
                 "12 dice, reroll once", "10 dice, reroll until"):
        both_ways(LARGE[name], TIERS)
    for check in list(CHECKS.values())[::10]:
        both_ways(check, None)
