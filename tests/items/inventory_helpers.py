"""Helpers for the ``[inventory:]`` tests: Bram and Juno, one reply resolved (the rulesets are in
``tests/rulesets.py``)."""

from __future__ import annotations

from typing import Any

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from tests.sheet.sheet_helpers import BRAM, JUNO


def bram(**update: Any) -> Character:
    return Character.model_validate({**BRAM, **update})


def juno(**update: Any) -> Character:
    return Character.model_validate({**JUNO, **update})


def state_of(ruleset: Ruleset, *party: Character) -> GameState:
    return GameState(ruleset=ruleset.id, party=party)


def reply(ruleset: Ruleset, state: GameState, text: str) -> ResolvedReply:
    """``text`` resolved against ``state`` (no inventory action throws dice)."""
    return resolve_reply(text, state, Context(ruleset=ruleset, dice=Dice(1)))


def record(done: ResolvedReply, at: int = 0) -> InventoryRecord:
    found = done.records[at]
    assert isinstance(found, InventoryRecord)
    return found


def bag_of(state: GameState, index: int) -> list[tuple[str | None, int]]:
    """A member's bag as (item ref, coin or plain name; count) pairs, in order."""
    return [(s.item or s.coins or s.plain, s.count) for s in state.party[index].bag]
