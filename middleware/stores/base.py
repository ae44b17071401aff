"""The one async interface every store implements (SPEC §2, §3).

A store keeps games, turns and candidates. It knows nothing of rules: states and records are JSON
values it saves and gives back. The pipeline is its only caller.

Guarantees every store gives (the shared suite in ``tests/stores`` checks them):
- ``add_candidate`` is one transaction: the candidate, its index and the turn's selection are stored
  together or not at all. A key already seen on that turn returns the stored candidate unchanged.
- Candidate indexes of a turn are 0, 1, 2 ... in the order stored, even with several writers.
- Every row read back equals the row written (JSON round trip). ``add_candidate`` returns the row
  with its records and state as given, not read back.
- Inside ``batch()`` every write is kept together at the end of the block, or none if it raises.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from middleware.errors import GameError

JSON = Any


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as created: its chat id, ruleset (id and the file's JSON), seed, options, S(0).

    A store gives the games that hold the same ruleset text one decoded ``ruleset`` between them
    (read it; never change it): a proxy's chats all play one ruleset, and decoding it again for
    each game read back was a third of the proxy's time under load, and a copy per game held."""

    chat: str
    ruleset_id: str
    ruleset: JSON
    seed: int
    options: dict[str, JSON]
    state: JSON
    parent: str | None = None
    forked_at: int | None = None


@dataclass(frozen=True, slots=True)
class CandidateRow:
    """One Game Master reply for a turn, resolved: what came in, what went out, the state after.

    ``index`` is -1 on a row not yet stored; the store assigns it. ``records`` is a JSON list; on a
    row being stored, it and ``state`` may come already written as text (``codec.Encoded``).
    """

    chat: str
    turn: int
    index: int
    key: str | None
    seed: int
    reply: str
    text: str
    records: JSON
    state: JSON
    replayed: bool = field(default=False, compare=False)
    """Set on the row ``add_candidate`` returns when its key was already stored and nothing was
    written: the answer is a stored one (SPEC §3), however many writers raced for the key."""


@dataclass(frozen=True, slots=True)
class ReplyRow:
    """A stored candidate as a chat shows it: its turn and index, its text and records, and not
    its state (which a store would read and decode)."""

    turn: int
    index: int
    text: str
    records: JSON


class Start(NamedTuple):
    """The turn a candidate's state starts from, as the writer read it: its number, the candidate
    it had selected and how many events it held. ``add_candidate`` stores nothing (``StaleStart``)
    when the store no longer holds that turn so, and checks it in the same step as it writes.

    A named tuple, not a frozen dataclass: the engine builds one per reply, and a frozen dataclass
    sets each field through ``object.__setattr__``."""

    turn: int
    selected: int | None
    events: int

    @property
    def as_read(self) -> tuple[int | None, int]:
        return self.selected, self.events


@dataclass(frozen=True, slots=True)
class TurnRow:
    """A turn: the player's text, which candidate is selected, and between-turn events after it."""

    chat: str
    turn: int
    user_text: str
    selected: int | None = None
    events: list[JSON] = field(default_factory=list)

    @property
    def said(self) -> str:
        """The player's message as last said: the newest ``said`` event's text (a bot keeps its
        lines so; the proxy, a message rewritten before the model answered it), else
        ``user_text``."""
        for event in reversed(self.events):
            if isinstance(event, dict) and event.get("type") == "said" \
                    and isinstance(text := event.get("text"), str):
                return text
        return self.user_text


def check_turn_number(turn: int) -> None:
    """Turns are numbered from 1 (S(0) is the new game); ``GameError`` otherwise."""
    if turn < 1:
        raise GameError(f"turns are numbered from 1, not {turn}")


def check_fork(chat: str, turn: int, last: int, new_chat: str, taken: bool) -> None:
    """What every store checks before a fork: a turn 0..last of ``chat``, a free new chat id."""
    if taken:
        raise GameError(f"chat {new_chat!r} already has a game")
    if not 0 <= turn <= last:
        raise GameError(f"chat {chat!r} is at turn {last}; cannot fork at turn {turn}")


class Store(Protocol):
    """Async storage for games, turns and candidates."""

    async def create_game(self, game: GameRow) -> None:
        """Store a new game; ``GameError`` if the chat id is taken."""

    async def get_game(self, chat: str) -> GameRow:
        """The game of ``chat``; ``GameError`` if there is none."""

    async def start_turn(self, chat: str, turn: int, user_text: str) -> None:
        """Create turn ``turn`` (or keep it, with its candidates, if it exists)."""

    async def get_turn(self, chat: str, turn: int) -> TurnRow | None:
        """Turn ``turn`` of ``chat``, or None."""

    async def last_turn(self, chat: str) -> int:
        """The highest turn number started in ``chat`` (0 when none)."""

    async def turns(self, chat: str, first: int, last: int) -> dict[int, TurnRow]:
        """Each turn of ``chat`` from ``first`` to ``last`` that was started, as ``get_turn`` reads
        it, in one read: the proxy checks a whole history sent back against them on every
        request."""

    async def add_candidate(self, row: CandidateRow, start: Start | None = None) -> CandidateRow:
        """Store a candidate and select it, in one transaction; return it with its index.

        If ``row.key`` is not None and the turn already has a candidate with that key, nothing is
        written and the stored candidate is returned, with ``replayed`` set. With ``start``, the
        turn before must still stand as it says, else ``StaleStart`` and nothing is written.
        ``row.state`` may come written in parts (``codec.Parted``).
        """

    async def find_candidate(self, chat: str, turn: int, key: str) -> CandidateRow | None:
        """The candidate of the turn stored with ``key``, or None."""

    async def get_candidate(self, chat: str, turn: int, index: int) -> CandidateRow:
        """One candidate; ``GameError`` if it does not exist."""

    async def list_candidates(self, chat: str, turn: int) -> list[CandidateRow]:
        """Every candidate of the turn, by index."""

    async def selected_candidate(self, chat: str, turn: int) -> CandidateRow | None:
        """The selected candidate of the turn (read in one step), or None if it has none."""

    async def replies(self, chat: str, first: int, last: int) -> list[ReplyRow]:
        """Every candidate of ``chat``'s turns ``first`` to ``last``, by turn and index, without
        its state, in one read: the proxy looks the replies a history sends back up by their
        text, and reads a chat's back whole when it has let them go."""

    async def select(self, chat: str, turn: int, index: int) -> None:
        """Select candidate ``index`` of the turn; ``GameError`` if it does not exist."""

    async def add_event(self, chat: str, turn: int, event: JSON) -> None:
        """Append a between-turn event (a rest, an edit) to the turn."""

    async def fork(self, chat: str, turn: int, new_chat: str) -> None:
        """Copy the game and its turns up to ``turn`` (inclusive) into ``new_chat``."""

    def batch(self) -> AbstractAsyncContextManager[None]:
        """A block whose writes are stored together when it ends, or not at all if it raises.

        A replay runs in one batch, so a bad line leaves nothing half-stored. Other tasks' calls
        wait until the batch ends; tasks started inside it pass. Batches may nest.
        """

    async def close(self) -> None:
        """Release connections."""
