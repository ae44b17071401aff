"""What the sheet reads off a ruleset, gathered once into one frozen value.

The resolution and items models belong to other modules; this reads them by their file keys
(``model_dump(by_alias=True)``, or the raw dict) so the sheet does not depend on their attribute
names. Used by every evaluator (SHEET-TIER, SHEET-ABL-04, SHEET-PEN, SHEET-ADJ, SHEET-COND).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from middleware.cache import per_ruleset
from middleware.rules.combat import CombatBlock
from middleware.rules.refs import ValueRef
from middleware.rules.sheet import SheetBlock


class RulesetLike(Protocol):
    """The parts of ``middleware.rules.ruleset.Ruleset`` the sheet reads."""

    @property
    def sheet(self) -> SheetBlock: ...
    @property
    def resolution(self) -> Any: ...
    @property
    def combat(self) -> Any: ...
    @property
    def items(self) -> Any: ...
    @property
    def catalogs(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class Tier:
    """SHEET-TIER-01: a training level."""

    id: str
    label: str
    multiplier: float = 0
    round: str = "down"
    flat: float = 0


@dataclass(frozen=True, slots=True)
class Adjust:
    """SHEET-ADJ-01: a value added to checks rolled with ``abilities`` (all when None)."""

    value: ValueRef
    abilities: frozenset[str] | None


@dataclass(frozen=True, slots=True)
class SheetRules:
    """The sheet block plus the resolution facts the sheet needs."""

    sheet: SheetBlock
    kind: str
    modifier_op: str
    modifier_table: tuple[tuple[float, float], ...]
    tiers: tuple[Tier, ...]
    proficiency: ValueRef | None
    penalty_from: str | None
    adjust: tuple[Adjust, ...]
    ability_plus_ability: bool
    target_movable: bool
    combat: CombatBlock | None


@per_ruleset
def sheet_rules(ruleset: RulesetLike) -> SheetRules:
    """The ``SheetRules`` of ``ruleset``, built once per ruleset object."""
    return _build(ruleset)


def as_json(value: Any) -> Any:
    """A model or plain JSON as plain JSON with the file's key names."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_none=True)
    return value


def _build(ruleset: RulesetLike) -> SheetRules:
    res = as_json(ruleset.resolution) or {}
    modifier = res.get("abilityModifier") or {}
    pool = res.get("pool") or {}
    target = res.get("target") or {}
    bonus = (res.get("proficiency") or {}).get("bonus")
    return SheetRules(
        sheet=ruleset.sheet,
        kind=str(res.get("kind", "dice-sum")),
        modifier_op=str(modifier.get("op", "identity")),
        modifier_table=tuple((float(a), float(b)) for a, b in modifier.get("table") or ()),
        tiers=tuple(_tier(t) for t in res.get("proficiencyTiers") or ()),
        proficiency=ValueRef.model_validate(bonus) if bonus is not None else None,
        penalty_from=res.get("penaltyFrom"),
        adjust=tuple(_adjust(a) for a in res.get("adjust") or ()),
        ability_plus_ability=bool(pool.get("abilityPlusAbility", False)),
        target_movable=_movable(target),
        combat=_combat(ruleset.combat),
    )


def _tier(raw: dict[str, Any]) -> Tier:
    return Tier(id=raw["id"], label=raw.get("label", raw["id"]),
                multiplier=float(raw.get("multiplier", 0)), round=raw.get("round", "down"),
                flat=float(raw.get("flat", 0)))


def _adjust(raw: dict[str, Any]) -> Adjust:
    abilities = raw.get("abilities")
    return Adjust(value=ValueRef.model_validate(raw["value"]),
                  abilities=frozenset(abilities) if abilities else None)


def _movable(target: Any) -> bool:
    if not isinstance(target, dict):
        return False
    low, high = target.get("min"), target.get("max")
    return isinstance(low, int | float) and isinstance(high, int | float) and low < high


def _combat(combat: Any) -> CombatBlock | None:
    if combat is None or isinstance(combat, CombatBlock):
        return combat
    return CombatBlock.model_validate(as_json(combat))
