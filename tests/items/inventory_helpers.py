"""Helpers for the ``[inventory:]`` tests: the compat rulesets, Bram and Juno, one reply resolved."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from tests.conftest import compat_json, compat_path
from tests.sheet.sheet_helpers import BRAM, JUNO


@cache
def gravewatch() -> Ruleset:
    return load_ruleset(compat_path("gravewatch.json"))


@cache
def ember() -> Ruleset:
    return load_ruleset(compat_path("ember-roads.json"))


def changed(name: str, edit: Callable[[Any], None]) -> Ruleset:
    """A compat ruleset loaded after ``edit`` changed a parsed copy."""
    data = compat_json(name)
    edit(data)
    return load_ruleset(data)


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
