"""The in-memory store: dicts in one process, for tests and short-lived tools (SPEC §2, §3).

JSON is kept as text, as SQLite keeps it, so what is read back is a fresh value every time and all
stores return the same thing; a state written in parts keeps its fragments once each, by key
(``codec.Parted``), and is put back together when read. Stored values are immutable, so a batch's
snapshot is a shallow copy of the tables (fragments are kept even when a batch is undone: nothing
refers to them then, and their keys say what they hold). No call awaits once it has passed the gate,
so each runs whole: it only waits while another task holds a batch (``Gate.wait``), with no lock of
its own to take and give back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import NamedTuple

from middleware.errors import GameError, StaleStart
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
    RulesetTexts,
    assemble,
    clean_candidate,
    decode_json,
    encode_json,
    encode_state,
    stored_as_given,
)
from middleware.stores.gate import Gate
from middleware.text import clean

TurnId = tuple[str, int]


# The stored rows are named tuples: immutable like the rest, and built in C, where a frozen
# dataclass sets each field through ``object.__setattr__`` (two rows are built per candidate).


class _Game(NamedTuple):
    ruleset_id: str
    ruleset: str
    seed: int
    options: str
    state: str
    parent: str | None
    forked_at: int | None


class _Turn(NamedTuple):
    user_text: str
    selected: int | None = None
    events: tuple[str, ...] = ()


class _Candidate(NamedTuple):
    key: str | None
    seed: int
    reply: str
    text: str
    records: str
    state: str


@dataclass(frozen=True, slots=True)
class _Tables:
    games: dict[str, _Game]
    turns: dict[TurnId, _Turn]
    candidates: dict[TurnId, tuple[_Candidate, ...]]
    last: dict[str, int]

    def copy(self) -> _Tables:
        return _Tables(dict(self.games), dict(self.turns), dict(self.candidates), dict(self.last))


class MemoryStore:
    """A ``Store`` in dicts; every call sees the writes before it, batches roll back on error."""

    def __init__(self) -> None:
        self._t = _Tables({}, {}, {}, {})
        self._parts: dict[str, str] = {}
        self._gate = Gate()
        self._rulesets = RulesetTexts()

    async def create_game(self, game: GameRow) -> None:
        """Store a new game; ``GameError`` if the chat id is taken."""
        state, parts = encode_state(game.state, self._parts)
        saved = _Game(game.ruleset_id, self._rulesets.encoded(game.ruleset), game.seed,
                      encode_json(game.options, "the options"), state, game.parent,
                      game.forked_at)
        await self._gate.wait()
        if game.chat in self._t.games:
            raise GameError(f"chat {game.chat!r} already has a game")
        self._parts.update(parts)
        self._t.games[game.chat] = saved
        self._t.last[game.chat] = 0

    async def get_game(self, chat: str) -> GameRow:
        """The game of ``chat``; ``GameError`` if there is none."""
        await self._gate.wait()
        g = self._game(chat)
        return GameRow(chat, g.ruleset_id, self._rulesets.decoded(g.ruleset), g.seed,
                       decode_json(g.options),
                       self._state(g.state), g.parent, g.forked_at)

    async def start_turn(self, chat: str, turn: int, user_text: str) -> None:
        """Create turn ``turn`` (or keep it, with its candidates, if it exists)."""
        check_turn_number(turn)
        user_text = clean(user_text)
        await self._gate.wait()
        self._game(chat)
        if (chat, turn) not in self._t.turns:
            self._t.turns[(chat, turn)] = _Turn(user_text)
            self._t.last[chat] = max(self._t.last[chat], turn)

    async def get_turn(self, chat: str, turn: int) -> TurnRow | None:
        """Turn ``turn`` of ``chat``, or None."""
        await self._gate.wait()
        row = self._t.turns.get((chat, turn))
        if row is None:
            return None
        events = [decode_json(e) for e in row.events]
        return TurnRow(chat, turn, row.user_text, row.selected, events)

    async def turns(self, chat: str, first: int, last: int) -> dict[int, TurnRow]:
        """Each started turn from ``first`` to ``last``."""
        await self._gate.wait()
        turns = self._t.turns
        return {turn: TurnRow(chat, turn, row.user_text, row.selected,
                              [decode_json(e) for e in row.events])
                for turn in range(max(first, 1), last + 1)
                if (row := turns.get((chat, turn))) is not None}

    async def last_turn(self, chat: str) -> int:
        """The highest turn number started in ``chat`` (0 when none); ``GameError`` if no game."""
        await self._gate.wait()
        self._game(chat)
        return self._t.last[chat]

    async def add_candidate(self, row: CandidateRow, start: Start | None = None) -> CandidateRow:
        """Store a candidate and select it; a key seen on the turn returns the stored one; a
        ``start`` that no longer holds raises ``StaleStart`` and stores nothing."""
        row = clean_candidate(row)
        state, parts = encode_state(row.state, self._parts)
        saved = _Candidate(row.key, row.seed, row.reply, row.text,
                           encode_json(row.records, "the records"), state)
        await self._gate.wait()
        where = (row.chat, row.turn)
        turn = self._turn(*where)
        stored = self._t.candidates.get(where, ())
        if row.key is not None and (index := _keyed(stored, row.key)) is not None:
            return replace(self._row(row.chat, row.turn, index, stored[index]), replayed=True)
        if start is not None:
            self._check(row.chat, row.turn, start)
        self._parts.update(parts)
        self._t.candidates[where] = (*stored, saved)
        self._t.turns[where] = _Turn(turn.user_text, len(stored), turn.events)
        return stored_as_given(row, len(stored))

    async def find_candidate(self, chat: str, turn: int, key: str) -> CandidateRow | None:
        """The candidate of the turn stored with ``key``, or None."""
        key = clean(key)
        await self._gate.wait()
        stored = self._t.candidates.get((chat, turn), ())
        index = _keyed(stored, key)
        return None if index is None else self._row(chat, turn, index, stored[index])

    async def get_candidate(self, chat: str, turn: int, index: int) -> CandidateRow:
        """One candidate; ``GameError`` if it does not exist."""
        await self._gate.wait()
        return self._row(chat, turn, index, self._candidate(chat, turn, index))

    async def list_candidates(self, chat: str, turn: int) -> list[CandidateRow]:
        """Every candidate of the turn, by index."""
        await self._gate.wait()
        stored = self._t.candidates.get((chat, turn), ())
        return [self._row(chat, turn, i, known) for i, known in enumerate(stored)]

    async def replies(self, chat: str, first: int, last: int) -> list[ReplyRow]:
        """Every candidate of the turns ``first`` to ``last``, by turn and index, no state."""
        await self._gate.wait()
        candidates = self._t.candidates
        return [ReplyRow(turn, index, saved.text, decode_json(saved.records))
                for turn in range(max(first, 1), last + 1)
                for index, saved in enumerate(candidates.get((chat, turn), ()))]

    async def selected_candidate(self, chat: str, turn: int) -> CandidateRow | None:
        """The selected candidate of the turn, or None if it has none."""
        await self._gate.wait()
        row = self._t.turns.get((chat, turn))
        if row is None or row.selected is None:
            return None
        return self._row(chat, turn, row.selected, self._candidate(chat, turn, row.selected))

    async def select(self, chat: str, turn: int, index: int) -> None:
        """Select candidate ``index`` of the turn; ``GameError`` if it does not exist."""
        await self._gate.wait()
        self._candidate(chat, turn, index)
        self._t.turns[(chat, turn)] = self._turn(chat, turn)._replace(selected=index)

    async def add_event(self, chat: str, turn: int, event: JSON) -> None:
        """Append a between-turn event to the turn; ``GameError`` if the turn was not started."""
        saved = encode_json(event, "the event")
        await self._gate.wait()
        row = self._turn(chat, turn)
        self._t.turns[(chat, turn)] = row._replace(events=(*row.events, saved))

    async def fork(self, chat: str, turn: int, new_chat: str) -> None:
        """Copy the game and its turns up to ``turn`` (inclusive) into ``new_chat``."""
        await self._gate.wait()
        game = self._game(chat)
        check_fork(chat, turn, self._t.last[chat], new_chat, new_chat in self._t.games)
        self._t.games[new_chat] = game._replace(parent=chat, forked_at=turn)
        copied = [n for n in range(1, turn + 1) if (chat, n) in self._t.turns]
        self._t.last[new_chat] = max(copied, default=0)  # the highest turn started, as copied
        for n in copied:
            self._t.turns[(new_chat, n)] = self._t.turns[(chat, n)]
            self._t.candidates[(new_chat, n)] = self._t.candidates.get((chat, n), ())

    @asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Writes inside are kept when the block ends, or undone if it raises."""
        async with self._gate.hold():
            before = self._t.copy()
            try:
                yield
            except BaseException:
                self._t = before
                raise

    async def close(self) -> None:
        """Nothing to release."""

    def _check(self, chat: str, turn: int, start: Start) -> None:
        """``StaleStart`` unless the turn before ``turn`` stands as ``start`` says."""
        if turn - 1 != start.turn:
            raise StaleStart(f"turn {turn} does not start after turn {start.turn}")
        before = self._t.turns.get((chat, start.turn))
        if before is None or (before.selected, len(before.events)) != start.as_read:
            raise StaleStart(f"turn {start.turn} of chat {chat!r} changed since it was read")

    def _row(self, chat: str, turn: int, index: int, saved: _Candidate) -> CandidateRow:
        return CandidateRow(chat, turn, index, saved.key, saved.seed, saved.reply, saved.text,
                            decode_json(saved.records), self._state(saved.state))

    def _state(self, text: str) -> JSON:
        return decode_json(assemble(text, self._parts))

    def _game(self, chat: str) -> _Game:
        if (game := self._t.games.get(chat)) is None:
            raise GameError(f"no game for chat {chat!r}")
        return game

    def _turn(self, chat: str, turn: int) -> _Turn:
        if (row := self._t.turns.get((chat, turn))) is None:
            raise GameError(f"chat {chat!r} has no turn {turn}")
        return row

    def _candidate(self, chat: str, turn: int, index: int) -> _Candidate:
        stored = self._t.candidates.get((chat, turn), ())
        if not 0 <= index < len(stored):
            raise GameError(f"turn {turn} of chat {chat!r} has no candidate {index}")
        return stored[index]


def _keyed(stored: tuple[_Candidate, ...], key: str) -> int | None:
    """The index of the candidate stored with retry ``key``, or None."""
    return next((index for index, known in enumerate(stored) if known.key == key), None)
