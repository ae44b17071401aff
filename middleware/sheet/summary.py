"""The pools part of the ``--json`` state summary (SHEET-TRN-06, SPEC §7)."""

from __future__ import annotations

from middleware.sheet.check import view_for
from middleware.sheet.rules_view import RulesetLike
from middleware.state import Character, GameState


def pools_summary(ruleset: RulesetLike, character: Character,
                  state: GameState | None = None) -> dict[str, int]:
    """Every pool the character has, by key, with the value as read (SHEET-LIVE-04), row pools
    included (``"tricks:second breath"``); ``state`` lets a maximum read invented items."""
    pools = view_for(ruleset, character, state=state).live.pools()
    return {key: value for key, (value, _) in pools.items()}


def live_summary(ruleset: RulesetLike, character: Character,
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
