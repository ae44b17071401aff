"""States stored as change (SPEC §2, §3): a candidate stores what its reply changed and shares the
rest, and every turn's state still reads back exactly, on every store.

Each test states what a player or an operator sees: the state of any turn, read later by an engine
that remembers nothing, equals the one the game had; a branch and a swipe back see the right
state; a check in a party with a large bag writes no more than with an empty one; a writer whose
remembered turn start went stale (another engine selected or added an event) plays on the state
the store holds; a ruleset is stored once, whatever the games that play it.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from middleware.engine import Engine
from middleware.rules.registry import load_bundled
from middleware.state import Character, GameState, Stack
from middleware.stores import SQLiteStore, Store
from middleware.stores.postgres import PostgresStore
from tests.stores.pg import connect, fresh_schema, schema_of

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



Columns = tuple[list[int], int, int]
"""The length of every game row's ruleset text, how many fragments the store holds, and the
length of the longest."""


async def _sqlite_columns(path: Path) -> Columns:
    db = sqlite3.connect(path)
    try:
        lengths = [r[0] for r in db.execute("SELECT length(ruleset) FROM games ORDER BY chat")]
        count, longest = db.execute("SELECT COUNT(*), MAX(length(body)) FROM parts").fetchone()
    finally:
        db.close()
    return lengths, count, longest


async def _postgres_columns(url: str) -> Columns:
    admin = await connect(schema_of(url))
    try:
        lengths = [r[0] for r in await admin.fetch(
            "SELECT length(ruleset) FROM games ORDER BY chat")]
        row = await admin.fetchrow("SELECT COUNT(*), MAX(length(body)) FROM parts")
    finally:
        await admin.close()
    return lengths, row[0], row[1]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_ruleset_is_stored_once_whatever_the_games_that_play_it(
        kind: str, tmp_path: Path) -> None:
    """Twenty games of one ruleset, and a branch of one: each game row holds a reference of a
    few characters, the ruleset's text is one fragment of the store, and every game reads its
    ruleset back equal to the file's (an engine that remembers nothing too). The text was
    stored whole with every game and every branch before (6-66 KB a game). The memory store
    keeps one text per ruleset, shared by its games' rows."""
    async with AsyncExitStack() as stack:
        if kind == "sqlite":
            store: Store = await SQLiteStore.open(tmp_path / "games.db")
        else:
            url = await stack.enter_async_context(fresh_schema())
            store = await PostgresStore.open(url)
        stack.push_async_callback(store.close)
        rules = load_bundled(RULESET)
        engine = Engine(store)
        for n in range(20):
            await engine.create_game(f"game-{n:02}", rules, party(), seed=n)
        await engine.user("game-00", 1, "go")
        await engine.process("game-00", 1, CHECK, seed=1)
        await engine.fork("game-00", 1, "game-00-branch")

        lengths, fragments, longest = await (
            _sqlite_columns(tmp_path / "games.db") if kind == "sqlite" else _postgres_columns(url))
        assert 21 == len(lengths)
        assert max(lengths) < 40
        assert len(json.dumps(rules.source, separators=(",", ":"))) <= longest
        assert fragments < 10  # the ruleset, the two characters, their bags
        fresh = Engine(store)
        for chat in ("game-00", "game-19", "game-00-branch"):
            assert rules.source == (await store.get_game(chat)).ruleset
            assert (await fresh.ruleset(chat)).id == rules.id
