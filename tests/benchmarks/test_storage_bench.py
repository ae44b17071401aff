"""What a turn costs the store as the party's bags grow, side by side in one run.

- one turn (the player's line and a reply with one check) with Ada carrying a 1,000-stack bag,
  against the same turn with an empty bag, on SQLite and in memory. Goal on SQLite: ≤ 1.5×.
- bytes of text stored per turn in a SQLite file, over 200 such turns: an empty bag, a 1,000-stack bag,
  and a bag that gains a stack every turn (printed, and kept in the benchmark's ``extra_info``).
  Goal: ≤ 2 KB a turn with the 1,000-stack bag.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_storage_bench.py --benchmark-only
-p no:cacheprovider -s``.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from middleware.engine import Engine
from middleware.rules.registry import load_bundled
from middleware.rules.stack_limits import BAG_STACKS
from middleware.state import Character, Stack
from middleware.stores import open_store

CHECK = 'You lean in. [skill_check: skill="Reckon" dc="7"] Then quiet.'
GROW = '[inventory: action="add" item="Pebble {n}" who="Ada"] ' + CHECK
TURNS_FOR_BYTES = 200
BIG_GROWING = BAG_STACKS - TURNS_FOR_BYTES - 20
"""A big bag that still gains a stack every turn played (a bag holds at most ``BAG_STACKS``: one
of 1,000 stacks, as measured before that bound, refuses every add ``bag-full``)."""


def ada(stacks: int) -> Character:
    bag = tuple(Stack(plain=f"Keepsake {i}", count=1 + i % 3) for i in range(stacks))
    return Character(name="Ada", player=True, bag=bag)


async def a_game(url: str, stacks: int) -> Engine:
    engine = Engine(await open_store(url))
    await engine.create_game("bench", load_bundled("lantern-and-ledger"), [ada(stacks)], seed=3)
    return engine


def stored_bytes(path: Path) -> int:
    """The bytes of every text the SQLite file holds for candidates, turns and state fragments
    (the file's own size moves in pages and with its write-ahead log)."""
    db = sqlite3.connect(path)
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        total = db.execute("SELECT SUM(ifnull(length(CAST(key AS BLOB)), 0) + length(CAST(reply AS BLOB)) + "
                           "length(CAST(text AS BLOB)) + length(CAST(records AS BLOB)) + "
                           "length(CAST(state AS BLOB)) + length(seed)) FROM candidates"
                           ).fetchone()[0] or 0
        total += db.execute("SELECT SUM(length(CAST(user_text AS BLOB)) + "
                            "length(CAST(events AS BLOB))) FROM turns").fetchone()[0] or 0
        if "parts" in tables:
            total += db.execute("SELECT SUM(length(key) + length(CAST(body AS BLOB))) FROM parts"
                                ).fetchone()[0] or 0
        return int(total)
    finally:
        db.close()


@pytest.fixture
def loop() -> Any:
    made = asyncio.new_event_loop()
    yield made
    made.close()


@pytest.mark.benchmark(group="one-check-turn")
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("stacks", [0, 1000])
def test_one_check_turn(benchmark: Any, loop: Any, tmp_path: Path, kind: str,
                        stacks: int) -> None:
    url = "memory://" if kind == "memory" else f"sqlite:///{tmp_path}/turns.db"
    engine = loop.run_until_complete(a_game(url, stacks))
    turns = itertools.count(1)

    async def one_turn() -> int:
        turn = next(turns)
        await engine.user("bench", turn, "I try again.")
        return (await engine.process("bench", turn, CHECK, seed=turn)).candidate

    assert 0 == benchmark.pedantic(lambda: loop.run_until_complete(one_turn()), rounds=300,
                                   warmup_rounds=20, iterations=1)
    loop.run_until_complete(engine.store.close())


@pytest.mark.benchmark(group="stored-bytes-per-turn")
@pytest.mark.parametrize(("bag", "stacks", "reply"), [
    ("empty", 0, CHECK), ("1000 stacks", 1000, CHECK), ("growing from 0", 0, GROW),
    (f"growing from {BIG_GROWING}", BIG_GROWING, GROW)])
def test_stored_bytes_per_turn(benchmark: Any, loop: Any, tmp_path: Path, bag: str, stacks: int,
                               reply: str) -> None:
    path = tmp_path / "bytes.db"
    engine = loop.run_until_complete(a_game(f"sqlite:///{path}", stacks))

    async def play(first: int, count: int) -> None:
        for turn in range(first, first + count):
            await engine.user("bench", turn, "I try again.")
            await engine.process("bench", turn, reply.format(n=turn), seed=turn)

    loop.run_until_complete(play(1, 10))
    before = stored_bytes(path)
    benchmark.pedantic(lambda: loop.run_until_complete(play(11, TURNS_FOR_BYTES)), rounds=1,
                       iterations=1)
    per_turn = (stored_bytes(path) - before) / TURNS_FOR_BYTES
    grown = TURNS_FOR_BYTES + 10 if reply == GROW else 0
    after = loop.run_until_complete(engine.state_after("bench", TURNS_FOR_BYTES + 10))
    assert stacks + grown == len(after.party[0].bag)  # every add taken, none refused
    benchmark.extra_info["bytes_per_turn"] = per_turn
    print(f"\nstored bytes per turn, SQLite, {bag} bag: {per_turn:,.0f}", file=sys.stderr)
    loop.run_until_complete(engine.store.close())
