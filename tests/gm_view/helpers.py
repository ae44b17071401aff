"""Games for the GM's view tests: the bundled ``brass-fair`` and the peer's Gravewatch, with a
party whose numbers, live state and bags the blocks must show."""

from __future__ import annotations

from typing import Any

from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import Character, GameState
from tests.conftest import compat_path


def brass() -> Ruleset:
    return load_bundled("brass-fair")


def gravewatch() -> Ruleset:
    return load_ruleset(compat_path("gravewatch.json"))


BRASS_PARTY: list[dict[str, Any]] = [
    {"name": "Ada", "player": True,
     "sheet": {"v": 1, "build": {"abilities": {"wits": 3}, "skills": {"haggle": "trained"}}},
     "bag": [{"coins": "ring", "count": 30}, {"item": "wares/hand-axe", "count": 1}]},
    {"name": "Bram", "bag": [{"item": "wares/lantern", "count": 1}]},
]

WARDEN: list[dict[str, Any]] = [
    {"name": "Ada", "player": True,
     "sheet": {"v": 1, "build": {"abilities": {"sinew": 3}, "skills": {"dig": "rating_2"}}},
     "live": {"wounds": {"harm": {"marks": ["tear", "knock"]}}, "conditions": ["rattled"],
              "pools": {"resolve": {"value": 1}}},
     "bag": [{"item": "kit/silver-nail", "count": 1}, {"item": "kit/dawn-bell", "charges": 2},
             {"coins": "shilling", "count": 12}]},
]


def party(ruleset: Ruleset, entries: list[dict[str, Any]]) -> tuple[Character, ...]:
    return read_party(ruleset, entries)


def start(ruleset: Ruleset, entries: list[dict[str, Any]]) -> GameState:
    """S(0) of a game of ``ruleset`` with the party ``entries``."""
    return GameState(ruleset=ruleset.id, party=party(ruleset, entries))
