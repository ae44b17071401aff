"""A SQLite or PostgreSQL batch holds back the writes of the games it creates and numbers their
candidates itself (``held``): whatever a caller does in it, every answer and every read, in the
batch and after its commit, is the memory store's for the same calls (SPEC §2, §3).

Random runs of calls (start a turn, store a candidate with or without a key and with a start that
holds or not, select, add an event, fork, read, a nested batch that fails) go to both stores, each
inside a batch; the game is created inside the batch or before it.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from dataclasses import astuple
from typing import Any

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.stores import MemoryStore, SQLiteStore, Store, held
from middleware.stores.base import CandidateRow, GameRow, Start
from middleware.stores.held import FLUSH_AT
from middleware.stores.postgres import PostgresStore
from tests.rulesets import bundled_json
from tests.stores.pg import PG_URL, connect

TURNS = 3
Call = tuple[Any, ...]

turns = st.integers(1, TURNS)
_ARGUMENTS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "start": st.tuples(turns),
    "add": st.tuples(turns, st.sampled_from([None, "k1"]), st.booleans()),
    "select": st.tuples(turns, st.integers(-1, 3)),
    "event": st.tuples(turns),
    "read": st.tuples(),
}
# By weight: candidates stored most, then turns started (a list of kinds picks each entry alike).
simple_calls = st.sampled_from(["add", "add", "add", "start", "start", "select", "event",
                                "read"]).flatmap(
    lambda kind: _ARGUMENTS[kind].map(lambda arguments: (kind, *arguments)))
rare_calls = st.one_of(st.tuples(st.just("fork"), st.integers(0, TURNS)),
                       st.tuples(st.just("failing batch"), st.lists(simple_calls, max_size=4)))


@st.composite
def calls(draw: st.DrawFn) -> list[Call]:
    """A run of simple calls, mostly turns started and candidates stored, with at most two forks
    or failing nested batches (after which a batch writes its chats as any other) put in it."""
    script = draw(st.lists(simple_calls, min_size=6, max_size=30))
    for rare in draw(st.lists(rare_calls, max_size=2)):
        script.insert(draw(st.integers(0, len(script))), rare)
    return script


KINDS = ["sqlite", "postgres"]


@pytest.fixture(scope="module")
def schema_url() -> Iterator[str]:
    """One PostgreSQL schema for every run (each run plays chats of its own)."""
    name = f"gm_test_{secrets.token_hex(6)}"
    yield f"{PG_URL}{'&' if '?' in PG_URL else '?'}schema={name}"

    async def drop() -> None:
        admin = await connect()
        await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        await admin.close()

    asyncio.run(drop())


@pytest.fixture(params=KINDS)
def where(request: pytest.FixtureRequest, schema_url: str,
          tmp_path_factory: pytest.TempPathFactory) -> str:
    """Where the store under test opens: one SQLite file, or the PostgreSQL schema."""
    if request.param == "postgres":
        return schema_url
    return str(tmp_path_factory.mktemp("held") / "game.db")


async def opened(where: str) -> Store:
    if where.startswith("postgresql"):
        return await PostgresStore.open(where)
    return await SQLiteStore.open(where)


def a_game(chat: str) -> GameRow:
    return GameRow(chat, "lantern-and-ledger", bundled_json("lantern-and-ledger"), 7, {},
                   {"party": [{"name": "Ada"}]})


def a_reply(chat: str, turn: int, key: str | None, n: int) -> CandidateRow:
    return CandidateRow(chat, turn, -1, key, 2**40 + n, f"reply {n}", f"text {n}",
                        [{"tag": "place", "n": n}], {"party": [{"name": "Ada", "gold": n}]})


async def answer(store: Store, call: Call, chat: str, n: int) -> object:
    """What ``store`` answers to ``call`` on ``chat``: a value, or the error's kind and text."""
    try:
        return await _call(store, call, chat, n)
    except Exception as exc:  # the comparison is of what a caller sees, errors included
        return (type(exc).__name__, str(exc))


async def _call(store: Store, call: Call, chat: str, n: int) -> object:
    kind = call[0]
    if kind == "start":
        return await store.start_turn(chat, call[1], f"turn {call[1]}")
    if kind == "add":
        _, turn, key, holds = call
        before = await store.get_turn(chat, turn - 1) if turn > 1 else None
        start = None if before is None else Start(
            turn - 1, before.selected if holds else (before.selected or 0) + 1, len(before.events))
        stored = await store.add_candidate(a_reply(chat, turn, key, n), start)
        return (*astuple(stored), stored.replayed)
    if kind == "select":
        return await store.select(chat, call[1], call[2])
    if kind == "event":
        return await store.add_event(chat, call[1], {"type": "rest", "n": n})
    if kind == "fork":
        return await store.fork(chat, call[1], f"{chat}-fork-{n}")
    if kind == "failing batch":
        try:
            async with store.batch():
                inner = [await answer(store, c, chat, n * 100 + i) for i, c in enumerate(call[1])]
                raise LookupError("the nested batch fails")
        except LookupError:
            return inner
    return await everything(store, chat)


async def everything(store: Store, chat: str) -> object:
    """Every read of ``chat`` a caller can make."""
    try:
        last = await store.last_turn(chat)
    except Exception as exc:  # no game (created in a failed batch): the same for both
        return (type(exc).__name__, str(exc))
    numbers = range(0, TURNS + 2)
    return (last, await store.turns(chat, 0, TURNS + 1), await store.replies(chat, 0, TURNS + 1),
            [await store.get_turn(chat, t) for t in numbers],
            [await store.list_candidates(chat, t) for t in numbers],
            [await store.selected_candidate(chat, t) for t in numbers],
            [await store.find_candidate(chat, t, k) for t in numbers for k in ("k1",)])


async def play(store: Store, chat: str, script: list[Call], in_batch: bool) -> list[object]:
    """The answers to ``script`` in one batch, then every read of each chat it made."""
    answers: list[object] = []
    if not in_batch:
        await store.create_game(a_game(chat))
    async with store.batch():
        if in_batch:
            await store.create_game(a_game(chat))
        for n, call in enumerate(script):
            answers.append(await answer(store, call, chat, n))
    chats = [chat, *(f"{chat}-fork-{n}" for n, call in enumerate(script) if call[0] == "fork")]
    return [*answers, *[await everything(store, c) for c in chats]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(script=calls(), in_batch=st.booleans(), kept=st.sampled_from([1, held.KEPT_TURNS]))
def test_a_batch_answers_as_the_memory_store_does(where: str, script: list[Call],
                                                  in_batch: bool, kept: int) -> None:
    """``kept``: how many turns of a chat the batch keeps count of (with one, every fork and
    nearly every turn played twice goes to the database as in a chat it does not own)."""
    async def both() -> tuple[list[object], list[object]]:
        chat = f"c{secrets.token_hex(4)}"
        store = await opened(where)
        try:
            return (await play(MemoryStore(), chat, script, in_batch),
                    await play(store, chat, script, in_batch))
        finally:
            await store.close()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(held, "KEPT_TURNS", kept)
        expected, got = asyncio.run(both())
    assert expected == got


LONG = 2 * FLUSH_AT + 3
"""Turns of a long game: with two candidates each, more than a batch holds twice over."""


async def long_game(store: Store, chat: str) -> None:
    """``LONG`` turns of ``chat`` in one batch, each with two candidates, the one ``turn % 2``
    selected last."""
    async with store.batch():
        await store.create_game(a_game(chat))
        for turn in range(1, LONG + 1):
            await store.start_turn(chat, turn, f"turn {turn}")
            for n in range(2):
                await store.add_candidate(a_reply(chat, turn, None, n))
            await store.select(chat, turn, turn % 2)


async def test_a_replay_long_enough_to_write_several_times_reads_back_whole(where: str) -> None:
    """More candidates than a batch holds at once: every turn, candidate and selection is
    stored."""
    store = await opened(where)
    try:
        await long_game(store, "long")
        assert LONG == await store.last_turn("long")
        rows = await store.turns("long", 1, LONG)
        assert [turn % 2 for turn in range(1, LONG + 1)] == [rows[t].selected for t in sorted(rows)]
        assert 2 * LONG == len(await store.replies("long", 1, LONG))
    finally:
        await store.close()


async def test_a_game_forked_in_a_batch_goes_on_from_the_turns_it_copied(where: str) -> None:
    """A fork made in the batch of a game the batch created is the batch's too: its copied turns
    keep their keys, numbering and selection, on both stores alike."""
    async def fork_and_write(store: Store) -> list[object]:
        async with store.batch():
            await store.create_game(a_game("source"))
            await store.start_turn("source", 1, "turn 1")
            await store.add_candidate(a_reply("source", 1, "k1", 0))
            await store.fork("source", 1, "copy")
            retried = await store.add_candidate(a_reply("copy", 1, "k1", 1))
            added = await store.add_candidate(a_reply("copy", 1, None, 2))
            await store.start_turn("copy", 2, "turn 2")
            onward = await store.add_candidate(a_reply("copy", 2, None, 3), Start(1, 1, 0))
        return [retried.replayed, added.index, onward.index, await everything(store, "copy"),
                await everything(store, "source")]

    store = await opened(where)
    try:
        assert [True, 1, 0] == (await fork_and_write(MemoryStore()))[:3]
        assert await fork_and_write(MemoryStore()) == await fork_and_write(store)
    finally:
        await store.close()


async def test_a_postgres_replay_makes_a_round_trip_per_many_turns(
        schema_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Statements sent in a batch that plays 515 turns of two candidates and a selection each
    (``long_game``): a handful (the game, a flush per 256 candidates, the transaction), where it
    was one or more a turn."""
    sent: list[str] = []
    for method in ("execute", "fetch", "fetchrow", "fetchval"):
        plain = getattr(asyncpg.Connection, method)

        async def counted(self: Any, query: str, *args: Any, _plain: Any = plain,
                          **kwargs: Any) -> Any:
            sent.append(query)
            return await _plain(self, query, *args, **kwargs)

        monkeypatch.setattr(asyncpg.Connection, method, counted)
    store = await PostgresStore.open(schema_url)
    try:
        sent.clear()
        await long_game(store, "counted")
        flushes = [q for q in sent if "unnest" in q and "INSERT INTO candidates" in q]
        # the game (a savepoint, its fragments, its row), the flushes, the transaction's ends
        assert 5 == len(flushes) and len(sent) <= 12, sent
        rows = await store.turns("counted", 1, LONG)
        assert [turn % 2 for turn in range(1, LONG + 1)] == [rows[t].selected for t in sorted(rows)]
    finally:
        await store.close()


async def test_a_batch_keeps_count_of_its_newest_turns_only(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``KEPT_TURNS`` a batch forgets the counts of a chat's oldest turns (a long replay's
    memory stays flat): a reply retried on an old turn and a fork from it are still answered
    right, by the database."""
    monkeypatch.setattr(held, "KEPT_TURNS", 4)
    async def long_game(store: Store) -> list[object]:
        async with store.batch():
            await store.create_game(a_game("trimmed"))
            for turn in range(1, 21):
                await store.start_turn("trimmed", turn, f"turn {turn}")
                await store.add_candidate(a_reply("trimmed", turn, "k", turn))
            old = await store.add_candidate(a_reply("trimmed", 2, "k", 99))
            added = await store.add_candidate(a_reply("trimmed", 2, None, 100))
            await store.fork("trimmed", 3, "fork")
            await store.start_turn("fork", 3, "turn 3 again")  # copied: kept as it is
            again = await store.add_candidate(a_reply("fork", 3, None, 102))
            await store.start_turn("fork", 4, "turn 4 again")
            onward = await store.add_candidate(a_reply("fork", 4, None, 101))
        return [old.replayed, added.index, again.index, onward.index,
                await everything(store, "trimmed"),
                await everything(store, "fork")]

    store = await opened(where)
    try:
        expected = await long_game(MemoryStore())
        assert [True, 1, 1, 0] == expected[:4]
        assert expected == await long_game(store)
    finally:
        await store.close()
