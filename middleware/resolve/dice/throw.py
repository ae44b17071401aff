"""A roll in dice notation thrown through the dice seam (SPEC §5): every die one throw of a die
with one side per face, in the order written; the kept dice and the total worked out after."""

from __future__ import annotations

from dataclasses import dataclass

from middleware.dice import Dice
from middleware.resolve.dice.notation import DiceGroup, Notation


@dataclass(frozen=True, slots=True)
class Thrown:
    """Every face value thrown in order, the values counted (after keep), and the total."""

    rolls: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    keeps: bool


def throw_notation(notation: Notation, dice: Dice) -> Thrown:
    """Throw every group of ``notation`` in order; ``total`` = the kept values, signed, plus the
    constant."""
    rolls: list[int] = []
    kept: list[int] = []
    total = notation.constant
    for group in notation.groups:
        values = [group.value(side) for side in dice.throw_many(group.count, group.sides)]
        counted = _kept(group, values)
        rolls += values
        kept += counted
        total += group.sign * sum(counted)
    keeps = any(g.keep is not None for g in notation.groups)
    return Thrown(tuple(rolls), tuple(kept), total, keeps)


def _kept(group: DiceGroup, values: list[int]) -> list[int]:
    """The ``keep`` highest or lowest values, in the order they were thrown."""
    if group.keep is None:
        return values
    end, number = group.keep
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=end == "h")
    chosen = sorted(order[:number])
    return [values[i] for i in chosen]
