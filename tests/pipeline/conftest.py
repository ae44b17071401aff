"""An engine on the in-memory store with the Ember Roads ruleset (2d6 + stat) and a small party."""

from __future__ import annotations

import pytest

from middleware.engine import Engine
from middleware.resolve import Context, Resolution
from middleware.rules.load import load_ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState, Sheet, Stack
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_path

ADA = Character(name="Ada", player=True,
                sheet=Sheet.model_validate({"v": 1, "build": {"abilities": {"brawn": 2},
                                                              "skills": {"scrap": "trained"}}}))
JUNO = Character(name="Juno")


@pytest.fixture
async def engine() -> Engine:
    engine = Engine(MemoryStore())
    await engine.create_game("chat", load_ruleset(compat_path("ember-roads.json")), [ADA, JUNO],
                             seed=7)
    return engine


def pocket_resolver(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """A stand-in for a state-changing tag: puts one pebble in the player's bag."""
    from middleware.records import Record

    player = state.party[0]
    bag = (*player.bag, Stack(plain="pebble"))
    state = state.with_character(0, player.model_copy(update={"bag": bag}))
    return Resolution(state, Record(tag=tag.name, status="resolved", source=tag.raw))


def pebbles(state: GameState) -> int:
    return sum(s.count for s in state.party[0].bag if s.plain == "pebble")
