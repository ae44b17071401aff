"""The PostgreSQL store: several workers, on several machines, sharing games (SPEC §2, §3, §8).

Open it with ``await PostgresStore.open("postgresql://user@host:5432/db?schema=gm")``; ``schema``
(ours, not libpq's) picks the schema the tables live in, created if missing, ``public`` by default.
Every other part of the URL goes to asyncpg as written. The schema is created on open, idempotently,
under an advisory lock so workers starting together do not race.

Calls run side by side on a pool of connections. ``add_candidate`` is one round trip: one call of
the function ``gm_add_candidate`` (``postgres_sql``), a statement and so a transaction of its own,
that first locks the turn's row (``FOR UPDATE``): writers to one turn, in any process, queue there,
and the next index, the row, the fragments of its state the store lacks and the selection are stored
whole or not at all. A key seen on the turn is found after the lock, so retries racing each other
store one candidate; with a ``Start`` it checks, in the same call, that the turn before still stands
as the writer read it. Fragments read or written are kept in memory (they never change). ``batch()``
holds one connection in one transaction (nested batches are savepoints); other tasks of this process
wait for it, tasks it starts share its connection, one statement at a time, and a worker elsewhere
writing to a turn the batch wrote waits for its commit. asyncpg's errors become ours in
``_pg_errors`` and, for the calls that take a connection, in ``_Call`` (both by ``_failed``).

A game a batch creates is its own until the commit (no one else sees it): its turns' starts, its
candidates and its selections are numbered and checked by the batch and held back
(``held``), then written in one statement with any other statement, a savepoint, the
commit, or ``FLUSH_AT`` candidates. Nothing outside the batch sees its writes before the commit,
so no one can tell the difference; a replay makes one round trip per few hundred turns.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, TypeAlias
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import asyncpg.pool
from cachetools import LRUCache

from middleware.errors import GameError, StaleStart, StoreError
from middleware.stores import postgres_sql as sql
from middleware.stores.base import (
    JSON,
    CandidateRow,
    GameRow,
    ReplyRow,
    Start,
    TurnRow,
    check_fork,
    check_turn_number,
)
from middleware.stores.codec import (
    PART,
    RulesetTexts,
    assemble,
    clean_candidate,
    decode_json,
    encode_json,
    encode_state,
    game_from,
    game_values,
    missing,
    stored_as_given,
)
from middleware.stores.gate import Gate
from middleware.stores.held import OwnedChats, Writes
from middleware.text import clean

# Strings: asyncpg's classes are generic only in its stubs.
Connection: TypeAlias = "asyncpg.pool.PoolConnectionProxy[asyncpg.Record]"
Pool: TypeAlias = "asyncpg.Pool[asyncpg.Record]"

_FOREIGN = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError,
            TimeoutError)
_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")

PARTS_KEPT = 2048
"""Fragments of states kept in memory once read or written (see ``sqlite.PARTS_KEPT``)."""


@contextmanager
def _pg_errors(doing: str) -> Iterator[None]:
    """Map asyncpg's (and the network's) errors to ``StoreError``, the cause chained."""
    try:
        yield
    except _FOREIGN as exc:
        raise _failed(doing, exc) from exc


@dataclass(slots=True, eq=False)
class _Batch:
    """An open batch: its store, the connection it holds, a lock for the tasks sharing it, and the
    chats it created with what it holds back of them."""

    store: PostgresStore
    conn: Connection
    lock: asyncio.Lock
    owned: OwnedChats = field(default_factory=OwnedChats)


# Module level on purpose: a ContextVar made per instance is never freed.
_BATCHES: ContextVar[tuple[_Batch, ...]] = ContextVar("gm_middleware_pg_batches", default=())


class PostgresStore:
    """A ``Store`` in PostgreSQL; open it with ``await PostgresStore.open(url)``."""

    def __init__(self, pool: Pool, where: str) -> None:
        self._pool = pool
        self.where = where
        self._gate = Gate()
        self._parts: LRUCache[str, str] = LRUCache(maxsize=PARTS_KEPT)
        self._rulesets = RulesetTexts()
        self._games: LRUCache[str, bool] = LRUCache(maxsize=PARTS_KEPT)
        """Chats whose game this store created or read (a game is never deleted; forgotten with
        the fragments when a batch is rolled back)."""

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        """Connect a pool to ``url`` and create the schema if it is missing."""
        dsn, schema, where = _read_url(url)
        with _pg_errors(f"open the PostgreSQL store at {where}"):
            pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size,
                                             server_settings={"search_path": f'"{schema}"'})
        store = cls(pool, where)
        try:
            await store._prepare(schema)
        except BaseException:
            pool.terminate()
            raise
        return store

    async def create_game(self, game: GameRow) -> None:
        """Store a new game; ``GameError`` if the chat id is taken."""
        state, parts = encode_state(game.state, self._parts)
        ruleset, ruleset_parts = encode_state(self._rulesets.parted(game.ruleset), self._parts)
        parts |= ruleset_parts
        values = game_values(game, state, ruleset)
        async with self._connection("create a game") as conn, conn.transaction():
            if parts:
                await conn.execute(sql.ADD_PARTS, list(parts), list(parts.values()))
            if not _changed(await conn.execute(sql.CREATE_GAME, *values)):
                raise GameError(f"chat {game.chat!r} already has a game")
        self._parts.update(parts)
        self._games[game.chat] = True
        if (held := self._held()) is not None:
            held.owned.own(game.chat)

    async def get_game(self, chat: str) -> GameRow:
        """The game of ``chat``; ``GameError`` if there is none."""
        async with self._connection("read a game") as conn:
            r = await conn.fetchrow(sql.GET_GAME, chat)
            if r is None:
                raise GameError(f"no game for chat {chat!r}")
            self._games[chat] = True
            return game_from(chat, tuple(r), await self._state(conn, r[4]),
                             await self._ruleset(conn, r[1]))

    async def start_turn(self, chat: str, turn: int, user_text: str) -> None:
        """Create turn ``turn`` (or keep it, with its candidates, if it exists)."""
        check_turn_number(turn)
        text = encode_json(user_text, "the player's text")
        if (held := self._held()) is not None and held.owned.start(chat, turn, text):
            return
        async with self._connection("start a turn") as conn:
            if not _changed(await conn.execute(sql.START_TURN, chat, turn, text)) and (
                    await conn.fetchval(sql.HAS_GAME, chat) is None):
                raise GameError(f"no game for chat {chat!r}")
        self._games[chat] = True

    async def get_turn(self, chat: str, turn: int) -> TurnRow | None:
        """Turn ``turn`` of ``chat``, or None."""
        async with self._connection("read a turn") as conn:
            r = await conn.fetchrow(sql.GET_TURN, chat, turn)
        if r is None:
            return None
        return TurnRow(chat, turn, decode_json(r[0]), r[1], [decode_json(e) for e in r[2]])

    async def turns(self, chat: str, first: int, last: int) -> dict[int, TurnRow]:
        """Each started turn from ``first`` to ``last``."""
        async with self._connection("read turns") as conn:
            rows = await conn.fetch(sql.TURNS, chat, first, last)
        return {r[0]: TurnRow(chat, r[0], decode_json(r[1]), r[2], [decode_json(e) for e in r[3]])
                for r in rows}

    async def last_turn(self, chat: str) -> int:
        """The highest turn number started in ``chat`` (0 when none); ``GameError`` if no game."""
        async with self._connection("read the last turn") as conn:
            return await _last_turn(conn, chat)

    async def add_candidate(self, row: CandidateRow, start: Start | None = None) -> CandidateRow:
        """Store a candidate and select it, in one call; a seen key returns the stored one; a
        ``start`` that no longer holds raises ``StaleStart``."""
        row = clean_candidate(row)
        state, parts = encode_state(row.state, self._parts)
        check = (True, start.turn, start.selected, start.events) if start else (False, 0, None, 0)
        written = (encode_json(row.reply, "the reply"), encode_json(row.text, "the text"),
                   encode_json(row.records, "the records"), state)
        if (held := self._held()) is not None and (
                index := held.owned.add(row.chat, row.turn, row.key, start)) is not None:
            return await self._hold(held, row, index, written, parts)
        values = (row.key, str(row.seed), *written, list(parts), list(parts.values()), *check)
        async with self._connection("store a candidate") as conn:
            index = await conn.fetchval(sql.ADD_CANDIDATE, row.chat, row.turn, *values)
            # A key seen answers before a stale start, as in every store (the function checks the
            # start first, so a stale answer is looked at again when a key is given).
            if index == sql.KEY_SEEN or (index == sql.STALE and row.key is not None):
                found = await conn.fetchrow(sql.FIND_CANDIDATE, row.chat, row.turn, row.key)
                if found is not None:
                    return replace(await self._candidate(conn, found), replayed=True)
        if index == sql.NO_TURN:
            raise GameError(f"chat {row.chat!r} has no turn {row.turn}")
        if index == sql.STALE:
            raise StaleStart(f"turn {row.turn - 1} of chat {row.chat!r} changed since it was read")
        if parts:  # most replies bring none, and the cache's update is the generic Mapping one
            self._parts.update(parts)
        return stored_as_given(row, index)

    async def find_candidate(self, chat: str, turn: int, key: str) -> CandidateRow | None:
        """The candidate of the turn stored with ``key``, or None."""
        key = clean(key)
        async with self._connection("read candidates") as conn:
            r = await conn.fetchrow(sql.FIND_CANDIDATE, chat, turn, key)
            return None if r is None else await self._candidate(conn, r)

    async def get_candidate(self, chat: str, turn: int, index: int) -> CandidateRow:
        """One candidate; ``GameError`` if it does not exist."""
        async with self._connection("read candidates") as conn:
            r = await conn.fetchrow(sql.GET_CANDIDATE, chat, turn, index)
            if r is None:
                raise GameError(f"turn {turn} of chat {chat!r} has no candidate {index}")
            return await self._candidate(conn, r)

    async def list_candidates(self, chat: str, turn: int) -> list[CandidateRow]:
        """Every candidate of the turn, by index."""
        async with self._connection("read candidates") as conn:
            rows = await conn.fetch(sql.LIST_CANDIDATES, chat, turn)
            return [await self._candidate(conn, r) for r in rows]

    async def replies(self, chat: str, first: int, last: int) -> list[ReplyRow]:
        """Every candidate of the turns ``first`` to ``last``, by turn and index, no state."""
        async with self._connection("read replies") as conn:
            rows = await conn.fetch(sql.REPLIES, chat, first, last)
        return [ReplyRow(r[0], r[1], decode_json(r[2]), decode_json(r[3])) for r in rows]

    async def selected_candidate(self, chat: str, turn: int) -> CandidateRow | None:
        """The selected candidate of the turn, or None if it has none."""
        async with self._connection("read candidates") as conn:
            r = await conn.fetchrow(sql.SELECTED_CANDIDATE, chat, turn)
            return None if r is None else await self._candidate(conn, r)

    async def select(self, chat: str, turn: int, index: int) -> None:
        """Select candidate ``index`` of the turn; ``GameError`` if it does not exist."""
        if (held := self._held()) is not None and held.owned.select(chat, turn, index):
            return
        async with self._connection("select a candidate") as conn:
            if not _changed(await conn.execute(sql.SELECT, chat, turn, index)):
                raise GameError(f"turn {turn} of chat {chat!r} has no candidate {index}")

    async def add_event(self, chat: str, turn: int, event: JSON) -> None:
        """Append a between-turn event to the turn; ``GameError`` if the turn was not started."""
        saved = encode_json(event, "the event")
        async with self._connection("add an event") as conn:
            if not _changed(await conn.execute(sql.ADD_EVENT, chat, turn, saved)):
                raise GameError(f"chat {chat!r} has no turn {turn}")
        if (held := self._held()) is not None:
            held.owned.event_added(chat, turn)

    async def fork(self, chat: str, turn: int, new_chat: str) -> None:
        """Copy the game and its turns up to ``turn`` (inclusive) into ``new_chat``, atomically."""
        async with self._connection("fork a game") as conn, conn.transaction():
            await conn.execute(sql.FORK_LOCK, chat, turn)
            check_fork(chat, turn, await _last_turn(conn, chat), new_chat,
                       await conn.fetchval(sql.HAS_GAME, new_chat) is not None)
            if not _changed(await conn.execute(sql.FORK_GAME, new_chat, chat, turn)):
                raise GameError(f"chat {new_chat!r} already has a game")  # a racing fork won
            for statement in sql.FORK_ROWS:
                await conn.execute(statement, new_chat, chat, turn)
        if (held := self._held()) is not None:
            held.owned.fork(chat, turn, new_chat)

    @asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Writes inside are committed when the block ends, or rolled back if it raises."""
        if (held := self._held()) is not None:
            async with self._savepoint(held):
                yield
            return
        async with self._gate.hold():
            with _pg_errors("store the batch"), self._forgetting():
                async with self._pool.acquire() as conn, conn.transaction():
                    batch = _Batch(self, conn, asyncio.Lock())
                    token = _BATCHES.set((*_BATCHES.get(), batch))
                    try:
                        yield
                        async with batch.lock:
                            await _flush(batch)  # before the commit
                    finally:
                        _BATCHES.reset(token)

    async def close(self) -> None:
        """Close the pool; later calls raise ``StoreError``."""
        with _pg_errors("close the store"):
            await self._pool.close()

    async def _prepare(self, schema: str) -> None:
        """The schema and its tables, created once whoever opens first; a newer schema refused."""
        async with self._connection(f"prepare the schema at {self.where}") as conn, \
                conn.transaction():
            await conn.execute(sql.SCHEMA_LOCK)
            version = 0
            if not await conn.fetchval(sql.HAS_TABLES):
                if await conn.fetchval(sql.HAS_SCHEMA, schema) is None:
                    await conn.execute(f'CREATE SCHEMA "{schema}"')
                await conn.execute(sql.SCHEMA)
            elif (version := await conn.fetchval(sql.SCHEMA_VERSION)) > sql.VERSION:
                raise StoreError(f"{self.where} (schema {schema}) was written by a newer "
                                 f"gm-middleware (version {version}, this one reads {sql.VERSION})")
            if version < sql.VERSION:
                for _, upgrade in (step for step in sql.UPGRADES if step[0] > version):
                    await conn.execute(upgrade)
                await conn.execute(sql.SET_VERSION, sql.VERSION)

    async def _candidate(self, conn: Connection, r: Any) -> CandidateRow:
        return CandidateRow(r[0], r[1], r[2], r[3], int(r[4]), decode_json(r[5]),
                            decode_json(r[6]), decode_json(r[7]), await self._state(conn, r[8]))

    async def _state(self, conn: Connection, text: str) -> JSON:
        """A stored state's value, its fragments put back (read from the database when not
        kept)."""
        return decode_json(await self._whole(conn, text))

    async def _ruleset(self, conn: Connection, stored: str) -> JSON:
        """A game's ruleset, decoded once per stored text (its fragment read only then)."""
        known = self._rulesets.known(stored)
        return known if known is not None else \
            self._rulesets.decoded(stored, await self._whole(conn, stored))

    async def _whole(self, conn: Connection, text: str) -> str:
        """``text`` with its fragments put back (read from the database when not kept)."""
        if PART in text:
            while lacking := missing(text, self._parts):
                rows = await conn.fetch(sql.GET_PARTS, list(lacking))
                if len(rows) < len(lacking):
                    raise StoreError(f"a stored text refers to fragments the store lacks: "
                                     f"{sorted(lacking - {r[0] for r in rows})[:3]}")
                self._parts.update((r[0], r[1]) for r in rows)
            text = assemble(text, self._parts)
        return text

    @contextmanager
    def _forgetting(self) -> Iterator[None]:
        """Forget the fragments kept when the block raises: those it wrote are rolled back."""
        try:
            yield
        except BaseException:
            self._parts.clear()
            self._games.clear()
            raise

    def _held(self) -> _Batch | None:
        """This store's batch that the current task is inside, if any."""
        for batch in _BATCHES.get():  # a loop, not a generator: asked two or three times a call
            if batch.store is self:
                return batch
        return None

    def _connection(self, doing: str) -> _Call:
        """A connection for one call: the batch's (one task at a time), with what it held back
        written first, or one from the pool."""
        return _Call(self, doing)

    async def _hold(self, batch: _Batch, row: CandidateRow, index: int,
                    written: tuple[str, str, str, str], parts: dict[str, str]) -> CandidateRow:
        """Hold a candidate of a chat the batch owns back, numbered ``index``; write what is held
        when it is enough."""
        full = batch.owned.hold((row.chat, row.turn, index, row.key, str(row.seed), *written),
                                parts)
        if parts:
            self._parts.update(parts)  # forgotten with the batch if it fails (``_forgetting``)
        if full:
            async with self._connection("store candidates"):
                pass  # taking the batch's connection writes what it holds
        return stored_as_given(row, index)

    @asynccontextmanager
    async def _savepoint(self, held: _Batch) -> AsyncIterator[None]:
        """A nested batch: a savepoint on the batch's connection, undone alone if it raises."""
        with _pg_errors("store the batch"):
            async with held.lock:
                await _flush(held)  # what was held before the savepoint stays if it fails
                savepoint = held.conn.transaction()
                await savepoint.start()
            try:
                yield
            except BaseException:
                self._parts.clear()
                self._games.clear()
                async with held.lock:
                    held.owned.forget()  # held back inside the savepoint: undone with it
                    await savepoint.rollback()
                raise
            async with held.lock:
                await savepoint.commit()


class _Call:
    """``PostgresStore._connection``: a plain async context manager, as every call of the store
    enters one (an ``asynccontextmanager`` builds an async generator per call, which asyncio also
    registers, and ``_pg_errors`` is one more generator). The errors of the call, and of taking
    and giving back its connection, become ours as in ``_pg_errors``."""

    __slots__ = ("_doing", "_held", "_pooled", "_store")

    def __init__(self, store: PostgresStore, doing: str) -> None:
        self._store = store
        self._doing = doing
        self._held: _Batch | None = None
        self._pooled: Any = None  # the pool's acquire context, when the call takes a connection

    async def __aenter__(self) -> Connection:
        try:
            return await self._take()
        except _FOREIGN as exc:
            raise _failed(self._doing, exc) from exc

    async def _take(self) -> Connection:
        if (held := self._store._held()) is not None:
            await held.lock.acquire()
            try:
                await _flush(held)
            except BaseException:
                held.lock.release()
                raise
            self._held = held
            return held.conn
        await self._store._gate.wait()
        pooled = self._store._pool.acquire()
        conn: Connection = await pooled.__aenter__()
        self._pooled = pooled
        return conn

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            if self._pooled is not None:
                await self._pooled.__aexit__(kind, exc, tb)
            elif self._held is not None:
                self._held.lock.release()
        except _FOREIGN as failed:
            raise _failed(self._doing, failed) from failed
        if isinstance(exc, _FOREIGN):
            raise _failed(self._doing, exc) from exc


def _failed(doing: str, exc: BaseException) -> StoreError:
    """A foreign error (``_FOREIGN``) as ours, saying what the store could not do."""
    return StoreError(f"could not {doing}: {exc}")


async def _flush(batch: _Batch) -> None:
    """Write what the batch held back, if anything (its lock held)."""
    if batch.owned.waiting:
        await batch.conn.execute(sql.FLUSH, *_flushed(batch.owned.take()))


_NOT_STARTED = '""'
"""The player's text sent for a turn already written whose selection changes: ``FLUSH``'s upsert
keeps the stored text, so none is needed."""


def _flushed(writes: Writes) -> tuple[list[Any], ...]:
    """``FLUSH``'s arguments: fragments, turns and candidates, each as columns."""
    turns = list(writes.started.keys() | writes.selections.keys())
    candidates = [list(c) for c in zip(*writes.candidates, strict=True)] or [[]] * 9
    return (list(writes.parts), list(writes.parts.values()),
            [chat for chat, _ in turns], [number for _, number in turns],
            [writes.started.get(t, _NOT_STARTED) for t in turns],
            [writes.selections.get(t) for t in turns], *candidates)


async def _last_turn(conn: Connection, chat: str) -> int:
    last = await conn.fetchval(sql.LAST_TURN, chat)
    if last is None:
        raise GameError(f"no game for chat {chat!r}")
    return int(last)


def _changed(status: str) -> int:
    """The number of rows a command changed, from its status (``INSERT 0 1``, ``UPDATE 3``)."""
    return int(status.rsplit(" ", 1)[-1])


def _read_url(url: str) -> tuple[str, str, str]:
    """The DSN for asyncpg (without ``schema=``), the schema, and where it is (no password)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), "public")
    if not _SCHEMA_NAME.fullmatch(schema):
        raise StoreError(f"schema={schema!r}: use letters, digits and _, not starting with a digit")
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"
    return urlunsplit(parts._replace(query=rest)), schema, where
