"""What the PostgreSQL store adds to the shared contract: opening, schemas, errors (SPEC §2, §8).

The contract itself (``test_store_contract.py``) runs against this store too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from middleware.errors import GameError, StoreError
from middleware.stores.base import CandidateRow, GameRow
from middleware.stores.postgres import PostgresStore
from tests.rulesets import bundled_json
from tests.stores.pg import PG_URL, connect, fresh_schema, schema_of


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_schema() as made:
        yield made


@pytest.fixture
async def store(url: str) -> AsyncIterator[PostgresStore]:
    opened = await PostgresStore.open(url)
    yield opened
    await opened.close()


def a_game(chat: str = "millbrook") -> GameRow:
    return GameRow(chat, "lantern-and-ledger", bundled_json("lantern-and-ledger"), 7, {},
                   {"party": [{"name": "Ada"}]})


def a_reply(reply: str, key: str | None = None) -> CandidateRow:
    return CandidateRow("millbrook", 1, -1, key, 3, reply, reply, [{"tag": "place"}],
                        {"party": [{"name": "Ada", "reply": reply}]})


async def one_turn(store: PostgresStore, user_text: str = "We walk into Millbrook.") -> None:
    await store.create_game(a_game())
    await store.start_turn("millbrook", 1, user_text)


async def test_workers_opening_one_schema_share_its_games(url: str) -> None:
    """Opening the store again (another worker) keeps the tables and sees what the first wrote."""
    first = await PostgresStore.open(url)
    try:
        await one_turn(first)
        second = await PostgresStore.open(url)
        try:
            await second.add_candidate(a_reply("from the second worker"))
            assert ["from the second worker"] == [
                c.reply for c in await first.list_candidates("millbrook", 1)]
        finally:
            await second.close()
    finally:
        await first.close()


async def test_workers_opening_a_new_schema_together_all_succeed(url: str) -> None:
    """Eight workers opening an empty schema at once all get a working store, one set of tables."""
    stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(8)))
    try:
        await one_turn(stores[0])
        assert a_game() == await stores[7].get_game("millbrook")
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_a_schema_written_by_a_newer_version_is_refused(url: str) -> None:
    """A schema whose version is newer than this code reads is a StoreError saying so."""
    await (await PostgresStore.open(url)).close()
    admin = await connect(schema_of(url))
    try:
        await admin.execute("UPDATE gm_schema SET version = 99")
    finally:
        await admin.close()
    with pytest.raises(StoreError, match="newer gm-middleware"):
        await PostgresStore.open(url)


async def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    """A server that does not answer is a StoreError naming where, never the password."""
    with pytest.raises(StoreError, match=r"127\.0\.0\.1:1/games") as caught:
        await PostgresStore.open("postgresql://gm:hunter2@127.0.0.1:1/games")
    assert "hunter2" not in str(caught.value)
    assert isinstance(caught.value.__cause__, OSError)


@pytest.mark.parametrize("schema", ["", "gm-test", "1gm", "gm;drop"])
async def test_a_schema_name_that_is_not_a_plain_identifier_is_refused(schema: str) -> None:
    """``?schema=`` takes letters, digits and underscores only, so it is never quoted SQL."""
    with pytest.raises(StoreError, match="schema="):
        await PostgresStore.open(f"{PG_URL}?schema={schema}")


async def test_text_with_nul_characters_reads_back_as_written(store: PostgresStore) -> None:
    """The player's text and a reply may hold characters PostgreSQL TEXT refuses; they round trip."""
    await one_turn(store, "odd\x00input")
    stored = await store.add_candidate(a_reply("a\x00b ö \u2028"))
    turn = await store.get_turn("millbrook", 1)
    assert ("odd\x00input", "a\x00b ö \u2028") == (turn.user_text if turn else None,
                                                   (await store.get_candidate("millbrook", 1, 0)).reply)
    assert "a\x00b ö \u2028" == stored.text


async def test_tasks_started_inside_a_batch_share_it(store: PostgresStore) -> None:
    """Five writes gathered inside a batch land in it: dense indexes, all undone if it raises."""
    await one_turn(store)
    with pytest.raises(ValueError, match="stop"):
        async with store.batch():
            rows = await asyncio.gather(*(store.add_candidate(a_reply(f"r{n}")) for n in range(5)))
            assert [0, 1, 2, 3, 4] == sorted(r.index for r in rows)
            raise ValueError("stop")
    assert [] == await store.list_candidates("millbrook", 1)


async def test_a_failed_call_inside_a_batch_leaves_the_batch_usable(store: PostgresStore) -> None:
    """A GameError inside a batch (a missing turn) does not spoil the writes around it."""
    async with store.batch():
        await one_turn(store)
        with pytest.raises(GameError, match="turn 4"):
            await store.add_event("millbrook", 4, {"type": "rest"})
        with pytest.raises(GameError, match="no game"):
            await store.start_turn("nowhere", 1, "")
        await store.add_candidate(a_reply("after the errors"))
    assert ["after the errors"] == [c.reply for c in await store.list_candidates("millbrook", 1)]


async def test_turns_started_in_a_batch_are_kept_with_or_without_a_candidate(
        store: PostgresStore) -> None:
    """In a batch that created the game its turns are held back with its candidates; a turn whose
    reply never comes, or one read before its reply, is stored all the same, the player's text as
    given."""
    async with store.batch():
        await one_turn(store, "first")
        await store.add_candidate(a_reply("answered"))
        await store.start_turn("millbrook", 2, "second")
        seen = await store.get_turn("millbrook", 2)
        await store.start_turn("millbrook", 3, "never answered")
    turns = [await store.get_turn("millbrook", n) for n in (1, 2, 3)]
    assert ["first", "second", "never answered"] == [t.user_text if t else None for t in turns]
    assert [0, None, None] == [t.selected if t else "missing" for t in turns]
    assert (seen.user_text if seen else None) == "second"
    assert 3 == await store.last_turn("millbrook")


async def test_a_turn_started_in_a_failed_nested_batch_is_undone(store: PostgresStore) -> None:
    """A nested batch that raises takes the turn it started with it; the outer one's stay."""
    async with store.batch():
        await one_turn(store)
        with pytest.raises(ValueError, match="stop"):
            async with store.batch():
                await store.start_turn("millbrook", 2, "undone")
                raise ValueError("stop")
        await store.add_candidate(a_reply("kept"))
    assert (1, None) == (await store.last_turn("millbrook"),
                         await store.get_turn("millbrook", 2))


async def test_a_closed_store_refuses_calls(url: str) -> None:
    """After close, a call is a StoreError, not a driver exception."""
    opened = await PostgresStore.open(url)
    await opened.close()
    with pytest.raises(StoreError) as caught:
        await opened.get_game("millbrook")
    assert isinstance(caught.value.__cause__, asyncpg.InterfaceError)
