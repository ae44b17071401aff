"""Whose sheet a check reads (SHEET-CHK-01/02)."""

from __future__ import annotations

from dataclasses import dataclass

from middleware.names import normalize_name
from middleware.state import Character, GameState


@dataclass(frozen=True, slots=True)
class Roller:
    """Who rolls: a party member (``index``), the empty party's blank player, or a stranger.

    ``written`` keeps ``who=`` as the GM wrote it; ``ambiguous`` marks a stranger made by two
    entries sharing the name.
    """

    index: int | None
    written: str | None
    character: Character | None
    stranger: bool = False
    ambiguous: bool = False


def find_roller(state: GameState, who: str | None) -> Roller:
    """SHEET-CHK-01/02: no ``who`` is the player; a name matches by normalized name; nobody is a
    stranger; two matches are a stranger unless the player is one of them."""
    wanted = normalize_name(who) if who is not None else ""
    if not wanted:
        return _member(state, state.player_index, who)
    hits = [i for i, member in enumerate(state.party) if member.key == wanted]
    if len(hits) == 1:
        return _member(state, hits[0], who)
    player = state.player_index
    if len(hits) > 1 and player in hits:
        return _member(state, player, who)
    return Roller(index=None, written=who, character=None, stranger=True, ambiguous=len(hits) > 1)


def _member(state: GameState, index: int | None, who: str | None) -> Roller:
    # positional, in field order (index, written, character): by keyword it costs a third more
    if index is None:
        return Roller(None, who, None)
    return Roller(index, who, state.party[index])
