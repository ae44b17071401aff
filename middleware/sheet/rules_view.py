"""What the sheet reads off a ruleset, gathered once into one frozen value.

The keys every check kind shares come off ``ResolutionBase``; the dice-pool's own ones (its
movable target, ability-plus-ability pools) only when the ruleset rolls dice-pool. Used by every
evaluator (SHEET-TIER, SHEET-ABL-04, SHEET-PEN, SHEET-ADJ, SHEET-COND).
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.cache import per_ruleset
from middleware.rules.combat import CombatBlock
from middleware.rules.common import AbilityModifier, AdjustEntry, ProficiencyTier, StepTableModifier
from middleware.rules.kinds.dice_pool import DicePool
from middleware.rules.refs import ValueRef
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet import SheetBlock


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
def sheet_rules(ruleset: Ruleset) -> SheetRules:
    """The ``SheetRules`` of ``ruleset``, built once per ruleset object."""
    return _build(ruleset)


def _build(ruleset: Ruleset) -> SheetRules:
    res = ruleset.resolution
    return SheetRules(
        sheet=ruleset.sheet,
        kind=res.kind,
        modifier_op=res.ability_modifier.op,
        modifier_table=_table(res.ability_modifier),
        tiers=tuple(_tier(t) for t in res.proficiency_tiers),
        proficiency=res.proficiency.bonus if res.proficiency is not None else None,
        penalty_from=res.penalty_from,
        adjust=tuple(_adjust(a) for a in res.adjust),
        ability_plus_ability=isinstance(res, DicePool) and res.pool.ability_plus_ability,
        target_movable=isinstance(res, DicePool) and res.target.min < res.target.max,
        combat=ruleset.combat,
    )


def _table(modifier: AbilityModifier) -> tuple[tuple[float, float], ...]:
    if not isinstance(modifier, StepTableModifier):
        return ()
    return tuple((float(a), float(b)) for a, b in modifier.table)


def _tier(tier: ProficiencyTier) -> Tier:
    return Tier(id=tier.id, label=tier.label, multiplier=float(tier.multiplier), round=tier.round,
                flat=float(tier.flat))


def _adjust(entry: AdjustEntry) -> Adjust:
    return Adjust(value=entry.value,
                  abilities=frozenset(entry.abilities) if entry.abilities else None)
