"""The SQLite store keeps what it stores whole, across restarts, in a WAL file (SPEC §2, §8).

Another connection to the same file stands in for whatever interrupts a write half way.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from middleware.errors import GameError, StoreError
from middleware.stores import SQLiteStore
from middleware.stores.base import CandidateRow, GameRow
from tests.rulesets import bundled_json


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "game.db"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[SQLiteStore]:
    opened = await SQLiteStore.open(path)
    yield opened
    await opened.close()


def a_game() -> GameRow:
    return GameRow("millbrook", "lantern-and-ledger", bundled_json("lantern-and-ledger"), 7, {},
                   {"party": [{"name": "Ada"}]})


def a_reply(reply: str, key: str | None = None) -> CandidateRow:
    return CandidateRow("millbrook", 1, -1, key, 3, reply, reply, [{"tag": "place"}],
                        {"party": [{"name": "Ada", "reply": reply}]})


@contextmanager
def other_connection(path: Path) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        yield db


async def one_turn(store: SQLiteStore) -> None:
    await store.create_game(a_game())
    await store.start_turn("millbrook", 1, "We walk into Millbrook.")
    await store.add_candidate(a_reply("first"))


async def test_a_candidate_interrupted_at_the_selection_is_not_stored(
        store: SQLiteStore, path: Path) -> None:
    """When updating the turn's selection fails, the candidate row is gone too."""
    await one_turn(store)
    with other_connection(path) as db:
        db.execute("CREATE TRIGGER interrupt BEFORE UPDATE OF selected ON turns "
                   "BEGIN SELECT RAISE(ABORT, 'disk pulled'); END")
    with pytest.raises(StoreError, match="disk pulled") as caught:
        await store.add_candidate(a_reply("second"))
    assert isinstance(caught.value.__cause__, sqlite3.Error)
    assert ["first"] == [c.reply for c in await store.list_candidates("millbrook", 1)]
    turn = await store.get_turn("millbrook", 1)
    assert 0 == (turn.selected if turn else None)


async def test_a_fork_interrupted_half_way_leaves_no_branch(
        store: SQLiteStore, path: Path) -> None:
    """A fork that fails while copying candidates leaves neither the new game nor its turns."""
    await one_turn(store)
    with other_connection(path) as db:
        db.execute("CREATE TRIGGER interrupt BEFORE INSERT ON candidates WHEN NEW.chat = 'branch' "
                   "BEGIN SELECT RAISE(ABORT, 'disk pulled'); END")
    with pytest.raises(StoreError, match="disk pulled"):
        await store.fork("millbrook", 1, "branch")
    with pytest.raises(GameError):
        await store.get_game("branch")
    assert None is await store.get_turn("branch", 1)


async def test_a_cancelled_batch_leaves_nothing(store: SQLiteStore, path: Path) -> None:
    """A replay cancelled part way (Ctrl-C) rolls back: the file holds nothing of it."""
    started = asyncio.Event()

    async def replay() -> None:
        async with store.batch():
            await one_turn(store)
            started.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(replay())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with other_connection(path) as db:
        assert (0, 0) == db.execute(
            "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM candidates)").fetchone()


async def test_stored_data_survives_close_and_reopen(store: SQLiteStore, path: Path) -> None:
    """Close the store, open the file again: game, turn, candidates and events are all there."""
    await one_turn(store)
    await store.add_event("millbrook", 1, {"type": "rest", "who": "Ada", "rest": "night"})
    before = (await store.get_game("millbrook"), await store.get_turn("millbrook", 1),
              await store.list_candidates("millbrook", 1))
    await store.close()
    again = await SQLiteStore.open(path)
    try:
        after = (await again.get_game("millbrook"), await again.get_turn("millbrook", 1),
                 await again.list_candidates("millbrook", 1))
        assert before == after
        assert 1 == (await again.add_candidate(a_reply("after reopening"))).index
    finally:
        await again.close()


async def test_the_file_is_in_wal_mode(store: SQLiteStore, path: Path) -> None:
    """The store file uses write-ahead logging, so readers never block the writer."""
    await one_turn(store)
    with other_connection(path) as db:
        assert ("wal",) == db.execute("PRAGMA journal_mode").fetchone()


async def test_a_closed_store_says_so(store: SQLiteStore) -> None:
    """Using a store after closing it is a StoreError, not a crash in another library."""
    await store.close()
    with pytest.raises(StoreError, match="read a game"):
        await store.get_game("millbrook")


async def test_a_file_that_cannot_be_opened_is_a_store_error(tmp_path: Path) -> None:
    """A path in a folder that does not exist is reported as a StoreError naming it."""
    missing = tmp_path / "no" / "such" / "folder" / "game.db"
    with pytest.raises(StoreError, match=r"folder/game\.db"):
        await SQLiteStore.open(missing)


async def test_a_file_from_a_newer_version_is_refused(path: Path) -> None:
    """A store file whose schema is newer than this code is refused rather than misread."""
    with other_connection(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer"):
        await SQLiteStore.open(path)


async def test_a_file_busy_in_another_process_is_waited_for(
        store: SQLiteStore, path: Path) -> None:
    """While another process holds the write lock a candidate waits, the loop running on."""
    await one_turn(store)
    with other_connection(path) as db:
        db.execute("BEGIN IMMEDIATE")
        adding = asyncio.create_task(store.add_candidate(a_reply("second")))
        await asyncio.sleep(0.02)
        assert not adding.done()
        db.execute("COMMIT")
    assert 1 == (await adding).index
