"""Prices: level multipliers, rounding in the smallest coin, the coin a price is stated in
(ITM-MARKET-02..06, ITM-DAY-08, SPEC §10).

- ITM-MARKET-03: a price is the cost counted in the family's smallest coin, times the level's
  ``times``, rounded to a whole smallest coin (halves up, SPEC §10: never Python's ``round()``), and
  never below one coin for anything that costs something.
- SPEC §10: ``count`` pieces cost the unit price times the count.
- ITM-MARKET-04/05: a price is stated in the coin the cost was written in when that coin expresses
  it exactly, else in the largest coin of the family that does (``8 shillings`` at ×1.5 is
  ``12 shillings``; a 50 gp potion is ``50 gold pieces``, never ``5 platinum``).
- ITM-DAY-08 / SPEC §10: a seller buys back at ``buyBack`` of the item's default-level unit price,
  worked in the smallest coin with the same rounding, at least one coin for anything worth something.

The page lets layers remove coins; this engine has no layers, so every coin of the family counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from middleware.items.index import Coin


@dataclass(frozen=True, slots=True)
class Price:
    """What ``count`` pieces cost: ``value`` in the family's smallest coin, stated as ``text``."""

    unit: int
    count: int
    coin: Coin

    @property
    def value(self) -> int:
        """SPEC §10: the unit price times the count."""
        return self.unit * self.count

    @property
    def family(self) -> str:
        return self.coin.family.id

    @property
    def text(self) -> str:
        """``12 shillings``, ``1 penny`` (ITM-MONEY-17: a single coin by its ``one``)."""
        return amount_text(self.value, self.coin)


def half_up(number: Fraction) -> int:
    """The whole number nearest ``number``, halves up (SPEC §10: never Python's ``round()``)."""
    return int((number + Fraction(1, 2)) // 1)


def exact(times: float) -> Fraction:
    """``times`` as the decimal the ruleset wrote (``0.15`` is 3/20, not the float below it)."""
    return Fraction(repr(times))


def scaled(value: int, times: float) -> int:
    """ITM-MARKET-03 / ITM-DAY-08: ``value`` × ``times`` rounded half up in the smallest coin, at
    least 1 when ``value`` is worth anything."""
    if value <= 0:
        return 0
    return max(1, half_up(value * exact(times)))


def stated_in(value: int, written: Coin, family: Sequence[Coin]) -> Coin:
    """ITM-MARKET-04: the coin the cost was written in if it expresses ``value`` exactly, else the
    largest coin of ``family`` that does (the smallest, worth 1, always does)."""
    if value % written.worth == 0:
        return written
    fitting = [c for c in family if value % c.worth == 0]
    return max(fitting, key=lambda c: c.worth) if fitting else written


def amount_text(value: int, coin: Coin) -> str:
    """``value`` (in the smallest coin) counted in ``coin``: ``12 shillings``, ``1 penny``; a value
    the coin does not divide is written in the smallest coin's worth of it."""
    count, rest = divmod(value, coin.worth)
    if rest:
        return f"{value} {coin.family.smallest.name_for(value)}"
    return f"{count} {coin.name_for(count)}"


def price(cost_value: int, written: Coin, family: Sequence[Coin], times: float,
          count: int = 1) -> Price:
    """ITM-MARKET-03/04, SPEC §10: ``count`` pieces of an item costing ``cost_value`` (smallest
    coin) at a level of ``times``, stated in the cost's coin or the largest exact one."""
    unit = scaled(cost_value, times)
    return Price(unit, count, stated_in(unit * count, written, family))


def buy_back(default_unit: int, fraction: float) -> int:
    """ITM-DAY-08 / SPEC §10: what a seller pays for one piece whose default-level price is
    ``default_unit``: ``buyBack`` of it, rounded half up, at least one coin if worth anything."""
    return scaled(default_unit, fraction)


def in_coins(value: int, family: Sequence[Coin]) -> tuple[tuple[Coin, int], ...]:
    """ITM-DAY-10: ``value`` paid in, largest coins first (the smallest is worth 1)."""
    out: list[tuple[Coin, int]] = []
    for coin in sorted(family, key=lambda c: -c.worth):
        count, value = divmod(value, coin.worth)
        if count:
            out.append((coin, count))
    return tuple(out)
