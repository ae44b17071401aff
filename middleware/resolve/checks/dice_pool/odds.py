"""Exact odds of a dice-pool check, from the rules and not by sampling (SPEC §5, §6 ``chance``).

What a pool's verdict reads is ``d`` = successes − cancels over every die thrown (the net count is
``max(d, 0) + auto``, CHK-POOL-09, CHK-SPEND-05) and whether the check botched (CHK-POOL-10/11).
Each face of the die adds a fixed amount to ``d`` (0, 1 or 2 successes, minus one if it cancels)
and either explodes or not, so the work is done on those two face classes (``pool_dice.py``):

- Without a re-roll every die, starting or extra, is alike. A throw is then ``a`` exploding and
  ``b`` other dice, and the number of ways to reach each (a, b) is closed-form: the starting dice
  choose which ``x`` explode, and the extra dice are a run of throws that ends at the ``x``-th
  non-exploding one or at the cap of CHK-POOL-07. So the distribution of ``d`` is
  ``Σ_a E^a ⊗ (Σ_b w(a, b)·N^b)``, folded Horner-wise over ``a`` (``_fast``).
- With a re-roll the starting dice differ from the extra ones: the starting dice are convolved
  keyed by how many explode, then the extra dice are walked one throw at a time keyed by how many
  are still owed (``pool_dice.walk``). ``once`` re-throws each low die once; ``until`` re-throws
  until high, with the 100 re-throw stop of CHK-POOL-14 worked exactly (``pool_dice.until_start``).

Everything is counted in whole numbers over one common denominator and becomes ``Fraction`` at
the end. Results are cached per distinct check (``PoolCheck`` and ``Outcomes`` are frozen).
Covered: sides, pool size (0 fails unrolled), target, ``explode`` with its cap, ``double``,
``cancel``, ``botch`` under both rules, ``exceptional`` (critical only: it never moves success),
stances, ``exact`` (counting or not), ``auto`` successes, re-rolls ``once`` and ``until``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb

from middleware.resolve.checks.dice_pool.dice import (
    Faces,
    Frame,
    Table,
    convolve,
    faces_of,
    general_mass,
    start_of,
)
from middleware.resolve.checks.dice_pool.rules import PoolCheck
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Outcomes, judge

Net = tuple[int, bool]
"""A pool's reading as the verdict sees it: net successes (with ``auto``) and botch."""


def pool_odds(check: PoolCheck, outcomes: Outcomes | None = None) -> Odds:
    """The chance that ``check`` succeeds and of each tier, best first (cached)."""
    return _pool_odds(check, outcomes)


@lru_cache(maxsize=1024)
def _pool_odds(check: PoolCheck, outcomes: Outcomes | None) -> Odds:
    return odds_from(check, net_distribution(check), outcomes)


def exact_pool_odds(check: PoolCheck, outcomes: Outcomes | None) -> Odds:
    """``pool_odds`` worked from scratch, every cache cleared first (for benchmarks)."""
    faces_of.cache_clear()
    shape_weights.cache_clear()
    return odds_from(check, exact_net_distribution(check), outcomes)


def odds_from(check: PoolCheck, dist: dict[Net, Fraction], outcomes: Outcomes | None) -> Odds:
    """CHK-OUT-02/11: success and the tiers from P(net, botch), through ``outcome.judge``."""
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for (net, botch), p in dist.items():
        verdict = judge(outcomes, total=net, needed=check.needed,
                        forced="failure" if botch else None)
        success += p if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += p
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))


def critical_chances(check: PoolCheck) -> tuple[Fraction, Fraction]:
    """Without tiers: P(critical success) by ``exceptional`` (CHK-POOL-12) and P(botch)."""
    high = low = Fraction(0)
    for (net, botch), p in net_distribution(check).items():
        if botch:
            low += p
        elif check.exceptional is not None and check.needed <= net >= check.exceptional:
            high += p
    return high, low


@lru_cache(maxsize=256)
def net_distribution(check: PoolCheck) -> dict[Net, Fraction]:
    """P(net successes, botch): what the verdict and a statistical test of the roller read."""
    return exact_net_distribution(check)


def exact_net_distribution(check: PoolCheck) -> dict[Net, Fraction]:
    """``net_distribution`` worked out afresh (not cached)."""
    if check.dice <= 0:
        return {(check.auto, False): Fraction(1)}
    counts, whole = raw_counts(check)
    botch = botch_chance(check)
    out: dict[Net, Fraction] = defaultdict(Fraction)
    for d, n in counts.items():
        out[(max(d, 0) + check.auto, False)] += Fraction(n, whole)
    if botch:
        out[(check.auto, False)] -= botch
        out[(check.auto, True)] += botch
    return {key: p for key, p in out.items() if p}


def raw_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """The ways to reach each ``d`` (successes − cancels) over their common denominator."""
    faces = faces_of(check)
    if check.reroll is None and faces.explodes:
        return fast_counts(check.dice, faces, check.explode_cap)
    return general_counts(check)


def general_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """``raw_counts`` by convolving the starting dice and walking the extra ones (any rule)."""
    faces = faces_of(check)
    cap = check.explode_cap if faces.explodes else 0
    frame = Frame.around(faces.main, check.dice + cap)
    start, whole = start_of(check, faces.main, frame)
    vector, whole = general_mass(start, whole, faces.main, frame, check.sides, cap)
    return frame.as_dict(vector), whole


def fast_counts(dice: int, faces: Faces, cap: int) -> tuple[dict[int, int], int]:
    """CHK-POOL-07 without a re-roll: ``Σ_a E^a ⊗ Σ_b w(a, b)·s^(T−a−b)·N^b`` (module doc)."""
    sides, most = faces.sides, dice + cap
    frame = Frame.around(faces.main, most)
    boom, calm = faces.main.split()
    weights = shape_weights(dice, cap)
    calm_powers = [frame.unit()]
    for _ in range(most):
        calm_powers.append(convolve(calm_powers[-1], calm))
    mixed: list[list[int]] = [[0] * frame.size for _ in range(most + 1)]
    for (a, b), ways in weights.items():
        scale = ways * sides ** (most - a - b)
        row, power = mixed[a], calm_powers[b]
        low, high = frame.window(calm, b)
        row[low:high] = [r + scale * v for r, v in zip(row[low:high], power[low:high],
                                                         strict=True)]
    total = mixed[most]
    for a in range(most - 1, -1, -1):
        total = [m + t for m, t in zip(mixed[a], convolve(total, boom), strict=True)]
    return frame.as_dict(total), sides ** most


@lru_cache(maxsize=256)
def shape_weights(dice: int, cap: int) -> dict[tuple[int, int], int]:
    """The ways (orders of exploding / other dice) to end with ``a`` exploding and ``b`` others.

    ``x`` of the starting dice explode (``comb(dice, x)`` choices). The extra dice then run until
    the ``x``-th non-exploding one (``comb(k + x − 1, k)`` orders with ``k`` exploding before it)
    or until ``cap`` extra dice were thrown with fewer (``comb(cap, j)`` orders).
    """
    out: dict[tuple[int, int], int] = defaultdict(int)
    for x in range(dice + 1):
        start = comb(dice, x)
        if x == 0:
            out[(0, dice)] += start
            continue
        for k in range(cap - x + 1):
            out[(x + k, dice)] += start * comb(k + x - 1, k)
        for j in range(min(x, cap + 1)):
            out[(x + cap - j, dice - x + j)] += start * comb(cap, j)
    return dict(out)


def botch_chance(check: PoolCheck) -> Fraction:
    """CHK-POOL-10/11: P(botch). Nobody succeeded (no ``auto`` either) and a face ≤ ``botch``
    came up (``noSuccesses``) or showed on at least half of the starting dice (``halfOrMore``)."""
    if check.botch is None or check.auto > 0 or check.dice <= 0:
        return Fraction(0)
    faces = faces_of(check)
    if check.botch_rule == "noSuccesses":
        return _all_within(check, faces.blank) - _all_within(check, faces.blank_high)
    by_low, whole = _all_within_by_low(check, faces)
    return sum((Fraction(n, whole) for low, n in by_low.items()
                if low > 0 and 2 * low >= check.dice), Fraction(0))


def _all_within(check: PoolCheck, table: Table) -> Fraction:
    """P(every die thrown shows a face ``table`` keeps)."""
    by_low, whole = _all_within_by_low(check, faces_of(check), table)
    return Fraction(sum(by_low.values()), whole)


def _all_within_by_low(check: PoolCheck, faces: Faces,
                       table: Table | None = None) -> tuple[dict[int, int], int]:
    """Ways for every die to show a face of ``table`` (default: no success), by how many
    starting dice show a face ≤ ``botch`` (only counted when no table is given)."""
    start_table = faces.blank_low if table is None else table
    extra_table = (faces.blank if table is None else table).flat()
    cap = check.explode_cap if faces.explodes else 0
    frame = Frame(low=0, size=check.dice + 1)
    start, whole = start_of(check, start_table, frame)
    vector, whole = general_mass(start, whole, extra_table, frame, check.sides, cap)
    return frame.as_dict(vector), whole


__all__ = ["critical_chances", "exact_net_distribution", "exact_pool_odds", "fast_counts",
           "general_counts", "net_distribution", "odds_from", "pool_odds", "raw_counts",
           "shape_weights"]
