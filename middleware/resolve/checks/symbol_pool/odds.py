"""Exact odds of a symbol-pool check, by convolution (SPEC §5, §6 ``chance``; CHK-SYM-14/16).

Whether a check passes, and which tier it lands in, depends only on its net successes: the
success symbol (with what ``counts`` adds to it) minus its cancelling partner (CHK-SYM-02/03/14).
That number is a sum over the dice, so each die's face distribution of it is convolved in
``Fraction``; the verdict goes through the same ``outcome.judge`` the roll uses, with the same
``needed`` (net − needed + 1 for ``margin``, CHK-SYM-16). Criticals are marks that never change
the verdict (CHK-SYM-15), so they do not enter the odds. Cached per distinct pool: the dice are
counted by id, so the same dice in another order share one entry.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Outcomes, judge
from middleware.resolve.checks.symbol_pool.roll import SymbolDie, SymbolRules, success_value

__all__ = ["die_distribution", "net_distribution", "pool_odds"]

Pool = tuple[tuple[str, int], ...]
"""A pool as (die id, how many), sorted by id: the cache key of one distinct pool."""


def pool_odds(rules: SymbolRules, plan: Iterable[tuple[str, int, object]],
              outcomes: Outcomes | None = None) -> Odds:
    """The chance of success and of each tier (best first) of throwing ``plan``'s dice."""
    return _pool_odds(rules, _pool(plan), outcomes)


def net_distribution(rules: SymbolRules, plan: Iterable[tuple[str, int, object]]) \
        -> dict[int, Fraction]:
    """P(net successes) of a pool: what a statistical test of the roller compares against."""
    return dict(_net(rules, _pool(plan)))


@lru_cache(maxsize=1024)
def _pool_odds(rules: SymbolRules, pool: Pool, outcomes: Outcomes | None) -> Odds:
    needed = rules.needed if outcomes is None else rules.needed - 1
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for total, p in _net(rules, pool).items():
        verdict = judge(outcomes, total=total, needed=needed)
        success += p if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += p
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))


@lru_cache(maxsize=1024)
def _net(rules: SymbolRules, pool: Pool) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {0: Fraction(1)}
    for die_id, count in pool:
        one = die_distribution(rules, rules.die_by_id(die_id))
        for _ in range(count):
            out = _convolve(out, one)
    return out


@lru_cache(maxsize=256)
def die_distribution(rules: SymbolRules, die: SymbolDie) -> dict[int, Fraction]:
    """P(net successes) of one die: each face equally likely (CHK-SYM-04)."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for face in die.faces:
        out[success_value(rules, face)] += Fraction(1, die.sides)
    return dict(out)


def _convolve(left: dict[int, Fraction], right: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for a, p in left.items():
        for b, q in right.items():
            out[a + b] += p * q
    return dict(out)


def _pool(plan: Iterable[tuple[str, int, object]]) -> Pool:
    counts: Counter[str] = Counter()
    for die_id, count, _ in plan:
        counts[die_id] += count
    return tuple(sorted((d, n) for d, n in counts.items() if n > 0))
