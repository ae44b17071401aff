"""The contract every check kind follows: a ``Roll`` in, a ``Rolled`` out (CHK-COMMON, CHK-SPEND).

A kind gets everything it may read in one frozen ``Roll``: the ask, the assembled sheet, the
context (ruleset, dice), the state as it stands before this tag and the roller. It answers with
the record and the state after the check. Most kinds change nothing and answer
``roll.unchanged(record)``; a kind that pays a pool (``spend=``, ``use=``) answers
``Rolled(record, new_state)`` so the next check in the same reply sees what is left (CHK-SPEND).

Kinds live in their own folders and import ``Roll``/``Rolled``/``Kind`` from here (not from the
package ``__init__``, which imports the kinds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from middleware.character.check import CheckSheet
from middleware.resolve import Context
from middleware.resolve.checks.record import Ask, CheckRecord
from middleware.rules.common import Rung
from middleware.rules.layers import ladder_of
from middleware.sheet.roller import Roller
from middleware.state import GameState

if TYPE_CHECKING:
    from middleware.resolve.checks.odds import Odds

__all__ = ["Kind", "OddsOf", "Roll", "Rolled", "game_ladder", "resolution_as"]


class Roll(NamedTuple):
    """One check handed to a kind: what was asked, what the sheet gives, and where we stand.

    A named tuple, not a frozen dataclass: one is built per check (change one with ``_replace``).
    """

    ask: Ask
    sheet: CheckSheet
    ctx: Context
    state: GameState
    roller: Roller

    def unchanged(self, record: CheckRecord) -> Rolled:
        """The answer of a check that pays nothing: the record and the state as it was."""
        return Rolled(record, self.state)


class Rolled(NamedTuple):
    """A kind's answer: the record of the check and the state after it (pools paid).

    A named tuple, not a frozen dataclass: one is built per check."""

    record: CheckRecord
    state: GameState


Kind = Callable[[Roll], Rolled]
"""One check kind: ``def my_kind(roll: Roll) -> Rolled``; return ``roll.unchanged(record)`` when
the check changes no state, else ``Rolled(record, new_state)``."""


OddsOf = Callable[[Roll], "Odds | None"]
"""One kind's odds: ``def my_odds(roll: Roll) -> Odds | None`` (None: too many sums to work out)."""

R = TypeVar("R")


def resolution_as(roll: Roll, model: type[R]) -> R:
    """The ruleset's resolution as the kind's own model (a kind is only asked of its own kind)."""
    res = roll.ctx.ruleset.resolution
    if not isinstance(res, model):
        raise TypeError(f"{model.__name__} asked of a {res.kind} ruleset")
    return res


def game_ladder(roll: Roll) -> tuple[Rung, ...]:
    """The game's difficulty ladder (a layer's replaces the file's while it is on)."""
    return ladder_of(roll.ctx.ruleset, roll.state.layers)


def game_rungs(roll: Roll, rung: type[R]) -> tuple[R, ...]:
    """The game's ladder as the kind's own rungs (every rung of a kind's ladder is one)."""
    return tuple(r for r in game_ladder(roll) if isinstance(r, rung))
