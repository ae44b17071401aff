"""Exact odds of a dice-sum check, by convolution (SPEC §5, §6 ``chance``).

Everything is worked in ``Fraction`` and turned to a float only at the end, so the numbers are the
rules' own: dice values (``faces``), advantage and disadvantage (keep the higher or lower of two
throws, the first on a tie, exactly as ``sum.keep``), open-ended chains to the full 20-die cap of
CHK-SUM-07 (no truncation: a chain of k dice has k distinct lengths, so the work grows only
linearly), effect dice, naturals and the tiers through the same ``outcome.judge`` the roll uses.
Results are cached per distinct check with ``functools.lru_cache`` (every input is a frozen value).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from middleware.resolve.checks.dice_sum.dice import (
    MAX_OPEN_DICE,
    EffectDice,
    SumCheck,
    SumDice,
    forced_by,
    natural_of,
)
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Natural, Outcomes, judge
from middleware.resolve.checks.record import Mode

State = tuple[int, Natural | None]
"""A throw as far as the verdict cares: its signed sum and the first die's natural face."""

Dist = dict[State, Fraction]


def check_odds(check: SumCheck, outcomes: Outcomes | None = None) -> Odds:
    """The odds of ``check`` read through ``outcomes`` (cached per distinct check)."""
    return _check_odds(check, outcomes)


@lru_cache(maxsize=1024)
def _check_odds(check: SumCheck, outcomes: Outcomes | None) -> Odds:
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for (total, natural), p in final_distribution(check).items():
        verdict = judge(outcomes, total=total, needed=check.dc,
                        forced=forced_by(check.naturals, natural), natural=natural)
        success += p if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += p
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))


def final_distribution(check: SumCheck) -> Dist:
    """P(total, natural) after keeping a throw, adding the modifier and the effect dice."""
    out: Dist = defaultdict(Fraction)
    effects = effect_distribution(check.effects)
    for (used, natural), p in kept_distribution(check.dice, check.mode).items():
        for effect, q in effects.items():
            out[(used + check.modifier + effect, natural)] += p * q
    return dict(out)


def total_distribution(check: SumCheck) -> dict[int, Fraction]:
    """P(total) of a check: what a statistical test of the roller compares against."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for (total, _), p in final_distribution(check).items():
        out[total] += p
    return dict(out)


@lru_cache(maxsize=256)
def kept_distribution(spec: SumDice, mode: Mode) -> Dist:
    """CHK-SUM-02: the kept throw of one (normal) or two throws (advantage, disadvantage)."""
    base = throw_distribution(spec)
    if mode == "normal":
        return base
    sums = sorted({s for s, _ in base})
    mass: dict[int, Fraction] = defaultdict(Fraction)
    for (s, _), p in base.items():
        mass[s] += p
    at_most = dict(zip(sums, accumulate(mass[s] for s in sums), strict=True))
    below = {s: at_most[s] - mass[s] for s in sums}
    if mode == "advantage":
        return {(s, n): p * (at_most[s] + below[s]) for (s, n), p in base.items()}
    # Disadvantage keeps the first throw when the second is not lower, the second when it is.
    return {(s, n): p * ((1 - below[s]) + (1 - at_most[s])) for (s, n), p in base.items()}


@lru_cache(maxsize=256)
def throw_distribution(spec: SumDice) -> Dist:
    """P(sum, natural) of one throw: plain dice convolved, or one open-ended die (CHK-SUM-06/07)."""
    die = Fraction(1, spec.sides)
    if not spec.single or (spec.open_high is None and spec.open_low is None):
        sums: dict[int, Fraction] = {0: Fraction(1)}
        for _ in range(spec.count):
            sums = _add_die(sums, spec)
        if spec.single:
            return {(s, natural_of(spec, s)): p for s, p in sums.items()}
        return {(s, None): p for s, p in sums.items()}
    out: Dist = defaultdict(Fraction)
    for face in range(1, spec.sides + 1):
        first = spec.value(face)
        sign = _open_sign(spec, first)
        chain = _chain_distribution(spec, MAX_OPEN_DICE - 1) if sign else {0: Fraction(1)}
        for rest, q in chain.items():
            out[(first + sign * rest, natural_of(spec, first))] += die * q
    return dict(out)


def _open_sign(spec: SumDice, first: int) -> int:
    """+1 when the first die opens the high end, −1 the low end, 0 when it does not chain."""
    if spec.open_low is not None and first <= spec.open_low:
        return -1
    return 1 if spec.open_high is not None and first >= spec.open_high else 0


@lru_cache(maxsize=64)
def _chain_distribution(spec: SumDice, room: int) -> dict[int, Fraction]:
    """The sum of a chain with ``room`` dice left: one die, again while it shows ≥ ``high``."""
    die = Fraction(1, spec.sides)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for face in range(1, spec.sides + 1):
        value = spec.value(face)
        again = spec.open_high is not None and value >= spec.open_high and room > 1
        rest = _chain_distribution(spec, room - 1) if again else {0: Fraction(1)}
        for more, q in rest.items():
            out[value + more] += die * q
    return dict(out)


def _add_die(sums: dict[int, Fraction], spec: SumDice) -> dict[int, Fraction]:
    die = Fraction(1, spec.sides)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for s, p in sums.items():
        for face in range(1, spec.sides + 1):
            out[s + spec.value(face)] += p * die
    return dict(out)


@lru_cache(maxsize=256)
def effect_distribution(effects: tuple[EffectDice, ...]) -> dict[int, Fraction]:
    """P(signed sum) of the effect dice of conditions and items (SHEET-COND-05)."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    for effect in effects:
        sign = -1 if effect.minus else 1
        plain = SumDice(count=1, sides=effect.sides)
        for _ in range(effect.count):
            out = _add_die(out, _signed(plain, sign))
    return out


def _signed(spec: SumDice, sign: int) -> SumDice:
    """A die whose faces count ``sign`` × their number (effect dice that subtract)."""
    if sign > 0:
        return spec
    return SumDice(count=1, sides=spec.sides, faces=tuple(-f for f in range(1, spec.sides + 1)))
