"""Resolvers: one per tag family, one signature, picked from a dict by tag name (STYLE habit 5).

A resolver is pure given (tag, state, context): it returns a ``Resolution`` (the new state and the
record) and does no I/O. All randomness comes from ``context.dice``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from middleware.dice import Dice
from middleware.records import Record
from middleware.rules.stack_limits import REPLY_STACKS
from middleware.segments import Tag
from middleware.state import GameState, Place

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


@dataclass(slots=True)
class Context:
    """What a resolver may read besides the state: the ruleset, the dice and where we are.

    ``odds`` is a cache shared across a game's candidates for exact probabilities of checks.
    """

    ruleset: Ruleset
    dice: Dice
    chat: str = ""
    turn: int = 0
    odds: dict[object, object] = field(default_factory=dict)
    seed: int = 0
    """The game's seed: market-day draws are seeded by (game seed, place, day) (SPEC §5)."""
    place_at_end: Place | None = None
    """The place in force at the end of the reply, where a buy is priced (SPEC §3, ITM-MARKET-20);
    ``resolve_reply`` sets it before the first tag resolves."""
    new_stacks: int = REPLY_STACKS
    """How many new stacks this tag may still start (``REPLY_STACKS`` less what
    the reply's earlier tags started); ``resolve_reply`` sets it before each inventory and loot tag."""


class Resolution(NamedTuple):
    """A resolver's answer: the state after the tag and the record of what happened.

    A named tuple, not a frozen dataclass: one is built per tag."""

    state: GameState
    record: Record


Resolver = Callable[[Tag, GameState, Context], Resolution]
