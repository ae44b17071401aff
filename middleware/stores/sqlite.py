"""The SQLite store, the default: one file, WAL, one transaction per candidate (SPEC §2, §3).

Speed: one connection opened once, statements the ``sqlite3`` module keeps prepared, each call one
statement where it can, and statements run on the event loop's own thread. A trip to a database
thread (aiosqlite) costs about 55 µs, several times what these statements take in WAL mode with
``synchronous=NORMAL``, and a replay makes several calls per turn. The loop is never made to wait
for another process: SQLite is told not to wait for locks, and a busy file is retried after an
``asyncio.sleep``, for up to about five seconds.

``add_candidate`` is a single INSERT: SQLite takes the write lock before the statement reads, so the
next index is counted, the row written and (by a trigger) the turn's selection updated in one
transaction that is stored whole or not at all; when its state brings fragments the file lacks
(``codec.Parted``), they are written in the same transaction. It never reads back what it wrote.
Fragments read or written are kept in memory (they never change), so a state is put back together
with at most one query per level of fragments, and usually none. ``fork`` and ``batch`` are explicit
transactions (savepoints when nested). Every ``sqlite3`` error becomes ours in ``_sqlite_errors``.

A batch holds the file's write lock until it ends, so the games it creates are its own: their
turns' starts, candidates and selections are numbered and checked by the batch and held back
(``held``), then written many rows to a statement before any other statement runs, or when
``FLUSH_AT`` candidates wait. Run one at a time, each of a replay's inserts cost about three times
what it costs among its like: the rest of a turn's work leaves SQLite's pages out of the caches.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, nullcontext
from dataclasses import replace
from typing import Any

from cachetools import LRUCache

from middleware.errors import GameError, StaleStart, StoreError
from middleware.stores import sql
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
    KEY_CHARS,
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
from middleware.stores.held import OwnedChats
from middleware.text import clean

Row = Sequence[Any]

PARTS_KEPT = 2048
"""Fragments of states kept in memory once read or written: each a character or a run of about 32
bag stacks (about 6 KB), so about 12 MB at most; a state of a 1,000-stack bag has 33."""


_UNBOUND = (OverflowError, UnicodeEncodeError)
"""What ``sqlite3`` raises, outside its own errors, for a parameter it cannot bind."""


@contextmanager
def _sqlite_errors(doing: str, missing: str | None = None) -> Iterator[None]:
    """Map SQLite's errors to ``StoreError`` (a missing parent row to ``GameError(missing)``),
    and the two ``sqlite3`` raises outside its own for a value it cannot bind, as PostgreSQL's
    store maps asyncpg's: an int past 64 bits (a transcript's select of candidate 10**30), a
    lone surrogate in a chat id given to the Python API."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if missing is not None and "FOREIGN KEY" in str(exc):
            raise GameError(missing) from exc
        raise StoreError(f"could not {doing}: {exc}") from exc
    except (*_UNBOUND, sqlite3.Error) as exc:
        raise StoreError(f"could not {doing}: {exc}") from exc


# Waits between tries while another process holds the file: about five seconds in all.
_BUSY_WAITS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, *(0.1,) * 48)


def _busy(exc: BaseException | None) -> bool:
    """Whether SQLite refused because another connection holds a lock (worth trying again)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and code is not None and code & 0xFF in (5, 6)


def _start(start: Start) -> tuple[int, int | None, int]:
    return start.turn, start.selected, start.events


_NO_TRANSACTION = nullcontext()
"""What a candidate without new fragments runs in: nothing, its one statement is atomic alone.
A plain context manager, reused: an ``asynccontextmanager`` builds an async generator per call,
which asyncio also registers, and that cost more than the rest of the call around the statement."""


class SQLiteStore:
    """A ``Store`` in one SQLite file; open it with ``await SQLiteStore.open(path)``."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self._db = db
        self._cursor = db.cursor()
        """Every statement of ``_run`` goes through this one cursor (its rows are fetched before
        the next runs): ``Connection.execute`` makes a cursor per statement."""
        self.path = path
        self._gate = Gate()
        self._parts: LRUCache[str, str] = LRUCache(maxsize=PARTS_KEPT)
        self._rulesets = RulesetTexts()
        self._owned: OwnedChats | None = None
        """The open batch's games and what it holds back of them; only the batch's tasks pass the
        gate while it is set."""

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SQLiteStore:
        """Open (or create) the store file, in WAL mode, with its schema."""
        where = os.fspath(path)
        with _sqlite_errors(f"open {where}"):
            db = sqlite3.connect(where, isolation_level=None)
        store = cls(db, where)
        try:
            store._prepare()
        except BaseException:
            db.close()
            raise
        return store

    async def create_game(self, game: GameRow) -> None:
        """Store a new game; ``GameError`` if the chat id is taken."""
        state, parts = encode_state(game.state, self._parts)
        ruleset, ruleset_parts = encode_state(self._rulesets.parted(game.ruleset), self._parts)
        parts |= ruleset_parts
        values = game_values(game, state, ruleset)
        async with self._gate.one(), self._atomic():
            await self._add_parts(parts)
            if not await self._change(sql.CREATE_GAME, values, "create a game"):
                raise GameError(f"chat {game.chat!r} already has a game")
        self._parts.update(parts)
        if self._owned is not None:
            self._owned.own(game.chat)

    async def get_game(self, chat: str) -> GameRow:
        """The game of ``chat``; ``GameError`` if there is none."""
        async with self._gate.one():
            rows = await self._rows(sql.GET_GAME, (chat,), "read a game")
        if not rows:
            raise GameError(f"no game for chat {chat!r}")
        r = rows[0]
        return game_from(chat, r, await self._state(r[4]), await self._ruleset(r[1]))

    async def start_turn(self, chat: str, turn: int, user_text: str) -> None:
        """Create turn ``turn`` (or keep it, with its candidates, if it exists)."""
        check_turn_number(turn)
        user_text = clean(user_text)
        owned = self._batch_here()
        if owned is not None and owned.start(chat, turn, user_text):
            return
        async with self._gate.one():
            await self._change(sql.START_TURN, (chat, turn, user_text), "start a turn",
                               missing=f"no game for chat {chat!r}")

    async def get_turn(self, chat: str, turn: int) -> TurnRow | None:
        """Turn ``turn`` of ``chat``, or None."""
        async with self._gate.one():
            rows = await self._rows(sql.GET_TURN, (chat, turn), "read a turn")
        if not rows:
            return None
        user_text, selected, events = rows[0]
        return TurnRow(chat, turn, user_text, selected, decode_json(events))

    async def turns(self, chat: str, first: int, last: int) -> dict[int, TurnRow]:
        """Each started turn from ``first`` to ``last``."""
        async with self._gate.one():
            rows = await self._rows(sql.TURNS, (chat, first, last), "read turns")
        return {turn: TurnRow(chat, turn, user_text, selected, decode_json(events))
                for turn, user_text, selected, events in rows}

    async def last_turn(self, chat: str) -> int:
        """The highest turn number started in ``chat`` (0 when none); ``GameError`` if no game."""
        async with self._gate.one():
            return await self._last_turn(chat)

    async def add_candidate(self, row: CandidateRow, start: Start | None = None) -> CandidateRow:
        """Store a candidate and select it, in one statement (with the fragments its state brings,
        in one transaction); a seen key returns the stored one; a ``start`` that no longer holds
        raises ``StaleStart``."""
        row = clean_candidate(row)
        state, parts = encode_state(row.state, self._parts)
        records = encode_json(row.records, "the records")
        owned = self._batch_here()
        if owned is not None and (index := owned.add(row.chat, row.turn, row.key, start)) is not None:
            return self._hold(owned, row, index, (records, state), parts)
        values: tuple[Any, ...] = (row.chat, row.turn, row.key, str(row.seed), row.reply,
                                   row.text, records, state)
        statement = sql.ADD_CANDIDATE
        if start is not None:
            statement, values = sql.ADD_CANDIDATE_AFTER, (*values, *_start(start))
        no_turn = f"chat {row.chat!r} has no turn {row.turn}"
        async with self._gate.one():
            async with self._atomic() if parts else _NO_TRANSACTION:
                await self._add_parts(parts)
                added, _ = await self._run(statement, values, "store a candidate", no_turn)
            if added:
                if parts:  # most replies bring none, and the cache's update is the generic one
                    self._parts.update(parts)
                return stored_as_given(row, added[0][0])
            found = [] if row.key is None else await self._candidates(
                sql.FIND_CANDIDATE, (row.chat, row.turn, row.key))
            # Nothing stored on a start that does not hold: a missing turn says so first, as in
            # every store (the statement's start check runs before the turn's foreign key).
            if not found and not await self._rows(sql.GET_TURN, (row.chat, row.turn),
                                                  "read a turn"):
                raise GameError(no_turn)
        if not found:
            raise StaleStart(f"turn {row.turn - 1} of chat {row.chat!r} changed since it was read")
        return replace(found[0], replayed=True)

    async def find_candidate(self, chat: str, turn: int, key: str) -> CandidateRow | None:
        """The candidate of the turn stored with ``key``, or None."""
        key = clean(key)
        async with self._gate.one():
            found = await self._candidates(sql.FIND_CANDIDATE, (chat, turn, key))
        return found[0] if found else None

    async def get_candidate(self, chat: str, turn: int, index: int) -> CandidateRow:
        """One candidate; ``GameError`` if it does not exist."""
        async with self._gate.one():
            found = await self._candidates(sql.GET_CANDIDATE, (chat, turn, index))
        if not found:
            raise GameError(f"turn {turn} of chat {chat!r} has no candidate {index}")
        return found[0]

    async def list_candidates(self, chat: str, turn: int) -> list[CandidateRow]:
        """Every candidate of the turn, by index."""
        async with self._gate.one():
            return await self._candidates(sql.LIST_CANDIDATES, (chat, turn))

    async def replies(self, chat: str, first: int, last: int) -> list[ReplyRow]:
        """Every candidate of the turns ``first`` to ``last``, by turn and index, no state."""
        async with self._gate.one():
            rows = await self._rows(sql.REPLIES, (chat, first, last), "read replies")
        return [ReplyRow(turn, index, text, decode_json(records))
                for turn, index, text, records in rows]

    async def selected_candidate(self, chat: str, turn: int) -> CandidateRow | None:
        """The selected candidate of the turn, or None if it has none."""
        async with self._gate.one():
            found = await self._candidates(sql.SELECTED_CANDIDATE, (chat, turn))
        return found[0] if found else None

    async def select(self, chat: str, turn: int, index: int) -> None:
        """Select candidate ``index`` of the turn; ``GameError`` if it does not exist."""
        async with self._gate.one():
            if self._owned is not None and self._owned.select(chat, turn, index):
                return
            if not await self._change(sql.SELECT, (chat, turn, index), "select a candidate"):
                raise GameError(f"turn {turn} of chat {chat!r} has no candidate {index}")

    async def add_event(self, chat: str, turn: int, event: JSON) -> None:
        """Append a between-turn event to the turn; ``GameError`` if the turn was not started."""
        values = (chat, turn, encode_json(event, "the event"))
        async with self._gate.one():
            if not await self._change(sql.ADD_EVENT, values, "add an event"):
                raise GameError(f"chat {chat!r} has no turn {turn}")
            if self._owned is not None:
                self._owned.event_added(chat, turn)

    async def fork(self, chat: str, turn: int, new_chat: str) -> None:
        """Copy the game and its turns up to ``turn`` (inclusive) into ``new_chat``, atomically."""
        async with self._gate.one(), self._atomic():
            last = await self._last_turn(chat)
            taken = await self._rows(sql.HAS_GAME, (new_chat,), "read a game")
            check_fork(chat, turn, last, new_chat, bool(taken))
            for statement in sql.FORK:
                await self._change(statement, (new_chat, chat, turn), "fork a game")
            if self._owned is not None:
                self._owned.fork(chat, turn, new_chat)

    @asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Writes inside are committed when the block ends, or rolled back if it raises (what a
        nested batch held back is dropped with it, and its games are written as any other)."""
        async with self._gate.hold():
            outer = self._owned is None
            if outer:
                self._owned = OwnedChats()
            try:
                async with self._atomic():  # its commit, as every statement, writes what is held
                    try:
                        yield
                    except BaseException:
                        if self._owned is not None:
                            self._owned.forget()
                        raise
            finally:
                if outer:
                    self._owned = None

    async def close(self) -> None:
        """Close the connection; later calls raise ``StoreError``."""
        with _sqlite_errors("close the store"):
            self._db.close()

    def _prepare(self) -> None:
        with _sqlite_errors(f"prepare {self.path}"):
            self._db.executescript(sql.PRAGMAS)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > sql.VERSION:
                raise StoreError(f"{self.path} was written by a newer gm-middleware "
                                 f"(schema {version}, this one reads {sql.VERSION})")
            self._db.executescript(sql.SCHEMA)
            self._db.execute("PRAGMA busy_timeout = 0")  # from here on, _run waits instead

    async def _last_turn(self, chat: str) -> int:
        rows = await self._rows(sql.LAST_TURN, (chat,), "read the last turn")
        if not rows:
            raise GameError(f"no game for chat {chat!r}")
        return int(rows[0][0])

    async def _candidates(self, statement: str, params: Row) -> list[CandidateRow]:
        rows = await self._rows(statement, params, "read candidates")
        return [CandidateRow(r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6], decode_json(r[7]),
                             await self._state(r[8])) for r in rows]

    async def _state(self, text: str) -> JSON:
        """A stored state's value, its fragments put back (read from the file when not kept)."""
        return decode_json(await self._whole(text))

    async def _ruleset(self, stored: str) -> JSON:
        """A game's ruleset, decoded once per stored text (its fragment read only then)."""
        known = self._rulesets.known(stored)
        return known if known is not None else \
            self._rulesets.decoded(stored, await self._whole(stored))

    async def _whole(self, text: str) -> str:
        """``text`` with its fragments put back (read from the file when not kept)."""
        if PART in text:
            while lacking := missing(text, self._parts):
                rows = await self._rows(sql.get_parts(len(lacking)), tuple(lacking),
                                        "read a state")
                if len(rows) < len(lacking):
                    raise StoreError(f"a stored text refers to fragments the store lacks: "
                                     f"{sorted(lacking - {r[0] for r in rows})[:3]}")
                self._parts.update((r[0], r[1]) for r in rows)
            text = assemble(text, self._parts)
        return text

    def _batch_here(self) -> OwnedChats | None:
        """The open batch's chats when this task holds the batch, else None. Its tasks pass the
        gate without waiting, and a task that waits finds no batch open once it passes, so a turn
        the batch starts or a candidate it holds back needs no pass through the gate: two of them
        a replayed turn, about 0.7 µs each."""
        return self._owned if self._owned is not None and self._gate.held() else None

    def _hold(self, owned: OwnedChats, row: CandidateRow, index: int, written: Row,
              parts: dict[str, str]) -> CandidateRow:
        """Hold a candidate of a game the batch owns back, numbered ``index`` (``written``: its
        records and state as stored); write what is held when it is enough."""
        full = owned.hold((row.chat, row.turn, index, row.key, str(row.seed), row.reply,
                           row.text, *written), parts)
        if parts:
            self._parts.update(parts)  # forgotten if the batch is undone (``_undo``)
        if full:
            self._write_held()
        return stored_as_given(row, index)

    def _write_held(self) -> None:
        """Write what the batch holds back, if anything, each kind of row in one statement."""
        if self._owned is None or not self._owned.waiting:
            return
        writes = self._owned.take()
        last = {(c[0], c[1]): c[2] for c in writes.candidates}  # each turn's newest, selected
        with _sqlite_errors("store the batch"):
            self._cursor.executemany(sql.ADD_PART, writes.parts.items())
            self._cursor.executemany(sql.HELD_TURN, ((chat, turn, text) for (chat, turn), text
                                                     in writes.started.items()))
            self._cursor.executemany(sql.HELD_CANDIDATE, writes.candidates)
            self._cursor.executemany(sql.HELD_SELECTION, (
                (index, chat, turn) for (chat, turn), index in writes.selections.items()
                if last.get((chat, turn)) != index))

    async def _add_parts(self, parts: dict[str, str]) -> None:
        for key, body in parts.items():
            assert len(key) == KEY_CHARS
            await self._change(sql.ADD_PART, (key, body), "store a state")

    async def _rows(self, statement: str, params: Row, doing: str) -> list[Row]:
        return (await self._run(statement, params, doing))[0]

    async def _change(self, statement: str, params: Row, doing: str,
                      missing: str | None = None) -> int:
        """Run one write; the number of rows it changed."""
        return (await self._run(statement, params, doing, missing))[1]

    async def _run(self, statement: str, params: Row, doing: str,
                   missing: str | None = None) -> tuple[list[Row], int]:
        """One statement: its rows and the number changed; sleeps while the file is busy.

        The statement runs outside ``_sqlite_errors``, entered only to map an error: every call
        of the store passes here, and a generator-based context manager per statement cost about
        as much as a short statement."""
        if self._owned is not None:  # in a batch: what it holds back goes first
            self._write_held()
        waits = iter(_BUSY_WAITS)
        while True:
            try:
                cursor = self._cursor.execute(statement, params)
                return cursor.fetchall(), cursor.rowcount
            except (*_UNBOUND, sqlite3.Error) as exc:
                if not _busy(exc) or (wait := next(waits, None)) is None:
                    with _sqlite_errors(doing, missing):
                        raise
            await asyncio.sleep(wait)

    @asynccontextmanager
    async def _atomic(self) -> AsyncIterator[None]:
        """One transaction, or a savepoint inside the batch already open."""
        begin, commit, undo = sql.SAVEPOINT if self._db.in_transaction else sql.TRANSACTION
        await self._change(begin, (), "begin a transaction")
        try:
            yield
            await self._change(commit, (), "commit")
        except BaseException:
            self._undo(undo)
            raise

    def _undo(self, statements: Sequence[str]) -> None:
        self._parts.clear()  # fragments written in what is undone are gone
        # The error that brought us here says more than a failed rollback would.
        try:
            for statement in statements:
                self._db.execute(statement)
        except sqlite3.Error:
            pass
