"""Exact odds of a dice-highest check, from the rules and not by sampling (SPEC §5, §6 ``chance``).

What decides a dice-highest verdict is the sum of the ``keep`` highest read dice and whether
``critical.count`` read dice show the critical face (CHK-HIGH-03/05). Both are read from the top
down, so the distribution is built face by face from the highest: choose how many of the dice
still unplaced show this face (a binomial count of ways), take the first ``keep`` of them into the
sum, count them towards the critical. As soon as the kept dice are full, the rest may show any
lower face (``(face - 1) ** rest`` ways), and how many of those complete the critical is a
binomial tail, so no further faces are walked. The counts are whole numbers over
``sides ** dice`` and become ``Fraction``s only at the end.

Dark dice read only under ``dark.outcome: "all"`` (CHK-HIGH-07/08); zero-dice checks are the lower
of two dice, never critical, or a sure failure (CHK-HIGH-04/09). Results are cached per distinct
check with ``functools.lru_cache`` (every input is a frozen value).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb

from middleware.resolve.checks.dice_highest.roll import HighestCheck, verdict_of
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Outcomes

Read = tuple[int, bool, bool]
"""A check's reading as far as the verdict cares: kept total, critical, failed unrolled."""

_Partial = tuple[int, int, int, int]
"""(dice not yet placed, dice kept, their sum, dice at the critical face so far)."""


def highest_odds(check: HighestCheck, outcomes: Outcomes | None = None) -> Odds:
    """The odds of ``check`` read through ``outcomes`` (cached per distinct check)."""
    return _highest_odds(check, outcomes)


@lru_cache(maxsize=1024)
def _highest_odds(check: HighestCheck, outcomes: Outcomes | None) -> Odds:
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for (total, critical, failed), p in read_distribution(check).items():
        verdict = verdict_of(outcomes, check.dc, total=total, critical=critical, failed=failed)
        success += p if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += p
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))


def read_distribution(check: HighestCheck) -> dict[Read, Fraction]:
    """P(kept total, critical, failed) of ``check``: what the verdict is worked from."""
    if check.zero:
        if check.zero_dice == "fail":
            return {(0, False, True): Fraction(1)}
        return {(v, False, False): p for v, p in lowest_of_two(check.sides).items()}
    counts = _top_counts(check.sides, check.read_count, check.keep,
                         check.critical_count or 0, check.crit_face)
    whole = check.sides ** check.read_count
    return {(total, critical, False): Fraction(n, whole)
            for (total, critical), n in counts.items()}


def total_distribution(check: HighestCheck) -> dict[int, Fraction]:
    """P(kept total) of a check: what a statistical test of the roller compares against."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for (total, _, _), p in read_distribution(check).items():
        out[total] += p
    return dict(out)


def lowest_of_two(sides: int) -> dict[int, Fraction]:
    """CHK-HIGH-04: the lower of two dice is v with chance ((s - v + 1)² - (s - v)²) / s²."""
    whole = sides * sides
    return {v: Fraction((sides - v + 1) ** 2 - (sides - v) ** 2, whole)
            for v in range(1, sides + 1)}


@lru_cache(maxsize=256)
def _top_counts(sides: int, dice: int, keep: int, need: int,
                crit_face: int) -> dict[tuple[int, bool], int]:
    """Ways (out of ``sides ** dice``) to reach each (sum of the ``keep`` highest, critical).

    ``need`` 0 means no critical rule. Faces are placed from the highest down.
    """
    done: dict[tuple[int, bool], int] = defaultdict(int)
    states: dict[_Partial, int] = {(dice, 0, 0, 0): 1}
    for face in range(sides, 0, -1):
        states = _place(states, face, keep, need, crit_face, done)
    return {reading: n for reading, n in done.items() if n}


def _place(states: dict[_Partial, int], face: int, keep: int, need: int, crit_face: int,
           done: dict[tuple[int, bool], int]) -> dict[_Partial, int]:
    """Every way some of the unplaced dice show ``face``; full readings are finished into
    ``done`` at once, the others carried to the next face down."""
    after: dict[_Partial, int] = defaultdict(int)
    for (rest, kept, total, crits), ways in states.items():
        for shown in range(rest + 1) if face > 1 else (rest,):
            taken = min(shown, keep - kept)
            state = (rest - shown, kept + taken, total + taken * face,
                     min(crits + shown, need) if face >= crit_face else crits)
            n = ways * comb(rest, shown)
            if state[0] == 0 or state[1] >= keep:
                _finish(state, n, face - 1, need, crit_face, done)
            else:
                after[state] += n
    return after


def _finish(state: _Partial, ways: int, below: int, need: int, crit_face: int,
            done: dict[tuple[int, bool], int]) -> None:
    """The kept dice are settled; the ``rest`` dice show any face up to ``below``. Of those
    ``below ** rest`` ways, the critical ones are a binomial tail: enough of the rest at the
    critical face or above (faces ``crit_face..below``) to make up ``need``."""
    rest, _, total, crits = state
    every = below ** rest
    missing = need - crits
    if need == 0 or missing <= 0:
        done[(total, need > 0)] += ways * every
        return
    critical = _tail(rest, max(0, below - crit_face + 1), below, missing)
    done[(total, True)] += ways * critical
    done[(total, False)] += ways * (every - critical)


@lru_cache(maxsize=4096)
def _tail(rest: int, counting: int, below: int, missing: int) -> int:
    """Ways for ``rest`` dice on faces 1..``below`` to show at least ``missing`` of the
    ``counting`` highest of those faces."""
    return sum(comb(rest, j) * counting ** j * (below - counting) ** (rest - j)
               for j in range(missing, rest + 1))
