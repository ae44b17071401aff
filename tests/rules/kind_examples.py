"""The reference ``resolution`` blocks of checks.md for the kinds no peer file uses."""

from __future__ import annotations

import copy
from typing import Any

from tests.rulesets import bundled_json

BLADES: dict[str, Any] = {
    "kind": "dice-highest",
    "die": {"sides": 6},
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "rating_0", "label": "0"},
                         {"id": "rating_1", "label": "1", "flat": 1}],
    "pool": {"min": 0, "max": 6},
    "zeroDice": "lowest-of-two",
    "critical": {"count": 2},
    "situationalDice": {"min": -1, "max": 2},
    "difficultyLadder": [{"label": "Partial", "dc": 4}, {"label": "Full", "dc": 6}],
    "outcomes": {"by": "total", "tiers": [
        {"id": "critical", "label": "Critical", "on": "critical-success", "success": True},
        {"id": "full", "label": "Full success", "atLeast": 6, "success": True},
        {"id": "partial", "label": "Partial success", "atLeast": 4, "success": True,
         "text": "You do it, with a consequence."},
        {"id": "bad", "label": "Bad outcome"}]},
}

CTHULHU: dict[str, Any] = {
    "kind": "roll-against",
    "dice": {"count": 1, "sides": 100},
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "base", "label": "Base"}],
    "against": "at-most",
    "criticalSuccess": [{"from": 1, "to": 1}],
    "criticalFailure": [{"from": 100, "to": 100}, {"from": 96, "whenTarget": {"below": 50}}],
    "tens": {"max": 2},
    "difficultyLadder": [{"label": "Regular", "dc": 0}, {"label": "Hard", "dc": 0, "divide": 2},
                         {"label": "Extreme", "dc": 0, "divide": 5}],
    "outcomes": {"by": "fraction", "tiers": [
        {"id": "critical", "label": "Critical", "on": "critical-success", "success": True},
        {"id": "extreme", "label": "Extreme success", "atLeast": 5, "success": True},
        {"id": "hard", "label": "Hard success", "atLeast": 2, "success": True},
        {"id": "regular", "label": "Regular success", "atLeast": 1, "success": True},
        {"id": "fail", "label": "Failure"},
        {"id": "fumble", "label": "Fumble", "on": "critical-failure"}]},
}

GENESYS: dict[str, Any] = {
    "kind": "symbol-pool",
    "abilityModifier": {"op": "identity"},
    "proficiencyTiers": [{"id": "untrained", "label": "Untrained", "flat": 0},
                         {"id": "rank_one", "label": "Rank 1", "flat": 1}],
    "symbols": [
        {"id": "s", "label": "Success"}, {"id": "f", "label": "Failure", "cancels": "s"},
        {"id": "a", "label": "Advantage"}, {"id": "h", "label": "Threat", "cancels": "a"},
        {"id": "t", "label": "Triumph", "counts": "s"},
        {"id": "d", "label": "Despair", "counts": "f"}],
    "dice": [
        {"id": "ability", "label": "Ability",
         "faces": [[], ["s"], ["s"], ["s", "s"], ["a"], ["a"], ["s", "a"], ["a", "a"]]},
        {"id": "proficiency", "label": "Proficiency",
         "faces": [[], ["s"], ["s"], ["s", "s"], ["s", "s"], ["a"], ["s", "a"], ["s", "a"],
                   ["s", "a"], ["a", "a"], ["a", "a"], ["t"]]},
        {"id": "difficulty", "label": "Difficulty",
         "faces": [[], ["f"], ["f", "f"], ["h"], ["h"], ["h"], ["h", "h"], ["f", "h"]]},
        {"id": "challenge", "label": "Challenge",
         "faces": [[], ["f"], ["f"], ["f", "f"], ["f", "f"], ["h"], ["h"], ["f", "h"],
                   ["f", "h"], ["h", "h"], ["h", "h"], ["d"]]},
        {"id": "boost", "label": "Boost", "faces": [[], [], ["s"], ["s", "a"], ["a", "a"], ["a"]]},
        {"id": "setback", "label": "Setback", "faces": [[], [], ["f"], ["f"], ["h"], ["h"]]}],
    "success": {"symbol": "s", "needed": 1},
    "pool": {"die": "ability", "upgrade": "proficiency", "max": 6},
    "difficulty": {"die": "difficulty", "upgrade": "challenge", "max": 5},
    "boost": {"die": "boost", "max": 3},
    "setback": {"die": "setback", "max": 3},
    "criticalSuccess": "t",
    "criticalFailure": "d",
    "difficultyLadder": [{"label": "Easy", "dc": 1}, {"label": "Average", "dc": 2},
                         {"label": "Hard", "dc": 3}],
}


def ruleset_with(resolution: dict[str, Any]) -> dict[str, Any]:
    """The bundled Lantern and Ledger with another resolution and no combat (a fresh copy, safe to
    change): three abilities from -1 to 3, six skills, a pool, a wound track and a state."""
    raw = bundled_json("lantern-and-ledger")
    raw["resolution"] = copy.deepcopy(resolution)
    del raw["combat"]
    return raw
