"""Several worker processes share one game in PostgreSQL (SPEC §2, §3, §8).

Each worker is a process of its own (spawned, as on another machine) with its own pool and
``Engine``. They write candidates to one turn and to turns of their own at the same moment; a worker
killed in the middle of a transaction stands in for a machine that dies.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue
import traceback
from collections.abc import AsyncIterator
from multiprocessing.synchronize import Barrier, Event
from typing import Any

import pytest

from middleware.engine import Engine
from middleware.errors import GameError, StoreError
from middleware.rules.load import load_ruleset
from middleware.stores.base import CandidateRow
from middleware.stores.postgres import PostgresStore
from tests.conftest import compat_json
from tests.stores.pg import connect, fresh_schema, schema_of

CHAT = "millbrook"
WORKERS = 4
REPLIES = 8  # per worker, to the shared turn and to its own turn each
SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, as on another machine

Played = list[tuple[int, int, str, bool]]  # (turn, candidate, reply, replayed)


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_schema() as made:
        yield made


async def a_game(url: str, turns: int) -> None:
    """The shared game: ember-roads, with turns 1..``turns`` started."""
    store = await PostgresStore.open(url)
    try:
        engine = Engine(store)
        await engine.create_game(CHAT, load_ruleset(compat_json("ember-roads.json")), seed=7)
        for turn in range(1, turns + 1):
            await engine.user(CHAT, turn, f"turn {turn}")
    finally:
        await store.close()


# -- what a worker process runs --------------------------------------------------------------------

def worker(url: str, number: int, start: Barrier, results: Any) -> None:
    """One worker process: its own pool and Engine; its candidates (or its error) go back on
    ``results``, so a failing worker fails the test at once with its traceback."""
    try:
        results.put((number, asyncio.run(play(url, number, start))))
    except BaseException:
        start.abort()
        results.put((number, traceback.format_exc()))
        raise


async def play(url: str, number: int, start: Barrier) -> Played:
    """Reply to the shared turn 1 and to this worker's own turn, all at once, plus a keyed retry."""
    store = await PostgresStore.open(url, max_size=4)
    try:
        engine = Engine(store)
        start.wait(timeout=120)
        own = 2 + number
        done = await asyncio.gather(
            *(engine.process(CHAT, 1, f"w{number} shared {n}") for n in range(REPLIES)),
            *(engine.process(CHAT, own, f"w{number} own {n}") for n in range(REPLIES)),
            engine.process(CHAT, 1, "the retried update", key="update-17"))
        # Plain-text replies: the rewritten text is the reply itself.
        return [(p.turn, p.candidate, p.text, p.replayed) for p in done]
    finally:
        await store.close()


def doomed_worker(url: str, stored: Event) -> None:
    """A worker that writes inside a batch, then hangs before committing (and is killed)."""
    asyncio.run(write_then_hang(url, stored))


async def write_then_hang(url: str, stored: Event) -> None:
    store = await PostgresStore.open(url)
    async with store.batch():
        await store.add_candidate(a_reply("never committed"))
        await store.start_turn(CHAT, 2, "a turn that never was")
        stored.set()
        await asyncio.sleep(3600)


def a_reply(reply: str) -> CandidateRow:
    return CandidateRow(CHAT, 1, -1, None, 3, reply, reply, [], {"party": []})


# -- the tests -------------------------------------------------------------------------------------

async def test_workers_writing_at_once_lose_nothing_and_number_densely(url: str) -> None:
    """Four processes writing to one turn and to turns of their own at once: every reply stored
    once, indexes 0..n-1 on every turn, the newest selected, one candidate for a retried key."""
    await a_game(url, turns=1 + WORKERS)
    played = await asyncio.to_thread(run_workers, url)

    store = await PostgresStore.open(url)
    try:
        shared = await store.list_candidates(CHAT, 1)
        sent = {f"w{w} shared {n}" for w in range(WORKERS) for n in range(REPLIES)}
        assert sent | {"the retried update"} == {c.reply for c in shared}
        assert list(range(WORKERS * REPLIES + 1)) == [c.index for c in shared]
        assert {(c.turn, c.index, c.reply) for c in shared} == {
            (t, i, r) for t, i, r, _ in played if t == 1}
        retried = [(i, replayed) for t, i, r, replayed in played if r == "the retried update"]
        assert 1 == len({i for i, _ in retried})
        assert WORKERS - 1 == sum(replayed for _, replayed in retried)
        assert shared[-1] == await store.selected_candidate(CHAT, 1)
        for w in range(WORKERS):
            own = await store.list_candidates(CHAT, 2 + w)
            assert [f"w{w} own {n}" for n in range(REPLIES)] == sorted(c.reply for c in own)
            assert list(range(REPLIES)) == [c.index for c in own]
            assert own[-1] == await store.selected_candidate(CHAT, 2 + w)
    finally:
        await store.close()


async def test_a_worker_killed_inside_a_transaction_leaves_nothing(url: str) -> None:
    """A worker that dies before committing leaves none of its writes, and the turn it had locked
    takes the next candidate from another worker at once."""
    await a_game(url, turns=1)
    stored = SPAWN.Event()
    doomed = SPAWN.Process(target=doomed_worker, args=(url, stored))
    doomed.start()
    try:
        assert await asyncio.to_thread(stored.wait, 120), "the doomed worker never wrote"
    finally:
        doomed.kill()
        await asyncio.to_thread(doomed.join, 120)

    store = await PostgresStore.open(url)
    try:
        after = await asyncio.wait_for(store.add_candidate(a_reply("from a live worker")), 60)
        assert 0 == after.index
        assert ["from a live worker"] == [c.reply for c in await store.list_candidates(CHAT, 1)]
        assert (1, None) == (await store.last_turn(CHAT), await store.get_turn(CHAT, 2))
    finally:
        await store.close()


async def test_a_candidate_interrupted_at_the_selection_is_not_stored(url: str) -> None:
    """When the turn's selection cannot be written, the candidate row is not stored either."""
    await a_game(url, turns=1)
    store = await PostgresStore.open(url)
    try:
        await store.add_candidate(a_reply("first"))
        await interrupt(url, "BEFORE UPDATE OF selected ON turns")
        with pytest.raises(StoreError, match="disk pulled"):
            await store.add_candidate(a_reply("second"))
        assert ["first"] == [c.reply for c in await store.list_candidates(CHAT, 1)]
        turn = await store.get_turn(CHAT, 1)
        assert 0 == (turn.selected if turn else None)
    finally:
        await store.close()


async def test_a_fork_interrupted_half_way_leaves_no_branch(url: str) -> None:
    """A fork that fails while copying candidates leaves neither the new game nor its turns."""
    await a_game(url, turns=1)
    store = await PostgresStore.open(url)
    try:
        await store.add_candidate(a_reply("first"))
        await interrupt(url, "BEFORE INSERT ON candidates", when="NEW.chat = 'branch'")
        with pytest.raises(StoreError, match="disk pulled"):
            await store.fork(CHAT, 1, "branch")
        with pytest.raises(GameError):
            await store.get_game("branch")
        assert None is await store.get_turn("branch", 1)
    finally:
        await store.close()


# -- helpers ---------------------------------------------------------------------------------------

def run_workers(url: str) -> Played:
    """Start the workers together; every one must finish cleanly."""
    start, results = SPAWN.Barrier(WORKERS), SPAWN.Queue()
    procs = [SPAWN.Process(target=worker, args=(url, n, start, results)) for n in range(WORKERS)]
    for proc in procs:
        proc.start()
    gathered = collect(procs, results)
    for proc in procs:
        proc.join(60)
    failed = [f"worker {n}:\n{got}" for n, got in gathered.items() if isinstance(got, str)]
    assert not failed, "\n".join(failed)
    assert [0] * WORKERS == [proc.exitcode for proc in procs]
    return [row for n in range(WORKERS) for row in gathered[n]]


def collect(procs: list[Any], results: Any) -> dict[int, Any]:
    """Each worker's answer; fails at once when every worker has exited and one never answered
    (it died before it could say why), or when they still run after five minutes (a hang)."""
    gathered: dict[int, Any] = {}
    for _ in range(300):
        try:
            number, got = results.get(timeout=1)
        except queue.Empty:
            if not any(proc.is_alive() for proc in procs):
                break
            continue
        gathered[number] = got
        if len(gathered) == len(procs):
            return gathered
    pytest.fail(f"workers {sorted(set(range(len(procs))) - set(gathered))} never answered; "
                f"exit codes {[proc.exitcode for proc in procs]}", pytrace=False)


async def interrupt(url: str, when_fires: str, when: str = "true") -> None:
    """A trigger in the test's schema that fails the write, as a pulled disk would."""
    admin = await connect(schema_of(url))
    try:
        await admin.execute("CREATE FUNCTION interrupt() RETURNS trigger LANGUAGE plpgsql AS "
                            "$$BEGIN RAISE EXCEPTION 'disk pulled'; END$$")
        await admin.execute(f"CREATE TRIGGER interrupt {when_fires} FOR EACH ROW "
                            f"WHEN ({when}) EXECUTE FUNCTION interrupt()")
    finally:
        await admin.close()
