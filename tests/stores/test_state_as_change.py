"""States stored as change (SPEC §2, §3): a candidate stores what its reply changed and shares the
rest, and every turn's state still reads back exactly, on every store.

Each test states what a player or an operator sees: the state of any turn, read later by an engine
that remembers nothing, equals the one the game had; a branch and a swipe back see the right
state; a check in a party with a large bag writes no more than with an empty one; a writer whose
remembered turn start went stale (another engine selected or added an event) plays on the state
the store holds.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from middleware.engine import Engine
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, Stack
from middleware.stores import SQLiteStore, Store

RULESET = "lantern-and-ledger"
CHECK = '[skill_check: skill="Reckon" dc="7"]'


def party(stacks: int = 0) -> list[Character]:
    bag = tuple(Stack(plain=f"Keepsake {i}", count=1 + i % 3) for i in range(stacks))
    return [Character(name="Ada", player=True, bag=bag), Character(name="Juno")]


def reply(turn: int) -> str:
    """Most turns add a stack to Ada's bag (it grows all game); some only check."""
    if turn % 5 == 0:
        return f"Quiet. {CHECK}"
    return f'[inventory: action="add" item="Pebble {turn}" who="Ada"] She pockets it. {CHECK}'


def as_stored(state: GameState) -> object:
    return state.model_dump(mode="json")


async def test_every_turn_of_a_long_game_reads_back_as_the_engine_had_it(store: Store) -> None:
    """120 turns with a bag that grows, regenerated turns swiped back, between-turn events and a
    branch: an engine that remembers nothing reads every turn's state, and every candidate's,
    equal to the state the playing engine had."""
    engine = Engine(store)
    await engine.create_game("long", load_bundled(RULESET), party(40), seed=5)
    had: dict[int, GameState] = {}
    candidates: dict[tuple[int, int], GameState] = {}
    for turn in range(1, 121):
        await engine.user("long", turn, f"turn {turn}")
        done = await engine.process("long", turn, reply(turn), seed=turn)
        candidates[(turn, done.candidate)] = done.state
        if turn % 7 == 0:  # a regeneration, then a swipe back to the first reply
            again = await engine.process("long", turn, "[inventory: action=\"add\" "
                                         "item=\"Never kept\" who=\"Ada\"]", seed=1000 + turn)
            candidates[(turn, again.candidate)] = again.state
            await engine.select("long", turn, 0)
        if turn % 11 == 0:
            await engine.event("long", turn, {"type": "speaker", "who": "Juno" if turn % 2
                                              else "Ada"})
        had[turn] = await engine.state("long", turn)
    await engine.fork("long", 60, "branch")

    fresh = Engine(store)
    assert as_stored(had[120]) == as_stored(await fresh.state("long"))
    for turn in range(120, 0, -1):
        assert as_stored(had[turn]) == as_stored(await fresh.state_after("long", turn)), turn
    for (turn, index), state in candidates.items():
        row = await store.get_candidate("long", turn, index)
        assert as_stored(state) == row.state, (turn, index)
    assert as_stored(had[60]) == as_stored(await fresh.state("branch"))
    assert 60 + 40 - 60 // 5 == len(had[60].party[0].bag)


async def test_a_branch_plays_on_from_its_turn(store: Store) -> None:
    """A branch forked at turn 2 starts from S(2) and gains its own stacks; the game it came from
    keeps its own."""
    engine = Engine(store)
    await engine.create_game("root", load_bundled(RULESET), party(300), seed=2)
    for turn in (1, 2, 3):
        await engine.user("root", turn, "on")
        await engine.process("root", turn, reply(turn), seed=turn)
    await engine.fork("root", 2, "side")
    await engine.user("side", 3, "elsewhere")
    await engine.process("side", 3, '[inventory: action="add" item="Side road" who="Ada"]',
                         seed=9)

    fresh = Engine(store)
    root, side = await fresh.state("root"), await fresh.state("side")
    assert ["Pebble 3"] == [s.plain for s in root.party[0].bag[302:]]
    assert ["Side road"] == [s.plain for s in side.party[0].bag[302:]]
    assert root.party[0].bag[:302] == side.party[0].bag[:302]


async def test_a_stale_turn_start_is_read_again(store: Store) -> None:
    """Two engines on one store: after the second regenerates turn 1 (gaining a lantern) and
    passes the speaker to Juno, the first engine's next reply plays on that state, not on the one
    it remembered."""
    first, second = Engine(store), Engine(store)
    await first.create_game("shared", load_bundled(RULESET), party(5), seed=1)
    await first.user("shared", 1, "hello")
    await first.process("shared", 1, CHECK, seed=1)
    await first.user("shared", 2, "go on")
    await first.process("shared", 2, CHECK, seed=2)
    await second.process("shared", 2, '[inventory: action="add" item="Lantern" who="Ada"]',
                         seed=3)
    await second.event("shared", 2, {"type": "speaker", "who": "Juno"})

    await first.user("shared", 3, "and then")
    done = await first.process("shared", 3, CHECK, seed=4)

    assert "Lantern" in [s.plain for s in done.state.party[0].bag]
    assert [False, True] == [m.player for m in done.state.party]
    assert done.state == await second.state("shared", 3)


async def test_a_check_with_a_large_bag_stores_no_more_than_with_an_empty_one(
        tmp_path: Path) -> None:
    """A reply that only checks writes the same candidate row whether Ada carries nothing or a
    thousand stacks: her bag is stored once, with the game, and every turn refers to it."""
    sizes = []
    for stacks in (0, 1000):
        path = tmp_path / f"bag{stacks}.db"
        engine = Engine(await SQLiteStore.open(path))
        await engine.create_game("bag", load_bundled(RULESET), party(stacks), seed=4)
        for turn in (1, 2, 3):
            await engine.user("bag", turn, "again")
            await engine.process("bag", turn, CHECK, seed=turn)
        await engine.store.close()
        db = sqlite3.connect(path)
        sizes.append(db.execute("SELECT MAX(length(CAST(state AS BLOB))) FROM candidates"
                                ).fetchone()[0])
        db.close()
    assert sizes[0] == sizes[1]
    assert sizes[1] < 400
