"""What each table call costs in upstream calls and store writes, counted on a real store (the
README's figures come from here)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from middleware.bots import Speaker, Table, TableConfig
from middleware.engine import Engine
from middleware.proxy.upstream import HttpUpstream
from tests.bots.conftest import lantern, lantern_party
from tests.proxy.conftest import FakeModel, serving
from tests.stores.counting import CountingStore

ADA, BOB = Speaker("1", "Ada"), Speaker("2", "Bob")
CHAT = "telegram:-9"


@pytest.fixture
async def counted() -> AsyncIterator[tuple[Table, CountingStore, FakeModel]]:
    model = FakeModel(replies=["Reply."] * 10)
    store = CountingStore()
    ruleset = lantern()
    async with serving(model.app()) as url:
        upstream = HttpUpstream(url)
        try:
            yield (Table(Engine(store), upstream, TableConfig(ruleset, lantern_party(ruleset))),
                   store, model)
        finally:
            await upstream.aclose()


async def cost(table_call: Any, store: CountingStore,
               model: FakeModel) -> tuple[int, dict[str, int]]:
    """(upstream calls, store writes by kind) of one awaited table call."""
    store.calls.clear()
    asked = len(model.seen)
    await table_call
    return len(model.seen) - asked, store.writes()


async def test_what_each_call_costs(counted: tuple[Table, CountingStore, FakeModel]) -> None:
    """A turn is one model call and three writes (the turn, its said event, the candidate); a
    new speaker adds one (the speaker event); a redelivery costs nothing; a regenerate is one
    call and one candidate; an edit one call, one event and one candidate; a swipe one select."""
    table, store, model = counted
    first = await cost(table.play(CHAT, ADA, "Hi.", key="k1", message="m1"), store, model)
    assert (1, {"create_game": 1, "start_turn": 1, "add_event": 1, "add_candidate": 1}) == first
    turn = await cost(table.play(CHAT, ADA, "On.", key="k2", message="m2"), store, model)
    assert (1, {"start_turn": 1, "add_event": 1, "add_candidate": 1}) == turn
    other = await cost(table.play(CHAT, BOB, "Me too.", key="k3", message="m3"), store, model)
    assert (1, {"start_turn": 1, "add_event": 2, "add_candidate": 1}) == other
    assert (0, {}) == await cost(table.play(CHAT, BOB, "Me too.", key="k3", message="m3"),
                                 store, model)
    assert (1, {"add_candidate": 1}) == await cost(table.regenerate(CHAT, key="k4"), store, model)
    assert (0, {}) == await cost(table.regenerate(CHAT, key="k4"), store, model)
    edit = await cost(table.edit(CHAT, "m3", "Me three.", key="k5"), store, model)
    assert (1, {"add_event": 1, "add_candidate": 1}) == edit
    assert (0, {}) == await cost(table.edit(CHAT, "m3", "Me three.", key="k5"), store, model)
    assert (0, {"select": 1}) == await cost(table.swipe(CHAT, -1), store, model)
    assert (0, {"fork": 1}) == await cost(table.undo(CHAT), store, model)
