"""Rulesets bundled with the package, by id (``middleware/rulesets/<id>.json``, package data).

A transcript's ``ruleset`` may name one of these instead of a path (SPEC §4).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from middleware.errors import Problem, RulesetError
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset

BUNDLED = Path(__file__).resolve().parent.parent / "rulesets"


def bundled_ids() -> list[str]:
    """The ids of the bundled rulesets, sorted."""
    return sorted(p.stem for p in BUNDLED.glob("*.json"))


@cache
def load_bundled(ruleset_id: str) -> Ruleset:
    """The bundled ruleset ``ruleset_id``, loaded and checked once; ``RulesetError`` if unknown."""
    if ruleset_id not in bundled_ids():
        known = ", ".join(bundled_ids()) or "none"
        raise RulesetError([Problem("$", f"no bundled ruleset {ruleset_id!r} (bundled: {known})")],
                           source=ruleset_id)
    return load_ruleset(BUNDLED / f"{ruleset_id}.json")
