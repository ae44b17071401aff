"""The ``--json`` state summary of SPEC §7 (and SHEET-TRN-06).

``{"place": {...} | null, "party": {NAME: {"bag": {LABEL: COUNT}, "coins": {FAMILY: VALUE}, "pools":
{POOL: VALUE}, "tracks": {TRACK: VALUE}, "wounds": {TRACK: {"marks", "overflow", "penalty"}},
"conditions": [ID], "states": {STATE: VALUE}}}}``: NAME as the transcript spells it; LABEL as the
bag shows the stack (a coin stack by its coin's label, a ruleset item by its catalog label, an
invented item or a plain item by its name), counts summed over stacks of the same label; coins per
family in the family's smallest coin (ITM-BLOCK-15). Every name is read through the ruleset's
``ItemIndex`` as the game sees it, with its invented items (``items_in``, ITM-PROPOSE-13).
"""

from __future__ import annotations

from collections.abc import Iterable

from middleware.character.check import view_for
from middleware.items.index import ItemIndex
from middleware.items.lookup import items_in
from middleware.items.money import purse
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack


def state_summary(ruleset: Ruleset, state: GameState) -> dict[str, object]:
    """The summary of ``state`` after a candidate."""
    place = state.place.model_dump(mode="json") if state.place else None
    index = items_in(ruleset, state)
    return {"place": place,
            "party": {m.name: _member(ruleset, index, state, m) for m in state.party}}


def _member(ruleset: Ruleset, index: ItemIndex, state: GameState,
            member: Character) -> dict[str, object]:
    return {"bag": bag_counts(index, member.bag),
            "coins": purse(index, member.bag),
            "pools": pools_summary(ruleset, member, state),
            **live_summary(ruleset, member, state)}


def bag_counts(index: ItemIndex, bag: Iterable[Stack],
               invented: dict[str, str] | None = None) -> dict[str, int]:
    """LABEL -> COUNT, summed over stacks that show the same label, in the bag's order."""
    counts: dict[str, int] = {}
    for stack in bag:
        label = label_of(index, stack, invented)
        counts[label] = counts.get(label, 0) + stack.count
    return counts


def label_of(index: ItemIndex, stack: Stack, invented: dict[str, str] | None = None) -> str:
    """How the bag shows a stack: a coin by its coin's label, a ruleset item by its catalog
    label, an invented item by its name, a plain item by its name; an unknown ref as stored."""
    if stack.coins is not None:
        coin = index.coin(stack.coins)
        return coin.unit.label if coin else stack.coins
    if stack.plain is not None:
        return stack.plain
    ref = stack.item or ""
    found = index.by_ref(ref)
    if found is not None:
        return found.label
    return (invented or {}).get(ref, ref)


def stack_label(ruleset: Ruleset, stack: Stack, state: GameState | None = None) -> str:
    """``label_of`` for one stack of ``ruleset`` (invented items named from ``state``)."""
    return label_of(items_in(ruleset, state), stack)


def pools_summary(ruleset: Ruleset, character: Character,
                  state: GameState | None = None) -> dict[str, int]:
    """Every pool the character has, by key, with the value as read (SHEET-LIVE-04), row pools
    included (``"tricks:second breath"``); ``state`` lets a maximum read invented items."""
    pools = view_for(ruleset, character, state=state).live.pools()
    return {key: value for key, (value, _) in pools.items()}


def live_summary(ruleset: Ruleset, character: Character,
                 state: GameState | None = None) -> dict[str, object]:
    """The rest of the live state as read (SHEET-LIVE, SHEET-WND): ``tracks`` every track's value
    (a wound track's: its marks), ``wounds`` each wound track's marks, overflow and penalty in
    force, ``conditions`` the active condition ids, ``states`` every shown state's value."""
    live = view_for(ruleset, character, state=state).live
    tracks: dict[str, int] = {}
    wounds: dict[str, dict[str, object]] = {}
    for track in ruleset.sheet.live.tracks:
        wound = live.wound(track.id)
        if wound is None:
            tracks[track.id] = live.plain_value(track)
            continue
        tracks[track.id] = wound.filled
        wounds[track.id] = {"marks": list(wound.marks), "overflow": wound.overflow,
                            "penalty": wound.penalty}
    states = {s.id: value for s in ruleset.sheet.live.states
              if (value := live.state_value(s.id)) is not None}
    return {"tracks": tracks, "wounds": wounds,
            "conditions": list(live.active_conditions()), "states": states}
