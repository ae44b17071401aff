"""Several bot processes share games through one PostgreSQL database: each has its own table,
engine and connection pool; a redelivery reaching the other process applies nothing twice, and
what one process does (a regenerate, an undo) is what the other builds on (SPEC §2, §3)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from middleware.bots import Speaker, Table, TableConfig
from middleware.engine import Engine
from middleware.proxy.upstream import HttpUpstream
from middleware.stores import open_store
from tests.bots.conftest import lantern, lantern_party
from tests.proxy.conftest import FakeModel, serving
from tests.stores.pg import fresh_schema

ADA = Speaker("101", "Ada")
CHAT = "telegram:-7"


@pytest.fixture
async def two() -> AsyncIterator[tuple[Table, Table, FakeModel]]:
    model = FakeModel()
    ruleset = lantern()
    config = TableConfig(ruleset, lantern_party(ruleset), seed=5)
    async with serving(model.app()) as url, fresh_schema() as pg:
        stores = [await open_store(pg), await open_store(pg)]
        upstream = HttpUpstream(url)
        try:
            yield (Table(Engine(stores[0]), upstream, config),
                   Table(Engine(stores[1]), upstream, config), model)
        finally:
            await upstream.aclose()
            for store in stores:
                await store.close()


async def test_two_processes_share_a_game(two: tuple[Table, Table, FakeModel]) -> None:
    """A redelivery handled by the other process is the stored reply; a regenerate in one is
    what the other's next turn sends back; an undo in one moves the other to the fork."""
    first, second, model = two
    model.replies = ["The lamp is lit.", "The lamp sputters.", "Onwards.", "Again."]
    played = await first.play(CHAT, ADA, "I light the lamp.", key="telegram:1", message="1")
    again = await second.play(CHAT, ADA, "I light the lamp.", key="telegram:1", message="1")
    assert again.replayed and played.resolved == again.resolved and 1 == len(model.seen)
    regenerated = await second.regenerate(CHAT, key="telegram:2")
    assert 1 == regenerated.candidate
    await first.play(CHAT, ADA, "I walk on.")
    assert "The lamp sputters." in [m["content"] for m in model.seen[-1]["messages"]]
    assert 1 == await second.undo(CHAT)
    later = await first.play(CHAT, ADA, "I walk on, slowly.")
    assert (f"{CHAT}~1", 2, 0) == (later.game, later.turn, later.candidate)
