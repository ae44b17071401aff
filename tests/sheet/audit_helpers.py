"""Helpers for the sheet audit tests: the compat rulesets as shipped or changed, party members,
their evaluated sheets and the check a sheet gives (sheet.md)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

from middleware.character.check import CheckSheet, assemble_check, view_for
from middleware.rules.load import load_ruleset
from middleware.rules.refs import ValueRef
from middleware.rules.ruleset import Ruleset
from middleware.sheet.evaluate import SheetView
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState
from tests.conftest import compat_json

Raw = dict[str, Any]
FILES = {"gravewatch": "gravewatch.json", "ember": "ember-roads.json",
         "5e": "ruleset-5e-2014.example.json"}


@cache
def rules(name: str) -> Ruleset:
    """A compat ruleset as shipped (loaded once)."""
    return load_ruleset(compat_json(FILES[name]))


def changed(name: str, change: Callable[[Raw], object]) -> Ruleset:
    """A compat ruleset with ``change`` applied to a fresh parsed copy (it must still load)."""
    data = compat_json(FILES[name])
    change(data)
    return load_ruleset(data)


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
