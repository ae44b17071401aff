"""What a table hands back to a bot after a turn, a regenerate, a swipe or a retry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from middleware.bots.post import Button, dice_card
from middleware.errors import GameError
from middleware.records import Record
from middleware.resolve.checks.record import CheckRecord

Display = Callable[[str, Sequence[Record]], str]
"""Renders a resolved reply for people (the signature of ``middleware.display.for_people``)."""


def as_resolved(text: str, records: Sequence[Record]) -> str:
    """The table's own display: the resolved text as the engine wrote it."""
    return text


class NotNow(GameError):
    """A table call the game cannot take now; the message is written for the people in the chat
    ("Only the latest turn can be regenerated.")."""


@dataclass(frozen=True, slots=True)
class Played:
    """A candidate as the chat sees it.

    ``text`` is for people (``Display``), ``resolved`` what the model reads back; ``who`` the party
    member whose turn it is; ``has_next`` whether a newer candidate of the turn exists (a swipe
    back); ``replayed`` that a retry key matched and nothing was asked or thrown again.
    """

    chat: str
    game: str
    generation: int
    turn: int
    candidate: int
    text: str
    resolved: str
    records: tuple[Record, ...]
    who: str | None = None
    has_next: bool = False
    replayed: bool = False

    def buttons(self) -> list[Button]:
        """Regenerate, previous / next candidate where there is one, and the dice card."""
        at = (self.generation, self.turn, self.candidate)
        shown = [Button("regenerate", *at)]
        if self.candidate > 0:
            shown.append(Button("previous", *at))
        if self.has_next:
            shown.append(Button("next", *at))
        if any(isinstance(r, CheckRecord) for r in self.records):
            shown.append(Button("dice", *at))
        return shown

    @property
    def card(self) -> str:
        """The dice card of this candidate's checks."""
        return dice_card(self.records)


@dataclass(frozen=True, slots=True)
class Pressed:
    """What a button asks the bot to do: ``post`` a new candidate, ``edit`` the message the button
    is on to show another one, or answer with the dice ``card``."""

    kind: Literal["post", "edit", "card"]
    played: Played
