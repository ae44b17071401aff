"""The conversation a bot holds, read back from the store (SPEC §3): one ``Line`` per turn.

A bot has no client that sends the history back, so the table rebuilds it from what the engine
stored: each turn's player message (its ``said`` events: who said it, on which platform message,
and the newest text after an edit) and the turn's selected candidate, the resolved text the model
reads back. Candidates never change once stored, so each is read once per table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from middleware.records import Record
from middleware.resolve.dispatch import record_from_json
from middleware.stores.base import CandidateRow, Store, TurnRow


@dataclass(frozen=True, slots=True)
class Line:
    """One turn as the chat holds it: the player's message and the kept reply (None: none yet)."""

    turn: int
    text: str
    by: str = ""
    name: str = ""
    who: str | None = None
    message: str | None = None
    reply: str | None = None
    candidate: int | None = None
    records: tuple[Record, ...] = ()


def said_event(text: str, *, by: str, name: str, who: str | None,
               message: str | None) -> dict[str, str | None]:
    """The ``said`` event that keeps a player's message of a turn (it changes no state)."""
    return {"type": "said", "text": text, "by": by, "name": name, "who": who, "message": message}


class Conversation:
    """Reads a game's turns as ``Line``s, keeping the candidates it has read (they never change)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._replies: dict[tuple[str, int, int], tuple[str, tuple[Record, ...]]] = {}

    async def lines(self, game: str, last: int, window: int) -> list[Line]:
        """Turns ``last - window + 1`` .. ``last`` of ``game`` (those that exist), in order: read
        in one call, as every turn of the window is read on every message."""
        rows = await self.store.turns(game, max(1, last - window + 1), last)
        return [await self._line(game, rows[turn]) for turn in sorted(rows)]

    async def line(self, game: str, turn: int) -> Line | None:
        """Turn ``turn`` of ``game``, or None when it was never started."""
        row = await self.store.get_turn(game, turn)
        return None if row is None else await self._line(game, row)

    async def _line(self, game: str, row: TurnRow) -> Line:
        said = _said(row)
        reply: str | None = None
        records: tuple[Record, ...] = ()
        if row.selected is not None:
            reply, records = await self._reply(game, row.turn, row.selected)
        return Line(turn=row.turn, text=row.said,
                    by=str(said.get("by") or ""), name=str(said.get("name") or ""),
                    who=_text_or_none(said.get("who")), message=_text_or_none(said.get("message")),
                    reply=reply, candidate=row.selected, records=records)

    async def _reply(self, game: str, turn: int, index: int) -> tuple[str, tuple[Record, ...]]:
        key = (game, turn, index)
        if key not in self._replies:
            if len(self._replies) > 20_000:
                self._replies.clear()
            row: CandidateRow = await self.store.get_candidate(game, turn, index)
            self._replies[key] = (row.text, tuple(record_from_json(r) for r in row.records))
        return self._replies[key]


def _said(row: TurnRow) -> Mapping[str, object]:
    """The turn's newest ``said`` event merged over the older ones (an edit keeps who said it)."""
    merged: dict[str, object] = {}
    for event in row.events:
        if isinstance(event, dict) and event.get("type") == "said":
            merged.update({k: v for k, v in event.items() if v is not None})
    return merged


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)
