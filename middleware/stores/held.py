"""What a batch holds back for the chats it created (SQLite's and PostgreSQL's ``batch``).

A game created inside a batch (or forked inside it) is seen by no other connection until the batch
commits (SQLite's batch holds the file's write lock; PostgreSQL shows no one rows before their
commit), and this process's other tasks wait for the batch. So the store knows every turn of such a
chat as well as the database does, and the batch can number its candidates, check a writer's start
and start its turns itself, and write what it held back together: a replay writes a few hundred
turns per trip to the database, where it made one or two trips a turn.

Anything the store is not sure of goes to the database as it would outside a batch: a key seen
before, a start that no longer holds, a turn that was not started (the database gives the answer,
with everything held written first), and every statement other than the three held here writes what
is held before it runs, so every read sees every write before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from middleware.stores.base import Start

FLUSH_AT = 256
"""Candidates held back before they are written (a flush is one statement; its arrays grow with
this, and a replay's batch holds about this many replies' text in memory)."""

KEPT_TURNS = 1024
"""The newest turns of each chat the batch keeps count of: a replay plays on at its newest turn,
and a batch of a million turns would otherwise keep a million counts. What is written to an older
turn (a fork far back) goes to the database as in a chat the batch does not own."""


@dataclass(slots=True)
class _Turn:
    """A turn of a chat the batch owns, as the database holds it (or will, once flushed)."""

    candidates: int = 0
    selected: int | None = None
    events: int = 0
    keys: set[str] | None = None
    """The retry keys of its candidates (most turns have none: made when the first comes)."""

    def copy(self) -> _Turn:
        return _Turn(self.candidates, self.selected, self.events,
                     None if self.keys is None else set(self.keys))


CandidateValues = tuple[str, int, int, str | None, str, str, str, str, str]
"""A candidate row as the store writes it: chat, turn, index, key, seed (as text), and the reply,
text, records and state as the store keeps them (PostgreSQL keeps the reply and text as JSON)."""


@dataclass(slots=True, eq=False)
class OwnedChats:
    """The chats a batch owns, their turns, and the writes not yet sent."""

    chats: dict[str, int] = field(default_factory=dict)
    """Each chat owned, with the turn at and below which it keeps no count (``KEPT_TURNS``)."""
    turns: dict[tuple[str, int], _Turn] = field(default_factory=dict)
    started: dict[tuple[str, int], str] = field(default_factory=dict)
    """Turns started and not yet written: the player's text as JSON."""
    selections: dict[tuple[str, int], int] = field(default_factory=dict)
    candidates: list[CandidateValues] = field(default_factory=list)
    parts: dict[str, str] = field(default_factory=dict)
    trim_at: int = field(default_factory=lambda: 2 * KEPT_TURNS)
    """How many turns counted make ``start`` keep only the newest of each chat."""

    @property
    def waiting(self) -> bool:
        return bool(self.started or self.selections)  # every candidate held selects its turn


    def own(self, chat: str) -> None:
        """``chat``'s game was created in this batch: it has no turns yet."""
        self.chats[chat] = 0

    def fork(self, chat: str, last: int, new_chat: str) -> None:
        """``new_chat`` was forked in this batch from ``chat``'s turns up to ``last``: owned when
        ``chat`` is, its turns as they stand."""
        if chat not in self.chats:
            return
        self.chats[new_chat] = self.chats[chat]  # the turns not counted stay uncounted
        for (of, number), turn in list(self.turns.items()):
            if of == chat and number <= last:
                self.turns[new_chat, number] = turn.copy()

    def start(self, chat: str, turn: int, user_text: str) -> bool:
        """Start the turn (kept as it is if it exists); False for a chat the batch does not own."""
        uncounted = self.chats.get(chat)
        if uncounted is None or turn <= uncounted:
            return False
        if (chat, turn) not in self.turns:
            self.turns[chat, turn] = _Turn()
            self.started[chat, turn] = user_text
            if len(self.turns) > self.trim_at:
                self._trim()
        return True

    def add(self, chat: str, turn: int, key: str | None, start: Start | None) -> int | None:
        """The index of a new candidate of an owned turn, selected; None when the database must
        decide (the chat not owned, the turn not started, the key seen, ``start`` stale)."""
        held = self.turns.get((chat, turn))
        if held is None or (key is not None and held.keys is not None and key in held.keys):
            return None
        if start is not None:
            before = self.turns.get((chat, start.turn))
            if before is None or (before.selected, before.events) != start.as_read:
                return None
        index = held.candidates
        held.candidates, held.selected = index + 1, index
        if key is not None:
            if held.keys is None:
                held.keys = set()
            held.keys.add(key)
        self.selections[chat, turn] = index
        return index

    def hold(self, candidate: CandidateValues, parts: Mapping[str, str]) -> bool:
        """Hold back a candidate numbered by ``add``, with the fragments its state brings the
        store; whether ``FLUSH_AT`` candidates now wait to be written."""
        self.candidates.append(candidate)
        self.parts.update(parts)
        return len(self.candidates) >= FLUSH_AT

    def select(self, chat: str, turn: int, index: int) -> bool:
        """Select a candidate of an owned turn; False when the database must answer (the turn
        not owned, or no such candidate: a ``GameError``)."""
        held = self.turns.get((chat, turn))
        if held is None or not 0 <= index < held.candidates:
            return False
        held.selected = self.selections[chat, turn] = index
        return True

    def event_added(self, chat: str, turn: int) -> None:
        """The database stored an event on the turn (an owned one counts it)."""
        held = self.turns.get((chat, turn))
        if held is not None:
            held.events += 1

    def _trim(self) -> None:
        """Keep count of each chat's newest ``KEPT_TURNS`` turns only (writes held for the others
        stay held: they are written with the rest)."""
        newest: dict[str, int] = {}
        for chat, number in self.turns:
            newest[chat] = max(newest.get(chat, 0), number)
        for chat, number in newest.items():
            self.chats[chat] = max(self.chats[chat], number - KEPT_TURNS)
        self.turns = {(chat, number): turn for (chat, number), turn in self.turns.items()
                      if number > self.chats[chat]}
        self.trim_at = max(2 * KEPT_TURNS, 2 * len(self.turns))

    def forget(self) -> None:
        """A savepoint was rolled back: what it held is gone, and the turns written inside it
        are no longer known for sure, so the chats are written as any other from here on."""
        self.chats.clear()
        self.turns.clear()
        self.started.clear()
        self.selections.clear()
        self.candidates.clear()
        self.parts.clear()

    def take(self) -> Writes:
        """The held writes, and nothing held any more."""
        writes = Writes(self.parts, self.started, self.selections, self.candidates)
        self.parts, self.started, self.selections, self.candidates = {}, {}, {}, []
        return writes


@dataclass(frozen=True, slots=True)
class Writes:
    """What a batch held back, to be written in this order: fragments, turns started (the
    player's text as JSON), candidates (each selecting its turn), then each turn's selection as
    it stands (``selections``: every turn whose selection was set since the last writes)."""

    parts: dict[str, str]
    started: dict[tuple[str, int], str]
    selections: dict[tuple[str, int], int]
    candidates: list[CandidateValues]
