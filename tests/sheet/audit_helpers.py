"""Helpers for the sheet audit tests: party members, their evaluated sheets and the check a sheet
gives (sheet.md). The rulesets, as shipped or changed, come from ``tests/rulesets.py``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from middleware.character.check import CheckSheet, assemble_check, view_for
from middleware.rules.refs import ValueRef
from middleware.rules.ruleset import Ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState
from tests.rulesets import Raw, changed
from tests.rulesets import ruleset as rules

__all__ = ["Raw", "changed", "rules"]


def member(base: Raw | None = None, **changes: Any) -> Character:
    """A party member: ``base`` (deep-copied, default a sheetless Ada) with keys replaced."""
    data = copy.deepcopy(base) if base is not None else {"name": "Ada", "player": True}
    data.update(changes)
    return Character.model_validate(data)


def built(build: Raw, live: Raw | None = None, name: str = "Ada") -> Character:
    """A member with the sheet ``{v: 1, build}`` and ``live``."""
    return member({"name": name, "player": True, "sheet": {"v": 1, "build": build},
                   "live": live or {}})


def view(ruleset: Ruleset, character: Character) -> SheetView:
    return view_for(ruleset, character)


def check_for(ruleset: Ruleset, character: Character, skill: str,
              with_: str | None = None, who: str | None = None) -> CheckSheet:
    state = GameState(ruleset=ruleset.id, party=(character,))
    return assemble_check(ruleset, state, find_roller(state, who), skill, with_)


def add_derived(entry: Raw) -> Callable[[Raw], object]:
    return lambda d: d["sheet"]["derived"].append(entry)


def ref(sheet: SheetView, raw: Raw) -> float:
    return sheet.ref(ValueRef.model_validate(raw))
