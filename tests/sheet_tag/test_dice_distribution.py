"""The plain-roll thrower against the exact distributions (SPEC §5): many seeded throws of 2d6+3
and 4d6kh3 compared with the distributions counted from every outcome, by a chi-square test at
p = 0.001 (fixed seeds, so the run is the same every time)."""

from __future__ import annotations

import itertools
from collections import Counter

from middleware.dice import Dice
from middleware.resolve.dice.notation import Notation, read_notation
from middleware.resolve.dice.throw import throw_notation

CRITICAL_001 = {10: 29.588, 15: 37.697}
"""The chi-square value exceeded with probability 0.001, by degrees of freedom."""


def exact(sides: int, count: int, keep: int | None, constant: int) -> dict[int, float]:
    """Every outcome of ``count`` d``sides`` counted, the ``keep`` highest summed."""
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        kept = sorted(faces, reverse=True)[:keep] if keep else faces
        counts[sum(kept) + constant] += 1
    total = sides ** count
    return {value: n / total for value, n in counts.items()}


def chi_square(text: str, expected: dict[int, float], throws: int, seed: int) -> float:
    notation = read_notation(text)
    assert isinstance(notation, Notation)
    dice = Dice(seed)
    seen = Counter(throw_notation(notation, dice).total for _ in range(throws))
    assert set(seen) <= set(expected)
    return sum((seen[v] - throws * p) ** 2 / (throws * p) for v, p in expected.items())


def test_two_d6_plus_three_follows_the_exact_distribution() -> None:
    """2d6+3: totals 5..15 in the proportions 1, 2, … 6 … 2, 1 over 36."""
    expected = exact(6, 2, None, 3)
    assert 11 == len(expected)
    assert chi_square("2d6+3", expected, 20_000, seed=11) < CRITICAL_001[10]


def test_four_d6_keep_three_follows_the_exact_distribution() -> None:
    """4d6kh3: totals 3..18 as counted over all 1296 throws."""
    expected = exact(6, 4, 3, 0)
    assert 16 == len(expected)
    assert chi_square("4d6kh3", expected, 20_000, seed=12) < CRITICAL_001[15]


def test_a_wrong_distribution_is_caught() -> None:
    """The test can fail: 2d6+3 read against a flat 1d12+4 (the same range, 5..16) is far past
    the bound."""
    assert chi_square("2d6+3", exact(12, 1, None, 4), 20_000, seed=11) > CRITICAL_001[10]
