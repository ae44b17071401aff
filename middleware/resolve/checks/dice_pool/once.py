"""Starting dice unlike the extra ones, under explosions, summed by two short recurrences.

That is the re-roll ``once`` (CHK-POOL-14: the starting dice are still independent of one
another, only weighted otherwise, ``dice.once_weights``) and the ``halfOrMore`` botch (only the
starting dice's low faces are counted, CHK-POOL-11). Call the starting dice's exploding and other
faces ``E₀`` and ``N₀``, the extra dice's ``E`` and ``N``, and ``S`` a die never thrown. If ``x``
starting dice explode, the extra dice run until the ``x``-th calm one or until ``cap`` of them were
thrown. Summed over ``x``, with one ``z`` per extra die:

- the runs that ended paid are ``[z^cap] W(z)/(1 − S·z)`` with
  ``W = ((N₀ + (E₀·N − N₀·E)·z) / (1 − E·z))^dice`` (``_paid``);
- the runs the cap stopped are the terms ``z^k``, ``k > cap``, of
  ``V = (E₀·z + N₀)^dice · (E·z + N)^cap``: all of ``V(1)`` less its first ``cap + 1`` (``_capped``).

W and V are powers of simple fractions in ``z``, so their coefficients follow two-term recurrences
read off ``W'/W`` and ``V'/V``: ``cap`` steps of a few multiplications by small polynomials and
one exact division by ``(k + 1)·N₀`` (by ``(k + 1)·N₀·N`` for V, or V is walked down from its top
term when ``E₀·E`` is a single term, which divides by a shift), instead of walking the extra dice
once per number of dice still owed. The division needs ``N₀`` and ``N`` non-empty; when
every face explodes, ``once_sum`` answers None and the walk does the work.
"""

from __future__ import annotations

from middleware.resolve.checks.dice_pool.packed import Factor, big

Faces2 = tuple[Factor, Factor]
"""A die's exploding and other faces."""


def once_sum(dice: int, cap: int, start: Faces2, extra: Faces2, spare: Factor) -> int | None:
    """Every throw's ways: the runs that ended paid and those the cap stopped (module doc)."""
    if not start[1].terms or not extra[1].terms:
        return None
    return _paid(dice, cap, start, extra, spare) + _capped(dice, cap, start, extra)


def _paid(dice: int, cap: int, start: Faces2, extra: Faces2, spare: Factor) -> int:
    """``Σ_k S^(cap−k)·w_k`` with ``w_k = [z^k] W``, from
    ``N₀(k+1)·w_{k+1} = (dice·E₀N − k·(E₀N − 2·N₀E))·w_k + (k−1)·(E₀N − N₀E)·E·w_{k−1}``."""
    (boom0, calm0), (boom, calm) = start, extra
    grow, shrink = boom0 * calm, calm0 * boom
    bend = (grow + shrink.scaled(-1)) * boom
    before, now = big(0), big(calm0.value ** dice)
    total = now
    for k in range(cap):
        step = grow.scaled(dice - k) + shrink.scaled(2 * k)
        ahead = step.times(now) + bend.scaled(k - 1).times(before)
        before, now = now, ahead // ((k + 1) * calm0.value)
        total = spare.times(total) + now
    return total


def _capped(dice: int, cap: int, start: Faces2, extra: Faces2) -> int:
    """``V(1) − Σ_{k≤cap} v_k`` with ``v_k = [z^k] V``, from ``N₀N(k+1)·v_{k+1} =
    ((dice−k)·E₀N + (cap−k)·N₀E)·v_k + (dice+cap−k+1)·E₀E·v_{k−1}``."""
    (boom0, calm0), (boom, calm) = start, extra
    grow, shrink, both = boom0 * calm, calm0 * boom, boom0 * boom
    if len(both.terms) == 1:
        return _capped_from_top(dice, cap, start, extra)
    divisor = (calm0 * calm).value
    before, now = big(0), big(calm0.value ** dice * calm.value ** cap)
    head = now
    for k in range(cap):
        ahead = ((grow.scaled(dice - k) + shrink.scaled(cap - k)).times(now)
                 + both.scaled(dice + cap - k + 1).times(before))
        before, now = now, ahead // ((k + 1) * divisor)
        head += now
    whole: int = (boom0.value + calm0.value) ** dice * (boom.value + calm.value) ** cap
    return whole - head


def _capped_from_top(dice: int, cap: int, start: Faces2, extra: Faces2) -> int:
    """``Σ_{k>cap} v_k`` walked down from ``v_{dice+cap} = E₀^dice·E^cap`` by the same relation,
    ``(dice+cap−k+1)·E₀E·v_{k−1} = (k+1)·N₀N·v_{k+1} + ((k−dice)·E₀N + (k−cap)·N₀E)·v_k``: when
    ``E₀E`` is one term (the exploding faces all count alike) dividing by it is a shift."""
    (boom0, calm0), (boom, calm) = start, extra
    grow, shrink, settled = boom0 * calm, calm0 * boom, calm0 * calm
    ((shift, ways),) = (boom0 * boom).terms
    above, now = big(0), big(boom0.value ** dice * boom.value ** cap)
    tail = now
    for k in range(dice + cap, cap + 1, -1):
        behind = (settled.scaled(k + 1).times(above)
                  + (grow.scaled(k - dice) + shrink.scaled(k - cap)).times(now))
        above, now = now, (behind >> shift) // ((dice + cap - k + 1) * ways)
        tail += now
    return tail


__all__ = ["once_sum"]
