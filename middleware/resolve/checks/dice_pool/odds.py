"""Exact odds of a dice-pool check, from the rules and not by sampling (SPEC §5, §6 ``chance``).

What a pool's verdict reads is ``d`` = successes − cancels over every die thrown (the net count is
``max(d, 0) + auto``, CHK-POOL-09, CHK-SPEND-05) and whether the check botched (CHK-POOL-10/11).
Each face of the die adds a fixed amount to ``d`` (0, 1 or 2 successes, minus one if it cancels)
and either explodes or not, so the work is done on those two face classes (``dice.py``):

- Without a re-roll every die, starting or extra, is alike, and the whole distribution of ``d`` is
  one closed form in the exploding and the other faces: a power, a product and a Horner sum over
  the extra dice, worked on polynomials packed into single whole numbers (``chain.py``,
  ``packed.py``). The chance that no die succeeds (the botch) is the same form on plain counts.
- With the re-roll ``once`` (and for the ``halfOrMore`` botch, which reads the starting dice
  only) the starting dice differ from the extra ones but are still independent: two recurrences
  in the number of extra dice, on the same packed polynomials (``once.py``).
- With the re-roll ``until`` the starting dice are not independent (the 100 re-throw stop of
  CHK-POOL-14 is shared, worked exactly by ``dice.until_low_dice``): they are convolved keyed by
  how many explode, then the extra dice are walked one throw at a time keyed by how many are still
  owed (``dice.general_mass``); so are the rare tables the recurrences cannot divide by.

Everything is counted in whole numbers over one common denominator, the verdict's sums too
(``odds_from``), and becomes ``Fraction`` at the end. Results are cached per distinct check
(``PoolCheck`` and ``Outcomes`` are frozen). Covered: sides, pool size (0 fails unrolled), target,
``explode`` with its cap, ``double``, ``cancel``, ``botch`` under both rules, ``exceptional``
(critical only: it never moves success), stances, ``exact`` (counting or not), ``auto`` successes,
re-rolls ``once`` and ``until``.

Cost: the distribution has about ``3·(dice + cap)`` keys of about ``(dice + cap)·log2(sides)`` bits
each, so merely writing it down is quadratic in the pool in bits; the closed form stays within a
small factor of that (a 100-die exploding pool: a few multiplications of ~400,000-bit numbers).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import lcm

from middleware.resolve.checks.dice_pool.chain import chain_counts, chain_within
from middleware.resolve.checks.dice_pool.dice import (
    Faces,
    Frame,
    Table,
    faces_of,
    general_mass,
    once_weights,
    start_of,
    start_whole,
    until_low_dice,
)
from middleware.resolve.checks.dice_pool.once import once_sum
from middleware.resolve.checks.dice_pool.packed import Packing
from middleware.resolve.checks.dice_pool.rules import PoolCheck
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Outcomes, judge

Net = tuple[int, bool]
"""A pool's reading as the verdict sees it: net successes (with ``auto``) and botch."""

Counts = tuple[dict[Net, int], int]
"""The ways to each ``Net`` and their common denominator."""


def pool_odds(check: PoolCheck, outcomes: Outcomes | None = None) -> Odds:
    """The chance that ``check`` succeeds and of each tier, best first (cached)."""
    return _pool_odds(check, outcomes)


@lru_cache(maxsize=1024)
def _pool_odds(check: PoolCheck, outcomes: Outcomes | None) -> Odds:
    return odds_from(check, net_counts(check), outcomes)


def exact_pool_odds(check: PoolCheck, outcomes: Outcomes | None) -> Odds:
    """``pool_odds`` worked from scratch, every cache cleared first (for benchmarks)."""
    faces_of.cache_clear()
    until_low_dice.cache_clear()
    return odds_from(check, exact_net_counts(check), outcomes)


def odds_from(check: PoolCheck, counts: Counts, outcomes: Outcomes | None) -> Odds:
    """CHK-OUT-02/11: success and the tiers from the ways to each (net, botch), through
    ``outcome.judge``; summed in whole numbers, one ``Fraction`` per answer."""
    ways, whole = counts
    success = 0
    tiers: dict[str, int] = defaultdict(int)
    for (net, botch), n in ways.items():
        verdict = judge(outcomes, total=net, needed=check.needed,
                        forced="failure" if botch else None)
        success += n if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += n
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=Fraction(success, whole),
                tiers=tuple((label, Fraction(tiers[label], whole)) for label in order))


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
    ways, whole = exact_net_counts(check)
    return {key: Fraction(n, whole) for key, n in ways.items()}


@lru_cache(maxsize=256)
def net_counts(check: PoolCheck) -> Counts:
    """The ways to each (net successes, botch) over their common denominator (cached)."""
    return exact_net_counts(check)


def exact_net_counts(check: PoolCheck) -> Counts:
    """``net_counts`` worked out afresh (the botch's ways come over the same denominator as the
    counts, both being the same dice; ``lcm`` only guards that)."""
    if check.dice <= 0:
        return {(check.auto, False): 1}, 1
    counts, whole = raw_counts(check)
    botch, botch_whole = botch_ways(check)
    common = lcm(whole, botch_whole)
    out: dict[Net, int] = defaultdict(int)
    for d, n in counts.items():
        out[(max(d, 0) + check.auto, False)] += n * (common // whole)
    if botch:
        out[(check.auto, False)] -= botch * (common // botch_whole)
        out[(check.auto, True)] += botch * (common // botch_whole)
    return {key: n for key, n in out.items() if n}, common


def raw_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """The ways to reach each ``d`` (successes − cancels) over their common denominator."""
    faces = faces_of(check)
    if check.reroll is None:
        return fast_counts(check.dice, faces, check.explode_cap if faces.explodes else 0)
    if check.reroll.mode == "once":
        counts = once_counts(check, faces.main, faces.main,
                             Frame.around(faces.main, _most(check), _width(check)))
        if counts is not None:
            return counts
    return general_counts(check)


def _most(check: PoolCheck) -> int:
    """The most dice one throw of ``check`` can count (starting and extra)."""
    return check.dice + (check.explode_cap if faces_of(check).explodes else 0)


def _width(check: PoolCheck) -> int:
    """Bits a key of a packed distribution of ``check`` needs: room for every throw's ways."""
    return Packing.holding(start_whole(check) * check.sides ** (_most(check) - check.dice)).width


def once_counts(check: PoolCheck, start: Table, extra: Table,
                frame: Frame) -> tuple[dict[int, int], int] | None:
    """Starting dice of ``start`` (weighted by the re-roll ``once`` if there is one, else plain)
    and extra dice of ``extra`` (``once.once_sum``); None where the recurrence cannot divide."""
    cap, sides = _most(check) - check.dice, check.sides
    weights = once_weights(sides, check.reroll.up_to) if check.reroll is not None else None
    whole = start_whole(check) * sides ** cap
    low = min(0, *(delta for delta, _, _ in start.faces), *(delta for delta, _, _ in extra.faces))
    packing = Packing(frame.width)
    boom0, calm0 = start.split(weights)
    boom, calm = extra.split()
    ways = once_sum(check.dice, cap, (packing.factor(boom0, low), packing.factor(calm0, low)),
                    (packing.factor(boom, low), packing.factor(calm, low)),
                    packing.monomial(sides, -low))
    if ways is None:
        return None
    return frame.as_dict(ways), whole


def general_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """``raw_counts`` by convolving the starting dice and walking the extra ones (any rule)."""
    faces = faces_of(check)
    cap = check.explode_cap if faces.explodes else 0
    frame = Frame.around(faces.main, check.dice + cap, _width(check))
    start, whole = start_of(check, faces.main, frame)
    vector, whole = general_mass(start, whole, faces.main, frame, check.sides, cap)
    return frame.as_dict(vector), whole


def fast_counts(dice: int, faces: Faces, cap: int) -> tuple[dict[int, int], int]:
    """CHK-POOL-07 without a re-roll, in closed form (``chain.chain_counts``)."""
    return chain_counts(dice, faces, cap)


def botch_ways(check: PoolCheck) -> tuple[int, int]:
    """CHK-POOL-10/11: the throws that botch, and their denominator. Nobody succeeded (no
    ``auto`` either) and a face ≤ ``botch`` came up (``noSuccesses``) or showed on at least half
    of the starting dice (``halfOrMore``)."""
    if check.botch is None or check.auto > 0 or check.dice <= 0:
        return 0, 1
    faces = faces_of(check)
    if check.botch_rule == "noSuccesses":
        blank, whole = _all_within(check, faces.blank)
        return blank - _all_within(check, faces.blank_high)[0], whole
    by_low, whole = _all_within_by_low(check, faces)
    return sum(n for low, n in by_low.items() if low > 0 and 2 * low >= check.dice), whole


def botch_chance(check: PoolCheck) -> Fraction:
    """P(botch) (CHK-POOL-10/11, ``botch_ways``)."""
    ways, whole = botch_ways(check)
    return Fraction(ways, whole)


def _all_within(check: PoolCheck, table: Table) -> tuple[int, int]:
    """The throws in which every die shows a face ``table`` keeps, and their denominator (the
    same for every table of one check)."""
    faces = faces_of(check)
    if check.reroll is None:
        return chain_within(check.dice, check.explode_cap if faces.explodes else 0, table,
                            check.sides)
    by_low, whole = _all_within_by_low(check, faces, table)
    return sum(by_low.values()), whole


def _all_within_by_low(check: PoolCheck, faces: Faces,
                       table: Table | None = None) -> tuple[dict[int, int], int]:
    """Ways for every die to show a face of ``table`` (default: no success), by how many
    starting dice show a face ≤ ``botch`` (only counted when no table is given)."""
    start_table = faces.blank_low if table is None else table
    extra_table = (faces.blank if table is None else table).flat()
    frame = Frame(low=0, size=check.dice + 1, width=_width(check))
    if check.reroll is None or check.reroll.mode == "once":
        counts = once_counts(check, start_table, extra_table, frame)
        if counts is not None:
            return counts
    cap = check.explode_cap if faces.explodes else 0
    start, whole = start_of(check, start_table, frame)
    vector, whole = general_mass(start, whole, extra_table, frame, check.sides, cap)
    return frame.as_dict(vector), whole


__all__ = [
    "botch_chance",
    "botch_ways",
    "critical_chances",
    "exact_net_counts",
    "exact_net_distribution",
    "exact_pool_odds",
    "fast_counts",
    "general_counts",
    "net_counts",
    "net_distribution",
    "odds_from",
    "once_counts",
    "pool_odds",
    "raw_counts",
]
