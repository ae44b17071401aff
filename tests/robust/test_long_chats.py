"""A chat of thousands of turns the model never answered still plays (SPEC §3, issue 16 #1).

A long history pointed at the proxy opens one turn per player message; S(n) of such a chat is
walked back through every unanswered turn. That walk is a loop: the next reply resolves, on every
store, and so does a fresh engine after a restart.
"""

from __future__ import annotations

from middleware.engine import Engine
from middleware.state import Character
from middleware.stores import Store
from tests.proxy.conftest import ADA, CHECK, FakeModel, hearth, running_proxy
from tests.rulesets import ruleset

EMPTY_TURNS = 10_000
JUNO = Character(name="Juno")


async def start_game(store: Store) -> Engine:
    """The bundled Hearth and Haul with Ada (Haul +3) and Juno, chat ``chat``, seed 7."""
    engine = Engine(store)
    await engine.create_game("chat", ruleset("hearth-and-haul"), [ADA, JUNO], seed=7)
    return engine


async def test_ten_thousand_empty_turns_then_a_reply(store: Store) -> None:
    """10,000 turns with only the player's text; then turn 10,001 is answered by the model and its
    check is rolled against S(0) (Ada's Haul +3: 3 + 4 + 3 = 10 against dc 8), on every store
    and on an engine started afresh (nothing remembered), as after a restart."""
    await start_game(store)
    async with store.batch():
        for turn in range(1, EMPTY_TURNS + 1):
            await store.start_turn("chat", turn, f"message {turn}")
    restarted = Engine(store)
    done = await restarted.process("chat", EMPTY_TURNS + 1, f"She heaves. {CHECK}", dice=[3, 4])
    record = done.records[0].model_dump()
    assert ("resolved", 10, True) == (record["status"], record["total"], record["success"])
    assert [1] == [len(await restarted.candidates("chat", EMPTY_TURNS + 1))]


async def test_an_existing_chat_of_600_messages_pointed_at_the_proxy_plays() -> None:
    """The issue's request: a chat UI sends a history of 600 player messages to a proxy that has
    never seen the chat; the reply is a 200 with its check resolved, and so is the next one."""
    model = FakeModel(replies=[f"She climbs. {CHECK}", f"Again. {CHECK}"])
    messages = [{"role": "system", "content": "You are the Game Master of Hearth and Haul."}]
    messages += [{"role": "user", "content": f"message {n}"} for n in range(1, 601)]
    async with running_proxy(hearth(), model) as proxy:
        first = await proxy.ask(messages)
        again = await proxy.ask([*messages, {"role": "assistant", "content": "x"},
                                 {"role": "user", "content": "and on"}])
    assert (200, 200) == (first.status_code, again.status_code), first.text
    assert ["resolved"] == [r["status"] for r in first.json()["gm_records"]]
    assert 601 == again.json()["gm"]["turn"]
