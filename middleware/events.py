"""Between-turn events (SPEC §4): what a player does outside the model's reply.

``edit`` sets live state as the sheet editor would: each section given replaces that section of the
character's sparse live state (SHEET-STORE-01). ``rest`` applies a ruleset rest (SHEET-REST); rests
arrive with item charges in a later issue and are refused clearly until then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from middleware.errors import GameError
from middleware.state import GameState, Live, normalize_name

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


def apply_event(ruleset: Ruleset, state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after ``event``; ``GameError`` for an event that cannot apply."""
    kind = event.get("type")
    if kind == "edit":
        return _edit(state, str(event.get("who", "")), event.get("live") or {})
    if kind == "rest":
        raise GameError("rest events are not supported yet (they come with item recharges)")
    raise GameError(f"unknown event type {kind!r}")


def _edit(state: GameState, who: str, live: Mapping[str, Any]) -> GameState:
    index = _member(state, who)
    member = state.party[index]
    merged = member.live.model_dump(mode="json", exclude_defaults=True) | dict(live)
    try:
        new_live = Live.model_validate(merged)
    except ValidationError as exc:
        raise GameError(f"edit for {who!r}: {exc.errors()[0]['msg']}") from exc
    return state.with_character(index, member.model_copy(update={"live": new_live}))


def _member(state: GameState, who: str) -> int:
    key = normalize_name(who)
    matches = [i for i, member in enumerate(state.party) if member.key == key]
    if len(matches) != 1:
        raise GameError(f"edit names {who!r}, which is not exactly one party member")
    return matches[0]
