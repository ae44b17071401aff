"""Between-turn events (SPEC §4): what a player does outside the model's reply.

``edit`` sets live state as the sheet editor would: each section given replaces that section of the
character's sparse live state (SHEET-STORE-01). ``rest`` takes a ruleset rest (SHEET-REST-01..08):
its restore steps and clears, then the charges of every item the character carries whose
``recharge`` names it (ITM-USE-12/13, ITM-BAG-18); sheet and bag change together in one new state.
Two more are written by the bot faces, which hold the conversation themselves: ``said`` keeps the
player's message of a turn as the chat shows it (who said it, the platform message, an edit's new
text) and changes no state; ``speaker`` makes the party member who speaks next the player, the
``who=`` a tag without one applies to, from the next turn on.

Events are replayed whenever a turn's state is read again, so they must be pure: a rest's dice (a
recharge written as dice) come from a seed derived from the event and the character it applies to,
or from the event's own ``seed`` when an API caller gives one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from middleware.character.gear import gear_event
from middleware.character.rest import Rested, find_rest, take_rest
from middleware.dice import Dice, derive_seed
from middleware.errors import GameError
from middleware.items.lookup import find_item
from middleware.names import normalize_name
from middleware.state import GameState, Live

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


def apply_event(ruleset: Ruleset, state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after ``event``; ``GameError`` for an event that cannot apply."""
    kind = event.get("type")
    if kind == "edit":
        return _edit(state, str(event.get("who", "")), event.get("live") or {})
    if kind == "gear":
        return gear_event(ruleset, state, event)
    if kind == "rest":
        seed = event.get("seed")
        return rest_event(ruleset, state, str(event.get("who", "")), str(event.get("rest", "")),
                          seed if isinstance(seed, int) else None)[0]
    if kind == "said":
        return state
    if kind == "speaker":
        return speaking(state, str(event.get("who", "")))
    raise GameError(f"unknown event type {kind!r}")


def speaking(state: GameState, who: str) -> GameState:
    """The state with ``who`` (a party member) as the player and nobody else marked player."""
    index = _member(state, who)
    party = tuple(m if m.player == (i == index) else m.model_copy(update={"player": i == index})
                  for i, m in enumerate(state.party))
    return state.model_copy(update={"party": party})


def rest_event(ruleset: Ruleset, state: GameState, who: str, rest_name: str,
               seed: int | None = None) -> tuple[GameState, Rested]:
    """SHEET-REST / ITM-USE-13: the state after ``who`` takes the rest ``rest_name`` (id or label),
    and what came back (``Rested.line``: "Stand down from the vigil: ..., Dawn bell 3/3 charges.").
    ``GameError`` for a rest the ruleset does not declare or a name that is not one member."""
    rest = find_rest(ruleset, rest_name)
    if rest is None:
        known = ", ".join(r.id for r in ruleset.rests) or "none"
        raise GameError(f"the ruleset has no rest {rest_name!r} (rests: {known})")
    index = _member(state, who)
    member = state.party[index]
    if seed is None:
        seed = derive_seed("rest", rest.id, member.model_dump_json())
    rested = take_rest(ruleset, member, rest, Dice(seed),
                       lambda name: find_item(ruleset, state, name))
    return state.with_character(index, rested.character), rested


def _edit(state: GameState, who: str, live: Mapping[str, object]) -> GameState:
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
        raise GameError(f"{who!r} is not exactly one party member")
    return matches[0]
