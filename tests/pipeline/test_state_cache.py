"""What the engine remembers never stands in for what the store holds (SPEC §3).

The engine keeps the states it has read or made; a change the store holds since (a select, an
event, a reply, by this engine or another worker on the same store) must show in every state read
after it, as an engine started afresh reads it. Found by ``tests/stores/
test_stores_play_alike_property.py``.
"""

from __future__ import annotations

import pytest

from middleware.engine import Engine
from middleware.errors import GameError
from middleware.resolve import dispatch
from middleware.rules.registry import load_bundled
from middleware.state import GameState
from tests.pipeline.conftest import ADA, JUNO, pebbles, pocket_resolver
from tests.stores.counting import CountingStore

EDIT = {"type": "edit", "who": "Ada", "live": {"pools": {"pluck": {"value": 1}}}}


@pytest.fixture(autouse=True)
def pocket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dispatch.RESOLVERS, "loot", pocket_resolver)


def pluck(state: GameState) -> int | None:
    pool = state.party[0].live.pools.get("pluck")
    return None if pool is None else pool.value


async def test_an_event_shows_in_the_unanswered_turn_after_it(engine: Engine) -> None:
    """Turn 2 was started but not answered, and its state read; an edit after turn 1 then sets
    Ada's Pluck to 1: S(2) reads 1, as a fresh engine reads it, and so does the reply of turn 3."""
    await engine.process("chat", 1, "[loot: a]")
    await engine.user("chat", 2, "We wait.")
    await engine.state("chat", 2)
    await engine.event("chat", 1, EDIT)
    assert (1, 1) == (pluck(await engine.state("chat", 2)),
                      pluck(await Engine(engine.store).state("chat", 2)))
    assert 1 == pluck((await engine.process("chat", 3, "[loot: b]")).state)


async def test_a_swipe_shows_in_the_unanswered_turn_after_it(engine: Engine) -> None:
    """Turn 1 has a candidate with one pebble and one with two (selected); turn 2 was started,
    not answered, and its state read (2 pebbles). A swipe back to the first: S(2) holds 1 pebble,
    and the reply of turn 3 adds its pebble to that one."""
    await engine.process("chat", 1, "[loot: a]")
    await engine.process("chat", 1, "[loot: a] [loot: b]")
    await engine.user("chat", 2, "We wait.")
    assert 2 == pebbles(await engine.state("chat", 2))
    await engine.select("chat", 1, 0)
    assert (1, 1) == (pebbles(await engine.state("chat", 2)),
                      pebbles(await Engine(engine.store).state("chat", 2)))
    assert 2 == pebbles((await engine.process("chat", 3, "[loot: c]")).state)


async def test_another_workers_event_shows_in_the_unanswered_turn_after_it(
        engine: Engine) -> None:
    """Two workers on one store: the second has read S(2) of an unanswered turn 2; the first
    adds an edit after turn 1. The second reads S(2) with it, and its reply of turn 3 plays on it."""
    other = Engine(engine.store)
    await engine.process("chat", 1, "[loot: a]")
    await engine.user("chat", 2, "We wait.")
    assert pluck(await other.state("chat", 2)) is None
    await engine.event("chat", 1, EDIT)
    assert 1 == pluck(await other.state("chat", 2))
    assert 1 == pluck((await other.process("chat", 3, "[loot: b]")).state)


async def test_a_turn_0_is_refused_with_where_the_chat_is_by_any_engine(engine: Engine) -> None:
    """The chat is at turn 1: a player's message or a reply for turn 0 is refused saying so, by
    the engine that played it and by one that has not seen the chat yet (which said "at turn -1")."""
    await engine.process("chat", 1, "[loot: a]")
    for which in (engine, Engine(engine.store)):
        with pytest.raises(GameError, match=r"^chat 'chat' is at turn 1; turn 0 cannot be played$"):
            await which.user("chat", 0, "Hello?")
    with pytest.raises(GameError, match=r"is at turn 1; turn 0 cannot"):
        await Engine(engine.store).process("chat", 0, "[loot: b]")


async def test_a_batch_undone_leaves_the_engine_holding_nothing_of_it(engine: Engine) -> None:
    """Turn 1 is stored; a batch plays turn 2 (the player's message and a reply) and fails, so
    nothing of it is stored. The player's message for turn 2 sent again is stored (the engine
    took turn 2 for started, and dropped it), and its reply plays on turn 1's pebble."""
    await engine.process("chat", 1, "[loot: a]")
    with pytest.raises(RuntimeError):
        async with engine.batch():
            await engine.user("chat", 2, "We dig.")
            await engine.process("chat", 2, "[loot: b] [loot: c]")
            raise RuntimeError("a transcript line failed")
    await engine.user("chat", 2, "We dig again.")
    turn = await engine.store.get_turn("chat", 2)
    assert turn is not None and "We dig again." == turn.user_text
    assert 2 == pebbles((await engine.process("chat", 2, "[loot: d]")).state)


async def test_a_turn_far_past_the_last_is_read_in_a_few_store_calls() -> None:
    """S(10**30) of a chat at turn 2 is S(2) (the turns after were never started), read in a
    handful of store calls by any engine; an event there is refused as a reply for it is (before:
    the walk back read one run of turns after another and never ended)."""
    store = CountingStore()
    engine = Engine(store)
    await engine.create_game("chat", load_bundled("lantern-and-ledger"), [ADA, JUNO], seed=7)
    await engine.process("chat", 1, "[loot: a]")
    await engine.process("chat", 2, "[loot: b]")
    for reader in (engine, Engine(store)):
        store.calls.clear()
        assert await reader.state("chat", 2) == await reader.state("chat", 10**30)
        assert sum(store.calls.values()) <= 8
    with pytest.raises(GameError, match="cannot be played"):
        await engine.event("chat", 10**30, EDIT)
