"""Helpers shared by the item, money, loot and market tests: Bram and Juno, one reply resolved,
the record it left and the bag after (the rulesets are in ``tests/rulesets.py``)."""

from __future__ import annotations

from typing import Any, TypeVar

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve import Context
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from tests.sheet.sheet_helpers import BRAM, JUNO

R = TypeVar("R", bound=Record)


def bram(**update: Any) -> Character:
    return Character.model_validate({**BRAM, **update})


def juno(**update: Any) -> Character:
    return Character.model_validate({**JUNO, **update})


def state_of(ruleset: Ruleset, *party: Character) -> GameState:
    return GameState(ruleset=ruleset.id, party=party)


def reply(ruleset: Ruleset, state: GameState, text: str, *faces: int,
          seed: int = 0) -> ResolvedReply:
    """``text`` resolved against ``state`` with the scripted ``faces`` first (then dice seeded
    1), in a game of seed ``seed`` (a market day draws its stock from it)."""
    return resolve_reply(text, state, Context(ruleset=ruleset, dice=Dice(1, script=faces),
                                              seed=seed))


def found(done: ResolvedReply, kind: type[R], at: int = 0) -> R:
    """The record at ``at`` (``-1``: the last), which must be a ``kind``."""
    record = done.records[at]
    assert isinstance(record, kind), record
    return record


def record(done: ResolvedReply, at: int = 0) -> InventoryRecord:
    """The ``[inventory:]`` record at ``at`` (``-1``: the last)."""
    return found(done, InventoryRecord, at)


def bag_of(state: GameState, index: int = 0) -> list[tuple[str | None, int]]:
    """A member's bag as (item ref, coin or plain name; count) pairs, in order."""
    return [(s.item or s.coins or s.plain, s.count) for s in state.party[index].bag]


def counts(state: GameState, index: int = 0) -> dict[str, int]:
    """A member's bag as item ref, coin or plain name -> count, stacks of one thing added up."""
    out: dict[str, int] = {}
    for stack in state.party[index].bag:
        key = stack.item or stack.coins or stack.plain or ""
        out[key] = out.get(key, 0) + stack.count
    return out
