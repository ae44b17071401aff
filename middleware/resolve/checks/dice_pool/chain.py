"""The explosion chain of a pool without a re-roll, summed in closed form (CHK-POOL-07).

Without a re-roll every die, starting or extra, is alike, so a throw is one run of dice read in
order: it ends at the ``dice``-th die that does not explode (every owed die is then paid) or when
``cap`` extra dice were thrown. It ends with ``a`` exploding and ``b`` other dice in

- ``comb(dice − 1 + a, a)`` orders when ``b = dice`` and ``a ≤ cap`` (the last die is the
  ``dice``-th calm one), or
- ``comb(dice + cap, b)`` orders when ``a + b = dice + cap`` and ``b < dice`` (the cap stopped it).

With ``E`` and ``N`` the exploding and the other faces and ``S`` a die never thrown (``sides``
ways counting nothing, so that every throw has the same denominator), the ways are::

    Σ_{a≤cap} C(dice−1+a, a)·S^(cap−a)·E^a·N^dice  +  Σ_{b<dice} C(dice+cap, b)·E^(dice+cap−b)·N^b

and the second sum is the binomial ``(E + N)^(dice+cap)`` less its terms with ``b ≥ dice``::

    (E + N)^(dice+cap) + N^dice · Σ_{i≤cap} E^i·(C(dice−1+i, i)·S^(cap−i) − C(dice+cap, i)·N^(cap−i))

one power, one product and a Horner sum of ``cap + 1`` steps (``chain_sum``). On packed
polynomials (``packed.py``) it is the whole distribution of successes − cancels; on plain counts
it is the number of throws in which every die shows a face of a set (the botch, CHK-POOL-10).
"""

from __future__ import annotations

from math import comb

from middleware.resolve.checks.dice_pool.dice import Faces, Frame, Table
from middleware.resolve.checks.dice_pool.packed import Factor, Packing, big


def chain_sum(dice: int, cap: int, boom: Factor, calm: Factor, spare: Factor) -> int:
    """The closed form of the module docstring: ``boom`` is E, ``calm`` N, ``spare`` S."""
    most = dice + cap
    rest, spare_power, calm_power = big(0), big(1), big(1)
    for i in range(cap, -1, -1):
        rest = (boom.times(rest) + comb(dice - 1 + i, i) * spare_power
                - comb(most, i) * calm_power)
        if i:
            spare_power, calm_power = spare.times(spare_power), calm.times(calm_power)
    whole: int = (boom.value + calm.value) ** most  # int ** int is typed Any (negative powers)
    short: int = calm.value ** dice
    return whole + short * rest


def chain_counts(dice: int, faces: Faces, cap: int) -> tuple[dict[int, int], int]:
    """The ways to reach each ``d`` (successes − cancels) over ``sides ** (dice + cap)``.

    Every die's deltas are raised by ``−low`` to pack them, and an unthrown die by as much, so
    each term is raised by ``−low·(dice + cap)``: the frame's own offset.
    """
    sides, most = faces.sides, dice + cap
    low = min(0, *(delta for delta, _, _ in faces.main.faces))
    packing = Packing.holding(sides ** most)
    boom, calm = faces.main.split()
    total = chain_sum(dice, cap, packing.factor(boom, low), packing.factor(calm, low),
                      packing.monomial(sides, -low))
    return Frame.around(faces.main, most, packing.width).as_dict(total), sides ** most


def chain_within(dice: int, cap: int, table: Table, sides: int) -> tuple[int, int]:
    """The throws in which every die shows a face ``table`` weighs, over ``sides ** (dice+cap)``."""
    boom, calm = table.split()
    ways = chain_sum(dice, cap, Factor.plain(sum(w for _, w in boom)),
                     Factor.plain(sum(w for _, w in calm)), Factor.plain(sides))
    return int(ways), sides ** (dice + cap)


__all__ = ["chain_counts", "chain_sum", "chain_within"]
