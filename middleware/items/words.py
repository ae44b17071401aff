"""The ruleset's own words for what an item description names (ITM-ENTRY-17..22).

Ids become labels here, once per ruleset: categories, rarities, tags and stats from the items block;
skills, saves, abilities, conditions and pools from the sheet; budgets and the distance unit from the
combat block. An id nothing declares is shown as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from middleware.cache import per_ruleset
from middleware.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Words:
    """Labels by id, per kind of thing; ``say`` falls back to the id itself."""

    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    distance: str | None = None

    def say(self, kind: str, some_id: str) -> str:
        """The label of ``some_id`` among ``kind`` (e.g. ``"skills"``), or the id."""
        return self.labels.get(kind, {}).get(some_id, some_id)


@per_ruleset
def words_of(ruleset: Ruleset) -> Words:
    """The ``Words`` of ``ruleset``, built once per ruleset object."""
    return _build(ruleset)


def _build(ruleset: Ruleset) -> Words:
    ix = ruleset.sheet.by_id
    labels: dict[str, dict[str, str]] = {
        "skills": {k: v.label for k, v in ix.skills.items()},
        "saves": {k: v.label for k, v in ix.saves.items()},
        "abilities": {k: v.label for k, v in ix.abilities.items()},
        "conditions": {k: v.label for k, v in ix.conditions.items()},
        "pools": {k: v.label for k, v in ix.pools.items()},
        "budgets": _budgets(ruleset.combat.economy if ruleset.combat is not None else None),
    }
    block = ruleset.items
    if block is not None:
        for kind in ("categories", "rarities", "tags", "stats"):
            labels[kind] = {n.id: n.label for n in getattr(block, kind)}
    distance = ruleset.combat.distance if ruleset.combat is not None else None
    unit = distance.get("label") if isinstance(distance, dict) else None
    return Words(labels, unit if isinstance(unit, str) else None)


def _budgets(economy: JsonValue) -> dict[str, str]:
    budgets = economy.get("budgets") if isinstance(economy, dict) else None
    listed = budgets if isinstance(budgets, list) else []
    return {str(b["id"]): str(b.get("label", b["id"])) for b in listed
            if isinstance(b, dict) and "id" in b}
