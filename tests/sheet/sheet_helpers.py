"""Helpers for the sheet tests: a ruleset read with the sheet's own models, and party members.

The files are read by the ruleset's models alone (``Ruleset.model_validate``), not
``load_ruleset``, so a test can hand the sheet a file the import checks would refuse.
"""

from __future__ import annotations

from typing import Any

from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from tests.rulesets import raw_json as raw

__all__ = ["raw"]


def ruleset(name: str, data: Any = None) -> Ruleset:
    """The ruleset ``name`` (or ``data``) read by the ruleset's models, without the import
    checks, so a test may hand the sheet a file the import would refuse."""
    return Ruleset.model_validate(data if data is not None else raw(name))


BRAM: dict[str, Any] = {
    "name": "Bram the Quiet", "player": True,
    "sheet": {"v": 1, "build": {
        "abilities": {"sinew": 3, "nerve": 3, "warmth": 2},
        "skills": {"dig": "rating_2", "listen": "rating_1", "ward": "rating_3",
                   "soothe": "rating_1"},
        "saves": {"steel": "rating_2"},
        "bonuses": {"ward": 1},
        "fields": {"post": "Hollow Lane barrows", "watch": "dawn", "lantern": 3},
        "lists": {
            "charms": [{"name": "Steady Hand",
                        "notes": "Throw the dice that fell wrong again, and steady your hand for "
                                 "one success you did not roll.",
                        "_catalog": "charms/steady-hand"}],
            "arms": [{"name": "Lantern hook", "rating": "sinew", "trade": "wrestle",
                      "dice": "1d10", "harm": "tearing"}],
            "scars": [{"name": "Wight's rake across the ribs", "levels": 1, "penalty": -1}]}}},
    "live": {"pools": {"resolve": {"value": 4}}, "wounds": {"harm": {"marks": ["tear", "knock"]}},
             "conditions": ["marked"], "states": {"light": "shuttered"}},
    "bag": [{"item": "kit/dawn-bell", "count": 1, "equipped": True, "bound": True, "charges": 2},
            {"item": "kit/grave-spade", "count": 1, "equipped": True},
            {"item": "kit/warming-tonic", "count": 2},
            {"coins": "shilling", "count": 4}, {"coins": "penny", "count": 9}],
}

JUNO: dict[str, Any] = {
    "name": "Juno", "player": False,
    "sheet": {"v": 1, "build": {
        "abilities": {"brawn": 1, "wits": 2, "heart": 1},
        "skills": {"sneak": "expert", "tinker": "trained", "sway": "trained"},
        "saves": {}, "bonuses": {"sway": 1},
        "fields": {"calling": "Scout", "toughness": 3},
        "lists": {
            "gear": [{"name": "Rope", "notes": "Forty feet, tarred", "bulk": 1},
                     {"name": "Tent", "bulk": 2, "packed": True},
                     {"name": "Spare boots", "bulk": 1, "packed": False}],
            "knacks": [{"name": "Road Sense",
                        "notes": "Sneak to notice where a road turns bad before you are standing "
                                 "on it.", "_catalog": "knacks/road-sense"},
                       {"name": "Second Breath",
                        "notes": "Once a scene, take a second Action on your turn.",
                        "_catalog": "knacks/second-breath"}],
            "tricks": [{"name": "Second Breath", "uses": 1, "recharge": "scene",
                        "_catalog": "knacks/second-breath"}]}}},
    "live": {"pools": {"grit": {"value": 5}, "luck": {"value": 2},
                       "tricks:second breath": {"value": 0}},
             "tracks": {"heat": 2}, "wounds": {"strain": {"marks": ["strain"]}},
             "conditions": ["shaken"], "states": {"stance": "reckless"}},
    "bag": [{"item": "outfitter/leather-coat", "count": 1, "equipped": True},
            {"item": "outfitter/hand-axe", "count": 1, "equipped": True},
            {"item": "outfitter/waystone", "count": 1},
            {"item": "outfitter/road-rations", "count": 2},
            {"coins": "mark", "count": 12}, {"coins": "bit", "count": 7},
            {"coins": "pinch", "count": 5}],
}


def state_of(ruleset_id: str, *members: dict[str, Any]) -> GameState:
    """A game state whose party is ``members`` (read with the state models, not validated)."""
    return GameState(ruleset=ruleset_id,
                     party=tuple(Character.model_validate(m) for m in members))
