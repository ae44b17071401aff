"""Who in a group chat plays whom (pure): a platform user is seated at one party member.

A bot has many people in one chat and one party in one game. Each person's message is a turn
played by the member they sit at, and that member is the turn's ``who`` (the player a tag without
``who=`` applies to). Where someone sits, in this order:

1. the seats configured (platform user id, ``@handle`` or display name -> member name);
2. the member they last played in the conversation the table holds;
3. the first member nobody else holds there (the player's character first, then party order);
4. the player's character (a bigger group than the party shares it).

An empty party seats nobody: every turn is the player's, the engine's default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from middleware.names import normalize_name
from middleware.state import GameState


@dataclass(frozen=True, slots=True)
class Speaker:
    """A person in the chat: the platform's user id, their display name and their ``@handle``."""

    id: str
    name: str
    handle: str | None = None

    @property
    def label(self) -> str:
        """How the conversation names them to the model: the display name, or the handle."""
        return self.name or (f"@{self.handle}" if self.handle else self.id)


@dataclass(frozen=True, slots=True)
class Sat:
    """One earlier turn's seating: the speaker's user id and the member they played."""

    by: str
    who: str | None


def seat_of(speaker: Speaker, state: GameState, seats: Mapping[str, str],
            history: Sequence[Sat]) -> str | None:
    """The party member ``speaker`` plays (a member's name as the party spells it), or None."""
    members = _order(state)
    if not members:
        return None
    names = _names(speaker)
    for ask in names:
        if ask in seats and (named := _member(members, seats[ask])):
            return named
    mine = [s.who for s in history if s.by == speaker.id and s.who]
    if mine and (named := _member(members, mine[-1])):
        return named
    held = {normalize_name(s.who) for s in history if s.by != speaker.id and s.who}
    held |= {normalize_name(m) for ask, m in seats.items() if ask not in names}
    free = [m for m in members if normalize_name(m) not in held]
    return free[0] if free else members[0]


def _names(speaker: Speaker) -> tuple[str, ...]:
    """What a seat may be configured by: the user id, the ``@handle``, the display name."""
    handle = (f"@{speaker.handle}",) if speaker.handle else ()
    return (speaker.id, *handle, *((speaker.name,) if speaker.name else ()))


def _order(state: GameState) -> list[str]:
    """The member names, the player's character first."""
    names = [m.name for m in state.party]
    first = state.player_index
    return names if first is None else [names[first], *names[:first], *names[first + 1:]]


def _member(members: Sequence[str], name: str) -> str | None:
    key = normalize_name(name)
    return next((m for m in members if normalize_name(m) == key), None)
