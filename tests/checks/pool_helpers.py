"""Helpers for the dice-pool tests: the bundled Cinder Watch and the peer's Gravewatch (as shipped
or changed), a firefighter and wardens, one tag resolved with exactly the faces given."""

from __future__ import annotations

import copy
from typing import Any

from middleware.dice import Dice
from middleware.resolve import Context, Resolution
from middleware.resolve.checks import resolve_check
from middleware.resolve.checks.record import CheckRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.segments import Tag
from middleware.state import Character, GameState
from tests.conftest import compat_json
from tests.rulesets import bundled_json
from tests.sheet.sheet_helpers import BRAM

WARDEN: dict[str, Any] = {
    "name": "Wren", "player": True,
    "sheet": {"v": 1, "build": {"abilities": {"sinew": 2, "nerve": 3, "warmth": 2},
                                "skills": {"ward": "rating_2", "listen": "rating_1"},
                                "fields": {"watch": "dawn"}}},
    "live": {"pools": {"resolve": {"value": 4}}},
}
"""A warden with no wounds, items or shuttered lantern: Ward is exactly 3 + 2 = 5 dice."""


FIREFIGHTER: dict[str, Any] = {
    "name": "Sal", "player": True,
    "sheet": {"v": 1, "build": {"abilities": {"grip": 3, "eye": 2, "voice": 3},
                                "skills": {"douse": "seasoned", "search": "drilled"}}},
    "live": {"pools": {"ember": {"value": 4}}},
}
"""A Cinder Watch firefighter with no scorch: Douse is exactly Grip 3 + seasoned 2 = 5 dice."""


def cinder(**resolution: Any) -> Ruleset:
    """The bundled Cinder Watch (d10 pool, target 7 in 5..9, explode 10 with min 9, cancel and
    botch on 1, exceptional at 5, bonus dice -2..2, pool 1..12), with ``resolution`` keys
    replaced (None removes one) in a parsed copy."""
    return _replaced(bundled_json("cinder-watch"), resolution)


def gravewatch(**resolution: Any) -> Ruleset:
    """Gravewatch, with ``resolution`` keys replaced (None removes one) in a parsed copy."""
    return _replaced(compat_json("gravewatch.json"), resolution)


def _replaced(data: Any, resolution: dict[str, Any]) -> Ruleset:
    for key, value in resolution.items():
        if value is None:
            data["resolution"].pop(key, None)
        else:
            data["resolution"][key] = value
    return load_ruleset(data)


def gravewatch_data() -> Any:
    """A fresh parsed copy of gravewatch.json, to change catalogs or lists in."""
    return compat_json("gravewatch.json")


def member(base: dict[str, Any], **changes: Any) -> Character:
    """A party member from ``base`` (a deep copy), with top-level keys replaced."""
    data = copy.deepcopy(base)
    data.update(changes)
    return Character.model_validate(data)


def bram(resolve: int = 4, **changes: Any) -> Character:
    """Bram the Quiet (SHEET-TRN-07) with ``resolve`` points left."""
    data = copy.deepcopy(BRAM)
    data["live"]["pools"]["resolve"]["value"] = resolve
    data.update(changes)
    return Character.model_validate(data)


def resolve(ruleset: Ruleset, party: tuple[Character, ...], faces: list[int],
            **attrs: str) -> tuple[CheckRecord, GameState]:
    """Resolve one ``skill_check`` with exactly ``faces`` (none may be left over)."""
    state = GameState(ruleset=ruleset.id, party=party)
    dice = Dice(1, script=faces)
    tag = Tag("skill_check", attrs, (), "[skill_check: ...]", 0, 18)
    resolution: Resolution = resolve_check(tag, state, Context(ruleset=ruleset, dice=dice))
    assert isinstance(resolution.record, CheckRecord)
    assert 0 == dice.script_left
    return resolution.record, resolution.state


def attrs_of(record: CheckRecord, *names: str) -> dict[str, str]:
    """The rewritten tag's attributes named (those present)."""
    return {k: v for k, v in record.tag_attrs() if k in names}
