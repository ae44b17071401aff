"""Exact dice-pool odds, uncached: today's code against the previous one, side by side in one run.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_pool_odds_bench.py --benchmark-only``.
``reference`` is the previous code (``tests/checks/pool_odds_reference.py``: lists of whole numbers,
one convolution per die); ``today`` is ``exact_pool_odds`` with every cache cleared. The pool is
the exploding one of ``test_checks_bench`` (d10, target 7, tens explode and count double, ones
cancel and botch, as many extra dice as starting ones), at 15, 50 and 100 dice, and the same with
a re-roll of the faces ≤ 6 (``once`` at 15, 50 and 100 dice, ``until`` at 15 and 50). Both ways
are checked equal before timing.
No time is asserted.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.resolve.checks.dice_pool.odds import exact_pool_odds
from middleware.resolve.checks.dice_pool.rules import PoolCheck, Reroll
from tests.checks import pool_odds_reference as reference

EXWOD = {"sides": 10, "target": 7, "explode": 10, "double": 10, "cancel": 1, "botch": 1}


def exwod(dice: int, reroll: Reroll | None = None) -> PoolCheck:
    return PoolCheck(dice=dice, explode_cap=dice, reroll=reroll, **EXWOD)


def old_odds(check: PoolCheck) -> Any:
    return reference.odds_from(check, reference.exact_net_distribution(check), None)


POOLS = {
    "15": exwod(15), "50": exwod(50), "100": exwod(100),
    "15-once": exwod(15, Reroll(6)), "50-once": exwod(50, Reroll(6)),
    "100-once": exwod(100, Reroll(6)), "15-until": exwod(15, Reroll(6, "until")),
    "50-until": exwod(50, Reroll(6, "until")),
}
SLOW = {"50-once", "100-once", "50-until"}
"""Pools whose reference takes seconds: a few rounds only."""


@pytest.mark.parametrize("way", ["reference", "today"])
@pytest.mark.parametrize("pool", list(POOLS))
def test_exact_pool_odds_uncached(benchmark: Any, pool: str, way: str) -> None:
    check = POOLS[pool]
    benchmark.group = f"odds-pool-{pool}"
    run = old_odds if way == "reference" else lambda c: exact_pool_odds(c, None)
    if way == "today":
        assert old_odds(check) == run(check)
    if pool in SLOW and way == "reference":
        benchmark.pedantic(run, args=(check,), rounds=2, iterations=1)
    else:
        benchmark(run, check)
