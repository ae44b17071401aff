"""The one table from ``resolution.kind`` to its check kind (STYLE habit 5).

Each entry names how the kind rolls (``roll``: a ``Roll`` in, a ``Rolled`` out) and its exact odds
before anything is thrown (``odds``), both from the kind's own folder. The kind's ruleset model and
its import audit are in ``rules/kinds/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.resolve.checks.dice_highest.chance import highest_kind_odds
from middleware.resolve.checks.dice_highest.resolve import dice_highest
from middleware.resolve.checks.dice_pool.chance import dice_pool_odds
from middleware.resolve.checks.dice_pool.resolve import dice_pool
from middleware.resolve.checks.dice_sum.chance import sum_odds
from middleware.resolve.checks.dice_sum.resolve import dice_sum
from middleware.resolve.checks.kind import Kind, OddsOf
from middleware.resolve.checks.roll_against.chance import against_kind_odds
from middleware.resolve.checks.roll_against.resolve import roll_against
from middleware.resolve.checks.symbol_pool.chance import symbol_kind_odds
from middleware.resolve.checks.symbol_pool.resolve import symbol_pool


@dataclass(frozen=True, slots=True)
class CheckKind:
    """One ``resolution.kind``: how its check is rolled and its exact odds."""

    roll: Kind
    odds: OddsOf


KINDS: dict[str, CheckKind] = {
    "dice-sum": CheckKind(dice_sum, sum_odds),
    "dice-pool": CheckKind(dice_pool, dice_pool_odds),
    "dice-highest": CheckKind(dice_highest, highest_kind_odds),
    "roll-against": CheckKind(roll_against, against_kind_odds),
    "symbol-pool": CheckKind(symbol_pool, symbol_kind_odds),
}
"""``resolution.kind`` -> its kind; every kind of the file format has one."""
